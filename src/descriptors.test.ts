import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './adapters.js';
import { loadTemplates } from './assets.js';
import { FEATURES } from './features/index.js';
import { PROVIDERS } from './providers/index.js';

// Issue 27: a provider or feature is its descriptor (src/providers/<id>.ts, src/features/<id>.ts),
// its runtime module(s) and its partials; these tests hold the descriptors and the partials
// under templates/<providers|features>/<id>/ to each other, so a section is never listed without
// its partial nor a partial left unused.

const DESCRIPTORS = [...PROVIDERS.map((provider) => ({ kind: 'providers', descriptor: provider })), ...FEATURES.map((feature) => ({ kind: 'features', descriptor: feature }))];

describe('descriptors', () => {
	it('have unique ids across providers and features', () => {
		const ids = DESCRIPTORS.map(({ descriptor }) => descriptor.id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it.each(DESCRIPTORS.map(({ kind, descriptor }) => [`${kind}/${descriptor.id}`, kind, descriptor] as const))(
		'%s: every section it lists has its partial, and every partial in its folder is listed',
		async (_, kind, descriptor) => {
			const templates = await loadTemplates();
			const folder = `${kind}/${descriptor.id}/`;
			const partials = Object.keys(templates)
				.filter((name) => name.startsWith(folder))
				.map((name) => name.slice(folder.length).replace(/\.hbs$/, ''))
				.sort();
			expect(partials).toEqual([...(descriptor.sections ?? [])].sort());
			for (const route of descriptor.routes) expect(templates[`routes/${route}.hbs`], route).toBeDefined();
		}
	);

	it('declare only adapter needs some adapter supports', () => {
		for (const { descriptor } of DESCRIPTORS) {
			for (const need of descriptor.needs ?? []) expect(ADAPTERS.some((adapter) => adapter.supports.includes(need.capability))).toBe(true);
		}
	});

	it('give every provider its declaration partial', async () => {
		const templates = await loadTemplates();
		for (const provider of PROVIDERS) expect(templates[`providers/${provider.id}.ts.hbs`], provider.id).toBeDefined();
	});
});
