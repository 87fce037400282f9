import * as prompts from '@clack/prompts';
import { adaptersFor, DATABASE_URL, findAdapter } from '../adapters.js';
import { equivalentCommand, resolveAnswers, validateAnswers, type Answers } from '../answers.js';
import { answersFromFlags, askMissing, type GivenAnswers } from '../ask.js';
import { authBinding } from '../d1-migrate.js';
import { CliError } from '../errors.js';
import { authjsConfigAtOurPath, existingAuthNotice, type FoundAuthLibrary } from '../existing-auth.js';
import { productionStep } from '../hosts.js';
import { findProvider, PROVIDERS } from '../providers/index.js';
import { loadApp, type LoadedApp } from './app.js';
import { installStep, providerSteps, shownBase, writeApp, type WriteOptions } from './pipeline.js';
import { addProvider, removeProvider } from './provider.js';
import { regenerate } from './regenerate.js';

/** The route template of the sign-up page, as descriptors' `routes` name it. */
const SIGN_UP_PAGE = 'signup/+page.svelte';

/** Options of `create-auth [options]`, as commander parses them. */
export interface InitOptions extends GivenAnswers, WriteOptions {
	yes?: boolean;
}

/**
 * `create-auth`: ask → plan → apply → install. Prompts only when stdin is a TTY and `--yes`
 * was not given. A failure at any step after writing (including a failed or cancelled install)
 * restores every file, so the app is left as it was.
 *
 * In an app create-auth has already set up (it has a manifest), nothing is planned from
 * scratch: a person is offered regenerate, add-provider and remove-provider; unattended, the
 * run is a `regenerate` with the recorded answers, and flags that change them are refused with
 * the command that does it.
 *
 * @returns the process exit code (0 on success, 1 when regenerate left conflicts)
 * @throws {CliError} from detection, validation, writing or installing; `E_ALREADY_SET_UP`
 *   when flags ask for other answers than the manifest's
 */
export async function init(options: InitOptions): Promise<number> {
	const interactive = !options.yes && process.stdin.isTTY === true;
	const app = await loadApp(options.cwd);
	if (interactive) prompts.intro('create-auth');
	if (app.manifest) return again(app, options, interactive);
	if (interactive && (await chooseSwitch(app))) return (await import('./switch.js')).switchApp({ ...options, from: undefined });
	sayExistingAuth(app);
	const context = { adapters: adaptersFor(app.project), host: app.project.host };
	const answers = validateAnswers(interactive ? await askMissing(options, context) : answersFromFlags(options, context));
	const databaseUrl = options.databaseUrl ?? (interactive ? await askDatabaseUrl(app, answers) : undefined);
	const outcome = await writeApp(app, answers, { ...options, databaseUrl });
	if (options.dryRun || outcome.plan.operations.length === 0) return outcome.exitCode;

	const { packageManager, base } = app.project;
	const at = shownBase(base);
	const steps = [
		...(outcome.neededNode ? [`Switch to Node ${outcome.neededNode} or later (nvm install 22, for example).`] : []),
		...(outcome.installLeft ? [installStep(app.project)] : []),
		...(outcome.installLeft && findAdapter(answers.adapter)?.migrations ? ['npx create-auth migrate   (creates the auth tables at DATABASE_URL)'] : []),
		...(outcome.installLeft && findAdapter(answers.adapter)?.drizzle ? ['npx create-auth migrate   (creates the auth tables with drizzle-kit)'] : []),
		...(outcome.installLeft && findAdapter(answers.adapter)?.prisma ? ['npx create-auth migrate   (creates the auth tables with prisma db push)'] : []),
		...(outcome.installLeft && findAdapter(answers.adapter)?.wrangler ? ['npx create-auth migrate   (creates the auth tables in the local D1 database)'] : []),
		...providerSteps(answers.providers, base),
		// Whichever chosen descriptor gives the app a sign-up page (passwords, passkeys), the visitor starts there.
		resolveAnswers(answers).parts.some(({ routes }) => routes.includes(SIGN_UP_PAGE))
			? `${packageManager} run dev, then open ${at}/signup to create an account, then ${at}/account.`
			: `${packageManager} run dev, then open ${at}/signin, then ${at}/account.`,
		productionStep(app.project.host, answers, findAdapter(answers.adapter)?.wrangler ? await authBinding(app.project.root, app.project.libDir) : undefined)
	];
	prompts.note(steps.join('\n'), 'Next steps');
	if (interactive) prompts.outro(`Next time, without prompts:\n  ${equivalentCommand(answers)}`);
	return outcome.exitCode;
}

/**
 * The first run in an app that already has auth (issue 26): names each library found, where,
 * and what running both means (README, "Apps that already have auth"). Switching an app over is
 * not done here.
 *
 * @throws {CliError} `E_AUTH_FILE_TAKEN` when `src/auth.(ts|js)` is Auth.js's configuration: the
 *   run would leave it in place while the generated pages import create-auth's functions from
 *   it, and the app would no longer build, so nothing is written
 */
function sayExistingAuth(app: LoadedApp): void {
	const existing = app.project.existingAuth;
	if (!existing) return;
	const taken = authjsConfigAtOurPath(existing);
	if (taken) {
		throw new CliError(
			'E_AUTH_FILE_TAKEN',
			`${taken} is Auth.js's configuration (@auth/sveltekit), at the path where create-auth writes its own; the pages it generates import from that file, so the app would no longer build. Nothing was written.`,
			`To switch the app from Auth.js, its signed-in users with it: npx create-auth switch. To try create-auth beside it instead, move Auth.js's configuration to another module (src/lib/server/authjs.ts, say), import its handle from there in src/hooks.server.ts, then run create-auth again.`
		);
	}
	for (const library of existing.libraries) prompts.log.warn(existingAuthNotice(library));
}

/**
 * A person's choice, in an app whose auth library `create-auth switch` can move it off: switch
 * now, or add create-auth beside the library (what an unattended run does).
 * @returns true to switch
 * @throws {CliError} `E_CANCELLED` when the prompt is cancelled
 */
async function chooseSwitch(app: LoadedApp): Promise<boolean> {
	const libraries = app.project.existingAuth?.libraries ?? [];
	if (libraries.length !== 1) return false;
	const [{ name }] = libraries as [FoundAuthLibrary];
	const choice = await prompts.select({
		message: `This app uses ${name}: switch it to create-auth, or add create-auth beside it?`,
		options: [
			{ value: 'switch', label: `Switch the app from ${name}`, hint: 'users, passwords, sessions carry over' },
			{ value: 'beside', label: `Add create-auth beside ${name}`, hint: 'both run' }
		]
	});
	if (prompts.isCancel(choice)) throw new CliError('E_CANCELLED', 'Cancelled. Nothing was changed.');
	return choice === 'switch';
}

/** `create-auth` in an app that has a manifest: see {@link init}. */
async function again(app: LoadedApp, options: InitOptions, interactive: boolean): Promise<number> {
	const recorded = app.manifest!.answers;
	const summary = `create-auth ${app.manifest!.version} set up this app (providers: ${recorded.providers.join(', ')}).`;
	if (!interactive) {
		const given = answersFromFlags(options, { adapters: adaptersFor(app.project), host: app.project.host });
		const differs = (Object.keys(given) as Array<keyof GivenAnswers>).filter(
			(key) => options[key] !== undefined && JSON.stringify(given[key]) !== JSON.stringify(recorded[key])
		);
		if (differs.length > 0) {
			throw new CliError(
				'E_ALREADY_SET_UP',
				`${summary} It cannot be set up again with other ${differs.join(', ')}.`,
				differs.length === 1 && differs[0] === 'rateLimit'
					? `Use npx create-auth regenerate --rate-limit ${given.rateLimit} to move the rate-limit counters.`
					: 'Use npx create-auth add-provider <id> or remove-provider <id> to change the providers, regenerate --rate-limit <store> to move the rate-limit counters, or regenerate to update the files.'
			);
		}
		prompts.log.info(`${summary} Updating its files (create-auth regenerate).`);
		return regenerate({ ...options, app });
	}
	prompts.log.info(summary);
	const choice = await prompts.select({
		message: 'What now?',
		options: [
			{ value: 'regenerate', label: 'Update the auth files to this version of create-auth', hint: 'keeps your edits' },
			{ value: 'add', label: 'Add a sign-in provider' },
			...(recorded.providers.length > 1 ? [{ value: 'remove', label: 'Remove a sign-in provider' }] : []),
			{ value: 'cancel', label: 'Nothing' }
		]
	});
	if (prompts.isCancel(choice) || choice === 'cancel') throw new CliError('E_CANCELLED', 'Cancelled. Nothing was written.');
	const done = (exitCode: number) => {
		prompts.outro(exitCode === 0 ? 'Done.' : 'Resolve the conflicts listed above, then run create-auth regenerate.');
		return exitCode;
	};
	if (choice === 'regenerate') return done(await regenerate({ ...options, app }));
	const candidates = choice === 'add' ? unusedProviders(recorded) : recorded.providers;
	const id = await prompts.select({
		message: choice === 'add' ? 'Which provider?' : 'Remove which provider?',
		options: candidates.map((candidate) => ({ value: candidate, label: findProvider(candidate)?.label ?? candidate }))
	});
	if (prompts.isCancel(id)) throw new CliError('E_CANCELLED', 'Cancelled. Nothing was written.');
	return done(await (choice === 'add' ? addProvider(id, { ...options, app }) : removeProvider(id, { ...options, app })));
}

/** Asks for DATABASE_URL when the adapter connects to one and `.env` does not set it yet. */
async function askDatabaseUrl(app: LoadedApp, answers: Answers): Promise<string | undefined> {
	const env = findAdapter(answers.adapter)?.env.find(({ key }) => key === DATABASE_URL);
	if (!env || /^DATABASE_URL=./m.test(app.project.files['.env'] ?? '')) return undefined;
	const url = await prompts.text({ message: `DATABASE_URL (${env.example})`, placeholder: env.value, defaultValue: env.value });
	if (prompts.isCancel(url)) throw new CliError('E_CANCELLED', 'Cancelled. Nothing was written.');
	return url;
}

function unusedProviders(answers: Answers): string[] {
	return PROVIDERS.map((provider) => provider.id).filter((id) => !answers.providers.includes(id));
}
