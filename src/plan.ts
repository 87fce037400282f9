import path from 'node:path';
import { buildsFor, isAdapterAsset } from './adapters.js';
import { resolveAnswers, type Answers, type ResolvedAnswers } from './answers.js';
import type { TextFiles } from './assets.js';
import { addAppTypes } from './edits/app-types.js';
import { CliError } from './errors.js';
import { hasConflictMarkers } from './merge.js';
import { addEnvEntries, addMissingLines } from './edits/env.js';
import { addEnvVariables } from './edits/env-module.js';
import { composeHooks, type EditResult } from './edits/hooks.js';
import { mergeLayoutLoad } from './edits/layout.js';
import { addDependencies, addSubpathImports, allowBuildScripts } from './edits/package-json.js';
import { addSchemaExport } from './edits/drizzle-schema.js';
import { addAuthModels } from './edits/prisma-schema.js';
import { addD1Database, authDatabase, newWranglerConfig, NEW_WRANGLER_CONFIG, readWranglerConfig, workerName, type D1Database, type WranglerConfig } from './wrangler.js';
import { authEnvVars, type AuthEnvVar } from './env-vars.js';
import type { DrizzleDialect } from './drizzle.js';
import { digest, isAsWritten, isManifestText, MANIFEST_PATH, parseManifest, serializeManifest, type FileStrategy, type Manifest, type ManifestFile } from './manifest.js';
import type { Formatter } from './format.js';
import type { Project } from './project.js';
import { runtimeClosure } from './vendor.js';
import { installRootFile } from './workspace.js';
import { APP_FILES, routesFor } from './targets.js';
import { reconcileFile } from './reconcile.js';
import { movedFrom, movedTo } from './renames.js';
import { createRenderer, libSpecifier, templateContext, type TemplateContext } from './render.js';

/** Everything a plan depends on; gathered by the caller, so planning does no I/O. */
export interface PlanInput {
	project: Project;
	answers: Answers;
	/** create-auth's version and devDependencies (the runtime's dependency ranges are taken from there). */
	tool: { version: string; devDependencies: Record<string, string> };
	templates: TextFiles;
	runtime: TextFiles;
	/** A fresh random secret (≥ 32 chars), used only when `.env` has no `AUTH_SECRET` yet. */
	authSecret: string;
	/** `DATABASE_URL` for a database adapter's `.env` entry (`--database-url`); default: a local server's. */
	databaseUrl?: string;
	/** Generated files the user deleted that this run writes again (`regenerate --restore`). */
	restore?: readonly string[];
	/**
	 * The app's own Prettier ({@link loadFormatter}), applied to every file the plan writes
	 * whole; absent when the app has none. A file whose rendering did not change since the
	 * manifest recorded it is not formatted again: its recorded text is reused.
	 */
	format?: Formatter;
	/**
	 * The vendored runtime of an earlier create-auth release (keyed as {@link PlanInput.runtime}),
	 * or undefined when it is out of reach; asked only for the merge base of a runtime file the
	 * user edited since that release wrote it ({@link baseOfManaged}). Absent: no release is reachable.
	 */
	release?: (version: string) => Promise<TextFiles | undefined>;
}

/**
 * One file to write: its new text (undefined: delete the file) and the text it replaces
 * (undefined for a new file).
 */
export interface FileOperation {
	path: string;
	strategy: FileStrategy | 'tool';
	content: string | undefined;
	previous: string | undefined;
}

/** The outcome of planning: what to write, what is left alone and why, what to do by hand. */
export interface Plan {
	operations: FileOperation[];
	/** Files the plan did not write because they hold the user's own text. */
	skipped: Array<{ path: string; reason: string }>;
	/** Manual steps (unknown file shapes); also recorded in the manifest. */
	pending: string[];
	/** Files written with conflict markers (both the user and the new version changed the same lines). */
	conflicts: string[];
}

/**
 * Runtime npm packages every app needs (the adapter adds its driver, each chosen provider and
 * feature its own); ranges come from create-auth's package.json.
 */
const RUNTIME_DEPENDENCIES = ['bowser', 'jose', 'oauth4webapi', 'p-limit', 'rate-limiter-flexible'];

/**
 * Types the runtime needs to type-check: it imports `node:crypto` and uses `Buffer`. At the range
 * create-auth is built with, the oldest Node it supports, so what checks there runs on newer.
 */
const RUNTIME_DEV_DEPENDENCIES = ['@types/node'];

/** What the manifest records of each structural edit: the same whether the file was created or patched. */
const HOOKS_EDITS = ['handle: sequence(authentication, authorization)'];
const LAYOUT_EDITS = ['load: session'];
const APP_TYPES_EDITS = ['App.Locals.auth', 'App.PageData.session'];
const DRIZZLE_SCHEMA_EDITS = ['export: auth tables'];
const PRISMA_SCHEMA_EDITS = ['models: auth'];
/** create-auth's Prisma models, in the runtime (not vendored: `addAuthModels` adds them to the app's schema). */
const PRISMA_MODELS = 'server/auth/adapters/prisma-schema/models.prisma';
const WRANGLER_EDITS = ['d1_databases: auth', 'compatibility_flags: nodejs_compat'];

/** The lib modules every app's generated files import: `src/auth.ts`, the pages, `app.d.ts`. */
const APP_ENTRIES = ['server/auth/index', 'auth/index'];

/**
 * The one table of what an app is vendored: the runtime modules its generated files import,
 * without extension (`server/auth/index`, as `{{lib}}` names them): every app's, the adapter's,
 * and each chosen descriptor's `imports` and `entries`. The app gets what these reach by
 * imports ({@link vendoredRuntime}).
 */
export function runtimeEntries(resolved: ResolvedAnswers): string[] {
	return [
		...new Set([
			...APP_ENTRIES,
			`server/auth/adapters/${resolved.adapter.id}`,
			...resolved.parts.flatMap(({ imports, entries }) => [...imports.map(({ module }) => module), ...(entries ?? [])])
		])
	];
}

/**
 * The runtime files an app gets, sorted: every file reachable by imports from
 * {@link runtimeEntries} ({@link runtimeClosure}), and the chosen adapter's assets (SQL
 * migrations of its dialect, the Drizzle tables of the app's dialect: {@link isAdapterAsset}),
 * with what those import. So a provider's or feature's code, and
 * the packages it imports, reach only the apps that chose it.
 *
 * @throws {Error} from {@link runtimeClosure}: an entry or an import that names no runtime file
 */
function vendoredRuntime(runtime: TextFiles, resolved: ResolvedAnswers, drizzleDialect: DrizzleDialect | undefined): string[] {
	const assets = Object.keys(runtime).filter((file) => isAdapterAsset(file, resolved.adapter, drizzleDialect));
	const code = assets.filter((file) => /\.ts$/.test(file));
	return [...new Set([...runtimeClosure(runtime, [...runtimeEntries(resolved), ...code]), ...assets])].sort((a, b) => a.localeCompare(b));
}

/**
 * Turns (project, answers, tool version, manifest) into file operations. Pure: the same input
 * gives the same plan, and a run with the version and answers the manifest records plans zero
 * writes. Serves the first run, `regenerate`, and `add-provider` / `remove-provider` (answers
 * that differ from the manifest's).
 *
 * In steps, each below: the vendored runtime ({@link planRuntime}), the user's files generated
 * once ({@link planUserFiles}) and those no longer generated ({@link planDropped}), patches of
 * the user's files ({@link planPatches}), dependencies ({@link planDependencies}), the
 * manifest ({@link planManifest}).
 *
 * Files the tool generates (`managed` runtime, `merge` files) are reconciled 3-way with the
 * user's copy ({@link reconcileFile}): conflicts are written as markers and listed in
 * `conflicts`. When the answers changed, `src/auth.ts` gets the difference between the old
 * and new answers' renderings structurally, so providers the user added by hand never conflict
 * with one the tool adds. A generated file the new plan no longer generates is deleted while
 * unchanged, else kept.
 *
 * User files (`patch`) get small idempotent structural edits; a shape an edit does not know is
 * left alone and its manual step listed in `pending`.
 *
 * @throws {CliError} `E_UNRESOLVED_CONFLICTS` while a file the last run left conflicted still
 *   holds markers; `E_UNKNOWN_FILE` for a `restore` path the tool does not generate;
 *   `E_DRIZZLE_MISSING` for the Drizzle adapter in an app without a Drizzle setup
 */
export async function planInit(input: PlanInput): Promise<Plan> {
	const run = startRun(input);
	await planRuntime(run);
	await planUserFiles(run);
	planDropped(run);
	await planPatches(run);
	planDependencies(run);
	planManifest(run);
	return run.plan;
}

/** What every step of one plan reads and writes to. */
interface PlanRun {
	input: PlanInput;
	project: Project;
	resolved: ResolvedAnswers;
	manifest: Manifest | undefined;
	plan: Plan;
	/** What the next manifest records, by path. */
	recorded: Record<string, ManifestFile>;
	render: (name: string, context: TemplateContext) => string;
	/** The context of these answers, in the language of the path a file lands at. */
	contextFor(path: string): TemplateContext;
	/** The context of the answers the manifest records, when they differ from these. */
	previous: TemplateContext | undefined;
	inLanguageOf(path: string, of: TemplateContext): TemplateContext;
	/** A lib module's specifier in this app (`auth/index` → `$lib/auth`). */
	lib(module: string): string;
	/** The variables `src/auth.ts` reads, in order. */
	envVars: AuthEnvVar[];
	/** The D1 adapter's database in the app's Wrangler config ({@link authDatabase}); absent for other adapters. */
	d1?: { config: WranglerConfig | undefined; worker: string; database: D1Database };
}

/** Checks what would make any plan wrong, then sets up the state the steps share. */
function startRun(input: PlanInput): PlanRun {
	const { project, answers } = input;
	const resolved = resolveAnswers(answers);
	const manifest = parseManifest(project.files[MANIFEST_PATH]);
	const unresolved = (manifest?.conflicts ?? []).filter((path) => hasConflictMarkers(project.files[path] ?? ''));
	if (unresolved.length > 0) {
		throw new CliError(
			'E_UNRESOLVED_CONFLICTS',
			`These files still hold conflict markers from the last run: ${unresolved.join(', ')}.`,
			'Resolve each <<<<<<< … >>>>>>> region (keep the lines you want, delete the markers), then run the command again.'
		);
	}
	if (resolved.adapter.drizzle && !project.drizzle) {
		throw new CliError(
			'E_DRIZZLE_MISSING',
			'The Drizzle adapter needs the app\'s Drizzle setup, and this app has none create-auth can use.',
			'Add one with npx sv add drizzle (drizzle.config.ts with a dialect and a schema file in src/lib, and src/lib/server/db/index.ts exporting db), or choose another --adapter.'
		);
	}
	if (resolved.adapter.prisma && !project.prisma) {
		throw new CliError(
			'E_PRISMA_MISSING',
			"The Prisma adapter needs the app's Prisma setup, and this app has none create-auth can use.",
			'It needs prisma/schema.prisma (or the file its prisma7.config.ts or prisma.config.ts names) with a postgresql or sqlite datasource, and a module in src/lib (server/prisma.ts, server/db.ts, prisma.ts, …) that imports PrismaClient and exports the client as prisma, db or default. Add them, or choose another --adapter.'
		);
	}
	const d1 = resolved.adapter.wrangler ? d1Database(project) : undefined;
	// The runtime's folders an app module takes the bare name of: their index is imported by name.
	const shadowedLibFolders = Object.keys(project.existingAuth?.shadowed ?? {});
	const kit = shadowedLibFolders.length > 0 ? { ...project.kit, shadowedLibFolders } : project.kit;
	const contextOf = (given: Answers | ResolvedAnswers, answersOf: Answers) =>
		templateContext(
			given,
			kit,
			authEnvVars(answersOf, input.authSecret, input.databaseUrl).map((variable) => variable.key),
			project.typescript,
			{
				...(project.drizzle ? { drizzle: project.drizzle } : {}),
				...(project.prisma ? { prisma: project.prisma } : {}),
				...(d1 ? { d1: { binding: d1.database.binding, config: d1.config?.path ?? NEW_WRANGLER_CONFIG } } : {})
			}
		);
	const context = contextOf(resolved, answers);
	// A module is written in the language of the path it lands at (see userPath); a page, in the app's.
	const inLanguageOf = (path: string, of: TemplateContext) => (path.endsWith('.svelte') ? of : { ...of, typescript: path.endsWith('.ts') });
	return {
		input,
		project,
		resolved,
		manifest,
		plan: { operations: [], skipped: [], pending: [], conflicts: [] },
		recorded: {},
		render: createRenderer(input.templates),
		contextFor: (path) => inLanguageOf(path, context),
		// The rendering of the answers the app was last written with, when they changed.
		previous: manifest && !sameAnswers(manifest.answers, answers) ? contextOf(manifest.answers, manifest.answers) : undefined,
		inLanguageOf,
		lib: (module) => libSpecifier(module, kit),
		envVars: authEnvVars(answers, input.authSecret, input.databaseUrl),
		...(d1 ? { d1 } : {})
	};
}

/**
 * The D1 adapter's database: its entry in the app's Wrangler config, or the one a run adds
 * ({@link authDatabase}), with its migrations in the vendored `migrations/d1` folder.
 * @throws {CliError} `E_UNSUPPORTED_ADAPTER` when the app's SvelteKit has no `getRequestEvent`
 *   (below 2.20), through which the adapter finds the binding; `E_WRANGLER_CONFIG` from
 *   {@link readWranglerConfig} and {@link authDatabase}
 */
function d1Database(project: Project): NonNullable<PlanRun['d1']> {
	if (!project.kit.requestEvent) {
		throw new CliError(
			'E_UNSUPPORTED_ADAPTER',
			"The D1 adapter finds the request's platform.env through getRequestEvent, which this app's SvelteKit (below 2.20) does not have.",
			'Update @sveltejs/kit to 2.20 or later, then run create-auth again.'
		);
	}
	const config = readWranglerConfig(project.files);
	const worker = workerName((JSON.parse(project.packageJson) as { name?: string }).name);
	return { config, worker, database: authDatabase(config, project.libDir, worker).database };
}

/**
 * A rendering as the app's Prettier writes it; `recorded`, the text last written, when the
 * rendering is the one the manifest records (formatting it again would give the same text).
 */
async function formatted(run: PlanRun, path: string, rendered: string, base?: ManifestFile, recorded?: string): Promise<string> {
	const { format } = run.input;
	if (!format) return rendered;
	if (recorded !== undefined && base && 'rendered' in base && base.rendered === digest(rendered)) return recorded;
	return format(path, rendered);
}

/**
 * The text a generated file's record stands for without asking a release: a `merge` file's
 * kept text, or the app's copy of a `managed` file while it is as written.
 */
function recordedText(base: ManifestFile | undefined, current: string | undefined): string | undefined {
	if (!base || base.strategy === 'patch') return undefined;
	if (base.content !== undefined) return base.content;
	return current !== undefined && isAsWritten(base, current) ? current : undefined;
}

/**
 * The merge base of a `managed` runtime file the manifest records by digest only, when the
 * app's copy is no longer as written: the runtime file of the release that wrote it (this
 * version's own, or {@link PlanInput.release}), laid out by the app's Prettier; undefined when
 * that release is out of reach or its file is not the one recorded.
 */
async function baseOfManaged(run: PlanRun, path: string, base: Extract<ManifestFile, { strategy: 'managed' }>): Promise<string | undefined> {
	const release = base.release ?? run.manifest!.version;
	const runtime = release === run.input.tool.version ? run.input.runtime : await run.input.release?.(release);
	const raw = runtime?.[path.slice(run.project.libDir.length + 1)];
	if (raw === undefined || digest(raw) !== (base.rendered ?? base.sha256)) return undefined;
	return run.input.format ? run.input.format(path, raw) : raw;
}

/**
 * A file the tool generates (`managed` runtime, `merge` user files), reconciled 3-way with the
 * app's copy and the manifest's base; `fromRendered` is the rendering of the previous answers.
 * An edited runtime file whose base is out of reach is left as it is, with its old record and a
 * manual step.
 */
async function own(run: PlanRun, path: string, strategy: 'managed' | 'merge', rendered: string, fromRendered?: string): Promise<void> {
	const { project, input, plan } = run;
	// A runtime module a release moved: the app's copy and record of its old path stand in (renames.ts).
	const from = strategy === 'managed' ? movedFrom(path, project.libDir, run.manifest) : undefined;
	const carried = from !== undefined && project.files[path] === undefined ? project.files[from] : undefined;
	const current = project.files[path] ?? carried;
	const base = run.manifest?.files[from ?? path];
	const recorded = recordedText(base, current);
	const content = await formatted(run, path, rendered, base, recorded);
	const baseText = recorded ?? (base?.strategy === 'managed' && current !== undefined ? await baseOfManaged(run, from ?? path, base) : undefined);
	if (base?.strategy === 'managed' && current !== undefined && baseText === undefined) {
		const release = base.release ?? run.manifest!.version;
		const yours = from ?? path;
		run.recorded[yours] = { ...base, release };
		plan.skipped.push({ path: yours, reason: `you edited it, and create-auth ${release}'s copy to merge your edits with is out of reach: left as it is` });
		plan.pending.push(
			`${yours}: merge your edits into create-auth ${input.tool.version}'s copy${from ? ` (now ${path})` : ''}. Its base, create-auth ${release}'s copy, could not be fetched (npm pack create-auth@${release}); ` +
				`run create-auth regenerate again where npm reaches the registry, or delete it and run create-auth regenerate --restore ${path} to take the new copy instead.`
		);
		return;
	}
	const result = reconcileFile({
		path,
		current,
		base: baseText,
		written: base !== undefined && base.strategy !== 'patch',
		next: content,
		from: fromRendered === undefined ? undefined : await formatted(run, path, fromRendered),
		restore: input.restore?.includes(path) ?? false,
		labels: { ours: 'yours', theirs: `create-auth ${input.tool.version}` }
	});
	const renderedDigest = input.format ? { rendered: digest(rendered) } : {};
	if (result.record) run.recorded[path] = strategy === 'managed' ? { strategy, sha256: digest(content), ...renderedDigest } : { strategy, content, ...renderedDigest };
	// A carried copy the merge keeps as it is still moves to the new path.
	const text = result.write ?? (result.record && !result.skipped ? carried : undefined);
	if (text !== undefined) write(run, path, strategy, text);
	if (result.skipped) plan.skipped.push({ path, reason: result.skipped });
	if (result.conflict) plan.conflicts.push(path);
	plan.pending.push(...result.pending);
}

function write(run: PlanRun, path: string, strategy: FileOperation['strategy'], content: string | undefined): void {
	run.plan.operations.push({ path, strategy, content, previous: run.project.files[path] });
}

/** A user file's new text after structural edits, recorded by the names of the edits. */
function patch(run: PlanRun, path: string, content: string, edits: string[]): void {
	run.recorded[path] = { strategy: 'patch', edits };
	const previous = run.project.files[path];
	if (previous !== content) run.plan.operations.push({ path, strategy: 'patch', content, previous });
}

function pending(run: PlanRun, step: string | undefined): void {
	if (step) run.plan.pending.push(step);
}

/** One structural edit of a user file: its text after, and the names the manifest records of it. */
interface UserFileEdit {
	apply(content: string): EditResult;
	records: readonly string[];
}

/**
 * The create-or-patch of a user file (hooks, root layout, app types, `src/env.ts`): created
 * from `template` (formatted like the app's code) when absent, else given `edit`; then each of
 * `more` (descriptors' edits). An edit that meets an unknown shape leaves the text alone and
 * adds its manual step to `pending`; the manifest records only the edits that applied.
 *
 * @param editCreated also give a created file `edit` (a template that is only a skeleton)
 */
async function createOrPatch(run: PlanRun, path: string, template: string, edit: UserFileEdit, more: readonly UserFileEdit[] = [], editCreated = false): Promise<void> {
	const existing = run.project.files[path];
	let content = existing ?? (await formatted(run, path, run.render(template, run.contextFor(path))));
	// A file created from its template already has what `edit` would add (unless it is a skeleton).
	const createdWhole = existing === undefined && !editCreated;
	const records = createdWhole ? [...edit.records] : [];
	for (const step of createdWhole ? more : [edit, ...more]) {
		const result = step.apply(content);
		pending(run, result.pending);
		content = result.content;
		if (!result.pending) records.push(...step.records);
	}
	patch(run, path, content, records);
}

/**
 * The runtime, whose folders mirror the lib folder's, every file `managed`: the files
 * {@link vendoredRuntime} says this app gets.
 */
async function planRuntime(run: PlanRun): Promise<void> {
	const { input, project } = run;
	for (const file of vendoredRuntime(input.runtime, run.resolved, project.drizzle?.dialect)) {
		await own(run, `${project.libDir}/${file}`, 'managed', input.runtime[file]!);
	}
}

/**
 * The user's files, generated once (`merge`): `src/auth.ts` (with the previous answers'
 * rendering, so a change of answers reaches a user-edited file structurally), the path guard,
 * and the pages every app and the chosen descriptors have.
 *
 * @throws {CliError} `E_UNKNOWN_FILE` for a `restore` path no step generates
 */
async function planUserFiles(run: PlanRun): Promise<void> {
	const { project, render, previous } = run;
	const authPath = userPath(project, APP_FILES.auth);
	await own(run, authPath, 'merge', render('auth.ts.hbs', run.contextFor(authPath)), previous && render('auth.ts.hbs', run.inLanguageOf(authPath, previous)));
	const authorizationPath = userPath(project, APP_FILES.authorization);
	await own(run, authorizationPath, 'merge', render('authorization.ts.hbs', run.contextFor(authorizationPath)));
	for (const route of routesFor(run.resolved.parts)) {
		const routePath = userPath(project, `src/routes/${route}`);
		await own(run, routePath, 'merge', render(`routes/${route}.hbs`, run.contextFor(routePath)));
	}
	const unknown = (run.input.restore ?? []).filter((path) => !run.recorded[path]);
	if (unknown.length > 0) {
		throw new CliError('E_UNKNOWN_FILE', `create-auth does not generate ${unknown.join(', ')}, so it cannot restore it.`, 'Give app-relative paths as the regenerate report lists them, e.g. src/routes/signin/+page.svelte.');
	}
}

/**
 * Generated files this run no longer generates (a removed provider's routes, a runtime module
 * the new version dropped): deleted while unchanged, else kept as the user's.
 */
function planDropped(run: PlanRun): void {
	const { project } = run;
	for (const [path, file] of Object.entries(run.manifest?.files ?? {})) {
		if (run.recorded[path] || file.strategy === 'patch' || project.files[path] === undefined) continue;
		// A moved runtime module's old copy: its text, edits included, went to the new path (own).
		const moved = movedTo(path, project.libDir);
		if (isAsWritten(file, project.files[path]) || (moved && run.recorded[moved])) write(run, path, file.strategy, undefined);
		else run.plan.skipped.push({ path, reason: 'no longer generated; kept because you changed it' });
	}
}

/**
 * Structural edits of the user's files: hooks (the app's own handle composed after ours), the
 * root layout load (the session for every page), app types (plus the descriptors' own edits),
 * `.env` (a fresh secret, never overwritten) and `.env.example` (every variable documented),
 * `src/env.ts` where the app has explicit environment variables, the Drizzle schema (the auth
 * tables re-exported where drizzle-kit finds them), the Prisma schema (the auth models added to
 * it) and `.gitignore` (a local database file).
 */
async function planPatches(run: PlanRun): Promise<void> {
	const { project, resolved, envVars } = run;
	const hooksPath = userPath(project, APP_FILES.hooks);
	await createOrPatch(run, hooksPath, 'hooks/hooks.server.ts.hbs', { apply: (text) => composeHooks(text, hooksPath), records: HOOKS_EDITS });
	const layoutPath = userPath(project, APP_FILES.layout);
	await createOrPatch(run, layoutPath, 'routes/+layout.server.ts.hbs', { apply: (text) => mergeLayoutLoad(text, layoutPath), records: LAYOUT_EDITS });
	await createOrPatch(
		run,
		APP_FILES.appTypes,
		'app.d.ts.hbs',
		{ apply: (text) => addAppTypes(text, run.lib('auth/index')), records: APP_TYPES_EDITS },
		resolved.parts.flatMap(({ appTypes }) => appTypes ?? []).map(({ apply, records }) => ({ apply: (text: string) => apply(text, run.lib), records }))
	);

	const env = envVars.flatMap(({ key, value, description }) => (value === undefined ? [] : [{ key, value, comment: description }]));
	patch(run, APP_FILES.env, addEnvEntries(project.files[APP_FILES.env], env), env.map((e) => e.key));
	const example = envVars.map(({ key, example, description }) => ({
		key,
		value: example,
		comment: key === 'AUTH_SECRET' ? `${description} Generate one: openssl rand -base64 33` : description
	}));
	patch(run, APP_FILES.envExample, addEnvEntries(project.files[APP_FILES.envExample], example), example.map((e) => e.key));
	if (project.kit.explicitEnv) {
		const records = envVars.map((variable) => `variables.${variable.key}`);
		await createOrPatch(run, userPath(project, APP_FILES.envModule), 'env.ts.hbs', { apply: (text) => addEnvVariables(text, envVars), records }, [], true);
	}
	if (resolved.adapter.drizzle && project.drizzle) {
		const { schema, dialect } = project.drizzle;
		const target = `${project.libDir}/server/auth/adapters/drizzle-schema/${dialect}`;
		const relative = path.posix.relative(path.posix.dirname(schema), target);
		const result = addSchemaExport(project.files[schema] ?? '', relative.startsWith('.') ? relative : `./${relative}`, schema);
		pending(run, result.pending);
		patch(run, schema, result.content, result.pending ? [] : DRIZZLE_SCHEMA_EDITS);
	}
	if (resolved.adapter.prisma && project.prisma) {
		const { schema } = project.prisma;
		const result = addAuthModels(project.files[schema] ?? '', run.input.runtime[PRISMA_MODELS]!, schema);
		pending(run, result.pending);
		patch(run, schema, result.content, result.pending ? [] : PRISMA_SCHEMA_EDITS);
	}
	if (run.d1) {
		const { config, worker, database } = run.d1;
		patch(run, config?.path ?? NEW_WRANGLER_CONFIG, config ? addD1Database(config, database) : newWranglerConfig(worker, database), WRANGLER_EDITS);
	}
	const gitignore = project.files[APP_FILES.gitignore];
	const { ignore } = resolved.adapter;
	if (gitignore !== undefined && ignore.length > 0) {
		patch(run, APP_FILES.gitignore, addMissingLines(gitignore, ignore, 'create-auth: local auth database'), ignore);
	}
}

/**
 * Dependencies of the vendored runtime, at the ranges create-auth was tested with: every app's,
 * the adapter's, and each chosen descriptor's; `#lib/*` mapped where the code imports it; the
 * install scripts of native addons allowed where the package manager asks.
 */
function planDependencies(run: PlanRun): void {
	const { project, input, resolved } = run;
	const { adapter, parts } = resolved;
	const pick = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, input.tool.devDependencies[name] ?? 'latest']));
	let packageJson = addDependencies(
		project.packageJson,
		pick([...RUNTIME_DEPENDENCIES, ...adapter.dependencies, ...parts.flatMap(({ dependencies }) => dependencies ?? [])]),
		pick([...RUNTIME_DEV_DEPENDENCIES, ...adapter.devDependencies, ...parts.flatMap(({ devDependencies }) => devDependencies ?? [])])
	);
	// SvelteKit 3 has no $lib alias: the code above imports #lib/…, which package.json must map.
	if (project.kit.libImports) packageJson = addSubpathImports(packageJson, { '#lib/*': `./${project.libDir}/*` });
	// better-sqlite3's install script builds its native addon: allowed where the app's package
	// manager reads such approvals (npm 12 and pnpm 10+ skip unapproved scripts). In a workspace
	// that is the root's package.json and pnpm-workspace.yaml (npm ignores a workspace package's
	// allowScripts, pnpm reads only the root's settings), files read under app-relative keys.
	const { dependencies = {}, devDependencies = {} } = JSON.parse(project.packageJson) as Record<string, Record<string, string> | undefined>;
	const needsBuild = buildsFor(adapter, Object.keys({ ...dependencies, ...devDependencies }));
	const buildEdits = needsBuild.map((name) => `build allowed: ${name}`);
	const rootManifest = installRootFile(project.root, project.installRoot, 'package.json');
	const workspaceYaml = installRootFile(project.root, project.installRoot, 'pnpm-workspace.yaml');
	const inWorkspace = rootManifest !== 'package.json';
	const rootPackageJson = inWorkspace ? jsonText(project.files[rootManifest]) : packageJson;
	const builds = allowBuildScripts(project.packageManager, rootPackageJson ?? '{}', project.files[workspaceYaml], needsBuild);
	const edits = builds.pending.length > 0 ? [] : buildEdits;
	if (!inWorkspace) packageJson = builds.packageJson;
	else if (rootPackageJson !== undefined && builds.packageJson !== rootPackageJson) patch(run, rootManifest, builds.packageJson, edits);
	for (const step of builds.pending) pending(run, step);
	if (builds.workspace !== undefined) patch(run, workspaceYaml, builds.workspace, edits);
	if (packageJson !== project.packageJson) {
		run.plan.operations.push({ path: 'package.json', strategy: 'tool', content: packageJson, previous: project.packageJson });
	}
}

/** The manifest: this version, the answers, every file recorded, the pending steps and conflicts. */
function planManifest(run: PlanRun): void {
	const { plan, project } = run;
	const next: Manifest = {
		version: run.input.tool.version,
		answers: run.input.answers,
		files: sortKeys(run.recorded),
		pending: plan.pending,
		...(plan.conflicts.length > 0 ? { conflicts: plan.conflicts } : {})
	};
	const previous = project.files[MANIFEST_PATH];
	const text = serializeManifest(next);
	if (!isManifestText(previous, text)) {
		plan.operations.push({ path: MANIFEST_PATH, strategy: 'tool', content: text, previous });
	}
}

function sameAnswers(a: Answers, b: Answers): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Where a file that templates name `.ts` lands in the app: at the twin the app already has
 * (`.ts` or `.js`), else with the app's extension (`.js` in a JSDoc app). A re-run finds its own
 * files again, and an app that already has the TypeScript file (written by an earlier
 * create-auth, or by hand) is not given a second module of the same name. Other paths
 * (`+page.svelte`) are returned as they are.
 */
function userPath(project: Project, tsPath: string): string {
	const twins = [tsPath, tsPath.replace(/\.ts$/, '.js')];
	return twins.find((path) => project.files[path] !== undefined) ?? twins[project.typescript ? 0 : 1]!;
}

/** `text` when it is a JSON object's text, else undefined (a workspace root's package.json may be absent or broken). */
function jsonText(text: string | undefined): string | undefined {
	try {
		const value: unknown = text === undefined ? undefined : JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? text : undefined;
	} catch {
		return undefined;
	}
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
	return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
