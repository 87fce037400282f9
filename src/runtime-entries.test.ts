import { describe, expect, it } from 'vitest';
import { ADAPTER_IDS } from './adapters.js';
import { DEFAULT_ANSWERS, RATE_LIMIT_STORES, resolveAnswers, type Answers } from './answers.js';
import { loadTemplates } from './assets.js';
import { authEnvVars } from './env-vars.js';
import type { KitShape } from './kit.js';
import { runtimeEntries } from './plan.js';
import { PROVIDERS } from './providers/index.js';
import { createRenderer, templateContext } from './render.js';
import { routesFor } from './targets.js';

// The runtime an app is vendored starts from runtimeEntries (the one table of entry modules):
// every lib module a generated file names must be among them, or the app would import a file
// it was not given.

const KIT: KitShape = { major: 2, libImports: false, explicitEnv: false, requestEvent: true, resolve: true };
const TEMPLATES = ['auth.ts.hbs', 'authorization.ts.hbs', 'hooks/hooks.server.ts.hbs', 'routes/+layout.server.ts.hbs', 'app.d.ts.hbs', 'env.ts.hbs'];

const sets: Answers[] = [
	...PROVIDERS.map(({ id }) => ({ ...DEFAULT_ANSWERS, providers: [id] })),
	{ ...DEFAULT_ANSWERS, providers: PROVIDERS.map(({ id }) => id) },
	...ADAPTER_IDS.filter((adapter) => adapter !== 'drizzle').map((adapter) => ({ ...DEFAULT_ANSWERS, adapter })),
	...RATE_LIMIT_STORES.map((rateLimit) => ({ ...DEFAULT_ANSWERS, rateLimit }))
];

describe('runtimeEntries', () => {
	it.each(sets.map((answers) => [`${answers.providers.join(',')} ${answers.adapter} ${answers.rateLimit}`, answers] as const))(
		'%s: names every lib module the generated files import',
		async (_, answers) => {
			const named = new Set<string>();
			const render = createRenderer(await loadTemplates(), (module) => named.add(module));
			const resolved = resolveAnswers(answers);
			const context = templateContext(resolved, KIT, authEnvVars(answers, 'x').map(({ key }) => key), true);
			for (const template of [...TEMPLATES, ...routesFor(resolved.parts).map((route) => `routes/${route}.hbs`)]) render(template, context);
			// The descriptors' own edits of app.d.ts import through the same table.
			for (const edit of resolved.parts.flatMap(({ appTypes }) => appTypes ?? [])) edit.apply('', (module) => (named.add(module), module));
			const entries = runtimeEntries(resolved);
			expect([...named].filter((module) => !entries.includes(module))).toEqual([]);
		}
	);
});
