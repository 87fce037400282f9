import { randomBytes } from 'node:crypto';
import * as prompts from '@clack/prompts';
import { buildsFor, findAdapter } from '../adapters.js';
import type { Answers } from '../answers.js';
import { applyOperations } from '../apply.js';
import { checkDriver } from '../driver-load.js';
import { loadRuntime, loadTemplates, loadToolPackage } from '../assets.js';
import { releaseRuntimes } from '../releases.js';
import { loadFormatter, type Formatter } from '../format.js';
import { installDependencies } from '../install.js';
import { missingNode } from '../kit.js';
import { MANIFEST_PATH, parseManifest, type Manifest } from '../manifest.js';
import { planInit, type FileOperation, type Plan } from '../plan.js';
import { findProvider } from '../providers/index.js';
import { VENDOR_DIRS, type Project } from '../project.js';
import type { LoadedApp } from './app.js';
import { migrateAfterWrite } from './migrate.js';

/** Options every command that writes the app shares. */
export interface WriteOptions {
	/** The app's folder; the process's cwd when not given. */
	cwd?: string;
	/** false with `--no-install`. */
	install?: boolean;
	/** Print the plan (unified diffs), write nothing. */
	dryRun?: boolean;
	/** `--database-url`: DATABASE_URL for `.env`, when it has none. */
	databaseUrl?: string;
	/** `--verbose`: list every file written, the vendored runtime's too. */
	verbose?: boolean;
}

/**
 * Changes to the app's own files made before create-auth's plan (a switch: the previous
 * library's hook taken out, its modules deleted), app-relative path → the file's text on disk
 * (`previous`, undefined when absent) and its text after the change (`content`, undefined to
 * delete). The plan is made over the changed files; each is written, and journaled, as one
 * operation from `previous`, together with the plan's.
 */
export type PriorEdits = Record<string, { previous: string | undefined; content: string | undefined }>;

/** What {@link writeApp} did, for the command's closing lines. */
export interface WriteOutcome {
	plan: Plan;
	/** The Node version the app needs and this process lacks, when the install was left to the user. */
	neededNode: string | undefined;
	/** Dependencies changed and were not installed (`--no-install`, or the wrong Node). */
	installLeft: boolean;
	/** The process exit code: 1 when a file was left with conflict markers, else 0. */
	exitCode: number;
}

/**
 * Plan → apply → install, the pipeline every writing command shares (`create-auth`,
 * `regenerate`, `add-provider`, `remove-provider`). A failure at any step after writing,
 * including a failed or cancelled install, restores every file, so the app is left as it was.
 *
 * @throws {CliError} from planning (`E_UNRESOLVED_CONFLICTS`, `E_UNKNOWN_FILE`), writing or installing
 */
export async function writeApp(
	{ project }: LoadedApp,
	answers: Answers,
	options: WriteOptions & {
		restore?: string[];
		/** Made before the plan: see {@link PriorEdits}. */
		priorEdits?: PriorEdits;
		/**
		 * Changes to the plan's own renderings, app-relative path → change, applied before anything
		 * is written (a switch carries the previous library's settings into `src/auth.ts`). The
		 * manifest keeps the renderings, so the changes count as the app's edits from then on.
		 */
		amend?: Record<string, (content: string) => string>;
		/**
		 * Runs after the files are written and the dependencies installed, before the run is
		 * committed, given the app as written; when it throws, every file is restored and the error
		 * rethrown. The caller then makes the auth tables itself (no `migrateAfterWrite`).
		 */
		beforeCommit?: (written: LoadedApp) => Promise<void>;
	}
): Promise<WriteOutcome> {
	const [templates, runtime, tool, format] = await Promise.all([
		loadTemplates(),
		loadRuntime(),
		loadToolPackage(),
		loadFormatter(project.root)
	]);
	const release = releaseRuntimes();
	// The prior edits go into the first plan only: a later one (the late formatting) starts from the files as written.
	const planFor = async (state: Project, formatter: Formatter | undefined, prior: PriorEdits = {}) =>
		withPriorEdits(
			await planInit({
				project: withEdits(state, prior),
				answers,
				tool,
				templates,
				runtime,
				authSecret: randomBytes(32).toString('base64url'),
				databaseUrl: options.databaseUrl,
				restore: options.restore,
				format: formatter,
				release
			}),
			prior
		);
	const plan = amended(await planFor(project, format, options.priorEdits), options.amend ?? {});
	const exitCode = plan.conflicts.length > 0 ? 1 : 0;
	if (options.dryRun) {
		await printDryRun(plan);
		return { plan, neededNode: undefined, installLeft: false, exitCode };
	}
	if (plan.operations.length === 0) {
		prompts.log.success('Nothing to write: the app is up to date.');
		reportLeftAlone(plan);
		return { plan, neededNode: undefined, installLeft: false, exitCode };
	}
	// SvelteKit 3 needs Node 22.17+: the files are right for it, but an install under this Node
	// would build native modules (better-sqlite3) for the wrong Node, so it waits for the user.
	const neededNode = missingNode(project.kit, process.versions.node);
	if (neededNode) {
		prompts.log.warn(
			`This app's SvelteKit ${project.kit.major} needs Node ${neededNode} or later to install, build and run; this is Node ${process.versions.node}. ` +
				'The files are written for it; install the dependencies with that Node.'
		);
	}
	const controller = new AbortController();
	const cancel = () => controller.abort();
	process.once('SIGINT', cancel);
	try {
		const applied = await applyOperations(project.root, plan.operations, controller.signal);
		const dependenciesChanged = plan.operations.some((operation) => operation.path === 'package.json');
		const installNow = options.install !== false && dependenciesChanged && !neededNode;
		if (installNow) {
			// An animated spinner only where a person watches; logs and CI get two plain lines.
			const progress = process.stdout.isTTY ? prompts.spinner() : plainProgress();
			// In a workspace, at its root: the root lock file is the one to update.
			const where = project.installRoot === project.root ? '' : ` in ${project.installRoot}`;
			progress.start(`Installing dependencies with ${project.packageManager}${where}`);
			try {
				const { skippedBuilds } = await installDependencies(project.installRoot, project.packageManager, controller.signal);
				progress.stop('Dependencies installed');
				await reportUnloadableDrivers(project, answers);
				if (skippedBuilds.length > 0) {
					prompts.log.warn(`${project.packageManager} skipped the build scripts of ${skippedBuilds.join(', ')} (not create-auth's): approve them with pnpm approve-builds if your app needs them.`);
				}
			} catch (error) {
				progress.error('Install failed: restoring your files');
				await applied.rollback();
				throw error;
			}
		}
		if (options.beforeCommit) {
			try {
				await options.beforeCommit({ project: withOperations(project, plan.operations), manifest: writtenManifest(plan) });
			} catch (error) {
				await applied.rollback();
				throw error;
			}
		}
		await applied.commit();
		const listed = options.verbose ? '' : ' (--verbose lists each)';
		prompts.log.success(`Wrote ${plan.operations.length} files${listed}:\n${writtenLines(plan.operations, project.libDir, options.verbose).join('\n')}`);
		reportLeftAlone(plan);
		// An app whose Prettier arrived with this install (a fresh clone, sv create --no-install):
		// the files just written are formatted now, as the next regenerate would.
		const lateFormat = installNow && !format ? await loadFormatter(project.root) : undefined;
		if (lateFormat) {
			const formatting = await planFor(withOperations(project, plan.operations), lateFormat);
			const reformatted = await applyOperations(project.root, formatting.operations, controller.signal);
			await reformatted.commit();
			const count = formatting.operations.filter((operation) => operation.path !== MANIFEST_PATH).length;
			prompts.log.success(`Formatted ${count} files with the app's Prettier.`);
		}
		// A database adapter's tables: made now when the database is reachable and its driver installed.
		const migrations = plan.operations.some(
			(operation) =>
				operation.content !== undefined &&
				(/\/server\/auth\/adapters\/migrations\//.test(operation.path) ||
					(findAdapter(answers.adapter)?.drizzle && operation.path === project.drizzle?.schema) ||
					(findAdapter(answers.adapter)?.prisma && operation.path === project.prisma?.schema))
		);
		if (migrations && !options.beforeCommit && !neededNode && (installNow || !dependenciesChanged)) await migrateAfterWrite(project.root);
		return { plan, neededNode, installLeft: dependenciesChanged && !installNow, exitCode };
	} finally {
		process.off('SIGINT', cancel);
	}
}

/** Runtime files of one folder named one by one, at most; more are summed up as the folder. */
const LISTED_RUNTIME_FILES = 3;

/** The width the list of written files wraps at: clack's bar and an 80-column terminal leave this much. */
const LIST_WIDTH = 74;

/**
 * The lines that list `operations`, grouped by what happened (`+` new, `~` changed, `-`
 * deleted), so a first run's output fits one 80×24 screen:
 * - the vendored runtime (each of {@link VENDOR_DIRS} below `libDir`, which nobody edits by
 *   hand) as its folders with a count, `runtime: src/lib/server/auth/ (77 files)`, when a folder
 *   holds more than {@link LISTED_RUNTIME_FILES} of them;
 * - pages as their routes, `pages: /signin, /account (4 files)`;
 * - every other file by its path.
 * Long lines wrap at {@link LIST_WIDTH}. `verbose` (`--verbose`) lists every file on its own line.
 */
export function writtenLines(operations: readonly FileOperation[], libDir: string, verbose = false): string[] {
	const sign = (operation: FileOperation) => (operation.content === undefined ? '-' : operation.previous === undefined ? '+' : '~');
	if (verbose) return operations.map((operation) => `  ${sign(operation)} ${operation.path}`);
	const folders = VENDOR_DIRS.map((dir) => `${libDir}/${dir}/`);
	const folderOf = (operation: FileOperation) => folders.find((folder) => operation.path.startsWith(folder));
	const summed = new Set(folders.filter((folder) => operations.filter((operation) => folderOf(operation) === folder).length > LISTED_RUNTIME_FILES));
	const lines: string[] = [];
	for (const kind of ['+', '~', '-'] as const) {
		const ofKind = operations.filter((operation) => sign(operation) === kind);
		const runtime = folders
			.filter((folder) => summed.has(folder))
			.map((folder) => [folder, ofKind.filter((operation) => folderOf(operation) === folder).length] as const)
			.filter(([, count]) => count > 0);
		if (runtime.length > 0) lines.push(...wrapped(`  ${kind} runtime: `, runtime.map(([folder, count]) => `${folder} (${count} ${count === 1 ? 'file' : 'files'})`)));
		const rest = ofKind.filter((operation) => !summed.has(folderOf(operation) ?? ''));
		const pages = rest.filter((operation) => routeOf(operation.path) !== undefined);
		if (pages.length > 0) {
			const routes = topRoutes(pages.map((operation) => routeOf(operation.path)!));
			lines.push(...wrapped(`  ${kind} pages: `, routes.map((route, i) => (i === routes.length - 1 ? `${route} (${pages.length} ${pages.length === 1 ? 'file' : 'files'})` : route))));
		}
		const others = rest.filter((operation) => routeOf(operation.path) === undefined).map((operation) => operation.path);
		if (others.length > 0) lines.push(...wrapped(`  ${kind} `, others));
	}
	return lines;
}

/** The route of a page's file (`src/routes/signin/+page.svelte` → `/signin`), or undefined for any other file. */
function routeOf(file: string): string | undefined {
	const match = /(?:^|\/)routes(\/.*)?\/\+page(?:\.server)?\.[^/]+$/.exec(file);
	return match ? (match[1] ?? '/') : undefined;
}

/**
 * `routes` by their first segment, in the order first met: `/signin` with the pages below it as
 * `/signin and 5 pages below it`; pages below a segment that is no page here as `2 pages below /signin`.
 */
function topRoutes(routes: readonly string[]): string[] {
	const below = new Map<string, Set<string>>();
	for (const route of routes) {
		const top = /^\/[^/]*/.exec(route)![0];
		(below.get(top) ?? below.set(top, new Set()).get(top)!).add(route);
	}
	return [...below].map(([top, all]) => {
		const deeper = [...all].filter((route) => route !== top).length;
		if (deeper === 0) return top;
		const pages = `${deeper} ${deeper === 1 ? 'page' : 'pages'}`;
		return all.has(top) ? `${top} and ${pages} below it` : `${pages} below ${top}`;
	});
}

/** `items` after `prefix`, comma separated, wrapped at {@link LIST_WIDTH} with the following lines indented under the first item. */
function wrapped(prefix: string, items: readonly string[]): string[] {
	const indent = ' '.repeat(prefix.length);
	const lines: string[] = [];
	let line = prefix;
	items.forEach((item, i) => {
		const text = i < items.length - 1 ? `${item},` : item;
		const empty = line === prefix || line === indent;
		if (!empty && `${line} ${text}`.length > LIST_WIDTH) {
			lines.push(line);
			line = indent;
		}
		line = line === prefix || line === indent ? `${line}${text}` : `${line} ${text}`;
	});
	return [...lines, line];
}

/**
 * After an install: the adapter's native drivers (`buildsFor`) loaded and opened with the Node on
 * the app's PATH ({@link checkDriver}); one that cannot load is reported with why and the fix. The
 * run goes on: the install is done and the files are right, the driver needs building again.
 */
async function reportUnloadableDrivers(project: Project, answers: Answers): Promise<void> {
	const adapter = findAdapter(answers.adapter);
	if (!adapter) return;
	const { dependencies = {}, devDependencies = {} } = JSON.parse(project.packageJson) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
	for (const name of buildsFor(adapter, Object.keys({ ...dependencies, ...devDependencies }))) {
		const unloadable = await checkDriver(project.root, name, project.packageManager);
		if (unloadable) prompts.log.error(`${unloadable.message}\n${unloadable.hint}`);
	}
}

/**
 * Each provider's next steps (its descriptor's `nextSteps`), given the app's `paths.base` as
 * printed ({@link shownBase}), each step once: for an OAuth provider, the `.env` keys to fill
 * in, which create-auth left empty, and the callback URL to register on the dev server's origin;
 * for the email and credentials providers, where their mail goes until an SMTP server is set.
 */
export function providerSteps(ids: readonly string[], base: string | null = ''): string[] {
	return [...new Set(ids.flatMap((id) => findProvider(id)?.nextSteps?.(shownBase(base)) ?? []))];
}

/**
 * The install a user runs after `--no-install` (or a failed install): `pnpm install`, with where
 * when that is not the app's folder (`pnpm install   (at the workspace root, /repo)`).
 */
export function installStep(project: Pick<Project, 'packageManager' | 'installRoot' | 'root'>): string {
	const where = project.installRoot === project.root ? '' : `   (at the workspace root, ${project.installRoot})`;
	return `${project.packageManager} install${where}`;
}

/** The app's `paths.base` as printed paths show it (`Project.base`): as is, or `<paths.base>` when only the build knows it. */
export const shownBase = (base: string | null): string => base ?? '<paths.base>';

/** The project as {@link PriorEdits} leave it, for planning: the files it holds and package.json changed. */
function withEdits(project: Project, prior: PriorEdits): Project {
	const files = { ...project.files };
	let { packageJson } = project;
	for (const [file, { content }] of Object.entries(prior)) {
		if (file === 'package.json') packageJson = content ?? packageJson;
		else if (file in files) files[file] = content;
	}
	return { ...project, files, packageJson };
}

/**
 * A plan made over {@link withEdits}' project, as operations on the files as they are: each
 * operation on an edited file replaces its text on disk, and each edited file the plan does not
 * write gets an operation of its own (a deletion, say).
 */
function withPriorEdits(plan: Plan, prior: PriorEdits): Plan {
	const operations = plan.operations.map((operation) => (operation.path in prior ? { ...operation, previous: prior[operation.path]!.previous } : operation));
	const planned = new Set(operations.map((operation) => operation.path));
	for (const [file, { previous, content }] of Object.entries(prior)) {
		if (!planned.has(file) && previous !== content) operations.push({ path: file, strategy: 'patch', content, previous });
	}
	return { ...plan, operations: operations.filter((operation) => operation.content !== operation.previous) };
}

/** The plan with `amend`'s changes made to the text of the files it names. */
function amended(plan: Plan, amend: Record<string, (content: string) => string>): Plan {
	const operations = plan.operations.map((operation) =>
		operation.content !== undefined && amend[operation.path] ? { ...operation, content: amend[operation.path]!(operation.content) } : operation
	);
	return { ...plan, operations };
}

/** The manifest a plan writes. */
function writtenManifest(plan: Plan): Manifest | undefined {
	return parseManifest(plan.operations.find((operation) => operation.path === MANIFEST_PATH)?.content);
}

/** The project as it is once `operations` are written (for a plan made right after them). */
function withOperations(project: Project, operations: readonly FileOperation[]): Project {
	const files = { ...project.files };
	let { packageJson } = project;
	for (const operation of operations) {
		if (operation.path === 'package.json') packageJson = operation.content ?? packageJson;
		else files[operation.path] = operation.content;
	}
	return { ...project, files, packageJson };
}

function plainProgress(): Pick<ReturnType<typeof prompts.spinner>, 'start' | 'stop' | 'error'> {
	return {
		start: (message) => prompts.log.step(message ?? ''),
		stop: (message) => prompts.log.success(message ?? ''),
		error: (message) => prompts.log.error(message ?? '')
	};
}

/** Prints what the plan left alone, the manual steps, and the files left with conflict markers. */
function reportLeftAlone(plan: Plan): void {
	for (const { path, reason } of plan.skipped) prompts.log.warn(`${path}: ${reason}`);
	for (const step of plan.pending) prompts.log.warn(`To do by hand: ${step}`);
	if (plan.conflicts.length > 0) {
		prompts.log.error(
			`Your changes and create-auth's overlap in these files; both versions are kept between <<<<<<< and >>>>>>> markers:\n` +
				`${plan.conflicts.map((path) => `  ${path}`).join('\n')}\nResolve them, then run create-auth regenerate again.`
		);
	}
}

/** `--dry-run`: new files by name and size, changed files as a unified diff; writes nothing. */
async function printDryRun(plan: Plan): Promise<void> {
	const { createTwoFilesPatch } = await import('diff');
	const lines = ['Dry run: nothing was written. create-auth would write:'];
	for (const operation of plan.operations) {
		if (operation.content === undefined) {
			lines.push(`- ${operation.path} (deleted)`);
		} else if (operation.previous === undefined) {
			lines.push(`+ ${operation.path} (new, ${operation.content.split('\n').length} lines)`);
		} else if (operation.path.startsWith('.env') && operation.path !== '.env.example') {
			lines.push(`~ ${operation.path} (adds keys; values hidden)`);
		} else {
			lines.push(createTwoFilesPatch(`a/${operation.path}`, `b/${operation.path}`, operation.previous, operation.content).trimEnd());
		}
	}
	process.stdout.write(`${lines.join('\n')}\n`);
	reportLeftAlone(plan);
}
