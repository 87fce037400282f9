import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mysqlScratch, postgresScratch, runtimeMigrations } from '../../runtime/test/databases.js';
import { connectDatabase, runMigrations } from '../migrate.js';
import { adapterChecks, probeAdapter, type AdapterFacts, type AdapterFile, type DatabaseFacts } from './adapter.js';
import { envSources } from './check.js';

const file = (extra: Partial<AdapterFile> = {}): AdapterFile => ({ key: 'AUTH_SQLITE_FILE', path: 'auth.sqlite', folder: 'writable', file: 'absent', ...extra });
const facts = (extra: Partial<AdapterFacts> = {}): AdapterFacts => ({
	adapter: 'sqlite',
	drivers: [{ name: 'better-sqlite3', resolved: true }],
	files: [file()],
	...extra
});
const byId = (f: AdapterFacts) => Object.fromEntries(adapterChecks(f).map((check) => [check.id, check]));

describe('adapterChecks', () => {
	it('is ok when the driver resolves and the database file can be created', () => {
		expect(adapterChecks(facts())).toEqual([
			{ id: 'adapter-driver', status: 'ok', message: "The sqlite adapter's driver is installed (better-sqlite3)." },
			{ id: 'adapter-storage', status: 'ok', message: 'auth.sqlite (AUTH_SQLITE_FILE) can be created.' }
		]);
	});

	it('is an error when the driver cannot be found from the app', () => {
		expect(byId(facts({ drivers: [{ name: 'better-sqlite3', resolved: false }] }))['adapter-driver']).toMatchObject({
			status: 'error',
			message: expect.stringContaining('better-sqlite3 cannot be found'),
			hint: expect.stringContaining('install')
		});
	});

	it.each([
		['its folder does not exist', file({ path: 'data/auth.sqlite', folder: 'missing' }), 'the folder of data/auth.sqlite (AUTH_SQLITE_FILE) does not exist'],
		['the file is read-only', file({ file: 'read-only' }), 'auth.sqlite (AUTH_SQLITE_FILE) is read-only'],
		['its folder is read-only and the file absent', file({ folder: 'read-only' }), 'the folder of auth.sqlite (AUTH_SQLITE_FILE) is read-only']
	])('is an error when %s', (_, f, problem) => {
		expect(byId(facts({ files: [f] }))['adapter-storage']).toMatchObject({ status: 'error', message: expect.stringContaining(problem) });
	});

	it('is ok with an existing writable file in a read-only folder (SQLite writes the file)', () => {
		expect(byId(facts({ files: [file({ folder: 'read-only', file: 'writable' })] }))['adapter-storage']).toMatchObject({ status: 'ok', message: expect.stringContaining('can be written') });
	});

	const postgres = (database: DatabaseFacts) => facts({ adapter: 'postgres', drivers: [{ name: 'pg', resolved: true }], files: [], database });

	it.each([
		['DATABASE_URL is unset', { state: 'unset', key: 'DATABASE_URL', example: 'postgres://user:password@host:5432/database' } as const, /DATABASE_URL is not set/, /Set it in \.env/],
		['the server does not answer', { state: 'unreachable', url: 'postgres://app:***@db:5432/app', reason: 'connect ECONNREFUSED' } as const, /postgres:\/\/app:\*\*\*@db:5432\/app does not answer \(connect ECONNREFUSED\)/, /Start the database server/]
	])('is an adapter-database error when %s, with nothing said of migrations', (_, database, message, hint) => {
		const checks = adapterChecks(postgres(database));
		expect(checks.map((check) => check.id)).toEqual(['adapter-driver', 'adapter-database']);
		expect(checks[1]).toMatchObject({ status: 'error', message: expect.stringMatching(message), hint: expect.stringMatching(hint) });
	});

	it('is an adapter-migrations error naming the files not applied, and ok once none are', () => {
		const pending = byId(postgres({ state: 'reachable', url: 'postgres://db/app', pending: ['0002_more.sql'], total: 2 }));
		expect(pending['adapter-database']).toMatchObject({ status: 'ok' });
		expect(pending['adapter-migrations']).toMatchObject({ status: 'error', message: expect.stringContaining('0002_more.sql is not applied'), hint: 'Run npx create-auth migrate.' });
		const done = byId(postgres({ state: 'reachable', url: 'postgres://db/app', pending: [], total: 2 }));
		expect(done['adapter-migrations']).toMatchObject({ status: 'ok', message: 'The auth tables are up to date (2 migrations applied).' });
	});

	it('has no storage check for an adapter that writes no file', () => {
		expect(adapterChecks(facts({ files: [] })).map((check) => check.id)).toEqual(['adapter-driver']);
	});
});

/** An npm app without Drizzle: only the adapter's own native driver is loaded. */
const APP = { dependencies: [], manager: 'npm' as const };

describe('probeAdapter', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'create-auth-adapter-'));
		writeFileSync(path.join(root, 'package.json'), '{}');
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("resolves the driver from the app's node_modules, not create-auth's", async () => {
		expect((await probeAdapter(root, 'sqlite', envSources(), 'src/lib', APP))?.drivers).toEqual([{ name: 'better-sqlite3', resolved: false }]);
		mkdirSync(path.join(root, 'node_modules/better-sqlite3'), { recursive: true });
		writeFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), '{"name":"better-sqlite3","main":"index.js"}');
		writeFileSync(path.join(root, 'node_modules/better-sqlite3/index.js'), '');
		const [found] = (await probeAdapter(root, 'sqlite', envSources(), 'src/lib', APP))!.drivers;
		expect(found).toMatchObject({ name: 'better-sqlite3', resolved: true, loaded: false });
	});

	it('loads a native driver and opens a database with it, under the node on the PATH: ok only when it works', async () => {
		mkdirSync(path.join(root, 'node_modules'));
		for (const name of ['better-sqlite3', 'bindings', 'file-uri-to-path']) symlinkSync(path.join(repoRoot, 'node_modules', name), path.join(root, 'node_modules', name));
		const facts = (await probeAdapter(root, 'sqlite', envSources(), 'src/lib', APP))!;
		expect(facts.drivers).toEqual([{ name: 'better-sqlite3', resolved: true, loaded: true }]);
		expect(adapterChecks(facts)[0]).toMatchObject({ status: 'ok', message: "The sqlite adapter's driver is installed and loads (better-sqlite3)." });
	});

	it('is an error, with why and the fix, for a native driver that is installed but does not load', async () => {
		mkdirSync(path.join(root, 'node_modules/better-sqlite3'), { recursive: true });
		writeFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), '{"name":"better-sqlite3","main":"index.js"}');
		writeFileSync(path.join(root, 'node_modules/better-sqlite3/index.js'), "throw new Error('Could not locate the bindings file.');");
		const [check] = adapterChecks((await probeAdapter(root, 'sqlite', envSources(), 'src/lib', APP))!);
		expect(check).toMatchObject({
			id: 'adapter-driver',
			status: 'error',
			message: `better-sqlite3 cannot load under Node ${process.version}: Error: Could not locate the bindings file. The auth runtime needs it for every sign-in and session.`,
			hint: expect.stringMatching(/^Run npm rebuild better-sqlite3 with the Node that runs the app/)
		});
	});

	it('looks at AUTH_SQLITE_FILE relative to the app, defaulting to auth.sqlite', async () => {
		expect((await probeAdapter(root, 'sqlite', envSources(), 'src/lib', APP))?.files).toEqual([file()]);
		const env = envSources({ env: { AUTH_SQLITE_FILE: 'data/auth.db' } });
		expect((await probeAdapter(root, 'sqlite', env, 'src/lib', APP))?.files).toEqual([file({ path: 'data/auth.db', folder: 'missing' })]);
		mkdirSync(path.join(root, 'data'));
		writeFileSync(path.join(root, 'data/auth.db'), '');
		expect((await probeAdapter(root, 'sqlite', env, 'src/lib', APP))?.files).toEqual([file({ path: 'data/auth.db', file: 'writable' })]);
	});
});

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SCRATCH = { postgres: postgresScratch, mysql: mysqlScratch };

describe.each(['postgres', 'mysql'] as const)('probeAdapter on a %s server', (dialect) => {
	let root: string;
	beforeEach(() => {
		// An app with create-auth's own drivers installed, and the migration files vendored.
		root = mkdtempSync(path.join(tmpdir(), 'create-auth-adapter-'));
		writeFileSync(path.join(root, 'package.json'), '{}');
		symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
		const folder = path.join(root, 'src/lib/server/auth/adapters/migrations', dialect);
		mkdirSync(folder, { recursive: true });
		for (const migration of runtimeMigrations(dialect)) writeFileSync(path.join(folder, migration.name), migration.sql);
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));
	const probe = async (url?: string) => (await probeAdapter(root, dialect, envSources({ env: url ? { DATABASE_URL: url } : {} }), 'src/lib', APP))?.database;

	it('reports DATABASE_URL unset', async () => {
		expect(await probe()).toMatchObject({ state: 'unset', key: 'DATABASE_URL' });
	});

	it('reports a server that does not answer, the password hidden', async () => {
		const database = await probe(`${dialect}://app:s3cret@127.0.0.1:1/app`);
		expect(database).toMatchObject({ state: 'unreachable', url: `${dialect}://app:***@127.0.0.1:1/app`, reason: expect.stringMatching(/\S/) });
		expect(JSON.stringify(database)).not.toContain('s3cret');
	});

	it('lists the migrations a fresh database lacks, and none once migrate has run', async () => {
		const scratch = await SCRATCH[dialect]({ migrate: false });
		try {
			expect(await probe(scratch.url)).toEqual({ state: 'reachable', url: expect.any(String), pending: ['0001_auth_tables.sql', '0002_account_details.sql', '0003_two_factor.sql'], total: 3 });
			const connection = await connectDatabase(repoRoot, dialect, scratch.url);
			await runMigrations(connection, dialect, runtimeMigrations(dialect)).finally(() => connection.close());
			expect(await probe(scratch.url)).toMatchObject({ state: 'reachable', pending: [], total: 3 });
		} finally {
			await scratch.drop();
		}
	});
});
