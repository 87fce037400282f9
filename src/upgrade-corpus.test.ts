import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRE_RESHAPE, releaseBin } from '../e2e/harness/release.js';
import { init } from './commands/init.js';
import { regenerate } from './commands/regenerate.js';
import { MANIFEST_PATH } from './manifest.js';
import { PROVIDERS } from './providers/index.js';
import { RUNTIME_MOVES } from './renames.js';
import { captureStdout } from './test/stdout.js';

// The upgrade corpus of issue 27: apps set up by the release before the reshape (0.1.0, the
// tarball in e2e/fixtures/releases), with and without the user's edits in a page, in src/auth.ts
// and in a runtime module that moved, then `regenerate` with this version. No conflict where
// nothing was edited, every edit kept (a moved module's at its new path), no file of the old
// runtime left behind, and a second regenerate writes nothing. e2e/kit2-to-kit3.test.ts builds,
// type-checks and signs in on such an app.

const run = promisify(execFile);
const fixturePath = (name: string) => fileURLToPath(new URL(`../e2e/fixtures/${name}`, import.meta.url));
const FIXTURES = ['kit2-ts', 'kit3-ts', 'kit2-jsdoc', 'kit3-jsdoc'];
const ALL = PROVIDERS.map(({ id }) => id).join(',');

let bin: string;
beforeAll(() => {
	bin = releaseBin(PRE_RESHAPE);
});

const stdout = captureStdout();

/** A copy of `fixture` set up by the old release with `args`. */
async function oldApp(fixture: string, args: string[]): Promise<string> {
	const app = await mkdtemp(path.join(tmpdir(), 'create-auth-corpus-'));
	await cp(fixturePath(fixture), app, { recursive: true });
	await run(process.execPath, [bin, '--yes', '--no-install', ...args], { cwd: app, env: { ...process.env, CI: '1', NO_COLOR: '1' } });
	return app;
}

/**
 * The same fixture set up by this version with the same flags, fresh: what an unedited page and
 * src/auth must be after the upgrade (a release may change them; regenerate brings them along).
 */
async function newApp(fixture: string, args: string[]): Promise<Record<string, string>> {
	const app = await mkdtemp(path.join(tmpdir(), 'create-auth-corpus-'));
	await cp(fixturePath(fixture), app, { recursive: true });
	const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
	expect(await init({ cwd: app, yes: true, install: false, providers: args[1], strategy: flag('--strategy'), adapter: flag('--adapter') })).toBe(0);
	const out = await files(app);
	await rm(app, { recursive: true });
	return out;
}

/** The generated files a user owns once written (the pages, src/auth, src/authorization): merged on regenerate. */
const isMerged = (file: string) => /^src\/(routes\/|(auth|authorization)\.[jt]s$)/.test(file);

/** Every file of the app, app-relative, with its text. */
async function files(app: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const entry of await readdir(app, { recursive: true, withFileTypes: true })) {
		if (entry.isFile()) out[path.relative(app, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')] = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
	}
	return out;
}

const isRuntime = (file: string) => /^src\/lib\/(server\/)?auth\//.test(file);

/** The upgrade, then the checks every case shares: exit 0, no conflict, nothing orphaned, a stable result. */
async function upgrade(app: string): Promise<{ before: Record<string, string>; after: Record<string, string>; report: string }> {
	const before = await files(app);
	stdout.clear();
	const code = await regenerate({ cwd: app, install: false });
	const report = stdout.text;
	expect(report).not.toMatch(/conflict/i);
	expect(code, report).toBe(0);
	const after = await files(app);
	const manifest = JSON.parse(after[MANIFEST_PATH]!) as { files: Record<string, unknown> };
	// The runtime on disk is exactly the runtime this version records: none of the old one's files remain.
	expect(Object.keys(after).filter(isRuntime).sort()).toEqual(Object.keys(manifest.files).filter(isRuntime).sort());
	stdout.clear();
	expect(await regenerate({ cwd: app, install: false })).toBe(0);
	expect(stdout.text).toContain('Nothing to write: the app is up to date.');
	return { before, after, report };
}

describe('regenerate with this version on apps the release before the reshape set up', { timeout: 60_000 }, () => {
	describe.each(FIXTURES)('%s, unedited', (fixture) => {
		it.each(['credentials', 'credentials,passkey', 'email', 'idp', ALL, 'credentials,passkey --strategy database --adapter sqlite'])(
			"--providers %s: no conflict, the pages and src/auth.ts as this version writes them, the user's other files untouched, nothing left behind",
			async (args) => {
				const flags = ['--providers', ...args.split(' ')];
				const app = await oldApp(fixture, flags);
				const { before, after, report } = await upgrade(app);
				expect(report).not.toContain('kept because you changed it');
				const fresh = await newApp(fixture, flags);
				for (const [file, text] of Object.entries(before)) {
					if (isRuntime(file) || file === MANIFEST_PATH || file === 'package.json') continue;
					expect(after[file], file).toBe(isMerged(file) ? fresh[file] : text);
				}
				await rm(app, { recursive: true });
			}
		);
	});

	describe.each(['kit2-ts', 'kit3-jsdoc'])('%s, edited by the user', (fixture) => {
		it.each(['credentials,passkey', ALL])('--providers %s: the edits in a page, src/auth and a moved runtime module are kept', async (providers) => {
			const app = await oldApp(fixture, ['--providers', providers]);
			const ext = fixture.endsWith('jsdoc') ? 'js' : 'ts';
			const page = 'src/routes/signin/+page.svelte';
			const pageLine = '<p class="help">Trouble signing in? Write to help@example.com.</p>';
			const authFile = `src/auth.${ext}`;
			const authLine = "export const supportAddress = 'help@example.com';";
			// A module moved whole (cookies.ts) and one split in two (session.ts: the adapter helpers left it).
			const moves = ['server/auth/cookies.ts', 'server/auth/session.ts'].map((from) => ({ from: `src/lib/${from}`, to: `src/lib/${RUNTIME_MOVES[from]}`, line: `export const reviewedBy = "our security team, ${from}";` }));
			const edits = [[page, pageLine], [authFile, authLine], ...moves.map(({ from, line }) => [from, line])] as const;
			for (const [file, line] of edits) {
				const text = await readFile(path.join(app, file), 'utf8');
				await writeFile(path.join(app, file), `${text}\n${line}\n`);
			}

			const { after } = await upgrade(app);
			expect(after[page]).toContain(pageLine);
			expect(after[authFile]).toContain(authLine);
			for (const { from, to, line } of moves) {
				expect(after[from], `${from} is left behind`).toBeUndefined();
				expect(after[to]).toContain(line);
			}
			await rm(app, { recursive: true });
		});
	});
});
