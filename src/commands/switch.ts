import * as prompts from '@clack/prompts';
import { findAdapter } from '../adapters.js';
import { STRATEGIES, validateAnswers, type Strategy } from '../answers.js';
import { lookupEnv } from '../doctor/check.js';
import { readEnvSources } from '../doctor/gather.js';
import { CliError } from '../errors.js';
import type { AuthLibraryId, FoundAuthLibrary } from '../existing-auth.js';
import { redactUrl } from '../migrate.js';
import type { Project } from '../project.js';
import { planAuthjsSwitch } from '../switch/authjs.js';
import { copyAuthjsData } from '../switch/authjs-data.js';
import { planBetterAuthSwitch } from '../switch/better-auth.js';
import { copyBetterAuthData } from '../switch/better-auth-data.js';
import { connectData } from '../switch/connection.js';
import type { CopyReport, DataConnection } from '../switch/data.js';
import { planLuciaSwitch } from '../switch/lucia.js';
import { copyLuciaData } from '../switch/lucia-data.js';
import { readSources } from '../switch/sources.js';
import type { LibrarySwitch, SwitchPlanner } from '../switch/types.js';
import { loadApp, type LoadedApp } from './app.js';
import { migrate } from './migrate.js';
import { writeApp, type PriorEdits, type WriteOptions } from './pipeline.js';

/** Options of `create-auth switch`. */
export interface SwitchOptions extends WriteOptions {
	/** `--from`: the library to switch from, when the app has several. */
	from?: string;
	/** `--strategy`: the session strategy after the switch (default: the library's own kind). */
	strategy?: string;
	/** `--yes`: no confirmation (asked only on a terminal). */
	yes?: boolean;
}

/**
 * `create-auth switch`: moves an app off the auth library it has (issue 29; README "Coming from
 * Auth.js / Better Auth / Lucia"). Says what it found, what carries over and what does not;
 * refuses, naming each file, while app code still depends on the library; then in one journaled
 * run: takes the library's hook, types, modules and packages out, sets create-auth up with the
 * same sign-in methods and `previousSessions`, installs, makes the auth tables and copies the
 * library's users, accounts and sessions into them. A failure at any step restores every file
 * (the copy is one transaction), so the app is left as it was. `--dry-run` prints it all and
 * writes nothing.
 *
 * @returns the exit code: 0, or 1 when a dry run found blockers
 * @throws {CliError} `E_NOTHING_TO_SWITCH`, `E_SWITCH_WHICH` (several libraries, no `--from`),
 *   `E_SWITCH_BLOCKED`, and those of validation, writing, installing, `migrate` and the copy
 *   (`E_SWITCH_NO_TABLES`, `E_DATABASE_URL_MISSING`, `E_DRIVER_MISSING`, `E_DATABASE_UNREACHABLE`)
 */
export async function switchApp(options: SwitchOptions): Promise<number> {
	const app = await loadApp(options.cwd);
	const library = chooseLibrary(app.project.existingAuth?.libraries ?? [], options.from);
	if (options.strategy !== undefined && !(STRATEGIES as readonly string[]).includes(options.strategy)) {
		throw new CliError('E_UNSUPPORTED_STRATEGY', `Unsupported session strategy "${options.strategy}".`, `Supported: ${STRATEGIES.join(', ')}.`);
	}
	const sources = await readSources(app.project.root);
	const plan = PLANNERS[library.id](app.project, app.manifest, library, sources, { strategy: options.strategy as Strategy | undefined });
	const answers = validateAnswers(plan.answers);
	saySwitch(plan);
	if (plan.blockers.length > 0) {
		const list = plan.blockers.map((line) => `  ${line}`).join('\n');
		if (options.dryRun) {
			prompts.log.error(`The switch cannot run yet:\n${list}`);
			return 1;
		}
		throw new CliError('E_SWITCH_BLOCKED', `The switch from ${library.name} cannot run yet:\n${list}`, 'Change these, then run npx create-auth switch again (--dry-run shows the plan).');
	}
	if (!options.dryRun && !options.yes && process.stdin.isTTY === true) {
		const go = await prompts.confirm({ message: `Switch the app from ${library.name} now?` });
		if (prompts.isCancel(go) || !go) throw new CliError('E_CANCELLED', 'Cancelled. Nothing was changed.');
	}
	const priorEdits: PriorEdits = Object.fromEntries(
		Object.entries(plan.edits).map(([file, content]) => [file, { previous: file === 'package.json' ? app.project.packageJson : (sources[file] ?? app.project.files[file]), content }])
	);
	const edited: LoadedApp = { ...app, project: withoutLibrary(app.project, library, plan.edits) };
	let copied: CopyReport | undefined;
	const outcome = await writeApp(edited, answers, {
		...options,
		priorEdits,
		amend: plan.amend,
		beforeCommit: async (written) => {
			await migrate({ app: written });
			copied = await copyData(written.project, plan, COPIERS[library.id]);
		}
	});
	if (options.dryRun) {
		if (plan.dialect) prompts.log.info(`Then: create the auth tables (npx create-auth migrate) and copy ${library.name}'s users, accounts and sessions into them.`);
		return outcome.exitCode;
	}
	if (copied) sayCopied(library, copied);
	prompts.note(
		[`${app.project.packageManager} run dev`, 'Open /signin: the users of before sign in with the same password; browsers signed in before stay signed in.'].join('\n'),
		'Next steps'
	);
	return outcome.exitCode;
}

/** Each library's planner: its switch, worked out from the app's files. */
const PLANNERS: Record<AuthLibraryId, SwitchPlanner> = {
	authjs: planAuthjsSwitch,
	'better-auth': planBetterAuthSwitch,
	lucia: planLuciaSwitch
};

/** Each library's copy of its rows into create-auth's tables (run when the plan has a `dialect`: Auth.js without an adapter has no rows). */
const COPIERS: Record<AuthLibraryId, (connection: DataConnection) => Promise<CopyReport>> = {
	authjs: copyAuthjsData,
	'better-auth': copyBetterAuthData,
	lucia: copyLuciaData
};

/** The library to switch from: `--from`, else the one the app has. */
function chooseLibrary(found: readonly FoundAuthLibrary[], from: string | undefined): FoundAuthLibrary {
	if (found.length === 0) {
		throw new CliError('E_NOTHING_TO_SWITCH', 'This app has no Auth.js, Better Auth or Lucia setup to switch from.', 'Run npx create-auth to add create-auth.');
	}
	const library = from === undefined ? (found.length === 1 ? found[0] : undefined) : found.find(({ id }) => id === from);
	if (!library) {
		const names = found.map(({ id }) => id).join(', ');
		throw new CliError('E_SWITCH_WHICH', from === undefined ? `This app has ${found.map(({ name }) => name).join(' and ')}.` : `This app has no ${from} setup (it has ${names}).`, `Say which with --from (${names}).`);
	}
	return library;
}

/** The project as the switch leaves it for planning: the library gone, and with it any runtime folder its deleted module shadowed. */
function withoutLibrary(project: Project, library: FoundAuthLibrary, edits: Record<string, string | undefined>): Project {
	const existing = project.existingAuth;
	if (!existing) return project;
	const deleted = new Set(Object.entries(edits).flatMap(([file, content]) => (content === undefined ? [file] : [])));
	const shadowed = Object.fromEntries(Object.entries(existing.shadowed).filter(([, file]) => !deleted.has(file)));
	return { ...project, existingAuth: { libraries: existing.libraries.filter(({ id }) => id !== library.id), shadowed } };
}

/** What the switch found and will do, before it does it. */
function saySwitch(plan: LibrarySwitch): void {
	const { library } = plan;
	const places = [...library.packages.map((name) => `${name} in package.json`), ...library.files.map(({ path, uses }) => `${uses} in ${path}`)];
	const removed = Object.entries(plan.edits).flatMap(([file, content]) => (content === undefined ? [file] : []));
	prompts.log.info(
		[
			`${library.name} is set up in this app:`,
			...places.map((place) => `  ${place}`),
			`create-auth takes its place: ${plan.answers.providers.join(', ')}; ${plan.answers.strategy} sessions; ${plan.answers.adapter}.`,
			'Carried over:',
			...plan.carried.map((line) => `  ${line}`),
			'Not carried over:',
			...plan.left.map((line) => `  ${line}`),
			...(removed.length > 0 ? [`Deleted (${library.name}'s):`, ...removed.map((file) => `  ${file}`)] : [])
		].join('\n')
	);
}

/**
 * Copies the library's rows into create-auth's tables, at the app's `DATABASE_URL`.
 * @throws {CliError} `E_DATABASE_URL_MISSING`, and those of {@link connectData} and the copy
 */
async function copyData(project: Project, plan: LibrarySwitch, copy: (connection: DataConnection) => Promise<CopyReport>): Promise<CopyReport | undefined> {
	if (!plan.dialect) return undefined;
	const url = lookupEnv(await readEnvSources(project), 'DATABASE_URL')?.value;
	if (!url) {
		throw new CliError('E_DATABASE_URL_MISSING', `DATABASE_URL is not set: ${plan.library.name}'s users are in the database it names.`, 'Set it in .env, then run npx create-auth switch again.');
	}
	const connection = await connectData(project.root, plan.dialect, url);
	try {
		const report = await copy(connection);
		// A SQLite URL is a file name, with no password to hide.
		const where = plan.dialect === 'sqlite' ? url : redactUrl(url);
		prompts.log.step(`Copied from ${where} (${findAdapter(plan.answers.adapter)?.label ?? plan.answers.adapter}).`);
		return report;
	} finally {
		await connection.close();
	}
}

/** The copy's counts, and the users it left out. */
function sayCopied(library: FoundAuthLibrary, report: CopyReport): void {
	prompts.log.success(
		`Copied ${library.name}'s ${report.users} users, ${report.passwords} passwords, ${report.oauthAccounts} linked accounts and ${report.sessions} signed-in sessions into create-auth's tables.`
	);
	if (report.conflicts.length > 0) {
		prompts.log.warn(
			`Left out, because create-auth's table has another account with the same address (signed up on both):\n${report.conflicts.map((email) => `  ${email}`).join('\n')}\nThey sign in with their create-auth account.`
		);
	}
}
