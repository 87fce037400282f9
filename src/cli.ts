import { Command, CommanderError } from 'commander';
import { ADAPTER_IDS } from './adapters.js';
import { loadToolPackage } from './assets.js';
import { devIdp, parsePort, parseRedirectUri } from './commands/dev-idp.js';
import { PROVIDERS } from './providers/index.js';
import { CliError } from './errors.js';

/**
 * Runs the CLI. The one place that turns errors into output and an exit code: a
 * {@link CliError} prints its code and message (no stack trace) and exits 1; anything else is a
 * bug and prints in full.
 *
 * @param argv `process.argv` shape: `[node, script, ...args]`
 * @returns the exit code
 */
export async function main(argv: string[]): Promise<number> {
	// Each command's module is imported when it runs: a command loads only what it uses.
	const program = new Command()
		.name('create-auth')
		.description('Add secure authentication to the SvelteKit app in the current folder.')
		.version((await loadToolPackage()).version)
		.option('-C, --cwd <path>', 'the SvelteKit app to add auth to (default: the current folder)')
		.option('--providers <ids>', 'sign-in providers, comma separated (credentials)')
		.option('--strategy <strategy>', 'session strategy: jwt (an encrypted cookie) or database (default jwt)')
		.option(
			'--adapter <id>',
			`where users and accounts are stored: ${ADAPTER_IDS.join(', ')} (default: drizzle or prisma when the app has its own, postgres with adapter-vercel or adapter-netlify, d1 with adapter-cloudflare, else sqlite)`
		)
		.option('--database-url <url>', "DATABASE_URL for .env with postgres or mysql (default: a local server's)")
		.option('--protect <prefixes>', 'path prefixes that need a signed-in user, comma separated (default /account)')
		.option('--rate-limit <store>', 'where sign-in and sign-up rate-limit counters live: memory (one server), redis, shared by several servers at REDIS_URL, or d1, in the D1 adapter\'s database (default memory; redis with adapter-vercel or adapter-netlify, d1 with adapter-cloudflare)')
		.option('--two-factor', 'let users turn on two-factor authentication (authenticator app codes, recovery codes)')
		.option('-y, --yes', 'use defaults for anything not given; never prompt')
		.option('--no-install', 'write files but do not install dependencies')
		.option('--dry-run', 'print what would be written; write nothing')
		.option('--verbose', 'list every file written (default: the vendored runtime as one line per folder)')
		.exitOverride()
		.enablePositionalOptions()
		.action(async (options) => {
			exitCode = await (await import('./commands/init.js')).init(options);
		});
	const withCwd = (command: Command) => command.option('-C, --cwd <path>', 'the SvelteKit app (default: the current folder)');
	const writeOptions = (command: Command) =>
		withCwd(command)
			.option('--no-install', 'write files but do not install dependencies')
			.option('--dry-run', 'print the changes as a unified diff; write nothing')
			.option('--verbose', 'list every file written (default: the vendored runtime as one line per folder)');
	writeOptions(program.command('regenerate'))
		.description('Update the auth files to this version of create-auth, merging your edits (3-way).')
		.option('--restore <paths...>', 'write generated files you deleted again (app-relative paths)')
		.option('--rate-limit <store>', 'move the rate-limit counters to another store: memory (one server), redis (several, at REDIS_URL) or d1 (the D1 adapter\'s database)')
		.action(async (options) => {
			exitCode = await (await import('./commands/regenerate.js')).regenerate(options);
		});
	writeOptions(program.command('add-provider').argument('<id>', 'provider id'))
		.description(`Add a sign-in provider (${PROVIDERS.map((p) => p.id).join(', ')}).`)
		.action(async (id: string, options) => {
			exitCode = await (await import('./commands/provider.js')).addProvider(id, options);
		});
	writeOptions(program.command('remove-provider').argument('<id>', 'provider id'))
		.description('Remove a sign-in provider; what you changed stays.')
		.action(async (id: string, options) => {
			exitCode = await (await import('./commands/provider.js')).removeProvider(id, options);
		});
	writeOptions(program.command('add-feature').argument('<id>', 'feature id'))
		.description('Add a feature (two-factor).')
		.action(async (id: string, options) => {
			exitCode = await (await import('./commands/feature.js')).addFeature(id, options);
		});
	writeOptions(program.command('remove-feature').argument('<id>', 'feature id'))
		.description('Remove a feature; what you changed stays.')
		.action(async (id: string, options) => {
			exitCode = await (await import('./commands/feature.js')).removeFeature(id, options);
		});
	writeOptions(program.command('switch'))
		.description('Switch the app from Better Auth or Auth.js to create-auth: its users, passwords and signed-in browsers carry over.')
		.option('--from <library>', 'the library to switch from, when the app has several (better-auth, authjs)')
		.option('--strategy <strategy>', "session strategy after the switch (default: the library's own: database for Better Auth, Auth.js's for Auth.js)")
		.option('-y, --yes', 'switch without asking (a terminal is asked to confirm)')
		.action(async (options) => {
			exitCode = await (await import('./commands/switch.js')).switchApp(options);
		});
	withCwd(program.command('doctor'))
		.description('Check the app: secrets, env keys, callback URLs, the adapter, pending steps, runtime edits. Exit 0 only when all is well.')
		.option('--json', 'print the report as JSON (for CI)')
		.action(async (options) => {
			exitCode = await (await import('./commands/doctor.js')).doctor(options);
		});
	withCwd(program.command('migrate'))
		.description("Create or update the auth tables at DATABASE_URL (PostgreSQL, MySQL); runs each migration once.")
		.action(async (options) => {
			exitCode = await (await import('./commands/migrate.js')).migrate(options);
		});
	withCwd(program.command('secret'))
		.description('Rotate AUTH_SECRET in .env; the old one becomes AUTH_SECRET_1, so sessions survive.')
		.option('--force', 'rotate even though src/auth does not read AUTH_SECRET_1 (signs everyone out)')
		.action(async (options) => {
			exitCode = await (await import('./commands/secret.js')).secret(options);
		});
	program
		.command('dev-idp')
		.description('Run a local OpenID provider for development and tests, on 127.0.0.1.')
		.option('--port <port>', 'port to listen on; 0 picks a free one (default 9400)', parsePort)
		.option('--client-id <id>', 'client id (default create-auth-dev)')
		.option('--client-secret <secret>', 'client secret (default: a fixed development secret)')
		.option('--redirect-uri <uri...>', "the client's redirect URIs (default: [paths.base]/auth/callback/idp on ports 5173 and 4173)", parseRedirectUri)
		.action(async (options) => {
			exitCode = await devIdp(options);
		});
	let exitCode = 0;
	try {
		await program.parseAsync(argv);
		return exitCode;
	} catch (error) {
		if (error instanceof CommanderError) return error.exitCode;
		if (error instanceof CliError) {
			process.stderr.write(`create-auth: ${error.message} [${error.code}]\n${error.hint ? `${error.hint}\n` : ''}`);
			return error.code === 'E_CANCELLED' ? 130 : 1;
		}
		process.stderr.write(`create-auth: unexpected error, please report it:\n${(error as Error)?.stack ?? String(error)}\n`);
		return 70;
	}
}
