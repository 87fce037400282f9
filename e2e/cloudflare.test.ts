/**
 * Cloudflare Workers with D1, end to end: an app that deploys with adapter-cloudflare (kit2-ts,
 * its adapter swapped and a `wrangler.jsonc` as `sv add` writes one) gets `create-auth --yes` with
 * no `--adapter`: the CLI chooses D1, binds its database in the Wrangler config, and creates the
 * tables in the local D1 database with the app's wrangler. The app passes svelte-check, builds,
 * and runs under `wrangler dev` (workerd, the runtime Cloudflare deploys to, with the local D1):
 * in Chromium a sign-up, sign-out and sign-in, the rows in D1, a common password refused (the
 * blocklist read through the Worker's ASSETS binding, as no file system holds node_modules there)
 * and passwords hashed at the Workers cost (32 MiB of scrypt; an isolate has 128 MB); the flows
 * of an OpenID provider (./idp-flow.ts, against the dev IdP) and of passkeys (./passkey-flow.ts).
 * A SvelteKit 3 app (kit3-ts, Node 22, adapter-cloudflare 8.0.0-next) gets the same defaults and
 * tables, and passes svelte-check; it is not built (below).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../src/dev-idp/index.js';
import { PASSWORD, signUpAt, submitCredentials } from './credentials-flow.js';
import { build, check, copyFixture, localBin, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { node22, type NodeToolchain } from './harness/node.js';
import { idpFlows, startIdpFor } from './idp-flow.js';
import { postForm } from './lockout-flow.js';
import { passkeyFlows, passkeysOnLocalhost } from './passkey-flow.js';

/** What `npx sv add sveltekit-adapter=adapter:cloudflare` adds, at the versions create-auth was tried with. */
const CLOUDFLARE = { '@sveltejs/adapter-cloudflare': '^7.2.9', wrangler: '^4.86.0' };
/** adapter-cloudflare for SvelteKit 3 (7.x asks for SvelteKit 2). */
const KIT3_ADAPTER = '^8.0.0-next.6';

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

/** What an app on Workers can offer, each driven below: passwords, an OpenID provider, passkeys. */
const PROVIDERS = 'credentials,idp,passkey';

let appDir: string;
let idp: DevIdp;
let port: number;
let cli: RunResult;
let server: Server;
let browser: Browser;

/** Rows of a query on an app's local D1 database, through its wrangler (`d1 execute --local --json`). */
async function d1Rows(sql: string, dir = appDir, env: Record<string, string | undefined> = {}): Promise<Record<string, unknown>[]> {
	const result = await run(localBin(dir, 'wrangler'), ['d1', 'execute', 'DB', '--local', '--json', '--command', sql], {
		cwd: dir,
		env: { ...env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
		timeout: 60_000
	});
	const [first] = JSON.parse(result.stdout) as { results: Record<string, unknown>[] }[];
	return first!.results;
}

/**
 * A copy of `fixture` that deploys with adapter-cloudflare (`adapter`: its version for the
 * fixture's SvelteKit), as `sv add sveltekit-adapter=adapter:cloudflare` leaves an app: the
 * adapter and wrangler in devDependencies, the config's import, a `wrangler.jsonc`.
 */
async function cloudflareApp(fixture: string, adapter: string): Promise<string> {
	const dir = await copyFixture(fixture);
	const manifestFile = path.join(dir, 'package.json');
	const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { devDependencies: Record<string, string> };
	delete manifest.devDependencies['@sveltejs/adapter-auto'];
	Object.assign(manifest.devDependencies, { ...CLOUDFLARE, '@sveltejs/adapter-cloudflare': adapter });
	await writeFile(manifestFile, `${JSON.stringify(manifest, null, '\t')}\n`);
	const viteConfig = path.join(dir, 'vite.config.ts');
	await writeFile(viteConfig, (await readFile(viteConfig, 'utf8')).replace("from '@sveltejs/adapter-auto'", "from '@sveltejs/adapter-cloudflare'"));
	await writeFile(path.join(dir, 'wrangler.jsonc'), WRANGLER_JSONC);
	return dir;
}

beforeAll(async () => {
	appDir = await cloudflareApp('kit2-ts', CLOUDFLARE['@sveltejs/adapter-cloudflare']);
	// The CLI installs the app's dependencies itself (adapter-cloudflare and wrangler with them).
	cli = await runCli(appDir, ['--yes', '--providers', PROVIDERS]);
	({ idp, port } = await startIdpFor(appDir));
	await passkeysOnLocalhost(appDir, 'ts', port);
	await build(appDir);
	server = await start(appDir, { mode: 'wrangler', port, timeout: 120_000 });
	browser = await launchBrowser({ baseURL: server.url });
}, 900_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
	await idp?.stop();
	if (appDir) await removeApp(appDir);
});

describe('an app on Cloudflare Workers with D1', () => {
	it('chose D1, bound its database in wrangler.jsonc with nodejs_compat, and created the tables locally', async () => {
		const manifest = JSON.parse(await readFile(path.join(appDir, '.create-auth/manifest.json'), 'utf8')) as { answers: { adapter: string; rateLimit: string } };
		expect(manifest.answers).toMatchObject({ adapter: 'd1', rateLimit: 'd1' });
		const config = await readFile(path.join(appDir, 'wrangler.jsonc'), 'utf8');
		expect(config).toContain('"binding": "DB"');
		expect(config).toContain('"migrations_dir": "src/lib/server/auth/adapters/migrations/d1"');
		expect(config).toMatch(/"nodejs_als",\s*"nodejs_compat"/);
		expect(cli.stdout).toContain('Applied 0001_create_auth_tables.sql, 0002_rate_limits.sql to the local D1 database DB');
		expect(cli.stdout.replace(/[│\s]+/g, ' ')).toContain('npx wrangler secret put AUTH_SECRET');
		expect((await d1Rows("SELECT name FROM sqlite_master WHERE name IN ('auth_users', 'auth_rate_limits')")).length).toBe(2);
	});

	it('passes doctor: the binding, nodejs_compat, the host', async () => {
		const doctor = await runCli(appDir, ['doctor', '--json']);
		const { checks } = JSON.parse(doctor.stdout) as { checks: { id: string; status: string; message: string }[] };
		expect(checks.find((check) => check.id === 'd1')).toMatchObject({ status: 'ok', message: expect.stringContaining('as DB, with nodejs_compat') });
		expect(checks.find((check) => check.id === 'host-rate-limit')).toMatchObject({ status: 'ok' });
		expect(checks.filter((check) => check.status === 'error'), doctor.stdout).toEqual([]);
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
		// The sign-up was counted in D1, where every isolate of the Worker sees it.
		expect((await d1Rows("SELECT key FROM auth_rate_limits WHERE key LIKE 'signup-client:%'")).length).toBeGreaterThan(0);

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

	describe('an OpenID provider (the dev IdP), through oauth4webapi on workerd', () => {
		idpFlows(() => ({ server, browser, idp }));
	});

	describe('passkeys (SimpleWebAuthn on workerd), with their rows in D1', () => {
		passkeyFlows(() => ({ server, browser, authenticators: async () => (await d1Rows('SELECT count(*) AS n FROM auth_authenticators'))[0]!.n as number }));
	});
});

// SvelteKit 3 (3.2.0 when this was written) has dropped the `generateManifest` adapter API that
// adapter-cloudflare 8.0.0-next.6 (its newest) calls, so such an app does not build yet, with or
// without create-auth (tried: the kit3-ts fixture alone on it). This app is set up, its tables
// created in its local D1, and checked; it is not built or served.
describe('a SvelteKit 3 app on Cloudflare with D1 (Node 22, adapter-cloudflare 8.0.0-next.6)', () => {
	let kit3: string;
	let toolchain: NodeToolchain;
	let kit3Cli: RunResult;

	beforeAll(async () => {
		toolchain = await node22();
		kit3 = await cloudflareApp('kit3-ts', KIT3_ADAPTER);
		kit3Cli = await runCli(kit3, ['--yes'], { node: toolchain.node, env: toolchain.env });
	}, 900_000);

	afterAll(async () => {
		if (kit3) await removeApp(kit3);
	});

	it('chose D1 for users and rate limits, and created the tables in the local D1 database', async () => {
		expect(kit3Cli.stdout).toContain('Applied 0001_create_auth_tables.sql, 0002_rate_limits.sql to the local D1 database DB');
		const auth = await readFile(path.join(kit3, 'src/auth.ts'), 'utf8');
		expect(auth).toContain("D1Adapter({ binding: 'DB', getRequestEvent })");
		expect(auth).toContain("d1RateLimitStore({ binding: 'DB', getRequestEvent })");
		expect((await d1Rows("SELECT name FROM sqlite_master WHERE name IN ('auth_users', 'auth_rate_limits')", kit3, toolchain.env)).length).toBe(2);
	});

	it('passes svelte-check with the D1 adapter and store', async () => {
		const result = await check(kit3, { env: toolchain.env });
		expect(result.errors, result.output).toBe(0);
	});
});
