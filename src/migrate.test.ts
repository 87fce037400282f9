import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mysqlScratch, postgresScratch, runtimeMigrations } from '../runtime/test/databases.js';
import { connectDatabase, runMigrations, type SqlDialectId } from './migrate.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const SCRATCH = { postgres: postgresScratch, mysql: mysqlScratch };

describe.each(['postgres', 'mysql'] as const)('runMigrations on %s', (dialect: SqlDialectId) => {
	it('applies each file once and records it; a second run applies nothing', async () => {
		const scratch = await SCRATCH[dialect]({ migrate: false });
		const connection = await connectDatabase(repoRoot, dialect, scratch.url);
		try {
			const migrations = runtimeMigrations(dialect);
			const files = ['0001_auth_tables.sql', '0002_account_details.sql', '0003_two_factor.sql'];
			expect(await runMigrations(connection, dialect, migrations)).toEqual({ applied: files, before: [] });
			expect(await runMigrations(connection, dialect, migrations)).toEqual({ applied: [], before: files });
			expect((await connection.query('SELECT name FROM auth_migrations ORDER BY name')).map((row) => row.name)).toEqual(files);
		} finally {
			await connection.close();
			await scratch.drop();
		}
	});

	it('stops at a failing file with E_MIGRATION_FAILED naming it; the files before it stay applied', async () => {
		const scratch = await SCRATCH[dialect]({ migrate: false });
		const connection = await connectDatabase(repoRoot, dialect, scratch.url);
		try {
			const broken = [...runtimeMigrations(dialect).slice(0, 1), { name: '0002_broken.sql', sql: 'CREATE TABLE auth_broken (id INT);\nSELECT * FROM no_such_table;' }];
			await expect(runMigrations(connection, dialect, broken)).rejects.toMatchObject({ code: 'E_MIGRATION_FAILED', message: expect.stringContaining('0002_broken.sql') });
			expect((await connection.query('SELECT name FROM auth_migrations')).map((row) => row.name)).toEqual(['0001_auth_tables.sql']);
		} finally {
			await connection.close();
			await scratch.drop();
		}
	});
});

describe('connectDatabase', () => {
	it('fails with E_DATABASE_UNREACHABLE, the password hidden, when nothing listens', async () => {
		const failure = connectDatabase(repoRoot, 'postgres', 'postgres://app:s3cret@127.0.0.1:1/app');
		await expect(failure).rejects.toMatchObject({ code: 'E_DATABASE_UNREACHABLE' });
		await expect(failure).rejects.not.toThrow(/s3cret/);
	});

	it('fails with E_DRIVER_MISSING when the app has not installed the driver', async () => {
		await expect(connectDatabase(tmpdir(), 'mysql', 'mysql://root@127.0.0.1:3306/test')).rejects.toMatchObject({ code: 'E_DRIVER_MISSING' });
	});
});
