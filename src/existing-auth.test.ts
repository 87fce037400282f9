import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { authjsConfigAtOurPath, detectExistingAuth, existingAuthNotice, findAuthLibraries, shadowingModule } from './existing-auth.js';

const fixturePath = (name: string) => fileURLToPath(new URL(`../e2e/fixtures/${name}`, import.meta.url));

/** Auth.js's guide: `src/auth.ts` and a hooks file re-exporting its handle. */
const AUTHJS_AUTH = `import { SvelteKitAuth } from '@auth/sveltekit';
import GitHub from '@auth/sveltekit/providers/github';

export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [GitHub] });
`;

/** The session functions of the Lucia add-on's `src/lib/server/auth.ts`, abridged. */
const LUCIA_AUTH = `import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase64url, encodeHexLowerCase } from '@oslojs/encoding';

export const sessionCookieName = 'auth-session';

export async function createSession(token: string, userId: string) {}

export async function validateSessionToken(token: string) {}

export async function invalidateSession(sessionId: string) {}
`;
const LUCIA_HOOKS = `import * as auth from '$lib/server/auth';

const handleAuth = async ({ event, resolve }) => {
	const sessionToken = event.cookies.get(auth.sessionCookieName);
	const { session, user } = await auth.validateSessionToken(sessionToken);
	return resolve(event);
};

export const handle = handleAuth;
`;

describe('shadowingModule', () => {
	it('finds the module a bare specifier resolves to before the folder of the same name', () => {
		expect(shadowingModule('auth', ['auth.ts', 'index.ts'])).toBe('auth.ts');
		expect(shadowingModule('auth', ['auth.js'])).toBe('auth.js');
		expect(shadowingModule('auth', ['auth.d.ts'])).toBe('auth.d.ts');
		expect(shadowingModule('auth', ['auth.json'])).toBe('auth.json');
	});

	it('ignores files that only begin with the name, and an app without one', () => {
		expect(shadowingModule('auth', ['auth.schema.ts', 'auth-client.ts', 'authz.ts', 'auth.svelte'])).toBeUndefined();
		expect(shadowingModule('auth', [])).toBeUndefined();
	});
});

describe('findAuthLibraries', () => {
	it("finds Better Auth by its package, betterAuth() and the hooks' svelteKitHandler", () => {
		const found = findAuthLibraries(
			{ 'better-auth': '1.7.7', '@sveltejs/kit': '^2.63.0' },
			{
				'src/hooks.server.ts': "import { svelteKitHandler } from 'better-auth/svelte-kit';\n",
				'src/lib/server/auth.ts': "import { betterAuth } from 'better-auth/minimal';\nexport const auth = betterAuth({});\n"
			}
		);
		expect(found).toEqual([
			{
				id: 'better-auth',
				name: 'Better Auth',
				packages: ['better-auth'],
				files: [
					{ path: 'src/hooks.server.ts', uses: 'svelteKitHandler' },
					{ path: 'src/lib/server/auth.ts', uses: 'betterAuth()' }
				]
			}
		]);
	});

	it('finds Auth.js by @auth/sveltekit, not by our own SvelteKitAuth from $lib', () => {
		expect(findAuthLibraries({ '@auth/sveltekit': '^1.0.0' }, { 'src/auth.ts': AUTHJS_AUTH })).toEqual([
			{ id: 'authjs', name: 'Auth.js (@auth/sveltekit)', packages: ['@auth/sveltekit'], files: [{ path: 'src/auth.ts', uses: '@auth/sveltekit' }] }
		]);
		const ours = "import { SvelteKitAuth } from '$lib/server/auth';\nexport const { handle } = SvelteKitAuth({ providers: [] });\n";
		expect(findAuthLibraries({}, { 'src/auth.ts': ours })).toEqual([]);
	});

	it("finds the Lucia add-on's session functions with their @oslojs packages, and the lucia package alone", () => {
		const found = findAuthLibraries(
			{ '@oslojs/crypto': '^1.0.1', '@oslojs/encoding': '^1.1.0' },
			{ 'src/hooks.server.ts': LUCIA_HOOKS, 'src/lib/server/auth.ts': LUCIA_AUTH }
		);
		expect(found).toEqual([
			{
				id: 'lucia',
				name: 'Lucia',
				packages: ['@oslojs/crypto', '@oslojs/encoding'],
				files: [
					{ path: 'src/hooks.server.ts', uses: 'validateSessionToken and sessionCookieName' },
					{ path: 'src/lib/server/auth.ts', uses: 'validateSessionToken and sessionCookieName' }
				]
			}
		]);
		expect(findAuthLibraries({ lucia: '^3.2.0' }, {})).toEqual([{ id: 'lucia', name: 'Lucia', packages: ['lucia'], files: [] }]);
	});

	it('counts @oslojs packages alone as nobody’s, and finds nothing in an app without auth', () => {
		expect(findAuthLibraries({ '@oslojs/encoding': '^1.1.0' }, { 'src/hooks.server.ts': 'export const handle = ({ event, resolve }) => resolve(event);\n' })).toEqual([]);
		expect(findAuthLibraries({}, { 'src/hooks.server.ts': undefined })).toEqual([]);
	});
});

describe('detectExistingAuth', () => {
	let dir: string | undefined;
	afterEach(async () => {
		if (dir) await rm(dir, { recursive: true, force: true });
		dir = undefined;
	});

	it('reads the sv better-auth app: Better Auth in three places, src/lib/server/auth.ts shadowing server/auth', async () => {
		const root = fixturePath('kit2-better-auth');
		const found = await detectExistingAuth(root, 'src/lib', await readFile(path.join(root, 'package.json'), 'utf8'));
		expect(found.shadowed).toEqual({ 'server/auth': 'src/lib/server/auth.ts' });
		expect(found.libraries.map(({ id, packages, files }) => ({ id, packages, files: files.map((file) => file.path) }))).toEqual([
			{ id: 'better-auth', packages: ['better-auth'], files: ['src/hooks.server.ts', 'src/lib/server/auth.ts'] }
		]);
	});

	it('finds nothing in a fresh sv app', async () => {
		expect(await detectExistingAuth(fixturePath('kit2-ts'), 'src/lib', '{}')).toEqual({ libraries: [], shadowed: {} });
	});

	it('finds the client module shadowing auth under a #lib folder, but not a folder named auth.ts, and survives a package.json that is not JSON', async () => {
		dir = await mkdtemp(path.join(tmpdir(), 'create-auth-existing-'));
		await mkdir(path.join(dir, 'app/lib/auth.ts'), { recursive: true });
		await mkdir(path.join(dir, 'app/lib/server'), { recursive: true });
		await writeFile(path.join(dir, 'app/lib/auth.js'), 'export const client = {};\n');
		expect(await detectExistingAuth(dir, 'app/lib', '{ not json')).toEqual({ libraries: [], shadowed: { auth: 'app/lib/auth.js' } });
	});
});

describe('existingAuthNotice', () => {
	it('says where the library is, that both hooks run, and that its users cannot sign in on our pages', () => {
		const [betterAuth] = findAuthLibraries({ 'better-auth': '1.7.7' }, { 'src/lib/server/auth.ts': 'export const auth = betterAuth({});' });
		expect(existingAuthNotice(betterAuth!).split('\n')).toEqual([
			'Better Auth is already set up in this app:',
			'  better-auth in package.json',
			'  betterAuth() in src/lib/server/auth.ts',
			'create-auth adds its own sign-in beside it and leaves these as they are.',
			"Both hooks run on every request, and Better Auth's users cannot sign in",
			"on /signin (create-auth's accounts are its own) until the app is switched",
			'over to one of them.',
			'To switch it to create-auth instead, users, passwords and sessions with it:',
			'  npx create-auth switch'
		]);
	});

	it("names the switch for Lucia's session functions too", async () => {
		const [lucia] = findAuthLibraries({ '@oslojs/crypto': '^1.0.1' }, { 'src/lib/server/auth.ts': 'export const sessionCookieName = "auth-session";\nexport function validateSessionToken() {}' });
		expect(existingAuthNotice(lucia!).split('\n').slice(-2)).toEqual(['To switch it to create-auth instead, users, passwords and sessions with it:', '  npx create-auth switch']);
	});
});

describe('authjsConfigAtOurPath', () => {
	it("names src/auth.ts or src/auth.js when it is Auth.js's configuration, and nothing else", () => {
		const at = (files: Record<string, string>) => authjsConfigAtOurPath({ libraries: findAuthLibraries({ '@auth/sveltekit': '^1.0.0' }, files), shadowed: {} });
		expect(at({ 'src/auth.ts': AUTHJS_AUTH })).toBe('src/auth.ts');
		expect(at({ 'src/auth.js': AUTHJS_AUTH })).toBe('src/auth.js');
		expect(at({ 'src/lib/server/authjs.ts': AUTHJS_AUTH })).toBeUndefined();
		expect(at({})).toBeUndefined();
	});
});
