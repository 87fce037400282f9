import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { installedPackage } from './app-modules.js';
import type { DrizzleSetup } from './drizzle.js';
import { CliError } from './errors.js';

/** The app facts a push needs: where it is, its lib folder and its Drizzle setup. */
export interface DrizzleApp {
	root: string;
	/**
	 * Absolute: the root of the workspace the app is a package of (`Project.installRoot`), where
	 * npm, Yarn and Bun hoist drizzle-kit; `root` when not given.
	 */
	installRoot?: string;
	/** App-relative POSIX (`src/lib`). */
	libDir: string;
	drizzle: DrizzleSetup;
}

/** What a push did: `created` when drizzle-kit applied statements, `unchanged` when the tables already matched. */
export type PushOutcome = 'created' | 'unchanged';

/** The folder of our config for one push (the manifest's); the config is deleted when the push ends. */
export const PUSH_CONFIG_DIR = '.create-auth';

/**
 * Creates the auth tables in the app's database with the app's own drizzle-kit (`drizzle-kit
 * push`), and nothing else. The push reads a config of ours that extends the app's (its
 * dialect, credentials and `.env`, which drizzle-kit loads) with three changes:
 * - `schema`: only the vendored auth table file, so the app's own pending changes stay for its
 *   own `db:push`;
 * - `tablesFilter: ['auth_*']`: drizzle-kit compares only our tables, so it never proposes to
 *   drop the app's;
 * - `strict: false`: sv's config sets `strict: true`, whose confirmation prompt needs a
 *   terminal; without one drizzle-kit prints an error and still exits 0.
 *
 * A change drizzle-kit has to confirm (data loss in an auth table) is never confirmed: the push
 * fails and the user runs it by hand. Success is read from drizzle-kit's own words ("Changes
 * applied", "No changes detected") as well as its exit code, since it exits 0 after such errors.
 *
 * @param timeout milliseconds before drizzle-kit is stopped (default 2 minutes)
 * @returns `created` or `unchanged`
 * @throws {CliError} `E_MIGRATION_FAILED`: drizzle-kit is not installed, fails, times out or
 *   stops at a prompt; the message has the tail of its output
 */
export async function pushAuthTables(app: DrizzleApp, { timeout = 120_000 } = {}): Promise<PushOutcome> {
	const { execa } = await import('execa');
	const { config, dialect } = app.drizzle;
	const file = path.posix.join(PUSH_CONFIG_DIR, `drizzle-push.${config}`);
	const schema = `./${app.libDir}/server/auth/adapters/drizzle-schema/${dialect}.ts`;
	const source = [
		'// Written by create-auth for one `drizzle-kit push` of its auth tables, and deleted after it.',
		`import config from '../${config}';`,
		'',
		`export default { ...config, schema: '${schema}', tablesFilter: ['auth_*'], strict: false, verbose: false };`,
		''
	].join('\n');
	const fail = (detail: string) =>
		new CliError(
			'E_MIGRATION_FAILED',
			`drizzle-kit push did not create the auth tables:\n${detail}`,
			'Fix the cause, then run npx create-auth migrate (or push the schema yourself).'
		);

	await mkdir(path.join(app.root, PUSH_CONFIG_DIR), { recursive: true });
	await writeFile(path.join(app.root, file), source);
	try {
		// The app's own drizzle-kit (or its workspace's), never one found above that or on the PATH.
		const kit = installedPackage(app.root, 'drizzle-kit', app.installRoot ?? app.root);
		const bin = typeof kit?.manifest.bin === 'string' ? kit.manifest.bin : kit?.manifest.bin?.['drizzle-kit'];
		if (!kit || !bin) throw fail('drizzle-kit is not installed in the app (run your install first).');
		const result = await execa(process.execPath, [path.join(kit.dir, bin), 'push', '--config', file], {
			cwd: app.root,
			reject: false,
			all: true,
			stdin: 'ignore',
			timeout,
			env: { FORCE_COLOR: '0' }
		});
		const output = String(result.all ?? '');
		if (!result.failed && output.includes('No changes detected')) return 'unchanged';
		if (!result.failed && output.includes('Changes applied')) return 'created';
		throw fail(output.split('\n').slice(-15).join('\n') || (result.message ?? 'no output'));
	} finally {
		await rm(path.join(app.root, file), { force: true });
	}
}
