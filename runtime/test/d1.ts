import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { D1Binding } from '../server/auth/adapters/d1.js';

/** The D1 migrations the CLI vendors, which `wrangler d1 migrations apply` runs in an app. */
export const D1_MIGRATIONS = resolve(import.meta.dirname, '../server/auth/adapters/migrations/d1');

/** A local D1 database, its binding as a Worker gets it, and `exec` for scripts. */
export interface LocalD1 {
	db: D1Binding & { exec(sql: string): Promise<unknown> };
	close(): Promise<void>;
}

/**
 * A local D1 database as `wrangler dev` runs it (workerd through miniflare, SQLite files in a
 * temporary folder), its tables made by `wrangler d1 migrations apply --local` from
 * {@link D1_MIGRATIONS}, the way an app's are; reached from Node through wrangler's
 * `getPlatformProxy`. Takes a few seconds: share one per test file.
 */
export async function localD1(): Promise<LocalD1> {
	const dir = mkdtempSync(join(tmpdir(), 'create-auth-d1-'));
	const config = join(dir, 'wrangler.jsonc');
	writeFileSync(
		config,
		JSON.stringify({
			name: 'create-auth-d1-test',
			compatibility_date: '2026-05-01',
			d1_databases: [{ binding: 'DB', database_name: 'auth', migrations_dir: D1_MIGRATIONS }]
		})
	);
	const persist = join(dir, 'state');
	const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
	execFileSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '--config', config], {
		env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
		stdio: 'pipe'
	});
	const { getPlatformProxy } = await import('wrangler');
	const proxy = await getPlatformProxy<{ DB: LocalD1['db'] }>({ configPath: config, persist: { path: join(persist, 'v3') } });
	return {
		db: proxy.env.DB,
		async close() {
			await proxy.dispose();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}
