import { createHash } from 'node:crypto';
import path from 'node:path';
import { buildsFor, findAdapter, isOtherAdaptersFile } from './adapters.js';
import type { Answers, RateLimitStoreId } from './answers.js';
import type { TextFiles } from './assets.js';
import { addAppTypes } from './edits/app-types.js';
import { CliError } from './errors.js';
import { hasConflictMarkers } from './merge.js';
import { addEnvEntries, addMissingLines } from './edits/env.js';
import { addEnvVariables } from './edits/env-module.js';
import { addTokenTypes } from './edits/token-types.js';
import { composeHooks } from './edits/hooks.js';
import { mergeLayoutLoad } from './edits/layout.js';
import { addDependencies, addSubpathImports, allowBuildScripts } from './edits/package-json.js';
import { addSchemaExport } from './edits/drizzle-schema.js';
import { authEnvVars } from './env-vars.js';
import { MANIFEST_PATH, parseManifest, serializeManifest, type FileStrategy, type Manifest, type ManifestFile } from './manifest.js';
import type { Formatter } from './format.js';
import type { Project } from './project.js';
import { installRootFile } from './workspace.js';
import { findProvider, PROVIDERS } from './providers/index.js';
import { APP_FILES, routesFor } from './targets.js';
import { reconcileFile } from './reconcile.js';
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
 * Runtime npm packages every app needs (the adapter adds its driver, the rate-limit store its
 * client); ranges come from create-auth's package.json.
 */
const RUNTIME_DEPENDENCIES = ['jose', 'oauth-1.0a', 'oauth4webapi', 'p-limit', 'rate-limiter-flexible'];

/**
 * What each rate-limit store adds to the app: its runtime modules (keyed like the runtime's
 * files) and the npm packages they import. The memory store is part of the runtime every app gets.
 */
const RATE_LIMIT_SCAFFOLDS: Record<RateLimitStoreId, { modules: string[]; dependencies: string[] }> = {
	memory: { modules: [], dependencies: [] },
	redis: { modules: ['server/auth/rate-limit-redis.ts'], dependencies: ['ioredis'] }
};

/**
 * Whether a vendored runtime file belongs to an option these answers do not choose (another
 * rate-limit store, a provider left out), and so stays out of the app: it would import a
 * package (ioredis, nodemailer) the app lacks.
 */
function unchosenOptionFiles(answers: Answers): (file: string) => boolean {
	const chosen = new Set([...RATE_LIMIT_SCAFFOLDS[answers.rateLimit].modules, ...answers.providers.flatMap((id) => findProvider(id)?.modules ?? [])]);
	const optional = [...Object.values(RATE_LIMIT_SCAFFOLDS).flatMap(({ modules }) => modules), ...PROVIDERS.flatMap(({ modules }) => modules ?? [])];
	const unchosen = new Set(optional.filter((file) => !chosen.has(file)));
	return (file) => unchosen.has(file);
}

/**
 * Types the runtime needs to type-check: it imports `node:crypto` and uses `Buffer`. At the range
 * create-auth is built with, the oldest Node it supports, so what checks there runs on newer.
 */
const RUNTIME_DEV_DEPENDENCIES = ['@types/node'];

/** What the manifest records of each structural edit: the same whether the file was created or patched. */
const HOOKS_EDITS = ['handle: sequence(authentication, authorization)'];
const LAYOUT_EDITS = ['load: session'];
const APP_TYPES_EDITS = ['App.Locals.auth', 'App.PageData.session'];
const TOKEN_TYPES_EDITS = ['Session: idp token fields', 'JWT: idp token fields'];
const DRIZZLE_SCHEMA_EDITS = ['export: auth tables'];

/**
 * Turns (project, answers, tool version, manifest) into file operations. Pure: the same input
 * gives the same plan, and a run with the version and answers the manifest records plans zero
 * writes. Serves the first run, `regenerate`, and `add-provider` / `remove-provider` (answers
 * that differ from the manifest's).
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
	const { project, answers } = input;
	const adapter = findAdapter(answers.adapter)!;
	const rateLimitStore = RATE_LIMIT_SCAFFOLDS[answers.rateLimit] ?? RATE_LIMIT_SCAFFOLDS.memory;
	const scaffolds = answers.providers.flatMap((id) => findProvider(id) ?? []);
	const manifest = parseManifest(project.files[MANIFEST_PATH]);
	const unresolved = (manifest?.conflicts ?? []).filter((path) => hasConflictMarkers(project.files[path] ?? ''));
	if (unresolved.length > 0) {
		throw new CliError(
			'E_UNRESOLVED_CONFLICTS',
			`These files still hold conflict markers from the last run: ${unresolved.join(', ')}.`,
			'Resolve each <<<<<<< … >>>>>>> region (keep the lines you want, delete the markers), then run the command again.'
		);
	}
	if (adapter.drizzle && !project.drizzle) {
		throw new CliError(
			'E_DRIZZLE_MISSING',
			'The Drizzle adapter needs the app\'s Drizzle setup, and this app has none create-auth can use.',
			'Add one with npx sv add drizzle (drizzle.config.ts with a dialect and a schema file in src/lib, and src/lib/server/db/index.ts exporting db), or choose another --adapter.'
		);
	}
	const render = createRenderer(input.templates);
	// The runtime's folders an app module takes the bare name of: their index is imported by name.
	const shadowedLibFolders = Object.keys(project.existingAuth?.shadowed ?? {});
	const kit = shadowedLibFolders.length > 0 ? { ...project.kit, shadowedLibFolders } : project.kit;
	const contextOf = (given: Answers) =>
		templateContext(given, kit, authEnvVars(given, input.authSecret, input.databaseUrl).map((variable) => variable.key), project.typescript, project.drizzle);
	const envVars = authEnvVars(answers, input.authSecret, input.databaseUrl);
	const context = contextOf(answers);
	// The rendering of the answers the app was last written with, when they changed.
	const previous = manifest && !sameAnswers(manifest.answers, answers) ? contextOf(manifest.answers) : undefined;
	// A module is written in the language of the path it lands at (see userPath); a page, in the app's.
	const inLanguageOf = (path: string, of: TemplateContext) => (path.endsWith('.svelte') ? of : { ...of, typescript: path.endsWith('.ts') });
	const contextFor = (path: string) => inLanguageOf(path, context);
	const plan: Plan = { operations: [], skipped: [], pending: [], conflicts: [] };
	const recorded: Record<string, ManifestFile> = {};
	const labels = { ours: 'yours', theirs: `create-auth ${input.tool.version}` };

	const write = (path: string, strategy: FileOperation['strategy'], content: string | undefined) =>
		plan.operations.push({ path, strategy, content, previous: project.files[path] });
	/** A rendering as the app's Prettier writes it; the manifest's text when the rendering is unchanged. */
	const formatted = async (path: string, rendered: string, base?: ManifestFile) => {
		if (!input.format) return rendered;
		if (base && 'rendered' in base && base.rendered === digest(rendered)) return base.content;
		return input.format(path, rendered);
	};
	const own = async (path: string, strategy: 'managed' | 'merge', rendered: string, fromRendered?: string) => {
		const base = manifest?.files[path];
		const content = await formatted(path, rendered, base);
		const result = reconcileFile({
			path,
			current: project.files[path],
			base: base && 'content' in base ? base.content : undefined,
			next: content,
			from: fromRendered === undefined ? undefined : await formatted(path, fromRendered),
			restore: input.restore?.includes(path) ?? false,
			labels
		});
		if (result.record) recorded[path] = { strategy, content, ...(input.format ? { rendered: digest(rendered) } : {}) };
		if (result.write !== undefined) write(path, strategy, result.write);
		if (result.skipped) plan.skipped.push({ path, reason: result.skipped });
		if (result.conflict) plan.conflicts.push(path);
		plan.pending.push(...result.pending);
	};
	const patch = (path: string, content: string, edits: string[]) => {
		recorded[path] = { strategy: 'patch', edits };
		const previous = project.files[path];
		if (previous !== content) plan.operations.push({ path, strategy: 'patch', content, previous });
	};
	/** A user file the tool creates whole (it did not exist): formatted like the app's code. */
	const created = (path: string, template: string) => formatted(path, render(template, contextFor(path)));
	const pending = (step: string | undefined) => step && plan.pending.push(step);

	// The runtime, whose folders mirror the lib folder's: only the chosen adapter's modules and
	// migrations, the chosen rate-limit store's module and the chosen providers' modules, so the
	// app never imports a package it lacks.
	const isUnchosenOptionFile = unchosenOptionFiles(answers);
	for (const [file, content] of Object.entries(input.runtime).sort(([a], [b]) => a.localeCompare(b))) {
		if (isOtherAdaptersFile(file, adapter, project.drizzle?.dialect) || isUnchosenOptionFile(file)) continue;
		await own(`${project.libDir}/${file}`, 'managed', content);
	}

	// The user's files, generated once.
	const authPath = userPath(project, APP_FILES.auth);
	await own(authPath, 'merge', render('auth.ts.hbs', contextFor(authPath)), previous && render('auth.ts.hbs', inLanguageOf(authPath, previous)));
	const authorizationPath = userPath(project, APP_FILES.authorization);
	await own(authorizationPath, 'merge', render('authorization.ts.hbs', contextFor(authorizationPath)));
	for (const route of routesFor(scaffolds)) {
		const routePath = userPath(project, `src/routes/${route}`);
		await own(routePath, 'merge', render(`routes/${route}.hbs`, contextFor(routePath)));
	}

	const unknown = (input.restore ?? []).filter((path) => !recorded[path]);
	if (unknown.length > 0) {
		throw new CliError('E_UNKNOWN_FILE', `create-auth does not generate ${unknown.join(', ')}, so it cannot restore it.`, 'Give app-relative paths as the regenerate report lists them, e.g. src/routes/signin/+page.svelte.');
	}

	// Generated files this run no longer generates (a removed provider's routes, a runtime module
	// the new version dropped): deleted while unchanged, else kept as the user's.
	for (const [path, file] of Object.entries(manifest?.files ?? {})) {
		if (recorded[path] || file.strategy === 'patch' || project.files[path] === undefined) continue;
		if (project.files[path] === file.content) write(path, file.strategy, undefined);
		else plan.skipped.push({ path, reason: 'no longer generated; kept because you changed it' });
	}

	// Hooks: created, or the app's own handle composed after ours.
	const hooksPath = userPath(project, APP_FILES.hooks);
	const hooks = project.files[hooksPath];
	if (hooks === undefined) patch(hooksPath, await created(hooksPath, 'hooks/hooks.server.ts.hbs'), HOOKS_EDITS);
	else {
		const result = composeHooks(hooks, hooksPath);
		pending(result.pending);
		patch(hooksPath, result.content, result.pending ? [] : HOOKS_EDITS);
	}

	// Root layout load: the session for every page.
	const layoutPath = userPath(project, APP_FILES.layout);
	const layout = project.files[layoutPath];
	if (layout === undefined) patch(layoutPath, await created(layoutPath, 'routes/+layout.server.ts.hbs'), LAYOUT_EDITS);
	else {
		const result = mergeLayoutLoad(layout, layoutPath);
		pending(result.pending);
		patch(layoutPath, result.content, result.pending ? [] : LAYOUT_EDITS);
	}

	// App types; with idp, the token fields its callbacks keep on Session and JWT.
	const appTypes = project.files[APP_FILES.appTypes];
	const typed =
		appTypes === undefined
			? { content: await created(APP_FILES.appTypes, 'app.d.ts.hbs') }
			: addAppTypes(appTypes, libSpecifier('auth/index', kit));
	pending(typed.pending);
	const appTypesEdits = typed.pending ? [] : [...APP_TYPES_EDITS];
	if (answers.providers.includes('idp')) {
		const lib = (module: string) => libSpecifier(module, kit);
		const tokens = addTokenTypes(typed.content, { session: lib('auth/types'), jwt: lib('server/auth/config') });
		pending(tokens.pending);
		typed.content = tokens.content;
		if (!tokens.pending) appTypesEdits.push(...TOKEN_TYPES_EDITS);
	}
	patch(APP_FILES.appTypes, typed.content, appTypesEdits);

	// Environment: a fresh secret in .env (never overwritten), every variable documented in
	// .env.example, and declared in src/env.ts where the app has explicit environment variables.
	const env = envVars.flatMap(({ key, value, description }) => (value === undefined ? [] : [{ key, value, comment: description }]));
	patch(APP_FILES.env, addEnvEntries(project.files[APP_FILES.env], env), env.map((e) => e.key));
	const example = envVars.map(({ key, example, description }) => ({
		key,
		value: example,
		comment: key === 'AUTH_SECRET' ? `${description} Generate one: openssl rand -base64 33` : description
	}));
	patch(APP_FILES.envExample, addEnvEntries(project.files[APP_FILES.envExample], example), example.map((e) => e.key));
	if (project.kit.explicitEnv) {
		const envModule = userPath(project, APP_FILES.envModule);
		const result = addEnvVariables(project.files[envModule] ?? (await created(envModule, 'env.ts.hbs')), envVars);
		pending(result.pending);
		patch(envModule, result.content, result.pending ? [] : envVars.map((variable) => `variables.${variable.key}`));
	}
	// Drizzle: the auth tables join the app's schema, where drizzle-kit finds them.
	if (adapter.drizzle && project.drizzle) {
		const { schema, dialect } = project.drizzle;
		const target = `${project.libDir}/server/auth/adapters/drizzle-schema/${dialect}`;
		const relative = path.posix.relative(path.posix.dirname(schema), target);
		const result = addSchemaExport(project.files[schema] ?? '', relative.startsWith('.') ? relative : `./${relative}`, schema);
		pending(result.pending);
		patch(schema, result.content, result.pending ? [] : DRIZZLE_SCHEMA_EDITS);
	}
	const gitignore = project.files[APP_FILES.gitignore];
	if (gitignore !== undefined && adapter.ignore.length > 0) {
		patch(APP_FILES.gitignore, addMissingLines(gitignore, adapter.ignore, 'create-auth: local auth database'), adapter.ignore);
	}

	// Dependencies of the vendored runtime, at the ranges create-auth was tested with.
	const pick = (names: readonly string[]) =>
		Object.fromEntries(names.map((name) => [name, input.tool.devDependencies[name] ?? 'latest']));
	let packageJson = addDependencies(
		project.packageJson,
		pick([...RUNTIME_DEPENDENCIES, ...adapter.dependencies, ...rateLimitStore.dependencies, ...scaffolds.flatMap(({ dependencies }) => dependencies ?? [])]),
		pick([...RUNTIME_DEV_DEPENDENCIES, ...adapter.devDependencies, ...scaffolds.flatMap(({ devDependencies }) => devDependencies ?? [])])
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
	else if (rootPackageJson !== undefined && builds.packageJson !== rootPackageJson) patch(rootManifest, builds.packageJson, edits);
	for (const step of builds.pending) pending(step);
	if (builds.workspace !== undefined) patch(workspaceYaml, builds.workspace, edits);
	if (packageJson !== project.packageJson) {
		plan.operations.push({ path: 'package.json', strategy: 'tool', content: packageJson, previous: project.packageJson });
	}

	const next: Manifest = {
		version: input.tool.version,
		answers,
		files: sortKeys(recorded),
		pending: plan.pending,
		...(plan.conflicts.length > 0 ? { conflicts: plan.conflicts } : {})
	};
	const manifestText = serializeManifest(next);
	if (manifestText !== project.files[MANIFEST_PATH]) {
		plan.operations.push({ path: MANIFEST_PATH, strategy: 'tool', content: manifestText, previous: project.files[MANIFEST_PATH] });
	}
	return plan;
}

/** What the manifest records of a rendering, to tell whether it changed: SHA-256, hex. */
function digest(text: string): string {
	return createHash('sha256').update(text).digest('hex');
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
