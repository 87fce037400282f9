/**
 * An app with code of its own (e2e/fixtures/kit2-existing: Prettier, Drizzle on better-sqlite3
 * as `sv add drizzle` sets it up, its own `handle` and root layout load, a page that shows that
 * load's data) and pnpm: the CLI is run as `pnpm dlx create-auth` would run it (pnpm's
 * `npm_config_user_agent`; the app has no lock file yet), so create-auth itself installs the app
 * with pnpm. `--yes --strategy database` chooses the Drizzle adapter, as Enter at the prompt
 * would. Then: the auth tables are pushed with the app's drizzle-kit into its `local.db`; the
 * user's hook and load are composed, not replaced; the app type-checks, builds with `pnpm run
 * build` and keeps Prettier's style in the files create-auth wrote whole; Chromium signs up, in
 * and out, with a session row in the app's database while signed in; a regenerate writes nothing
 * and doctor finds no error. One install, reused by every test.
 *
 * Node 22: the app's better-sqlite3 (^13, shared with the SQLite adapter) needs it.
 * Machine prerequisite: pnpm on the PATH (`bash scripts/setup.sh`).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, copyFixture, localBin, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { closePage, launchBrowser, type Browser } from './harness/browser.js';
import { sqliteRows } from './harness/databases.js';
import { node22, type NodeToolchain } from './harness/node.js';

const EMAIL = 'grace@example.com';
const PASSWORD = 'correct horse battery staple';
/** What pnpm sets for the commands it runs (`pnpm dlx`, `pnpm create`). */
const PNPM_USER_AGENT = 'pnpm/12.21.0 npm/? node/v22.23.3 linux x64';

/** Every file of the app but dependencies, build output and its database: path → SHA-256 and mtime. */
async function snapshot(appDir: string): Promise<Record<string, string>> {
	const skip = new Set(['node_modules', '.svelte-kit', 'build']);
	const files: Record<string, string> = {};
	const walk = async (dir: string): Promise<void> => {
		for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
			const file = path.join(dir, entry.name);
			if (entry.isDirectory()) {
				if (!skip.has(entry.name)) await walk(file);
			} else if (entry.isFile() && !entry.name.startsWith('local.db')) {
				const [text, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
				files[path.relative(appDir, file)] = `${createHash('sha256').update(text).digest('hex')} ${stat.mtimeMs}`;
			}
		}
	};
	await walk(appDir);
	return files;
}

describe('an existing app with its own hook, layout load, Prettier and Drizzle, installed with pnpm', () => {
	let toolchain: NodeToolchain;
	let appDir: string;
	let original: { hooks: string; layout: string };
	let cli: RunResult;
	let appBuild: RunResult;
	let server: Server | undefined;
	let browser: Browser | undefined;
	const read = (file: string) => fs.readFile(path.join(appDir, file), 'utf8');
	/** Reads the app's database (`DATABASE_URL=local.db`); our better-sqlite3, since the app's is built for Node 22. */
	const query = <T>(sql: string): T[] => sqliteRows(path.join(appDir, 'local.db'), sql);
	const tables = () => query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map(({ name }) => name);
	const count = (table: string) => query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)[0]!.n;

	beforeAll(async () => {
		toolchain = await node22();
		const pnpm = await run('pnpm', ['--version'], { cwd: process.cwd(), env: toolchain.env }).catch(() => undefined);
		if (pnpm?.exitCode !== 0) throw new Error('pnpm is not on the PATH: run `bash scripts/setup.sh` (as root) first');
		appDir = await copyFixture('kit2-existing');
		original = { hooks: await read('src/hooks.server.ts'), layout: await read('src/routes/+layout.server.ts') };
		cli = await runCli(appDir, ['--yes', '--providers', 'credentials', '--strategy', 'database'], {
			node: toolchain.node,
			env: { ...toolchain.env, npm_config_user_agent: PNPM_USER_AGENT }
		});
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		appBuild = await run('pnpm', ['run', 'build'], { cwd: appDir, env: toolchain.env, timeout: 300_000 });
		if (appBuild.exitCode !== 0) throw new Error(`pnpm run build failed:\n${appBuild.stdout}\n${appBuild.stderr}`);
		server = await start(appDir, { mode: 'preview', env: toolchain.env });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it('installs the app with pnpm, which builds better-sqlite3 because pnpm-workspace.yaml allows it', async () => {
		expect(cli.stdout).toContain('Installing dependencies with pnpm');
		expect(cli.stdout).toContain('Dependencies installed');
		await expect(fs.access(path.join(appDir, 'pnpm-lock.yaml'))).resolves.toBeUndefined();
		await expect(fs.access(path.join(appDir, 'package-lock.json'))).rejects.toThrow();
		expect(await read('pnpm-workspace.yaml')).toBe('allowBuilds:\n  better-sqlite3: true\n');
		const manifest = JSON.parse(await read('package.json'));
		expect(manifest.dependencies).toMatchObject({ 'better-sqlite3': '^13.0.2', jose: expect.any(String), oauth4webapi: expect.any(String) });
		expect(manifest).not.toHaveProperty('allowScripts');
		expect(manifest).not.toHaveProperty('pnpm');
		expect(await read('node_modules/.modules.yaml')).toMatch(/"packageManager": "pnpm@/);
	});

	it("chooses the Drizzle adapter and pushes the auth tables, and only them, with the app's drizzle-kit into its database", async () => {
		const manifest = JSON.parse(await read('.create-auth/manifest.json')) as { answers: { adapter: string; strategy: string } };
		expect(manifest.answers).toMatchObject({ adapter: 'drizzle', strategy: 'database' });
		expect(await read('src/auth.ts')).toContain("export const adapter = DrizzleAdapter(db, { dialect: 'sqlite' });");
		expect(await read('src/lib/server/db/schema.ts')).toMatch(/\nexport \* from '\.\.\/auth\/adapters\/drizzle-schema\/sqlite';\n$/);
		expect(cli.stdout).toContain('Created the auth tables with drizzle-kit push');
		// The app's own `task` table is its own db:push to make.
		expect(tables()).toEqual(['auth_accounts', 'auth_authenticators', 'auth_recovery_codes', 'auth_sessions', 'auth_two_factors', 'auth_users', 'auth_verification_tokens']);
		await expect(fs.readdir(path.join(appDir, '.create-auth'))).resolves.toEqual(['manifest.json']);
	});

	it("composes the app's handle after authentication and authorization, keeping its lines, type and comment", async () => {
		const userImport = "import type { Handle } from '@sveltejs/kit';\n";
		const ours = [
			"import { sequence } from '@sveltejs/kit/hooks';",
			"import { handle as authentication } from './auth';",
			"import { authorization } from './authorization';"
		];
		// Only the declaration's `export` and name change; every other line of the user's stays as it was.
		expect(await read('src/hooks.server.ts')).toBe(
			original.hooks.replace(userImport, `${userImport}${ours.join('\n')}\n`).replace('export const handle: Handle = ', 'const appHandle: Handle = ') +
				'\nexport const handle = sequence(authentication, authorization, appHandle);\n'
		);
		expect(original.hooks).toContain("// Tags every response, so a proxy or a test can tell that the app's own hook ran.\nexport const handle: Handle = ");
	});

	it("returns the session from the app's root layout load, next to its own data", async () => {
		expect(await read('src/routes/+layout.server.ts')).toBe(
			original.layout
				.replace('async () => {', 'async (event) => {')
				.replace("return { appName: 'existing' };", "return { appName: 'existing', session: await event.locals.auth() };")
		);
	});

	it('passes svelte-check with 0 errors and 0 warnings', async () => {
		const result = await check(appDir, { env: toolchain.env });
		expect(result.diagnostics).toEqual([]);
		expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors: 0, warnings: 0 });
	});

	it('builds with pnpm run build', () => {
		expect(appBuild.exitCode).toBe(0);
	});

	it("writes the files it creates whole (routes, src/auth.ts, src/authorization.ts, the runtime) in the app's Prettier style", async () => {
		const manifest = JSON.parse(await read('.create-auth/manifest.json')) as { files: Record<string, { strategy: string }> };
		const whole = Object.entries(manifest.files)
			.filter(([, file]) => file.strategy !== 'patch')
			.map(([file]) => file);
		expect(whole).toEqual(expect.arrayContaining(['src/auth.ts', 'src/authorization.ts', 'src/routes/signin/+page.svelte', 'src/lib/server/auth/index.ts']));
		const prettier = await run(localBin(appDir, 'prettier'), ['--list-different', ...whole], { cwd: appDir, env: toolchain.env });
		expect(prettier.stdout.trim().split('\n').filter(Boolean), prettier.stderr).toEqual([]);
		expect(prettier.exitCode).toBe(0);
	});

	it("signs up, signs in and out in Chromium; every page keeps the app's layout data and hook", async () => {
		const page = await browser!.newPage();
		const url = server!.url;
		const fill = async (button: string) => {
			await page.getByLabel('Email').fill(EMAIL);
			await page.getByLabel('Password').fill(PASSWORD);
			await page.getByRole('button', { name: button, exact: true }).click();
		};

		const about = await page.goto(`${url}/about`);
		expect(about?.headers()['x-app-hook']).toBe('ran');
		await expect.poll(() => page.getByRole('heading', { name: 'About existing' }).isVisible()).toBe(true);

		const signup = await page.goto(`${url}/signup`);
		expect(signup?.headers()['x-app-hook']).toBe('ran');
		// Sign-up signs the new user in at once, on the account page.
		await fill('Create account');
		await page.waitForURL((target) => target.pathname === '/account');
		expect(count('auth_sessions')).toBe(1);

		const signedIn = await page.goto(`${url}/about`);
		expect(signedIn?.headers()['x-app-hook']).toBe('ran');
		expect(await page.getByRole('heading', { name: 'About existing' }).isVisible()).toBe(true);
		// The root layout's data for this page (devalue's flat array): the app's value and the session.
		const data = (await page.evaluate(() => fetch('/about/__data.json').then((response) => response.json()))) as {
			nodes: Array<{ type: string; data: unknown[] }>;
		};
		const layout = data.nodes[0]!;
		expect(layout.type).toBe('data');
		expect(Object.keys(layout.data[0] as object).sort()).toEqual(['appName', 'session']);
		expect(layout.data).toContain('existing');
		expect(layout.data).toContain(EMAIL);

		const account = await page.goto(`${url}/account`);
		expect(account?.headers()['x-app-hook']).toBe('ran');
		await expect.poll(() => page.getByText(`Signed in as ${EMAIL}`).isVisible()).toBe(true);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		expect(count('auth_sessions')).toBe(0);
		await page.goto(`${url}/account`);
		expect(new URL(page.url()).pathname).toBe('/signin');
		await closePage(page);
	});

	it('writes nothing when regenerate runs on the same app', async () => {
		const before = await snapshot(appDir);
		const again = await runCli(appDir, ['regenerate'], { node: toolchain.node, env: { ...toolchain.env, npm_config_user_agent: PNPM_USER_AGENT } });
		expect(again.exitCode, again.stdout + again.stderr).toBe(0);
		expect(again.stdout).toContain('Nothing to write');
		expect(await snapshot(appDir)).toEqual(before);
	});

	it('reports no error in create-auth doctor --json', async () => {
		const doctor = await runCli(appDir, ['doctor', '--json'], { node: toolchain.node, env: toolchain.env });
		const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: Array<{ id: string; status: string }> };
		expect(
			report.checks.filter((item) => item.status === 'error'),
			JSON.stringify(report, null, 2)
		).toEqual([]);
	});
});
