import type { Answers } from '../answers.js';
import { CliError } from '../errors.js';
import { authDatabase, d1MigrationsDir, readWranglerConfig } from '../wrangler.js';
import type { Check } from './check.js';
import type { DoctorInput } from './gather.js';

const REGENERATE = 'Run npx create-auth regenerate, which puts it back, then npx create-auth migrate.';

/**
 * In an app on the D1 adapter, one `d1` check of its Wrangler config (`wrangler.jsonc`,
 * `wrangler.json` or `wrangler.toml`, as `src/wrangler.ts` reads it):
 * - error when there is none, or it does not parse: `wrangler dev` and deploys fail with it;
 * - error when no D1 database has create-auth's migrations (`migrations_dir`): the binding
 *   `src/auth.ts` names is not there, and every sign-in answers 503 "misconfigured";
 * - error when `compatibility_flags` lacks `nodejs_compat`: the runtime imports `node:crypto`,
 *   and the Worker does not start without it;
 * - warn when the app does not depend on `wrangler`, which applies the migrations;
 * - ok otherwise, naming the binding. Apps on another adapter get no check.
 */
export function d1Checks(input: Pick<DoctorInput, 'files' | 'libDir' | 'dependencies'> & { answers: Answers }): Check[] {
	if (input.answers.adapter !== 'd1') return [];
	const error = (message: string, hint = REGENERATE): Check[] => [{ id: 'd1', status: 'error', message, hint }];
	let config;
	try {
		config = readWranglerConfig(input.files);
	} catch (err) {
		if (!(err instanceof CliError)) throw err;
		return error(err.message, err.hint);
	}
	if (!config) return error('The app has no Wrangler config (wrangler.jsonc, wrangler.json or wrangler.toml): the D1 adapter has no database, and wrangler cannot run the app.');
	const migrations = d1MigrationsDir(input.libDir);
	let found;
	try {
		found = authDatabase(config, input.libDir);
	} catch (err) {
		if (!(err instanceof CliError)) throw err;
		return error(err.message, err.hint);
	}
	if (found.added) return error(`${config.path} binds no D1 database with create-auth's migrations (migrations_dir "${migrations}"): every sign-in answers 503, misconfigured.`);
	const { binding } = found.database;
	if (!config.compatibilityFlags.includes('nodejs_compat')) {
		return error(`${config.path} lacks the nodejs_compat compatibility flag: the auth runtime imports node:crypto, and the Worker fails without it.`, 'Add "nodejs_compat" to its compatibility_flags, or run npx create-auth regenerate.');
	}
	if (!input.dependencies.wrangler) {
		return [{ id: 'd1', status: 'warn', message: `The app does not depend on wrangler, which creates the auth tables in D1 ${binding}.`, hint: 'Install it: npm install -D wrangler (adapter-cloudflare asks for it too).' }];
	}
	return [{ id: 'd1', status: 'ok', message: `${config.path} binds the auth tables' D1 database as ${binding}, with nodejs_compat.` }];
}
