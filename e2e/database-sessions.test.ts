/**
 * The `database` session strategy end to end: `create-auth --yes --strategy database` with the
 * SQLite adapter, and with the PostgreSQL and MySQL adapters on the machine's PostgreSQL and
 * MariaDB servers (a database of its own each, whose tables the CLI creates right after the
 * install), then svelte-check, build,
 * preview and Chromium through every credentials flow; the session rows are read in the
 * database itself: one after sign-in, none after sign-out.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFlows, EMAIL } from './credentials-flow.js';
import { build, check, copyFixture, removeApp, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { mysqlDatabase, postgresDatabase } from './harness/databases.js';

interface Store {
	args: string[];
	count(appDir: string, table: string): Promise<number>;
	drop(): Promise<void>;
}

const STORES: Array<{ name: string; open(): Promise<Store> }> = [
	{
		name: 'SQLite',
		open: async () => ({
			args: ['--adapter', 'sqlite'],
			async count(appDir, table) {
				const db = new Database(path.join(appDir, 'auth.sqlite'), { readonly: true });
				try {
					return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
				} finally {
					db.close();
				}
			},
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
				count: (_appDir: string, table: string) => database.count(table),
				drop: () => database.drop()
			};
		}
	}))
];

describe.each(STORES)('database sessions on $name in a SvelteKit 2 TypeScript app', ({ name, open }) => {
	let appDir: string;
	let store: Store;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let cli: RunResult;
	const args = () => ['--yes', '--providers', 'credentials', '--strategy', 'database', ...store.args];

	beforeAll(async () => {
		store = await open();
		appDir = await copyFixture('kit2-ts');
		cli = await runCli(appDir, args());
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		await build(appDir);
		server = await start(appDir, { mode: 'preview' });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		if (appDir) await removeApp(appDir);
		await store?.drop();
	});

	if (name !== 'SQLite') {
		it('creates the auth tables right after the install, and says so', async () => {
			expect(cli.stdout).toMatch(new RegExp(`Applied 0001_auth_tables\\.sql to ${store.args[1]}://`));
			expect(await store.count(appDir, 'auth_migrations')).toBe(1);
		});
	}

	credentialsFlows(() => ({
		server: server!,
		browser: browser!,
		check: () => check(appDir),
		runCliAgain: () => runCli(appDir, args())
	}));

	it('keeps one session row per signed-in browser, and deletes it at sign-out', async () => {
		const before = await store.count(appDir, 'auth_sessions');
		const page = await browser!.newPage();
		await page.goto(`${server!.url}/signin`);
		await page.getByLabel('Email').fill(EMAIL);
		await page.getByLabel('Password').fill('correct horse battery staple');
		await page.getByRole('button', { name: 'Sign in', exact: true }).click();
		await page.waitForURL('**/');
		const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.session-token');
		expect(cookie?.value).toMatch(/^[\w-]{43}$/);
		expect(await store.count(appDir, 'auth_sessions')).toBe(before + 1);
		await page.goto(`${server!.url}/account`);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((url) => url.pathname === '/');
		expect(await store.count(appDir, 'auth_sessions')).toBe(before);
		await page.close();
	});
});
