import * as prompts from '@clack/prompts';
import { validateAnswers, type Answers } from '../answers.js';
import { loadApp, noManifest, type LoadedApp } from './app.js';
import { installStep, writeApp, type WriteOptions } from './pipeline.js';

/** Options of `create-auth regenerate`. */
export interface RegenerateOptions extends WriteOptions {
	/** Generated files the user deleted, to write again (app-relative paths). */
	restore?: string[];
	/** The app, when the caller has read it already. */
	app?: LoadedApp;
	/** A new rate-limit store (`memory` | `redis`) to record and write the app for. */
	rateLimit?: string;
}

/**
 * `create-auth regenerate`: renders this version's files for the answers the manifest records
 * and reconciles each generated file with the user's copy (3-way merge, see `planInit`). Same
 * version and same answers write zero bytes.
 *
 * With `rateLimit`, the app moves to that store first (one server → several: `redis`): the
 * manifest records it, `src/auth.ts` gets the difference structurally (its import and its
 * `rateLimit` property, next to the user's edits), the store's module is vendored or deleted,
 * and its dependency and `REDIS_URL` are added. Moving back leaves the dependency and the `.env`
 * value in place (the app may use them), and says so.
 *
 * @returns the exit code: 0, or 1 when a file was left with conflict markers
 * @throws {CliError} `E_NO_MANIFEST` in an app create-auth has not set up;
 *   `E_UNKNOWN_RATE_LIMIT_STORE`; the errors of `writeApp`
 */
export async function regenerate(options: RegenerateOptions): Promise<number> {
	const app = options.app ?? (await loadApp(options.cwd));
	if (!app.manifest) throw noManifest();
	const recorded = app.manifest.answers;
	const answers: Answers = options.rateLimit === undefined ? recorded : validateAnswers({ ...recorded, rateLimit: options.rateLimit as Answers['rateLimit'] });
	const outcome = await writeApp(app, answers, options);
	if (options.dryRun) return outcome.exitCode;
	if (outcome.installLeft) prompts.log.info(`Dependencies changed: run ${installStep(app.project)}.`);
	if (recorded.rateLimit === 'redis' && answers.rateLimit !== 'redis' && outcome.plan.operations.length > 0) {
		prompts.log.info('ioredis in package.json and REDIS_URL in .env were left in place; remove them when nothing else uses them.');
	}
	return outcome.exitCode;
}
