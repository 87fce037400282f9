import * as prompts from '@clack/prompts';
import { CliError } from '../errors.js';
import { loadApp, writeApp, type LoadedApp, type WriteOptions } from './pipeline.js';

/** Options of `create-auth regenerate`. */
export interface RegenerateOptions extends WriteOptions {
	/** Generated files the user deleted, to write again (app-relative paths). */
	restore?: string[];
	/** The app, when the caller has read it already. */
	app?: LoadedApp;
}

/**
 * `create-auth regenerate`: renders this version's files for the answers the manifest records
 * and reconciles each generated file with the user's copy (3-way merge, see `planInit`). Same
 * version and same answers write zero bytes.
 *
 * @returns the exit code: 0, or 1 when a file was left with conflict markers
 * @throws {CliError} `E_NO_MANIFEST` in an app create-auth has not set up; the errors of `writeApp`
 */
export async function regenerate(options: RegenerateOptions): Promise<number> {
	const app = options.app ?? (await loadApp(options.cwd));
	if (!app.manifest) throw noManifest();
	const outcome = await writeApp(app, app.manifest.answers, options);
	if (!options.dryRun && outcome.installLeft) prompts.log.info(`Dependencies changed: run ${app.project.packageManager} install.`);
	return outcome.exitCode;
}

/** The error of a command that needs an app create-auth has set up. */
export function noManifest(): CliError {
	return new CliError(
		'E_NO_MANIFEST',
		'create-auth has not set up this app yet (there is no .create-auth/manifest.json).',
		'Run npx create-auth first.'
	);
}
