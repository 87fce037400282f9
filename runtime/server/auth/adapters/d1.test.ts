import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { DriverUnavailable } from '../errors.js';
import { D1Adapter, type D1Binding } from './d1.js';
import { SQLiteAdapter } from './sqlite.js';

const MIGRATIONS = resolve(import.meta.dirname, 'migrations/d1');
const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');

/**
 * A local D1 database as `wrangler dev` runs it (workerd through miniflare, SQLite files under
 * `persist`), its tables made by `wrangler d1 migrations apply --local` from `migrations/d1`, the
 * way an app's are; reached from Node through wrangler's `getPlatformProxy`.
 */
async function localD1() {
	const dir = mkdtempSync(join(tmpdir(), 'create-auth-d1-'));
	const config = join(dir, 'wrangler.jsonc');
	writeFileSync(
		config,
		JSON.stringify({
			name: 'create-auth-d1-test',
			compatibility_date: '2026-05-01',
			d1_databases: [{ binding: 'DB', database_name: 'auth', migrations_dir: MIGRATIONS }]
		})
	);
	const persist = join(dir, 'state');
	execFileSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '--config', config], {
		env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
		stdio: 'pipe'
	});
	const { getPlatformProxy } = await import('wrangler');
	const proxy = await getPlatformProxy<{ DB: D1Binding & { exec(sql: string): Promise<unknown> } }>({ configPath: config, persist: { path: join(persist, 'v3') } });
	return {
		db: proxy.env.DB,
		async close() {
			await proxy.dispose();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}

let shared: ReturnType<typeof localD1> | undefined;
const d1 = () => (shared ??= localD1());
afterAll(async () => (await shared)?.close());

describeAdapterContract('D1Adapter', async () => {
	const { db } = await d1();
	// Each test starts on empty tables: deleting the users cascades to what hangs off them.
	await db.exec('DELETE FROM auth_users; DELETE FROM auth_verification_tokens;');
	return {
		adapter: D1Adapter({ database: db }),
		twin: () => D1Adapter({ database: db }),
		async userCount() {
			const { results } = await db.prepare('SELECT count(*) AS count FROM auth_users').bind().all();
			return Number(results[0]!.count);
		},
		close: async () => undefined
	};
});

describe('D1Adapter', () => {
	it("finds the binding on each request's platform.env, by its name", async () => {
		const { db } = await d1();
		let platform: unknown = { env: { DB: db } };
		const adapter = D1Adapter({ binding: 'DB', getRequestEvent: () => ({ platform }) });
		await adapter.createUser({ id: 'binding-user', email: 'binding@example.com', emailVerified: null });
		expect(await adapter.getUser('binding-user')).toMatchObject({ email: 'binding@example.com' });
		platform = { env: {} };
		const missing = adapter.getUser('binding-user');
		await expect(missing).rejects.toBeInstanceOf(DriverUnavailable);
		await expect(missing).rejects.toThrow(/no D1 binding named DB: add it to d1_databases/);
		platform = undefined;
		await expect(adapter.getUser('binding-user')).rejects.toThrow(/the request has no platform\.env/);
	});

	it("makes the same tables as SQLiteAdapter's file: columns, keys, indexes", async () => {
		const tables = (db: Database.Database) =>
			db
				.prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE name LIKE 'auth_%' ORDER BY name")
				.all()
				.map((row) => ({ ...(row as object), columns: db.pragma(`table_info(${(row as { tbl_name: string }).tbl_name})`), keys: db.pragma(`foreign_key_list(${(row as { tbl_name: string }).tbl_name})`) }));
		const migrated = new Database(':memory:');
		migrated.exec(readFileSync(join(MIGRATIONS, '0001_create_auth_tables.sql'), 'utf8'));
		const file = new Database(':memory:');
		await SQLiteAdapter({ database: file }).getUser('nobody');
		expect(tables(migrated)).toEqual(tables(file));
		expect(tables(migrated).length).toBeGreaterThan(7);
	});
});
