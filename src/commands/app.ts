import * as prompts from '@clack/prompts';
import { recoverInterruptedRun } from '../apply.js';
import { CliError } from '../errors.js';
import { parseManifest, MANIFEST_PATH, type Manifest } from '../manifest.js';
import { detectProject, type Project } from '../project.js';

/** The app, read once a previous interrupted run (if any) has been undone. */
export interface LoadedApp {
	project: Project;
	/** The manifest, when create-auth has set the app up before. */
	manifest: Manifest | undefined;
}

/**
 * Undoes an interrupted run (saying so), then reads the app: the first step of every command
 * that works on an app, whether it writes it (`pipeline.ts`) or not (`migrate`, `secret`).
 *
 * @throws {CliError} `E_NOT_SVELTEKIT` from {@link detectProject}
 */
export async function loadApp(cwd: string | undefined): Promise<LoadedApp> {
	const root = cwd ?? process.cwd();
	const restored = await recoverInterruptedRun(root);
	if (restored > 0) prompts.log.warn(`An earlier create-auth run was interrupted; it was undone (${restored} files restored).`);
	const project = await detectProject(root, process.env.npm_config_user_agent);
	return { project, manifest: parseManifest(project.files[MANIFEST_PATH]) };
}

/** The error of a command that needs an app create-auth has set up. */
export function noManifest(): CliError {
	return new CliError(
		'E_NO_MANIFEST',
		'create-auth has not set up this app yet (there is no .create-auth/manifest.json).',
		'Run npx create-auth first.'
	);
}
