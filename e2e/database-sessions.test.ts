/**
 * The `database` session strategy end to end, on every adapter the CLI offers for it outside
 * Drizzle (whose app is ./existing-app.test.ts): `create-auth --yes --strategy database` with the
 * SQLite adapter; the PostgreSQL and MySQL adapters on the machine's PostgreSQL and MariaDB
 * servers (a database of its own each, whose tables the CLI creates right after the install);
 * the hosted-db adapter against a local record API; and the memory adapter. Then svelte-check,
 * build, preview and Chromium through every credentials flow; the session rows are read in the
 * store itself where the test can reach it: one after sign-in, none after sign-out; and on every
 * store the cookie of a signed-out session signs no one in.
 *
 * The memory and hosted-db apps have the same dependencies (no driver): the second shares the
 * first's install.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordApi } from '../runtime/test/record-api.js';
import { credentialsFlows, EMAIL } from './credentials-flow.js';
import { build, check, copyFixture, removeApp, runCli, setEnv, shareInstall, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { mysqlDatabase, postgresDatabase } from './harness/databases.js';

interface Store {
	args: string[];
	/** Rows (records) in the store's sessions table; undefined where the test cannot read the store (memory). */
	sessions?(): Promise<number>;
	/** Rows in `auth_migrations`, for the adapters whose tables the CLI creates. */
	migrations?(): Promise<number>;
	/** Sets what the app needs in `.env` before it is built. */
	configure?(appDir: string): Promise<void>;
	/** Apps of stores with the same key have the same dependencies: the first one's install is shared. */
	installKey?: string;
	drop(): Promise<void>;
}

const sqliteCount = (appDir: string, table: string) => {
	const db = new Database(path.join(appDir, 'auth.sqlite'), { readonly: true });
	try {
		return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
	} finally {
		db.close();
	}
};

const STORES: Array<{ name: string; open(appDir: () => string): Promise<Store> }> = [
	{
		name: 'SQLite',
		open: async (appDir) => ({
			args: ['--adapter', 'sqlite'],
			sessions: async () => sqliteCount(appDir(), 'auth_sessions'),
			drop: async () => undefined
		})
	},
	...(
		[
			['PostgreSQL', 'postgres', postgresDatabase],
			['MariaDB', 'mysql', mysqlDatabase]
		] as const
	).map(([name, adapter, create]) => ({
		name,
		async open(): Promise<Store> {
			const database = await create('e2e');
			return {
				args: ['--adapter', adapter, '--database-url', database.url],
				sessions: () => database.count('auth_sessions'),
				migrations: () => database.count('auth_migrations'),
				drop: () => database.drop()
			};
		}
	})),
	{
		name: 'memory',
		open: async () => ({ args: ['--adapter', 'memory'], installKey: 'no driver', drop: async () => undefined })
	},
	{
		name: 'a hosted database (local record API)',
		async open(): Promise<Store> {
			const api = await startRecordApi();
			return {
				args: ['--adapter', 'hosted-db'],
				installKey: 'no driver',
				// The CLI leaves the URL and the key empty in .env, for the user to fill in.
				configure: (appDir) => setEnv(path.join(appDir, '.env'), { AUTH_HOSTED_DB_URL: api.databaseURL, AUTH_HOSTED_DB_API_KEY: api.apiKey }),
				sessions: async () => api.count('authlib_sessions'),
				drop: () => api.stop()
			};
		}
	}
];

/** Installed apps by install key, kept until every app of the file is done. */
const installed = new Map<string, string>();
const apps: string[] = [];
afterAll(async () => {
	for (const app of apps) await removeApp(app);
});

describe.each(STORES)('database sessions on $name in a SvelteKit 2 TypeScript app', ({ name, open }) => {
	let appDir: string;
	let store: Store;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let cli: RunResult;
	const args = () => ['--yes', '--providers', 'credentials', '--strategy', 'database', ...store.args];

	beforeAll(async () => {
		store = await open(() => appDir);
		appDir = await copyFixture('kit2-ts');
		apps.push(appDir);
		const from = store.installKey && installed.get(store.installKey);
		cli = await runCli(appDir, [...args(), ...(from ? ['--no-install'] : [])]);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		if (from) await shareInstall(from, appDir);
		else if (store.installKey) installed.set(store.installKey, appDir);
		await store.configure?.(appDir);
		await build(appDir);
		server = await start(appDir, { mode: 'preview' });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await store?.drop();
	});

	if (name === 'PostgreSQL' || name === 'MariaDB') {
		it('creates the auth tables right after the install, and says so', async () => {
			expect(cli.stdout).toMatch(new RegExp(`Applied 0001_auth_tables\\.sql to ${store.args[1]}://`));
			expect(await store.migrations!()).toBe(1);
		});
	}

	credentialsFlows(() => ({
		server: server!,
		browser: browser!,
		check: () => check(appDir),
		runCliAgain: () => runCli(appDir, args())
	}));

	it('keeps one session per signed-in browser, and ends it at sign-out: the old cookie signs no one in', async () => {
		const before = await store.sessions?.();
		const page = await browser!.newPage();
		await page.goto(`${server!.url}/signin`);
		await page.getByLabel('Email').fill(EMAIL);
		await page.getByLabel('Password').fill('correct horse battery staple');
		await page.getByRole('button', { name: 'Sign in', exact: true }).click();
		await page.waitForURL('**/');
		const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.session-token');
		expect(cookie?.value).toMatch(/^[\w-]{43}$/);
		if (before !== undefined) expect(await store.sessions!()).toBe(before + 1);
		await page.goto(`${server!.url}/account`);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((url) => url.pathname === '/');
		if (before !== undefined) expect(await store.sessions!()).toBe(before);
		await page.close();

		// A copy of the cookie kept from before the sign-out: the session it names is gone.
		const replay = await browser!.newContext();
		await replay.addCookies([cookie!]);
		const again = await replay.newPage();
		await again.goto(`${server!.url}/account`);
		expect(new URL(again.url()).pathname).toBe('/signin');
		await replay.close();
	});
});
