/**
 * Proves the e2e harness itself, before any auth: a fixture app is copied, installed, built,
 * previewed and seen by Chromium; the CLI refuses a folder that is not a SvelteKit app;
 * better-sqlite3 is compiled once per version and ABI, then unpacked by later installs; and the
 * helpers that make a file's apps ahead (limit.js, copyApp) do what the e2e files rely on; a
 * server's test clock (clock.js) moves Date in its Node and nothing else.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, cleanEnv, cliBin, copyApp, copyFixture, install, removeApp, repoRoot, run, runCli, start, type Server } from './harness/app.js';
import { closePage, launchBrowser, type Browser } from './harness/browser.js';
import { CLOCK_ENV, testClock } from './harness/clock.js';
import { limit } from './harness/limit.js';
import { prebuildName, prebuildsDir, seedPrebuilds } from './harness/prebuilds.js';

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
		await closePage(page);
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

	it("holds the binary of the repository's own install (seeded before the first install) or of an install that built it, and an install of that version unpacks it instead of compiling", async () => {
		seedPrebuilds(cleanEnv());
		// better-sqlite3 13, which CI's copy under Node 24 swaps in (scripts/ci-node.js), ships its
		// binaries in prebuilds/ and compiles nothing: there is nothing of its own to seed then.
		if (existsSync(path.join(repoRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))) {
			const own = JSON.parse(await fs.readFile(path.join(repoRoot, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
			expect(existsSync(path.join(prebuildsDir, prebuildName('better-sqlite3', own, process.versions.modules)))).toBe(true);
		}
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

describe('harness: making apps ahead', () => {
	it('limit(2) runs at most two tasks at once, starts the others in order as slots free up, and frees the slot of a task that throws', async () => {
		const gate = limit(2);
		let running = 0;
		let most = 0;
		const started: number[] = [];
		const task = (i: number, ms: number, fail = false) =>
			gate(async () => {
				started.push(i);
				most = Math.max(most, ++running);
				await new Promise((resolve) => setTimeout(resolve, ms));
				running--;
				if (fail) throw new Error(`task ${i}`);
				return i;
			});
		const results = await Promise.allSettled([task(0, 30, true), task(1, 60), task(2, 10), task(3, 10), task(4, 10)]);
		expect(most).toBe(2);
		expect(started).toEqual([0, 1, 2, 3, 4]);
		expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual(['task 0', 1, 2, 3, 4]);
		expect(() => limit(0)).toThrow(RangeError);
	});

	it('copyApp copies an app without its install, build output and lock files, into a folder removeApp deletes', async () => {
		const appDir = await copyFixture('kit2-ts');
		const copies: string[] = [];
		try {
			for (const dir of ['node_modules/some-package', '.svelte-kit/output', 'build']) await fs.mkdir(path.join(appDir, dir), { recursive: true });
			await fs.writeFile(path.join(appDir, 'package-lock.json'), '{}');
			await fs.writeFile(path.join(appDir, 'auth.sqlite'), 'data');
			await fs.writeFile(path.join(appDir, '.env'), 'AUTH_SECRET=x\n');
			const copy = await copyApp(appDir);
			copies.push(copy);
			expect(path.basename(copy)).toMatch(/^create-auth-e2e-/);
			for (const gone of ['node_modules', '.svelte-kit', 'build', 'package-lock.json']) expect(existsSync(path.join(copy, gone)), gone).toBe(false);
			expect(await fs.readFile(path.join(copy, 'auth.sqlite'), 'utf8')).toBe('data');
			expect(await fs.readFile(path.join(copy, '.env'), 'utf8')).toBe('AUTH_SECRET=x\n');
			expect(await fs.readFile(path.join(copy, 'src/routes/+page.svelte'), 'utf8')).toBe(await fs.readFile(path.join(appDir, 'src/routes/+page.svelte'), 'utf8'));
			await expect(copyApp(path.join(appDir, 'src'))).rejects.toThrow(/has no package.json/);
		} finally {
			for (const dir of [appDir, ...copies]) await removeApp(dir);
		}
	});
});

describe('harness: the test clock (./harness/clock.js)', () => {
	/** What a Node started with `env` (a clock's) reads, times as milliseconds ahead of the real clock (performance's, which the clock leaves alone). */
	const readings = async (env: Record<string, string>) => {
		const script = `class Later extends Date {}
const real = performance.timeOrigin + performance.now();
console.log(JSON.stringify({
	now: Date.now() - real,
	constructed: new Date().getTime() - real,
	called: Date.parse(Date()) - real,
	subclass: new Later().getTime() - real,
	given: [new Date(0).getTime(), new Date('2020-01-01T00:00:00Z').getTime(), Date.UTC(2020, 0, 1), Date.parse('2020-01-01T00:00:00Z')],
	kinds: [new Date() instanceof Date, new Later() instanceof Date, new Date().constructor === Date, Object.prototype.toString.call(new Date()), Date.name, typeof Date()]
}));`;
		const result = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, env, timeout: 30_000 });
		expect(result.stderr).toBe('');
		return JSON.parse(result.stdout);
	};
	const JAN_2020 = Date.UTC(2020, 0, 1);

	it("moves Date.now(), new Date() and Date() of the server's Node forward, only forward, and leaves dates given a value alone", async () => {
		const clock = await testClock(undefined);
		try {
			const unmoved = await readings(clock.env);
			for (const key of ['now', 'constructed', 'subclass']) expect(Math.abs(unmoved[key])).toBeLessThan(1_000);
			expect(Math.abs(unmoved.called)).toBeLessThan(2_000); // Date() has whole seconds
			expect(unmoved.given).toEqual([0, JAN_2020, JAN_2020, JAN_2020]);
			expect(unmoved.kinds).toEqual([true, true, true, '[object Date]', 'Date', 'string']);

			await clock.advance(90);
			await clock.advance(0.5);
			expect(clock.now() - Date.now()).toBe(90_500);
			const moved = await readings(clock.env);
			for (const key of ['now', 'constructed', 'subclass']) expect(Math.abs(moved[key] - 90_500)).toBeLessThan(1_000);
			expect(Math.abs(moved.called - 90_500)).toBeLessThan(2_000);
			expect(moved.given).toEqual(unmoved.given);
			expect(moved.kinds).toEqual(unmoved.kinds);
			await expect(clock.advance(-1)).rejects.toThrow(RangeError);

			// A file that does not hold a number reads as the real clock.
			await fs.writeFile(clock.env[CLOCK_ENV]!, 'not a number');
			expect(Math.abs((await readings(clock.env)).now)).toBeLessThan(1_000);
		} finally {
			await clock.remove();
		}
		expect(existsSync(path.dirname(clock.env[CLOCK_ENV]!))).toBe(false);
		const withOptions = await testClock('--max-old-space-size=512');
		await withOptions.remove();
		expect(withOptions.env.NODE_OPTIONS).toMatch(/^--max-old-space-size=512 --import=file:\/\/.*\/clock-preload\.js$/);
	});
});

describe('cleanEnv', () => {
	it("leaves out vitest's NODE_ENV=test, so an app is built and served as a user's shell does: a production build, not a development one", () => {
		expect(process.env.NODE_ENV).toBe('test');
		expect(cleanEnv().NODE_ENV).toBeUndefined();
		expect(cleanEnv({ NODE_ENV: 'production' }).NODE_ENV).toBe('production');
	});
});
