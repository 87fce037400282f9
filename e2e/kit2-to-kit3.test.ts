/**
 * An app that got auth on SvelteKit 2 and then moved to SvelteKit 3 the way the SvelteKit team
 * tells users to: `sv migrate sveltekit-3` (dependencies, tsconfig, `$lib` → `#lib`, explicit
 * environment variables, hook types). The vendored runtime needs no change; `create-auth` run
 * again finds every file already as it would write it for SvelteKit 3, and the app builds,
 * type-checks and signs users in.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFlows } from './credentials-flow.js';
import { build, check, copyFixture, install, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { node22, type NodeToolchain } from './harness/node.js';
import { sameCode } from '../src/reconcile.js';

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

describe('a SvelteKit 2 app with auth, migrated to SvelteKit 3 with sv migrate', () => {
	let toolchain: NodeToolchain;
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let runtimeBefore: Record<string, string>;
	let migrate: RunResult;
	let again: RunResult;

	beforeAll(async () => {
		toolchain = await node22();
		appDir = await copyFixture('kit2-ts');
		const first = await runCli(appDir, ['--yes', '--no-install']);
		if (first.exitCode !== 0) throw new Error(`create-auth failed:\n${first.stdout}\n${first.stderr}`);
		runtimeBefore = { ...(await tree(appDir, 'src/lib/server/auth')), ...(await tree(appDir, 'src/lib/auth')) };

		const args = ['--yes', '-p', SV, 'sv', 'migrate', 'sveltekit-3', '--cwd', appDir, '--no-git-check', '--tasks', 'all', '--confirm', '--no-install'];
		migrate = await run('npx', args, { cwd: appDir, env: toolchain.env, timeout: 300_000 });
		if (migrate.exitCode !== 0) throw new Error(`sv migrate failed:\n${migrate.stdout}\n${migrate.stderr}`);

		await install(appDir, { env: toolchain.env });
		again = await runCli(appDir, ['--yes'], { node: toolchain.node, env: toolchain.env });
		if (again.exitCode !== 0) throw new Error(`create-auth (again) failed:\n${again.stdout}\n${again.stderr}`);
		await build(appDir, { env: toolchain.env });
		server = await start(appDir, { mode: 'preview', env: toolchain.env });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it('leaves the vendored runtime untouched, and lists none of its files as migration work', async () => {
		const runtimeAfter = { ...(await tree(appDir, 'src/lib/server/auth')), ...(await tree(appDir, 'src/lib/auth')) };
		expect(runtimeAfter).toEqual(runtimeBefore);
		const report = await fs.readFile(path.join(appDir, 'MIGRATION_TASKS.md'), 'utf8').catch(() => '');
		expect(report).not.toMatch(/src\/lib\/(server\/)?auth\//);
	});

	it('finds every file already as it writes it for SvelteKit 3: only the manifest is rewritten', async () => {
		expect(again.stdout).toMatch(/Wrote 1 files:\s+│?\s*~ \.create-auth\/manifest\.json/);
		expect(again.stdout).not.toMatch(/changed since create-auth wrote it|To do by hand/);
		const manifest = JSON.parse(await fs.readFile(path.join(appDir, '.create-auth/manifest.json'), 'utf8'));
		// sv migrate prints the long $app/env/private import over several lines: the same code as
		// create-auth's rendering, which the manifest records as the base.
		expect(sameCode(manifest.files['src/auth.ts'].content, await fs.readFile(path.join(appDir, 'src/auth.ts'), 'utf8'))).toBe(true);
		expect(manifest.files['src/auth.ts'].content).toContain("from '$app/env/private';");
	});

	credentialsFlows(() => ({
		server: server!,
		browser: browser!,
		check: () => check(appDir, { env: toolchain.env }),
		runCliAgain: () => runCli(appDir, ['--yes'], { node: toolchain.node, env: toolchain.env })
	}));
});
