/**
 * The upgrade to hashed session keys (0.2.0) on the real stores: a session row a runtime before
 * 0.2.0 wrote under the raw token keeps its user signed in, and its row is moved under the hash.
 * `kit.test.ts` proves the rules on the memory adapter; this proves the SQL adapters' part (a
 * lookup by the raw value, a new row, the old one deleted) on SQLite, PostgreSQL and MariaDB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { Jar, requestEvent } from '../../../test/event.js';
import { mysqlScratch, postgresScratch } from '../../../test/databases.js';
import { MySQLAdapter } from '../adapters/mysql.js';
import { PostgresAdapter } from '../adapters/postgres.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';
import { SvelteKitAuth } from '../kit.js';
import { storedSessionKey } from './stored-key.js';

type Store = { adapter: Required<Adapter>; close(): Promise<void> };

const STORES: Array<[string, () => Promise<Store>]> = [
	[
		'SQLite',
		async () => {
			const file = join(mkdtempSync(join(tmpdir(), 'create-auth-upgrade-')), 'auth.sqlite');
			return { adapter: SQLiteAdapter({ filename: file }), close: async () => rmSync(dirname(file), { recursive: true, force: true }) };
		}
	],
	[
		'PostgreSQL',
		async () => {
			const scratch = await postgresScratch();
			const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
			return { adapter: PostgresAdapter({ pool }), close: async () => (await pool.end(), await scratch.drop()) };
		}
	],
	[
		'MariaDB',
		async () => {
			const scratch = await mysqlScratch();
			const pool = mysql.createPool({ uri: scratch.url, connectionLimit: 2, timezone: 'Z' });
			return { adapter: MySQLAdapter({ pool }), close: async () => (await pool.end(), await scratch.drop()) };
		}
	]
];

let opened: Store | undefined;
afterEach(async () => {
	await opened?.close();
	opened = undefined;
});

describe.each(STORES)('a session stored before 0.2.0, on %s', (_, open) => {
	it('keeps its user signed in, and its row ends up under the hash, the raw token gone from the table', async () => {
		opened = await open();
		const { adapter } = opened;
		await adapter.createUser({ id: 'u1', email: 'ada@example.com', emailVerified: null, name: 'Ada', image: null });
		const legacy = crypto.getRandomValues(new Uint8Array(32));
		const token = Buffer.from(legacy).toString('base64url');
		await adapter.createSession({ sessionToken: token, userId: 'u1', expires: new Date(Date.now() + 3_600_000) });
		const auth = SvelteKitAuth({ secret: 's'.repeat(32), adapter, providers: [], session: { strategy: 'database' } });

		const jar = new Jar();
		jar.values.set('auth.session-token', token);
		for (let read = 0; read < 2; read++) {
			const event = requestEvent('http://localhost/account', jar);
			await auth.handle({ event, resolve: async () => new Response('ok') });
			expect(await (event.locals as { auth(): Promise<unknown> }).auth()).toMatchObject({ user: { id: 'u1', email: 'ada@example.com' } });
		}
		expect(await adapter.getSessionAndUser(token)).toBeNull();
		expect(await adapter.getSessionAndUser(storedSessionKey(token))).toMatchObject({ session: { userId: 'u1' } });
	});
});
