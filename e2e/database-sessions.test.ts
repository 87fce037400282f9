/**
 * The `database` session strategy end to end, on every adapter the CLI offers for it outside
 * Drizzle (whose app is ./existing-app.test.ts): `create-auth --yes --strategy database` with the
 * SQLite adapter; the PostgreSQL and MySQL adapters on the machine's PostgreSQL and MariaDB
 * servers (a database of its own each, whose tables the CLI creates right after the install);
 * the hosted-db adapter against a local record API; and the memory adapter. Then build,
 * svelte-check and preview on each. The browser flows whose code is the same whatever the store
 * run on the SQLite app alone: every credentials flow (./credentials-flow.ts), password reset
 * and change (./password-flow.ts), passkeys (./passkey-flow.ts) and account pre-hijacking
 * (./pre-hijacking-flow.ts). On every store (what differs per adapter; each adapter's methods are
 * also under runtime/test/adapter-contract.ts in the unit suite): the generated code passes
 * svelte-check, a re-run writes nothing, the signed-out guards and malformed cookies, and in
 * Chromium a sign-up, sign-out and sign-in, with the session rows read in the store itself where
 * the test can reach it (one per signed-in browser, none after sign-out, the token stored hashed)
 * and the cookie of a signed-out session signing no one in. The SQLite and PostgreSQL apps go
 * through the account page's sessions (./sessions-flow.ts), their session times made short.
 *
 * The PostgreSQL app deploys to Vercel (./serverless-flow.ts): the CLI, given no `--adapter` or
 * `--rate-limit`, chooses PostgreSQL and Redis for it, and what adapter-vercel and adapter-netlify
 * build is served as those platforms run it. It is also set up the way an app behind a load
 * balancer would be: Redis rate limits, its counters in the machine's Redis (through a proxy the test can cut);
 * a second server of the same build shares them, and sign-in fails closed while Redis is down.
 * The hosted-db app goes through its store being down.
 *
 * The apps are made (CLI, install, build, svelte-check) ahead of their describes, two at a time,
 * so one installs or builds while another's tests run. The memory and hosted-db apps have the same
 * dependencies (no driver): the second shares the first's install.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSessionKey } from '../runtime/server/auth/session/stored-key.js';
import { startRecordApi } from '../runtime/test/record-api.js';
import { startInbox, type Inbox } from '../runtime/test/smtp.js';
import { startTcpProxy, type TcpProxy } from '../runtime/test/tcp-proxy.js';
import { credentialsFlows, freshPage, PASSWORD, signInResponse, signUpAt, submitCredentials } from './credentials-flow.js';
import { useInbox } from './email-flow.js';
import { build, check, copyFixture, removeApp, runCli, setEnv, shareInstall, start, type CheckResult, type RunResult, type Server } from './harness/app.js';
import { closePage, launchBrowser, type Browser } from './harness/browser.js';
import { mysqlDatabase, postgresDatabase, sqliteCount, sqliteValues } from './harness/databases.js';
import { limit } from './harness/limit.js';
import { postForm } from './lockout-flow.js';
import { passkeyFlows } from './passkey-flow.js';
import { passwordFlows } from './password-flow.js';
import { preHijackingFlows } from './pre-hijacking-flow.js';
import { serverlessFlows, useServerlessAdapters } from './serverless-flow.js';
import { sessionsFlows, shortSessionTimes } from './sessions-flow.js';

interface Store {
	args: string[];
	/** Rows (records) in the store's sessions table; undefined where the test cannot read the store (memory). */
	sessions?(): Promise<number>;
	/** The values of the sessions table's token column (what a leak of the table would show). */
	sessionTokens?(): Promise<string[]>;
	/** Rows in the store's authenticators table (passkeys). */
	authenticators?(): Promise<number>;
	/** Rows in `auth_migrations`, for the adapters whose tables the CLI creates. */
	migrations?(): Promise<number>;
	/** Changes the copied fixture before the CLI runs (where it deploys). */
	beforeCli?(appDir: string): Promise<void>;
	/** Sets what the app needs in `.env` before it is built. */
	configure?(appDir: string): Promise<void>;
	/** Takes the store down (every request fails) or brings it back, where the test controls the store. */
	setDown?(down: boolean): void;
	/** Apps of stores with the same key have the same dependencies: the first one's install is shared. */
	installKey?: string;
	/** With `--rate-limit redis`: the proxy in front of the machine's Redis that the app's REDIS_URL names. */
	redis?: TcpProxy;
	drop(): Promise<void>;
}

/** The Redis server of the project's machines. */
const REDIS = { host: '127.0.0.1', port: 6379 };

/**
 * `--rate-limit redis` for an app: its REDIS_URL names a proxy in front of the machine's Redis,
 * and its counters are written under a prefix of this run's (`keyPrefix` added to src/auth.ts,
 * as a user may), so runs on one machine never share counts; the keys are deleted at `drop()`.
 */
async function redisRateLimits(): Promise<{ proxy: TcpProxy; configure(appDir: string): Promise<void>; drop(): Promise<void> }> {
	const proxy = await startTcpProxy(REDIS);
	const prefix = `create-auth-e2e:${randomUUID()}:`;
	return {
		proxy,
		async configure(appDir) {
			await setEnv(path.join(appDir, '.env'), { REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
			const file = path.join(appDir, 'src/auth.ts');
			const text = await fs.readFile(file, 'utf8');
			if (!text.includes('redisRateLimitStore({ url:')) throw new Error('src/auth.ts does not create a redisRateLimitStore');
			await fs.writeFile(file, text.replace('redisRateLimitStore({ url:', `redisRateLimitStore({ keyPrefix: '${prefix}', url:`));
		},
		async drop() {
			await proxy.close();
			const admin = new Redis(REDIS.port, REDIS.host);
			try {
				const keys = await admin.keys(`${prefix}*`);
				if (keys.length > 0) await admin.del(...keys);
			} finally {
				admin.disconnect();
			}
		}
	};
}

const STORES: Array<{ name: string; outage?: true; redis?: true; open(appDir: () => string): Promise<Store> }> = [
	{
		name: 'SQLite',
		open: async (appDir) => ({
			args: ['--adapter', 'sqlite'],
			sessions: async () => sqliteCount(appDir(), 'auth_sessions'),
			sessionTokens: async () => sqliteValues(appDir(), 'auth_sessions', 'sessionToken'),
			authenticators: async () => sqliteCount(appDir(), 'auth_authenticators'),
			drop: async () => undefined
		})
	},
	...(
		[
			['PostgreSQL', 'postgres', postgresDatabase, true],
			['MariaDB', 'mysql', mysqlDatabase, false]
		] as const
	).map(([name, adapter, create, withRedis]) => ({
		name,
		...(withRedis ? { redis: true as const } : {}),
		async open(): Promise<Store> {
			const database = await create('e2e');
			const redis = withRedis ? await redisRateLimits() : undefined;
			// The PostgreSQL app deploys to Vercel: the CLI chooses PostgreSQL and Redis itself.
			return {
				args: [...(redis ? [] : ['--adapter', adapter]), '--database-url', database.url],
				...(redis ? { beforeCli: useServerlessAdapters } : {}),
				sessions: () => database.count('auth_sessions'),
				sessionTokens: () => database.values('auth_sessions', 'sessionToken'),
				authenticators: () => database.count('auth_authenticators'),
				migrations: () => database.count('auth_migrations'),
				configure: redis?.configure,
				redis: redis?.proxy,
				drop: async () => {
					await redis?.drop();
					await database.drop();
				}
			};
		}
	})),
	{
		name: 'memory',
		open: async () => ({ args: ['--adapter', 'memory'], installKey: 'no driver', drop: async () => undefined })
	},
	{
		name: 'a hosted database (local record API)',
		outage: true,
		async open(): Promise<Store> {
			const api = await startRecordApi();
			return {
				args: ['--adapter', 'hosted-db'],
				installKey: 'no driver',
				// The CLI leaves the URL and the key empty in .env, for the user to fill in.
				configure: (appDir) => setEnv(path.join(appDir, '.env'), { AUTH_HOSTED_DB_URL: api.databaseURL, AUTH_HOSTED_DB_API_KEY: api.apiKey }),
				sessions: async () => api.count('authlib_sessions'),
				setDown: (down) => api.setDown(down),
				drop: () => api.stop()
			};
		}
	}
];

type StoreEntry = (typeof STORES)[number];

/** The store whose app goes through every browser flow; the others, only through what differs per store. */
const PAGES_STORE = 'SQLite';

/** The stores whose apps go through the account page's sessions (./sessions-flow.ts), their src/auth's session times made short. */
const SESSIONS_STORES = ['SQLite', 'PostgreSQL'];

/** The providers of a store's app: the one that goes through the passkey flows has passkeys, and PostgreSQL's (as before) too. */
const providersOf = (name: string) => (name === PAGES_STORE || name === 'PostgreSQL' ? 'credentials,passkey' : 'credentials');

/** The CLI's answers for a store's app, the same at the first run and the re-run. */
const cliArgs = (name: string, store: Store) => ['--yes', '--providers', providersOf(name), '--strategy', 'database', ...store.args];

/** A store's app, made, built and type-checked, not yet served. */
interface Prepared {
	appDir: string;
	store: Store;
	cli: RunResult;
	/** svelte-check of the generated code, run right after the build (the source does not change after). */
	checked: CheckResult;
}

const apps: string[] = [];
/** Each store's app being made, by store name; started in the file's beforeAll, awaited by the store's describe. */
const prepared = new Map<string, Promise<Prepared>>();
/** Each install key's first app, once the CLI has installed it (rejected if that failed): later apps of that key share it. */
const installs = new Map<string, Promise<string>>();
/** Receives the password-reset mails of every app. */
let inbox: Inbox;

/**
 * Makes a store's app: opens the store, copies kit2-ts, runs the CLI (which installs, or not when
 * an app of the same install key has, whose install it then shares), configures and builds.
 * @throws {Error} the CLI fails, or the install it shares failed
 */
async function prepare({ name, open }: StoreEntry): Promise<Prepared> {
	let appDir = '';
	const store = await open(() => appDir);
	appDir = await copyFixture('kit2-ts');
	apps.push(appDir);
	const key = store.installKey;
	const shared = key === undefined ? undefined : installs.get(key);
	let installed: ((appDir: string | Error) => void) | undefined;
	if (key !== undefined && !shared) {
		installs.set(key, new Promise((resolve, reject) => (installed = (result) => (result instanceof Error ? reject(result) : resolve(result)))));
		installs.get(key)!.catch(() => undefined);
	}
	try {
		const from = shared && (await shared);
		await store.beforeCli?.(appDir);
		const cli = await runCli(appDir, [...cliArgs(name, store), ...(from ? ['--no-install'] : [])]);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		if (from) await shareInstall(from, appDir);
		installed?.(appDir);
		await store.configure?.(appDir);
		if (SESSIONS_STORES.includes(name)) await shortSessionTimes(appDir, 'ts');
		await useInbox(appDir, inbox);
		await build(appDir);
		return { appDir, store, cli, checked: await check(appDir) };
	} catch (error) {
		installed?.(error instanceof Error ? error : new Error(String(error)));
		throw error;
	}
}

beforeAll(async () => {
	inbox = await startInbox();
	// Two at a time: on 2 cores, one app's install (mostly waiting on the disk and the npm cache)
	// or build overlaps another's, and the tests of the first store start while the rest are made.
	const gate = limit(2);
	for (const entry of STORES) {
		const app = gate(() => prepare(entry));
		app.catch(() => undefined); // reported by the store's describe, which awaits it
		prepared.set(entry.name, app);
	}
});
afterAll(async () => {
	for (const result of await Promise.allSettled(prepared.values())) {
		if (result.status === 'fulfilled') await result.value.store.drop();
	}
	for (const app of apps) await removeApp(app);
	await inbox?.close();
});

describe.each(STORES)('database sessions on $name in a SvelteKit 2 TypeScript app', ({ name, outage, redis }) => {
	let appDir: string;
	let store: Store;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let cli: RunResult;
	let checked: CheckResult;

	beforeAll(async () => {
		({ appDir, store, cli, checked } = await prepared.get(name)!);
		server = await start(appDir, { mode: 'preview' });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
	});

	if (name === 'PostgreSQL' || name === 'MariaDB') {
		it('creates the auth tables right after the install, and says so', async () => {
			expect(cli.stdout).toMatch(new RegExp(`Applied 0001_auth_tables\\.sql, 0002_account_details\\.sql, 0003_two_factor\\.sql to ${name === 'PostgreSQL' ? 'postgres' : 'mysql'}://`));
			expect(await store.migrations!()).toBe(3);
		});
	}

	credentialsFlows(
		() => ({
			server: server!,
			browser: browser!,
			check: async () => checked,
			runCliAgain: () => runCli(appDir, cliArgs(name, store))
		}),
		{ pages: name === PAGES_STORE }
	);

	if (name === PAGES_STORE) {
		passwordFlows(() => ({ server: server!, browser: browser!, inbox, strategy: 'database' }));
		passkeyFlows(() => ({ server: server!, browser: browser!, authenticators: store.authenticators }));
		// What these prove is the runtime's; the store's part is the adapter contract's (unit suite).
		preHijackingFlows(() => ({ server: server!, browser: browser!, inbox, strategy: 'database', passkeys: true, authenticators: store.authenticators }));
	}
	if (redis) serverlessFlows(() => ({ appDir, cli, sessions: store.sessions!, copies: apps }));
	if (SESSIONS_STORES.includes(name)) sessionsFlows(() => ({ server: server!, browser: browser!, inbox }), { strategy: 'database', reauthentication: name === PAGES_STORE });

	it('signs up and in with one session per signed-in browser, and ends it at sign-out: the old cookie signs no one in', async () => {
		const url = server!.url;
		const email = 'rows@example.com';
		const before = await store.sessions?.();
		const page = await freshPage(browser!);
		await signUpAt(page, url, email);
		if (before !== undefined) expect(await store.sessions!()).toBe(before + 1);
		// The session is read back from the store on the next request.
		await page.goto(`${url}/account`);
		await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		if (before !== undefined) expect(await store.sessions!()).toBe(before);

		await page.goto(`${url}/signin`);
		await submitCredentials(page, 'Sign in', email);
		await page.waitForURL((target) => target.pathname === '/');
		const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.session-token');
		expect(cookie?.value).toMatch(/^[\w-]{43}\.\d{10}$/);
		if (before !== undefined) expect(await store.sessions!()).toBe(before + 1);
		// A leak of the sessions table (OWASP ASVS 5.0 V7) shows no cookie: its rows hold the token's SHA-256.
		const stored = await store.sessionTokens?.();
		if (stored !== undefined) {
			expect(stored).toContain(storedSessionKey(cookie!.value));
			expect(stored.filter((value) => value.includes(cookie!.value))).toEqual([]);
		}
		await page.goto(`${url}/account`);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		if (before !== undefined) expect(await store.sessions!()).toBe(before);
		await page.context().close();

		// A copy of the cookie kept from before the sign-out: the session it names is gone.
		const replay = await browser!.newContext();
		await replay.addCookies([cookie!]);
		const again = await replay.newPage();
		await again.goto(`${url}/account`);
		expect(new URL(again.url()).pathname).toBe('/signin');
		await replay.close();
	});

	if (outage) {
		it('while the store is down: a session page answers 503 and the cookie is kept, sign-in and sign-up say so; then the session is back', async () => {
			const url = server!.url;
			const email = 'outage@example.com';
			const page = await browser!.newPage();
			await signUpAt(page, url, email);
			const visitor = await browser!.newContext();
			const signup = await visitor.newPage();
			const signin = await visitor.newPage();
			await signup.goto(`${url}/signup`);
			await signin.goto(`${url}/signin`);

			store.setDown!(true);
			try {
				const account = await page.goto(`${url}/account`);
				expect(account?.status()).toBe(503);
				await expect.poll(() => page.getByText('Sign-in is unavailable for a moment. Please try again shortly.').isVisible()).toBe(true);
				expect((await page.context().cookies()).map((c) => c.name)).toContain('auth.session-token');

				await submitCredentials(signin, 'Sign in');
				await signin.waitForURL((target) => target.searchParams.get('error') === 'AdapterError');
				expect(await signin.getByRole('alert').textContent()).toBe('Sign-in is unavailable for a moment. Please try again shortly.');

				const answer = signup.waitForResponse((response) => response.request().method() === 'POST');
				await submitCredentials(signup, 'Create account', 'new@example.com');
				expect((await answer).status()).toBe(503);
				await expect.poll(() => signup.getByRole('alert').textContent()).toBe('Sign-up is unavailable for a moment. Please try again shortly.');
			} finally {
				store.setDown!(false);
			}
			await page.goto(`${url}/account`);
			await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
			await visitor.close();
			await closePage(page);
		});
	}

	if (redis) {
		it('counts sign-in attempts in Redis: a second server of the same build refuses the 11th wrong password made across both', async () => {
			const email = 'shared@example.com';
			const second = await start(appDir, { mode: 'preview' });
			const context = await browser!.newContext();
			try {
				const page = await context.newPage();
				await signUpAt(page, server!.url, email);
				await context.clearCookies();
				// Over HTTP from the browser's client address (127.0.0.1), in turn to each server.
				for (let i = 1; i <= 10; i++) {
					const answer = await postForm(`${i % 2 ? server!.url : second.url}/signin`, { providerId: 'credentials', email, password: 'not the password' }, '127.0.0.1');
					expect(answer).toMatchObject({ status: 303, location: '/signin?error=CredentialsSignin&code=credentials' });
				}
				const limited = await signInResponse(page, second.url, email, 'not the password');
				expect(limited.status()).toBe(429);
				expect(Number(limited.headers()['retry-after'])).toBeGreaterThan(800);
				await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Too many attempts\. Try again in 1[45] minutes\.$/);
				// The right password too, on either server, until the window is over.
				expect((await signInResponse(page, server!.url, email, PASSWORD)).status()).toBe(429);
			} finally {
				await context.close();
				await second.stop();
			}
		});

		it('while Redis is down: sign-in and sign-up answer 503 and say so, a signed-in user stays signed in, one log line; sign-in works once it is back', async () => {
			const url = server!.url;
			const email = 'redis-outage@example.com';
			const page = await browser!.newPage();
			await signUpAt(page, url, email);
			const visitor = await browser!.newContext();
			const signin = await visitor.newPage();
			const signup = await visitor.newPage();

			store.redis!.setDown(true);
			try {
				const account = await page.goto(`${url}/account`);
				expect(account?.status()).toBe(200);
				expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);

				expect((await signInResponse(signin, url, email, PASSWORD)).status()).toBe(503);
				await expect.poll(() => signin.getByRole('alert').textContent()).toBe('Sign-in is unavailable for a moment. Please try again shortly.');
				expect(await signin.getByLabel('Email').inputValue()).toBe(email);

				await signup.goto(`${url}/signup`);
				const answer = signup.waitForResponse((response) => response.request().method() === 'POST');
				await submitCredentials(signup, 'Create account', 'during-outage@example.com');
				expect((await answer).status()).toBe(503);
				await expect.poll(() => signup.getByRole('alert').textContent()).toBe('Sign-up is unavailable for a moment. Please try again shortly.');

				const outageLines = server!.output().match(/The rate-limit store \(Redis at redis:\/\/127\.0\.0\.1:\d+\/?\) is unreachable/g);
				expect(outageLines).toHaveLength(1);
			} finally {
				store.redis!.setDown(false);
			}
			// ioredis reconnects by itself (backing off up to 2 s); the first attempt after that is served.
			await expect.poll(async () => (await signInResponse(signin, url, email, PASSWORD)).status(), { timeout: 20_000, interval: 1_000 }).toBe(303);
			await signin.waitForURL((target) => target.pathname === '/');
			await visitor.close();
			await closePage(page);
		});
	}
});
