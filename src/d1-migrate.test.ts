import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { applyD1Migrations } from './d1-migrate.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const MIGRATIONS = path.join(REPO, 'runtime/server/auth/adapters/migrations/d1');
const DIR = 'src/lib/server/auth/adapters/migrations/d1';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

/** An app folder inside the repo, so that the repo's wrangler is the app's (installRoot: the repo). */
async function app(config: object) {
	await mkdir(path.join(REPO, '.cache'), { recursive: true });
	root = await mkdtemp(path.join(REPO, '.cache', 'd1-migrate-'));
	await cp(MIGRATIONS, path.join(root, DIR), { recursive: true });
	const text = JSON.stringify(config);
	await writeFile(path.join(root, 'wrangler.jsonc'), text);
	return { root, libDir: 'src/lib', installRoot: REPO, files: { 'wrangler.jsonc': text } };
}

const CONFIG = { name: 'shop', compatibility_date: '2026-05-01', d1_databases: [{ binding: 'DB', database_name: 'shop-auth', migrations_dir: DIR }] };

describe('applyD1Migrations', () => {
	it("applies create-auth's D1 migrations to the local database with wrangler, each once", async () => {
		const target = await app(CONFIG);
		expect(await applyD1Migrations(target)).toEqual({ database: CONFIG.d1_databases[0], applied: ['0001_create_auth_tables.sql', '0002_rate_limits.sql'] });
		expect(await applyD1Migrations(target)).toMatchObject({ applied: [] });
	}, 120_000);

	it('refuses a config without its binding (E_WRANGLER_CONFIG), and reports a failing migration with wrangler\'s words (E_MIGRATION_FAILED)', async () => {
		const unbound = await app({ ...CONFIG, d1_databases: [] });
		await expect(applyD1Migrations(unbound)).rejects.toMatchObject({ code: 'E_WRANGLER_CONFIG' });
		await rm(root, { recursive: true, force: true });
		const broken = await app(CONFIG);
		await writeFile(path.join(root, DIR, '0003_broken.sql'), 'CREATE TABLE auth_users (id TEXT);\n');
		const failure = await applyD1Migrations(broken).catch((err: unknown) => err);
		expect(failure).toMatchObject({ code: 'E_MIGRATION_FAILED', message: expect.stringContaining('already exists') });
		expect(await readFile(path.join(root, 'wrangler.jsonc'), 'utf8')).toBe(JSON.stringify(CONFIG));
	}, 120_000);
});
