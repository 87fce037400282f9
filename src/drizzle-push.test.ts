import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresDatabase } from '../e2e/harness/databases.js';
import { pushAuthTables, PUSH_CONFIG_DIR, type DrizzleApp } from './drizzle-push.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const AUTH_TABLES = ['auth_accounts', 'auth_authenticators', 'auth_recovery_codes', 'auth_sessions', 'auth_two_factors', 'auth_users', 'auth_verification_tokens'];

/** drizzle.config.ts as `sv add drizzle` writes it: strict (asks before every push), DATABASE_URL required. */
const svConfig = (dialect: string) => `import { defineConfig } from 'drizzle-kit';

if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');

export default defineConfig({
	schema: './src/lib/server/db/schema.ts',
	dialect: '${dialect}',
	dbCredentials: { url: process.env.DATABASE_URL },
	verbose: true,
	strict: true
});
`;

/** The app's schema: a table of its own not pushed yet, and our tables re-exported, as the CLI leaves it. */
const appSchema = (dialect: 'sqlite' | 'postgres') =>
	(dialect === 'sqlite'
		? "import { sqliteTable, text } from 'drizzle-orm/sqlite-core';\n\nexport const task = sqliteTable('task', { id: text('id').primaryKey() });\n"
		: "import { pgTable, text } from 'drizzle-orm/pg-core';\n\nexport const task = pgTable('task', { id: text('id').primaryKey() });\n") +
	`export * from '../auth/adapters/drizzle-schema/${dialect}';\n`;

const apps: string[] = [];
afterEach(async () => {
	for (const app of apps.splice(0)) await rm(app, { recursive: true, force: true });
});

/** An app as the CLI leaves it before the push: sv's config, `.env`, the app's schema and our vendored table file. */
async function drizzleApp(dialect: 'sqlite' | 'postgres', databaseUrl: string, { installed = true, hoisted = false } = {}): Promise<DrizzleApp> {
	// hoisted: the app is apps/web of a workspace whose root has the node_modules (npm workspaces).
	const top = await mkdtemp(path.join(tmpdir(), 'create-auth-push-'));
	apps.push(top);
	const root = hoisted ? path.join(top, 'apps/web') : top;
	await mkdir(root, { recursive: true });
	await writeFile(path.join(root, 'drizzle.config.ts'), svConfig(dialect === 'postgres' ? 'postgresql' : 'sqlite'));
	await writeFile(path.join(root, '.env'), `DATABASE_URL=${databaseUrl}\n`);
	await mkdir(path.join(root, 'src/lib/server/db'), { recursive: true });
	await writeFile(path.join(root, 'src/lib/server/db/schema.ts'), appSchema(dialect));
	await cp(path.join(repoRoot, `runtime/server/auth/adapters/drizzle-schema/${dialect}.ts`), path.join(root, `src/lib/server/auth/adapters/drizzle-schema/${dialect}.ts`), {
		recursive: true
	});
	if (installed) await symlink(path.join(repoRoot, 'node_modules'), path.join(top, 'node_modules'));
	return { root, ...(hoisted ? { installRoot: top } : {}), libDir: 'src/lib', drizzle: { config: 'drizzle.config.ts', dialect, schema: 'src/lib/server/db/schema.ts', db: 'server/db/index' } };
}

const sqliteTables = (file: string) => {
	const db = new Database(file, { readonly: true });
	try {
		return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map(({ name }) => name);
	} finally {
		db.close();
	}
};

describe('pushAuthTables', () => {
	it("creates the auth tables with the app's drizzle-kit despite sv's strict config, and leaves the app's own tables and pending changes alone", async () => {
		const app = await drizzleApp('sqlite', 'local.db');
		const file = path.join(app.root, 'local.db');
		const existing = new Database(file);
		existing.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('kept')");
		existing.close();

		expect(await pushAuthTables(app)).toBe('created');
		// `task` is in the app's schema but not pushed: that is the app's own db:push to make; `notes` is not in its schema and stays.
		expect(sqliteTables(file)).toEqual([...AUTH_TABLES, 'notes']);
		expect(await readdir(path.join(app.root, PUSH_CONFIG_DIR))).toEqual([]);
		expect(await pushAuthTables(app)).toBe('unchanged');
	}, 60_000);

	it('never confirms data loss: a push that would drop a column with data fails with E_MIGRATION_FAILED and changes nothing', async () => {
		const app = await drizzleApp('sqlite', 'local.db');
		expect(await pushAuthTables(app)).toBe('created');
		const db = new Database(path.join(app.root, 'local.db'));
		db.exec("ALTER TABLE auth_users ADD COLUMN nickname TEXT; INSERT INTO auth_users (id, nickname) VALUES ('u1', 'ada')");
		db.close();

		const failure = await pushAuthTables(app).catch((error: unknown) => error);
		expect(failure).toMatchObject({ code: 'E_MIGRATION_FAILED' });
		expect((failure as Error).message).toMatch(/drizzle-kit push did not create the auth tables:\n[\s\S]*\S/);
		const after = new Database(path.join(app.root, 'local.db'), { readonly: true });
		expect(after.prepare('SELECT id, nickname FROM auth_users').all()).toEqual([{ id: 'u1', nickname: 'ada' }]);
		after.close();
		expect(existsSync(path.join(app.root, PUSH_CONFIG_DIR, 'drizzle-push.drizzle.config.ts'))).toBe(false);
	}, 60_000);

	it('fails with E_MIGRATION_FAILED, naming the cause, when drizzle-kit is not installed', async () => {
		const app = await drizzleApp('sqlite', 'local.db', { installed: false });
		await expect(pushAuthTables(app)).rejects.toMatchObject({ code: 'E_MIGRATION_FAILED', message: expect.stringContaining('drizzle-kit is not installed') });
	});

	it("runs the workspace's drizzle-kit, hoisted to its root, and never one above the install root", async () => {
		const app = await drizzleApp('sqlite', 'local.db', { hoisted: true });
		expect(await pushAuthTables(app)).toBe('created');
		expect(sqliteTables(path.join(app.root, 'local.db'))).toEqual(expect.arrayContaining(AUTH_TABLES));
		await expect(pushAuthTables({ ...app, installRoot: undefined })).rejects.toMatchObject({ message: expect.stringContaining('drizzle-kit is not installed') });
	}, 60_000);

	it('fails with E_MIGRATION_FAILED when the database is unreachable', async () => {
		const app = await drizzleApp('postgres', 'postgres://postgres@127.0.0.1:1/none');
		await expect(pushAuthTables(app, { timeout: 30_000 })).rejects.toMatchObject({ code: 'E_MIGRATION_FAILED' });
	}, 60_000);

	it("on PostgreSQL, creates the auth tables in the app's database next to its own", async () => {
		const database = await postgresDatabase('push');
		try {
			const client = new pg.Client({ connectionString: database.url });
			await client.connect();
			try {
				await client.query("CREATE TABLE notes (body text); INSERT INTO notes VALUES ('kept')");
				const app = await drizzleApp('postgres', database.url);
				expect(await pushAuthTables(app)).toBe('created');
				const tables = await client.query<{ table_name: string }>(
					"SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"
				);
				expect(tables.rows.map((row) => row.table_name)).toEqual([...AUTH_TABLES, 'notes']);
				expect(await pushAuthTables(app)).toBe('unchanged');
			} finally {
				await client.end();
			}
		} finally {
			await database.drop();
		}
	}, 60_000);
});
