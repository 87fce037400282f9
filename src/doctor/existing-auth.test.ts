import { describe, expect, it } from 'vitest';
import type { ExistingAuth } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import { existingAuthChecks } from './existing-auth.js';

const manifest: Manifest = {
	version: '1.0.0',
	answers: { providers: ['credentials'], strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' },
	files: {
		'src/auth.ts': { strategy: 'merge', content: '' },
		'src/authorization.ts': { strategy: 'merge', content: '' },
		'src/hooks.server.ts': { strategy: 'patch', edits: [] }
	},
	pending: []
};
const betterAuth: ExistingAuth['libraries'][number] = {
	id: 'better-auth',
	name: 'Better Auth',
	packages: ['better-auth'],
	files: [{ path: 'src/lib/server/auth.ts', uses: 'betterAuth()' }]
};
const shadowed = { 'server/auth': 'src/lib/server/auth.ts' };

describe('existingAuthChecks', () => {
	it('reports nothing in an app with no other auth and no shadowing module', () => {
		expect(existingAuthChecks({ manifest, files: {}, existingAuth: { libraries: [], shadowed: {} } })).toEqual([]);
		expect(existingAuthChecks({ manifest, files: {} })).toEqual([]);
	});

	it('warns about a library set up beside create-auth, naming where it is', () => {
		const files = { 'src/auth.ts': "import { SvelteKitAuth } from '$lib/server/auth/index';\n" };
		expect(existingAuthChecks({ manifest, files, existingAuth: { libraries: [betterAuth], shadowed } })).toEqual([
			{
				id: 'existing-auth:better-auth',
				status: 'warn',
				message: 'Better Auth is set up beside create-auth (better-auth in package.json, src/lib/server/auth.ts): both hooks run on every request, and its users cannot sign in on /signin.',
				hint: "Keep one of them: once Better Auth's users have moved, remove its handle from src/hooks.server.ts and its packages."
			},
			{ id: 'lib-imports', status: 'ok', message: 'The generated files import the runtime by its index, past src/lib/server/auth.ts.' }
		]);
	});

	it('is an error when generated files import the bare $lib/server/auth that an app module took after the last run', () => {
		const files = {
			'src/auth.ts': "import { SvelteKitAuth } from '$lib/server/auth';\n",
			'src/authorization.ts': 'import { requireSession } from "$lib/server/auth";\n',
			// The user's own import of their module, in a file create-auth only patches, is theirs.
			'src/hooks.server.ts': "import { auth } from '$lib/server/auth';\n"
		};
		expect(existingAuthChecks({ manifest, files, existingAuth: { libraries: [], shadowed } })).toEqual([
			{
				id: 'lib-imports:server/auth',
				status: 'error',
				message: "$lib/server/auth is your src/lib/server/auth.ts, not create-auth's runtime, yet src/auth.ts, src/authorization.ts import it.",
				hint: 'Run npx create-auth regenerate: the generated files then import $lib/server/auth/index.'
			}
		]);
	});
});
