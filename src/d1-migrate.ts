import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { installedPackage } from './app-modules.js';
import { CliError } from './errors.js';
import { authDatabase, readWranglerConfig, WRANGLER_CONFIGS, type D1Database } from './wrangler.js';

/** What applying create-auth's D1 migrations locally did, and to which binding. */
export interface D1MigrationOutcome {
	database: D1Database;
	/** The migration files wrangler applied now (none: all had run before). */
	applied: string[];
}

/** create-auth's D1 binding in the app's Wrangler config on disk (as a run just wrote it); undefined when there is none. */
export async function authBinding(root: string, libDir: string): Promise<string | undefined> {
	const files = Object.fromEntries(await Promise.all(WRANGLER_CONFIGS.map(async (file) => [file, await readFile(path.join(root, file), 'utf8').catch(() => undefined)] as const)));
	try {
		const found = authDatabase(readWranglerConfig(files), libDir);
		return found.added ? undefined : found.database.binding;
	} catch {
		return undefined;
	}
}

/**
 * Creates the auth tables in the app's local D1 database (the one `wrangler dev` and `vite dev`
 * use, under `.wrangler/state`) with the app's own wrangler: `wrangler d1 migrations apply
 * <binding> --local`, which applies each file of the binding's `migrations_dir` once and
 * records it in the database's `d1_migrations` table. The remote database is the user's to
 * migrate (`--remote`), with their Cloudflare login.
 *
 * @param app the app's folder, its lib folder, its Wrangler config files (app-relative path →
 *   text), and where its install ran
 * @param timeout milliseconds before wrangler is stopped (default 2 minutes)
 * @throws {CliError} `E_WRANGLER_CONFIG` when the config does not bind create-auth's database
 *   (from {@link readWranglerConfig} too); `E_MIGRATION_FAILED` when wrangler is not installed,
 *   fails or times out (its output's tail in the message)
 */
export async function applyD1Migrations(
	app: { root: string; libDir: string; files: Record<string, string | undefined>; installRoot?: string },
	timeout = 120_000
): Promise<D1MigrationOutcome> {
	const config = readWranglerConfig(app.files);
	const { database, added } = authDatabase(config, app.libDir);
	if (added) {
		throw new CliError(
			'E_WRANGLER_CONFIG',
			`${config?.path ?? 'The app has no Wrangler config, so it'} binds no D1 database to create-auth's migrations.`,
			'Run npx create-auth regenerate, which adds it, then npx create-auth migrate.'
		);
	}
	const fail = (detail: string) => new CliError('E_MIGRATION_FAILED', `wrangler did not create the auth tables in D1:\n${detail}`, `Run npx wrangler d1 migrations apply ${database.binding} --local to see why.`);
	// The app's own wrangler (adapter-cloudflare's peer), never one found above it or on the PATH.
	const wrangler = installedPackage(app.root, 'wrangler', app.installRoot ?? app.root);
	const bin = typeof wrangler?.manifest.bin === 'string' ? wrangler.manifest.bin : wrangler?.manifest.bin?.wrangler;
	if (!wrangler || !bin) throw fail('wrangler is not installed in the app (run your install first).');
	const { execa } = await import('execa');
	const result = await execa(process.execPath, [path.join(wrangler.dir, bin), 'd1', 'migrations', 'apply', database.binding, '--local'], {
		cwd: app.root,
		reject: false,
		all: true,
		stdin: 'ignore',
		timeout,
		// CI: wrangler answers its own confirmation (yes) instead of waiting for a terminal.
		env: { CI: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false' }
	});
	const output = String(result.all ?? '');
	if (result.failed) throw fail(output.split('\n').slice(-15).join('\n') || (result.message ?? 'no output'));
	// wrangler's table of what it applied, "│ 0001_create_auth_tables.sql │ ✅ │", printed anew after each file.
	const applied = [...new Set([...output.matchAll(/(\S+\.sql)\s*│\s*✅/g)].map((match) => match[1]!))];
	return { database, applied };
}
