/**
 * An app that got auth from the previous release of create-auth (0.1.0, before issue 27's
 * reshape) on SvelteKit 2, whose owner then edited a page, `src/auth.ts` and a runtime module,
 * and moved to SvelteKit 3 the way the SvelteKit team tells users to: `sv migrate sveltekit-3`
 * (dependencies, tsconfig, `$lib` → `#lib`, explicit environment variables, hook types). The
 * vendored runtime needs no change for Kit 3; `create-auth` of this version then merges its own
 * changes into the migrated files (where one overlaps sv migrate's rewrite, the user resolves the
 * markers and runs regenerate again), moves the runtime into its folders carrying the user's edit
 * along, and the app builds, type-checks and signs users in: the upgrade corpus's end-to-end case
 * (src/upgrade-corpus.test.ts has the rest).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFlows } from './credentials-flow.js';
import { build, check, copyFixture, install, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { node22, type NodeToolchain } from './harness/node.js';
import { MANIFEST_PATH, parseManifest } from '../src/manifest.js';
import { hasConflictMarkers, sameCode } from '../src/merge.js';
import { RUNTIME_MOVES } from '../src/renames.js';
import { PRE_RESHAPE, releaseBin } from './harness/release.js';

/** The `sv` release the kit3 fixtures were made with. */
const SV = 'sv@1.0.0-next.7';

/** Every file below `dir`, app-relative, with its text. */
async function tree(appDir: string, dir: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	for (const entry of await fs.readdir(path.join(appDir, dir), { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const file = path.join(entry.parentPath, entry.name);
		files[path.relative(appDir, file)] = await fs.readFile(file, 'utf8');
	}
	return files;
}

/** The user's edits, one line appended to each file: a page, src/auth.ts, a runtime module that moved. */
const [movedFrom, movedTo] = ['server/auth/cookies.ts', RUNTIME_MOVES['server/auth/cookies.ts']!];
const EDITS = {
	'src/routes/signin/+page.svelte': '<p class="help">Trouble signing in? Write to help@example.com.</p>',
	'src/auth.ts': "export const supportAddress = 'help@example.com';",
	[`src/lib/${movedFrom}`]: 'export const reviewedBy = "our security team";'
};

describe('a SvelteKit 2 app with auth from the previous release, edited, migrated to SvelteKit 3 with sv migrate, then upgraded', () => {
	let toolchain: NodeToolchain;
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let runtimeBefore: Record<string, string>;
	let runtimeMigrated: Record<string, string>;
	let migrate: RunResult;
	let again: RunResult;
	/** regenerate, run after the user resolved the conflict markers of the first run, if it left any. */
	let resolved: RunResult | undefined;

	beforeAll(async () => {
		toolchain = await node22();
		appDir = await copyFixture('kit2-ts');
		const first = await runCli(appDir, ['--yes', '--no-install'], { bin: releaseBin(PRE_RESHAPE) });
		if (first.exitCode !== 0) throw new Error(`create-auth ${PRE_RESHAPE} failed:\n${first.stdout}\n${first.stderr}`);
		for (const [file, line] of Object.entries(EDITS)) await fs.appendFile(path.join(appDir, file), `\n${line}\n`);
		runtimeBefore = { ...(await tree(appDir, 'src/lib/server/auth')), ...(await tree(appDir, 'src/lib/auth')) };

		const args = ['--yes', '-p', SV, 'sv', 'migrate', 'sveltekit-3', '--cwd', appDir, '--no-git-check', '--tasks', 'all', '--confirm', '--no-install'];
		migrate = await run('npx', args, { cwd: appDir, env: toolchain.env, timeout: 300_000 });
		if (migrate.exitCode !== 0) throw new Error(`sv migrate failed:\n${migrate.stdout}\n${migrate.stderr}`);
		runtimeMigrated = { ...(await tree(appDir, 'src/lib/server/auth')), ...(await tree(appDir, 'src/lib/auth')) };

		await install(appDir, { env: toolchain.env });
		again = await runCli(appDir, ['--yes'], { node: toolchain.node, env: toolchain.env });
		// This release changed the sign-in page's provider buttons (issue 28: brand colours through
		// CSSOM, for kit.csp) where sv migrate reformatted them: the user resolves that one region as
		// most would, taking create-auth's side, and runs regenerate again as the CLI says.
		const signInPage = path.join(appDir, 'src/routes/signin/+page.svelte');
		const conflicted = await fs.readFile(signInPage, 'utf8');
		if (hasConflictMarkers(conflicted)) {
			await fs.writeFile(signInPage, conflicted.replace(/^<<<<<<< .*\n[\s\S]*?^=======\n([\s\S]*?)^>>>>>>> .*\n/gm, '$1'));
			resolved = await runCli(appDir, ['regenerate'], { node: toolchain.node, env: toolchain.env });
		}
		const last = resolved ?? again;
		if (last.exitCode !== 0) throw new Error(`create-auth (again) failed:\n${last.stdout}\n${last.stderr}`);
		await build(appDir, { env: toolchain.env });
		server = await start(appDir, { mode: 'preview', env: toolchain.env });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it('sv migrate leaves the vendored runtime untouched, and lists none of its files as migration work', async () => {
		expect(runtimeMigrated).toEqual(runtimeBefore);
		const report = await fs.readFile(path.join(appDir, 'MIGRATION_TASKS.md'), 'utf8').catch(() => '');
		expect(report).not.toMatch(/src\/lib\/(server\/)?auth\//);
	});

	it('carries this release\'s changes into the migrated files; the one region that overlaps sv migrate\'s rewrite is marked, and regenerate finishes once it is resolved', async () => {
		const overlapping = again.stdout.match(/overlap in these files[^\n]*\n((?:│\s+\S+\n)+)/)?.[1]?.match(/\S+(?=\n)/g) ?? [];
		expect(overlapping).toEqual(['src/routes/signin/+page.svelte']);
		expect(resolved?.exitCode).toBe(0);
		expect(resolved?.stdout).not.toMatch(/overlap|changed since create-auth wrote it|To do by hand/i);
		const manifest = parseManifest(await fs.readFile(path.join(appDir, MANIFEST_PATH), 'utf8'))!;
		expect(manifest.version).not.toBe(PRE_RESHAPE);
		const recordedAuth = manifest.files['src/auth.ts'];
		if (recordedAuth?.strategy !== 'merge') throw new Error('src/auth.ts is not recorded as a merge file');
		// sv migrate prints the long $app/env/private import over several lines: the same code as
		// create-auth's rendering, which the manifest records as the base; the user's line follows.
		const auth = await fs.readFile(path.join(appDir, 'src/auth.ts'), 'utf8');
		expect(sameCode(recordedAuth.content, auth.replace(`\n${EDITS['src/auth.ts']}\n`, ''))).toBe(true);
		expect(recordedAuth.content).toContain("from '$app/env/private';");
		for (const page of ['src/routes/signin/+page.svelte', 'src/routes/account/+page.server.ts']) {
			expect(hasConflictMarkers(await fs.readFile(path.join(appDir, page), 'utf8'))).toBe(false);
		}
	});

	it('keeps the user\'s edits: the page\'s and src/auth.ts\'s where they were, the runtime module\'s at its new path', async () => {
		const read = (file: string) => fs.readFile(path.join(appDir, file), 'utf8').catch(() => undefined);
		expect(await read('src/routes/signin/+page.svelte')).toContain(EDITS['src/routes/signin/+page.svelte']);
		expect(await read('src/auth.ts')).toContain(EDITS['src/auth.ts']);
		expect(await read(`src/lib/${movedFrom}`)).toBeUndefined();
		expect(await read(`src/lib/${movedTo}`)).toContain(EDITS[`src/lib/${movedFrom}`]);
	});

	credentialsFlows(() => ({
		server: server!,
		browser: browser!,
		check: () => check(appDir, { env: toolchain.env }),
		runCliAgain: () => runCli(appDir, ['--yes'], { node: toolchain.node, env: toolchain.env })
	}));
});
