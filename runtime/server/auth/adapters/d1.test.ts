import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { D1_MIGRATIONS, localD1, type LocalD1 } from '../../../test/d1.js';
import { DriverUnavailable } from '../errors.js';
import { D1Adapter } from './d1.js';
import { SQLiteAdapter } from './sqlite.js';

let shared: Promise<LocalD1> | undefined;
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
		migrated.exec(readFileSync(join(D1_MIGRATIONS, '0001_create_auth_tables.sql'), 'utf8'));
		const file = new Database(':memory:');
		await SQLiteAdapter({ database: file }).getUser('nobody');
		expect(tables(migrated)).toEqual(tables(file));
		expect(tables(migrated).length).toBeGreaterThan(7);
	});
});
