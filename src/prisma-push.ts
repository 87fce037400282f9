import { existsSync } from 'node:fs';
import path from 'node:path';
import { installedPackage } from './app-modules.js';
import { CliError } from './errors.js';
import type { PrismaSetup } from './prisma.js';

/** The app facts a push needs: where it is, and its Prisma setup. */
export interface PrismaApp {
	root: string;
	/** Absolute: the root of the workspace the app is a package of, where its Prisma CLI may be hoisted; `root` when not given. */
	installRoot?: string;
	prisma: PrismaSetup;
}

/**
 * What a push did: `pushed` when `prisma db push` brought the database in line with the schema;
 * `migrations` when the app keeps Prisma migrations (a `migrations` folder beside its schema),
 * which a push would bypass: the auth tables are then the app's next `prisma migrate dev`.
 */
export type PrismaPushOutcome = 'pushed' | 'migrations';

/** The command that adds the auth tables to an app's Prisma migrations. */
export const PRISMA_MIGRATE_STEP = 'npx prisma migrate dev --name create-auth';

/**
 * Creates the auth tables with the app's own Prisma CLI: `prisma db push` of its schema (which
 * now holds the auth models), then `prisma generate`, so that the app's client knows them; run
 * in the app's folder as the app runs them, so Prisma finds its config and schema itself. The
 * app's config (`prisma.config.ts`: its datasource URL and `.env` loading) is Prisma's to read.
 * A push Prisma has to confirm (data loss) is never confirmed: it fails, and the user runs it.
 * Not run when the app keeps migrations: they would no longer match the database.
 *
 * @param timeout milliseconds before each command is stopped (default 2 minutes)
 * @throws {CliError} `E_MIGRATION_FAILED`: the Prisma CLI is not installed, fails or times out;
 *   the message has the tail of its output
 */
export async function pushPrismaTables(app: PrismaApp, { timeout = 120_000 } = {}): Promise<PrismaPushOutcome> {
	if (existsSync(path.join(app.root, path.dirname(app.prisma.schema), 'migrations'))) return 'migrations';
	const { execa } = await import('execa');
	const fail = (detail: string) =>
		new CliError('E_MIGRATION_FAILED', `prisma db push did not create the auth tables:\n${detail}`, 'Fix the cause, then run npx create-auth migrate (or npx prisma db push yourself).');
	// The app's own Prisma CLI (or its workspace's), never one found above that or on the PATH.
	const cli = installedPackage(app.root, 'prisma', app.installRoot ?? app.root);
	const bin = typeof cli?.manifest.bin === 'string' ? cli.manifest.bin : cli?.manifest.bin?.prisma;
	if (!cli || !bin) throw fail('prisma is not installed in the app (run your install first).');
	for (const command of ['db push', 'generate']) {
		// No --schema: Prisma finds the schema as the app's own commands do (its config, which may name a folder).
		const result = await execa(process.execPath, [path.join(cli.dir, bin), ...command.split(' ')], {
			cwd: app.root,
			reject: false,
			all: true,
			stdin: 'ignore',
			timeout,
			env: { FORCE_COLOR: '0', PRISMA_HIDE_UPDATE_MESSAGE: '1' }
		});
		if (result.failed) throw fail(`prisma ${command}: ${String(result.all ?? '').split('\n').slice(-15).join('\n') || (result.message ?? 'no output')}`);
	}
	return 'pushed';
}
