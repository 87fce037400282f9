import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { postgresScratch, tcpProxy } from '../../../test/databases.js';
import { PostgresAdapter } from './postgres.js';

describeAdapterContract('PostgresAdapter', async () => {
	const scratch = await postgresScratch();
	const pools: pg.Pool[] = [];
	const open = () => {
		const pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
		pools.push(pool);
		return PostgresAdapter({ pool });
	};
	return {
		adapter: open(),
		twin: open,
		userCount: async () => Number((await pools[0]!.query('SELECT count(*) AS count FROM auth_users')).rows[0].count),
		async close() {
			await Promise.all(pools.map((pool) => pool.end()));
			await scratch.drop();
		}
	};
});

describe('PostgresAdapter', () => {
	it('opens its own pool from a connection string, lazily, and stores dates as timestamptz', async () => {
		const scratch = await postgresScratch();
		const adapter = PostgresAdapter({ connectionString: scratch.url });
		const client = new pg.Client({ connectionString: scratch.url });
		await client.connect();
		try {
			const expires = new Date('2030-01-02T03:04:05.678Z');
			await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
			await adapter.createSession({ sessionToken: 's1', userId: 'u1', expires });
			const { rows } = await client.query(`SELECT pg_typeof(expires)::text AS type, expires FROM auth_sessions`);
			expect(rows).toEqual([{ type: 'timestamp with time zone', expires }]);
		} finally {
			await client.end();
			await scratch.drop();
		}
	});

	it('fails calls while the server is unreachable, and recovers by itself when it is back', async () => {
		const scratch = await postgresScratch();
		const proxy = await tcpProxy(Number(new URL(scratch.url).port));
		const url = new URL(scratch.url);
		url.port = String(proxy.port);
		const adapter = PostgresAdapter({ connectionString: url.href });
		try {
			await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
			await proxy.stop();
			await expect(adapter.getUser('u1')).rejects.toThrow();
			await proxy.start();
			expect(await adapter.getUser('u1')).toMatchObject({ id: 'u1' });
		} finally {
			await proxy.stop();
			await scratch.drop();
		}
	});

	it('prepares each statement once per connection, and again when a migration adds a column to a table it reads whole', async () => {
		const scratch = await postgresScratch();
		const pool = new pg.Pool({ connectionString: scratch.url, max: 1 });
		const adapter = PostgresAdapter({ pool });
		const prepared = async () => (await pool.query(`SELECT statement FROM pg_prepared_statements`)).rows.map((row) => row.statement as string);
		try {
			await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
			await adapter.createSession({ sessionToken: 's1', userId: 'u1', expires: new Date(Date.now() + 60_000) });
			await adapter.getSessionAndUser('s1');
			await adapter.getSessionAndUser('s1');
			expect((await prepared()).filter((text) => text.includes('JOIN auth_users'))).toHaveLength(1);

			// The prepared join's result type changed under it: PostgreSQL refuses it ("cached plan must not change result type").
			await pool.query(`ALTER TABLE auth_users ADD COLUMN role text NOT NULL DEFAULT 'member'`);
			expect((await adapter.getSessionAndUser('s1'))?.user).toMatchObject({ id: 'u1', role: 'member' });
			expect(await adapter.getUser('u1')).toMatchObject({ role: 'member' });
		} finally {
			await pool.end();
			await scratch.drop();
		}
	});

	it('uses unnamed statements once a connection does not know a prepared name (a pooler in transaction mode), and with preparedStatements: false', async () => {
		const scratch = await postgresScratch();
		const real = new pg.Pool({ connectionString: scratch.url, max: 2 });
		const named: string[] = [];
		// A pooler that runs each statement on whichever server connection is free: the name prepared on one is unknown on the next.
		const pooler = {
			query(config: string | pg.QueryConfig, values?: unknown[]) {
				if (typeof config === 'object' && config.name) {
					named.push(config.name);
					if (named.length > 1) return Promise.reject(Object.assign(new Error(`prepared statement "${config.name}" does not exist`), { code: '26000' }));
				}
				return real.query(config as string, values);
			}
		} as unknown as pg.Pool;
		const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		try {
			const adapter = PostgresAdapter({ pool: pooler });
			await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: null });
			expect(await adapter.getUser('u1')).toMatchObject({ id: 'u1' });
			expect(await adapter.getUserByEmail('a@example.com')).toMatchObject({ id: 'u1' });
			expect(named).toHaveLength(2);
			expect(log).toHaveBeenCalledTimes(1);
			expect(log).toHaveBeenCalledWith(expect.stringContaining('prepared statements are not supported here'));

			named.length = 0;
			const unprepared = PostgresAdapter({ pool: pooler, preparedStatements: false });
			expect(await unprepared.getUser('u1')).toMatchObject({ id: 'u1' });
			expect(named).toEqual([]);
		} finally {
			log.mockRestore();
			await real.end();
			await scratch.drop();
		}
	});
});
