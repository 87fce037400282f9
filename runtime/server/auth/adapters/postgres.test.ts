import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { postgresScratch } from '../../../test/databases.js';
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

	it('fails each call with a rejected promise while the server is unreachable', async () => {
		const adapter = PostgresAdapter({ connectionString: 'postgres://postgres@127.0.0.1:1/test' });
		await expect(adapter.getSessionAndUser('s1')).rejects.toThrow(/ECONNREFUSED/);
	});
});
