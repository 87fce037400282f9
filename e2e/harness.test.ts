/**
 * Proves the e2e harness itself, before any auth: a fixture app is copied, installed, built,
 * previewed and seen by Chromium; the CLI refuses a folder that is not a SvelteKit app; and
 * better-sqlite3 is compiled once per version and ABI, then unpacked by later installs.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, cliBin, copyFixture, install, removeApp, repoRoot, runCli, start, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { prebuildName, prebuildsDir } from './harness/prebuilds.js';

describe('harness: kit2-ts fixture without auth', () => {
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;

	beforeAll(async () => {
		appDir = await copyFixture('kit2-ts');
		await install(appDir);
		await build(appDir);
		server = await start(appDir, { mode: 'preview' });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it('copies the fixture into a temp folder, without node_modules from the repo', async () => {
		expect(path.isAbsolute(appDir)).toBe(true);
		expect(path.basename(appDir)).toMatch(/^create-auth-e2e-/);
		expect(path.dirname(appDir)).toBe(path.resolve(os.tmpdir()));
		for (const file of ['.gitignore', '.npmrc', '.vscode/extensions.json', 'vite.config.ts']) {
			expect(existsSync(path.join(appDir, file)), file).toBe(true);
		}
	});

	it('serves the built app and Chromium sees the welcome heading', async () => {
		const page = await browser!.newPage();
		const response = await page.goto(`${server!.url}/`);
		expect(response?.status()).toBe(200);
		await expect
			.poll(() => page.getByRole('heading', { name: 'Welcome to SvelteKit' }).isVisible(), { timeout: 10_000 })
			.toBe(true);
		await page.close();
	});

	it('works without JavaScript too (server-rendered)', async () => {
		const context = await browser!.newContext({ javaScriptEnabled: false });
		const page = await context.newPage();
		await page.goto(`${server!.url}/`);
		expect(await page.getByRole('heading', { name: 'Welcome to SvelteKit' }).isVisible()).toBe(true);
		await context.close();
	});

	it('stop() ends the server', async () => {
		const { url } = server!;
		await server!.stop();
		server = undefined;
		await expect(fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
	});
});

describe('CLI outside a SvelteKit app', () => {
	let dir: string;

	beforeAll(async () => {
		dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-e2e-'));
		await fs.writeFile(path.join(dir, 'package.json'), '{"name":"x"}\n');
	});

	afterAll(async () => {
		if (dir) await removeApp(dir);
	});

	// Needs the CLI: bin/create-auth.js imports dist/cli.js (`npm run build`).
	it('exits non-zero with a message mentioning SvelteKit, and writes nothing', async () => {
		const result = await runCli(dir, ['--yes']);
		const output = result.stdout + result.stderr;
		expect(output, `CLI output (bin: ${cliBin})`).toMatch(/sveltekit/i);
		expect(output).not.toMatch(/ERR_MODULE_NOT_FOUND|^\s+at /m);
		expect(result.exitCode).not.toBe(0);
		expect(await fs.readdir(dir)).toEqual(['package.json']);
		expect(await fs.readFile(path.join(dir, 'package.json'), 'utf8')).toBe('{"name":"x"}\n');
	});
});

describe('prebuilt native addons (./harness/prebuilds.js)', () => {
	const dirs: string[] = [];
	/** A package that depends on better-sqlite3 alone, at the range the CLI adds. */
	const probe = async () => {
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-e2e-'));
		dirs.push(dir);
		const range = JSON.parse(await fs.readFile(path.join(repoRoot, 'package.json'), 'utf8')).devDependencies['better-sqlite3'];
		await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true, dependencies: { 'better-sqlite3': range } }));
		await install(dir);
		return path.join(dir, 'node_modules/better-sqlite3');
	};

	afterAll(async () => {
		for (const dir of dirs) await removeApp(dir);
	});

	it('keeps the binary an install built, and the next install of that version unpacks it instead of compiling', async () => {
		const first = await probe();
		const { version } = JSON.parse(await fs.readFile(path.join(first, 'package.json'), 'utf8'));
		const kept = path.join(prebuildsDir, prebuildName('better-sqlite3', version, process.versions.modules));
		expect(existsSync(kept)).toBe(true);

		const second = await probe();
		// node-gyp leaves a Makefile and object files behind; an unpacked prebuild is the binary alone.
		expect(existsSync(path.join(second, 'build/Makefile'))).toBe(false);
		expect(await fs.readdir(path.join(second, 'build/Release'))).toEqual(['better_sqlite3.node']);
		const { default: Database } = await import(path.join(second, 'lib/index.js'));
		const db = new Database(':memory:');
		expect(db.prepare('SELECT 40 + 2 AS answer').get()).toEqual({ answer: 42 });
		db.close();
	});
});
