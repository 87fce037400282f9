/**
 * Cloudflare Workers with D1, end to end: an app that deploys with adapter-cloudflare (kit2-ts,
 * its adapter swapped and a `wrangler.jsonc` as `sv add` writes one) gets `create-auth --yes` with
 * no `--adapter`: the CLI chooses D1, binds its database in the Wrangler config, and creates the
 * tables in the local D1 database with the app's wrangler. The app passes svelte-check, builds,
 * and runs under `wrangler dev` (workerd, the runtime Cloudflare deploys to, with the local D1):
 * in Chromium a sign-up, sign-out and sign-in, the rows in D1, a common password refused (the
 * blocklist read through the Worker's ASSETS binding, as no file system holds node_modules there)
 * and passwords hashed at the Workers cost (32 MiB of scrypt; an isolate has 128 MB).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUpAt, submitCredentials } from './credentials-flow.js';
import { build, check, copyFixture, localBin, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { postForm } from './lockout-flow.js';

/** What `npx sv add sveltekit-adapter=adapter:cloudflare` adds, at the versions create-auth was tried with. */
const CLOUDFLARE = { '@sveltejs/adapter-cloudflare': '^7.2.9', wrangler: '^4.86.0' };

/** The Wrangler config `sv` writes for adapter-cloudflare (Workers with static assets). */
const WRANGLER_JSONC = `{
	"$schema": "node_modules/wrangler/config-schema.json",
	"name": "svtest",
	"main": ".svelte-kit/cloudflare/_worker.js",
	"compatibility_date": "2026-05-01",
	"compatibility_flags": ["nodejs_als"],
	"assets": {
		"binding": "ASSETS",
		"directory": ".svelte-kit/cloudflare"
	}
}
`;

/** Where this file's sign-ups come from: a loopback address of its own (10 sign-ups an hour per client). */
const CLIENT = '127.0.0.76';

let appDir: string;
let cli: RunResult;
let server: Server;
let browser: Browser;

/** Rows of a query on the app's local D1 database, through its wrangler (`d1 execute --local --json`). */
async function d1Rows(sql: string): Promise<Record<string, unknown>[]> {
	const result = await run(localBin(appDir, 'wrangler'), ['d1', 'execute', 'DB', '--local', '--json', '--command', sql], {
		cwd: appDir,
		env: { CI: '1', WRANGLER_SEND_METRICS: 'false' },
		timeout: 60_000
	});
	const [first] = JSON.parse(result.stdout) as { results: Record<string, unknown>[] }[];
	return first!.results;
}

beforeAll(async () => {
	appDir = await copyFixture('kit2-ts');
	const manifestFile = path.join(appDir, 'package.json');
	const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { devDependencies: Record<string, string> };
	delete manifest.devDependencies['@sveltejs/adapter-auto'];
	Object.assign(manifest.devDependencies, CLOUDFLARE);
	await writeFile(manifestFile, `${JSON.stringify(manifest, null, '\t')}\n`);
	const viteConfig = path.join(appDir, 'vite.config.ts');
	await writeFile(viteConfig, (await readFile(viteConfig, 'utf8')).replace("from '@sveltejs/adapter-auto'", "from '@sveltejs/adapter-cloudflare'"));
	await writeFile(path.join(appDir, 'wrangler.jsonc'), WRANGLER_JSONC);
	// The CLI installs the app's dependencies itself (adapter-cloudflare and wrangler with them).
	cli = await runCli(appDir, ['--yes']);
	await build(appDir);
	server = await start(appDir, { mode: 'wrangler', timeout: 120_000 });
	browser = await launchBrowser({ baseURL: server.url });
}, 900_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
	if (appDir) await removeApp(appDir);
});

describe('an app on Cloudflare Workers with D1', () => {
	it('chose D1, bound its database in wrangler.jsonc with nodejs_compat, and created the tables locally', async () => {
		const manifest = JSON.parse(await readFile(path.join(appDir, '.create-auth/manifest.json'), 'utf8')) as { answers: { adapter: string } };
		expect(manifest.answers.adapter).toBe('d1');
		const config = await readFile(path.join(appDir, 'wrangler.jsonc'), 'utf8');
		expect(config).toContain('"binding": "DB"');
		expect(config).toContain('"migrations_dir": "src/lib/server/auth/adapters/migrations/d1"');
		expect(config).toMatch(/"nodejs_als",\s*"nodejs_compat"/);
		expect(cli.stdout).toContain('Applied 0001_create_auth_tables.sql to the local D1 database DB');
		expect(cli.stdout.replace(/[│\s]+/g, ' ')).toContain('npx wrangler secret put AUTH_SECRET');
		expect((await d1Rows("SELECT name FROM sqlite_master WHERE name = 'auth_users'")).length).toBe(1);
	});

	it('passes svelte-check, and a second run writes nothing', async () => {
		const result = await check(appDir);
		expect(result.errors, result.output).toBe(0);
		const again = await runCli(appDir, ['--yes']);
		expect(again.exitCode).toBe(0);
		expect(again.stdout).toContain('Nothing to write');
	});

	it('signs up, out and in under wrangler dev (workerd), the session and account in D1', async () => {
		const email = `cf-${Date.now()}@example.com`;
		const page = await (await browser.newContext()).newPage();
		await signUpAt(page, server.url, email);
		await page.goto(`${server.url}/account`);
		await expect(page.getByText(email).first().isVisible()).resolves.toBe(true);
		const [user] = await d1Rows(`SELECT id FROM auth_users WHERE email = '${email}'`);
		expect(user).toBeDefined();
		// Hashed at the Workers cost: N=2^15, r=8, p=3 (32 MiB), not Node's 128 MiB.
		const [account] = await d1Rows(`SELECT password_hash FROM auth_accounts WHERE "userId" = '${String(user!.id)}'`);
		expect(String(account!.password_hash)).toMatch(/^scrypt\$32768\$8\$3\$/);

		await page.goto(`${server.url}/signout`);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		await page.goto(`${server.url}/account`);
		expect(new URL(page.url()).pathname).toBe('/signin');

		await submitCredentials(page, 'Sign in', email, PASSWORD);
		await page.waitForURL((target) => target.pathname === '/account');
		await expect(page.getByText(email).first().isVisible()).resolves.toBe(true);
		await page.context().close();
	});

	it('refuses a common password: the blocklist is read through the ASSETS binding', async () => {
		const refused = await postForm(`${server.url}/signup`, { email: `cf-common-${Date.now()}@example.com`, password: 'passwordpassword' }, CLIENT);
		expect(refused.status).toBe(400);
		expect(refused.body).toContain('too common');
		expect(server.output()).not.toMatch(/blocklist .* could not be read/);
	});
});
