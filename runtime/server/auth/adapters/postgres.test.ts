import pg from 'pg';
import { describe, expect, it } from 'vitest';
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
});
