import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { loadRuntime, loadTemplates, loadToolPackage } from './assets.js';
import { planInit } from './plan.js';
import { detectProject } from './project.js';
import { findProvider, PROVIDERS } from './providers/index.js';
import { plannedPaths, routesFor } from './targets.js';

const fixturePath = (name: string) => fileURLToPath(new URL(`../e2e/fixtures/${name}`, import.meta.url));

describe('routesFor', () => {
	it("names every app's pages, then each provider's, a page two providers share once", () => {
		const routes = routesFor(['credentials', 'passkey'].map((id) => findProvider(id)!));
		expect(routes.slice(0, 6)).toEqual(routesFor([]));
		expect(routes.filter((route) => route === 'signup/+page.svelte')).toHaveLength(1);
		expect(routes).toContain('signin/forgot-password/+page.server.ts');
	});
});

describe('plannedPaths', () => {
	it('names each module under both extensions, and pages and app.d.ts as they are', () => {
		const paths = plannedPaths();
		expect(paths).toEqual(expect.arrayContaining(['src/routes/signin/email/+page.server.ts', 'src/routes/signin/email/+page.server.js', 'src/hooks.server.js']));
		expect(paths).toContain('src/routes/signin/verify-request/+page.svelte');
		expect(paths).toContain('src/app.d.ts');
		expect(paths).not.toContain('src/app.d.js');
	});

	it.each(['kit2-ts', 'kit3-ts', 'kit2-jsdoc', 'kit3-jsdoc'])('holds every file a first run writes in %s with every provider, so the loader reads them', async (fixture) => {
		const [templates, runtime, tool, project] = await Promise.all([loadTemplates(), loadRuntime(), loadToolPackage(), detectProject(fixturePath(fixture))]);
		const answers = { ...DEFAULT_ANSWERS, providers: PROVIDERS.map(({ id }) => id) };
		const plan = await planInit({ project, answers, tool, templates, runtime, authSecret: 'test-secret-0123456789-0123456789-abcdef' });
		const runtimeDir = `${project.libDir}/`;
		const written = plan.operations.map(({ path }) => path).filter((path) => path !== 'package.json' && !path.startsWith(runtimeDir));
		expect(written.length).toBeGreaterThan(10);
		expect(written.filter((path) => !plannedPaths().includes(path))).toEqual([]);
	});
});
