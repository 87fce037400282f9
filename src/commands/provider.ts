import * as prompts from '@clack/prompts';
import { validateAnswers } from '../answers.js';
import { CliError } from '../errors.js';
import { PROVIDERS } from '../providers/index.js';
import { loadApp, noManifest, type LoadedApp } from './app.js';
import { installStep, providerSteps, writeApp, type WriteOptions } from './pipeline.js';

/** Options of `create-auth add-provider <id>` and `remove-provider <id>`. */
export interface ProviderOptions extends WriteOptions {
	/** The app, when the caller has read it already. */
	app?: LoadedApp;
}

/**
 * `create-auth add-provider <id>`: records the provider in the manifest's answers and runs the
 * same pipeline as `regenerate`. The provider lands in `src/auth.ts` structurally (its import,
 * its declaration, its name at the end of `providers: [...]`), next to whatever the user wrote
 * there; its routes, types and `.env` keys (one by one, never overwriting one) are added.
 *
 * @returns the exit code (0; 1 when a file was left with conflict markers)
 * @throws {CliError} `E_UNKNOWN_PROVIDER` (listing the known ids), `E_NO_MANIFEST`; the errors of `writeApp`
 */
export async function addProvider(id: string, options: ProviderOptions): Promise<number> {
	const app = await appFor(options);
	const recorded = app.manifest!.answers;
	const known = knownProvider(id);
	if (recorded.providers.includes(known)) {
		prompts.log.success(`${known} is already set up. To update its files, run npx create-auth regenerate.`);
		return 0;
	}
	const outcome = await writeApp(app, validateAnswers({ ...recorded, providers: [...recorded.providers, known] }), options);
	if (!options.dryRun) {
		const steps = [...(outcome.installLeft ? [installStep(app.project)] : []), ...providerSteps([known], app.project.base)];
		if (steps.length > 0) prompts.note(steps.join('\n'), 'Next steps');
	}
	return outcome.exitCode;
}

/**
 * `create-auth remove-provider <id>`: the reverse of {@link addProvider}. What the user changed
 * is never deleted: an edited declaration or route stays (reported), and `.env` values stay.
 *
 * @throws {CliError} `E_UNKNOWN_PROVIDER`, `E_NO_MANIFEST`, `E_PROVIDER_NOT_SET_UP` (not among the
 *   app's providers, or the last one); the errors of `writeApp`
 */
export async function removeProvider(id: string, options: ProviderOptions): Promise<number> {
	const app = await appFor(options);
	const recorded = app.manifest!.answers;
	const known = knownProvider(id);
	if (!recorded.providers.includes(known)) {
		throw new CliError('E_PROVIDER_NOT_SET_UP', `${known} is not one of this app's providers (${recorded.providers.join(', ')}).`);
	}
	if (recorded.providers.length === 1) {
		throw new CliError('E_PROVIDER_NOT_SET_UP', `${known} is the app's only provider; add another one before removing it.`);
	}
	const outcome = await writeApp(app, { ...recorded, providers: recorded.providers.filter((p) => p !== known) }, options);
	if (!options.dryRun && outcome.plan.operations.length > 0) {
		prompts.log.info(`The ${known} values in .env were left in place; delete them when you no longer need them.`);
	}
	return outcome.exitCode;
}

async function appFor(options: ProviderOptions): Promise<LoadedApp> {
	const app = options.app ?? (await loadApp(options.cwd));
	if (!app.manifest) throw noManifest();
	return app;
}

function knownProvider(id: string): string {
	if (PROVIDERS.some((provider) => provider.id === id)) return id;
	throw new CliError('E_UNKNOWN_PROVIDER', `Unknown provider "${id}".`, `Known providers: ${PROVIDERS.map((p) => p.id).join(', ')}.`);
}
