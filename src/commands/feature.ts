import * as prompts from '@clack/prompts';
import { validateAnswers, type Answers } from '../answers.js';
import { CliError } from '../errors.js';
import { loadApp, noManifest, type LoadedApp } from './app.js';
import { installStep, writeApp, type WriteOptions } from './pipeline.js';

/**
 * The features `add-feature` and `remove-feature` turn on and off: each an answer of its own
 * (the others follow from other answers: `--rate-limit`, `create-auth switch`).
 */
const TOGGLES = {
	'two-factor': {
		label: 'Two-factor authentication',
		on: (answers: Answers) => answers.twoFactor === true,
		set: (answers: Answers, on: boolean): Answers => ({ ...answers, twoFactor: on || undefined })
	}
} as const;

type FeatureId = keyof typeof TOGGLES;

/** Options of `create-auth add-feature <id>` and `remove-feature <id>`. */
export interface FeatureOptions extends WriteOptions {
	/** The app, when the caller has read it already. */
	app?: LoadedApp;
}

/**
 * `create-auth add-feature <id>`: records the feature in the manifest's answers and runs the same
 * pipeline as `regenerate`, which adds its config entry to `src/auth.ts`, its pages and page
 * sections (3-way merged with the user's edits) and its dependencies.
 * @returns the exit code (0; 1 when a file was left with conflict markers)
 * @throws {CliError} `E_UNKNOWN_FEATURE` (listing the known ids), `E_NO_MANIFEST`,
 *   `E_UNSUPPORTED_ADAPTER` (the app's adapter cannot store it); the errors of `writeApp`
 */
export async function addFeature(id: string, options: FeatureOptions): Promise<number> {
	const app = await appFor(options);
	const recorded = app.manifest!.answers;
	const toggle = TOGGLES[knownFeature(id)];
	if (toggle.on(recorded)) {
		prompts.log.success(`${toggle.label} is already set up. To update its files, run npx create-auth regenerate.`);
		return 0;
	}
	const outcome = await writeApp(app, validateAnswers(toggle.set(recorded, true)), options);
	if (!options.dryRun && outcome.installLeft) prompts.note(installStep(app.project), 'Next steps');
	return outcome.exitCode;
}

/**
 * `create-auth remove-feature <id>`: the reverse of {@link addFeature}. What the user changed is
 * never deleted: an edited page stays (reported). Users' stored second factors stay in the
 * database, unused, until the feature is added again.
 * @throws {CliError} `E_UNKNOWN_FEATURE`, `E_NO_MANIFEST`, `E_FEATURE_NOT_SET_UP`; the errors of `writeApp`
 */
export async function removeFeature(id: string, options: FeatureOptions): Promise<number> {
	const app = await appFor(options);
	const recorded = app.manifest!.answers;
	const toggle = TOGGLES[knownFeature(id)];
	if (!toggle.on(recorded)) throw new CliError('E_FEATURE_NOT_SET_UP', `${toggle.label} is not set up in this app.`);
	return (await writeApp(app, toggle.set(recorded, false), options)).exitCode;
}

async function appFor(options: FeatureOptions): Promise<LoadedApp> {
	const app = options.app ?? (await loadApp(options.cwd));
	if (!app.manifest) throw noManifest();
	return app;
}

function knownFeature(id: string): FeatureId {
	if (Object.hasOwn(TOGGLES, id)) return id as FeatureId;
	throw new CliError('E_UNKNOWN_FEATURE', `Unknown feature "${id}".`, `Known features: ${Object.keys(TOGGLES).join(', ')}.`);
}
