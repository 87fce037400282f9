import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { mysqlScratch } from '../../../test/databases.js';
import { MySQLAdapter } from './mysql.js';

describeAdapterContract('MySQLAdapter (MariaDB)', async () => {
	const scratch = await mysqlScratch();
	const pools: mysql.Pool[] = [];
	const open = () => {
		const pool = mysql.createPool({ uri: scratch.url, connectionLimit: 4, timezone: 'Z' });
		pools.push(pool);
		return MySQLAdapter({ pool });
	};
	return {
		adapter: open(),
		twin: open,
		async userCount() {
			const [rows] = await pools[0]!.query('SELECT count(*) AS count FROM auth_users');
			return Number((rows as { count: number }[])[0]!.count);
		},
		async close() {
			await Promise.all(pools.map((pool) => pool.end()));
			await scratch.drop();
		}
	};
});

describe('MySQLAdapter', () => {
	it('reads back the dates it wrote, to the millisecond, whatever the session time zone', async () => {
		const scratch = await mysqlScratch();
		const adapter = MySQLAdapter({ uri: scratch.url });
		const expires = new Date('2030-01-02T03:04:05.678Z');
		await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: expires });
		await adapter.createSession({ sessionToken: 's1', userId: 'u1', expires });
		const found = await adapter.getSessionAndUser('s1');
		expect(found?.session.expires.toISOString()).toBe(expires.toISOString());
		expect(found?.user.emailVerified?.toISOString()).toBe(expires.toISOString());
		await scratch.drop();
	});

	it('tells tokens apart by case, which MySQL’s default collation would not', async () => {
		const scratch = await mysqlScratch();
		const adapter = MySQLAdapter({ uri: scratch.url });
		await adapter.createVerificationToken({ identifier: 'a@example.com', token: 'AbC', expires: new Date(Date.now() + 60_000) });
		expect(await adapter.useVerificationToken({ identifier: 'a@example.com', token: 'abc' })).toBeNull();
		expect(await adapter.useVerificationToken({ identifier: 'a@example.com', token: 'AbC' })).not.toBeNull();
		await scratch.drop();
	});
});
