import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { composeHooks } from '../edits/hooks.js';
import { removeLibraryHandle } from './hooks.js';

/** src/hooks.server.ts as `sv add drizzle better-auth` (sv 0.17.1) wrote it. */
const SV_BETTER_AUTH = await readFile(new URL('../../e2e/fixtures/kit2-better-auth/src/hooks.server.ts', import.meta.url), 'utf8');

describe('removeLibraryHandle', () => {
	it("takes sv's Better Auth handle out with the imports only it used; composeHooks then gives the app create-auth's handle alone", () => {
		const result = removeLibraryHandle(SV_BETTER_AUTH, 'svelteKitHandler');
		expect(result.pending).toBeUndefined();
		expect(result.removed).toEqual(['handleBetterAuth', 'handle']);
		// Even the Handle type went: only the removed code used it.
		expect(result.content).toBe('');
		expect(composeHooks(result.content).content).toContain('export const handle = sequence(authentication, authorization);');
	});

	it("drops the handle from the app's sequence and keeps the app's own handle and imports", () => {
		const source = `import { sequence } from '@sveltejs/kit/hooks';
import { building } from '$app/environment';
import { auth } from '$lib/server/auth';
import { svelteKitHandler } from 'better-auth/svelte-kit';
import { paraglide } from '$lib/paraglide';

function betterAuthHandle({ event, resolve }) {
	return svelteKitHandler({ event, resolve, auth, building });
}

const theme = ({ event, resolve }) => resolve(event);

export const handle = sequence(betterAuthHandle, paraglide, theme);
`;
		const result = removeLibraryHandle(source, 'svelteKitHandler');
		expect(result.removed).toEqual(['betterAuthHandle']);
		expect(result.content).toBe(`import { sequence } from '@sveltejs/kit/hooks';
import { paraglide } from '$lib/paraglide';

const theme = ({ event, resolve }) => resolve(event);

export const handle = sequence(paraglide, theme);
`);
	});

	it("removes create-auth's own alias of it too (an app where create-auth ran beside Better Auth)", () => {
		const source = `import { sequence } from '@sveltejs/kit/hooks';
import { handle as authentication } from './auth';
import { authorization } from './authorization';
import { svelteKitHandler } from 'better-auth/svelte-kit';
import { auth } from '$lib/server/auth';

const handleBetterAuth = ({ event, resolve }) => svelteKitHandler({ event, resolve, auth });

const appHandle = handleBetterAuth;
export const handle = sequence(authentication, authorization, appHandle);
`;
		const result = removeLibraryHandle(source, 'svelteKitHandler');
		expect(result.removed).toEqual(['handleBetterAuth', 'appHandle']);
		expect(result.content).toBe(`import { sequence } from '@sveltejs/kit/hooks';
import { handle as authentication } from './auth';
import { authorization } from './authorization';

export const handle = sequence(authentication, authorization);
`);
	});

	it('removes an exported handle that is itself the library\'s', () => {
		const source = `import { auth } from '$lib/auth';
import { svelteKitHandler } from 'better-auth/svelte-kit';

export async function handle({ event, resolve }) {
	return svelteKitHandler({ event, resolve, auth });
}
`;
		expect(removeLibraryHandle(source, 'svelteKitHandler')).toEqual({ content: '', removed: ['handle'] });
	});

	it('leaves a file without the marker as it is, and refuses a shape it does not know with the manual step', () => {
		const plain = "export const handle = ({ event, resolve }) => resolve(event);\n";
		expect(removeLibraryHandle(plain, 'svelteKitHandler')).toEqual({ content: plain, removed: [] });
		const used = `import { svelteKitHandler } from 'better-auth/svelte-kit';
const ba = ({ event, resolve }) => svelteKitHandler({ event, resolve });
export const handle = ba;
export const handleFetch = ba;
`;
		const result = removeLibraryHandle(used, 'svelteKitHandler');
		expect(result.content).toBe(used);
		expect(result.pending).toContain('Remove the handle that calls svelteKitHandler from src/hooks.server.ts');
		expect(removeLibraryHandle('export const = ;', 'svelteKitHandler').pending).toBeDefined();
	});
});
