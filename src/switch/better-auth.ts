import type { CallExpression, Expression } from '@babel/types';
import type { Strategy } from '../answers.js';
import { parseModule, propertyName, propertyValue, unwrapExpression, walk } from '../edits/ast.js';
import { removeDependencies, removeScripts } from '../edits/package-json.js';
import type { FoundAuthLibrary } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import type { Project } from '../project.js';
import { removeLibraryTypes } from './app-types.js';
import type { DataDialect } from './data.js';
import { removeLibraryHandle } from './hooks.js';
import { drizzleAnswers, drizzleBlockers } from './onto-drizzle.js';
import { escapeRegExp, libSpecifierOf } from './sources.js';
import type { LibrarySwitch } from './types.js';

/** Better Auth's packages an app declares: the library, its CLI (`auth`, as sv installs it; formerly `@better-auth/cli`). */
const PACKAGES = ['better-auth', 'auth', '@better-auth/cli'];

/** Better Auth's social providers create-auth has a provider of the same id for. */
const SOCIAL: Record<string, string> = { github: 'github', google: 'google' };

/** Plugins that change nothing about signing in, so the switch can leave them behind. */
const INERT_PLUGINS = new Set(['sveltekitCookies']);

/** The route folder `sv add better-auth` writes its demo to. */
const SV_DEMO = 'src/routes/demo/better-auth/';

/** What `betterAuth({…})` sets, as the switch needs it. */
export interface BetterAuthOptions {
	/** `emailAndPassword.enabled` is `true`. */
	emailAndPassword: boolean;
	/** The keys of `socialProviders`. */
	socialProviders: string[];
	/** `plugins`, by the name of the function each is made by (`sveltekitCookies`, `twoFactor`). */
	plugins: string[];
	/** The database's SQL dialect, from `drizzleAdapter(db, { provider })` or the driver given; undefined when it cannot be read. */
	dialect?: DataDialect;
}

/**
 * Reads a Better Auth configuration module: the object given to `betterAuth(…)`.
 * @returns undefined when the module does not parse or calls no `betterAuth` with an object
 */
export function readBetterAuthOptions(source: string): BetterAuthOptions | undefined {
	const ast = parseModule(source);
	if (!ast) return undefined;
	let call: CallExpression | undefined;
	walk(ast.program, (node) => {
		if (!call && node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'betterAuth') call = node;
	});
	const config = call?.arguments[0] && call.arguments[0].type !== 'SpreadElement' && call.arguments[0].type !== 'ArgumentPlaceholder' ? unwrapExpression(call.arguments[0] as Expression) : undefined;
	if (config?.type !== 'ObjectExpression') return undefined;
	const emailAndPassword = propertyValue(config, 'emailAndPassword');
	const enabled = emailAndPassword?.type === 'ObjectExpression' ? propertyValue(emailAndPassword, 'enabled') : undefined;
	const social = propertyValue(config, 'socialProviders');
	const plugins = propertyValue(config, 'plugins');
	return {
		emailAndPassword: enabled?.type === 'BooleanLiteral' && enabled.value,
		socialProviders: social?.type === 'ObjectExpression' ? social.properties.flatMap((property) => (property.type === 'ObjectProperty' ? (propertyName(property) ?? []) : [])) : [],
		plugins:
			plugins?.type === 'ArrayExpression'
				? plugins.elements.map((element) => {
						const value = element && element.type !== 'SpreadElement' ? unwrapExpression(element) : undefined;
						return value?.type === 'CallExpression' && value.callee.type === 'Identifier' ? value.callee.name : '(a plugin)';
					})
				: [],
		dialect: dialectOf(propertyValue(config, 'database'))
	};
}

/** The dialect of Better Auth's `database` option: `drizzleAdapter(db, { provider })`, a better-sqlite3 `Database`, a pg `Pool`, a mysql2 pool. */
function dialectOf(database: Expression | undefined): DataDialect | undefined {
	if (!database) return undefined;
	if (database.type === 'CallExpression' && database.callee.type === 'Identifier' && database.callee.name === 'drizzleAdapter') {
		const options = database.arguments[1];
		const provider = options?.type === 'ObjectExpression' ? propertyValue(options, 'provider') : undefined;
		const name = provider?.type === 'StringLiteral' ? provider.value : undefined;
		return name === 'sqlite' ? 'sqlite' : name === 'pg' ? 'postgres' : name === 'mysql' ? 'mysql' : undefined;
	}
	const made = database.type === 'NewExpression' || database.type === 'CallExpression' ? database.callee : undefined;
	const name = made?.type === 'Identifier' ? made.name : made?.type === 'MemberExpression' && made.property.type === 'Identifier' ? made.property.name : undefined;
	return name === 'Database' ? 'sqlite' : name === 'Pool' ? 'postgres' : name === 'createPool' ? 'mysql' : undefined;
}

/**
 * Plans the switch of an app from Better Auth (issue 29): see {@link LibrarySwitch}.
 *
 * - Answers: `credentials` when `emailAndPassword` is enabled, each social provider create-auth
 *   has (`github`, `google`), the `database` strategy unless `strategy` says otherwise (Better
 *   Auth's sessions are rows too), the app's Drizzle `db` as the adapter (an app without Drizzle
 *   is a blocker: create-auth's tables must be where Better Auth's rows are), `previous:
 *   ['better-auth']`; with a manifest (create-auth was added beside Better Auth), its answers
 *   plus those providers.
 * - Edits: the hook that calls `svelteKitHandler` out of the hooks file, Better Auth's types out
 *   of `app.d.ts`, its packages (and sv's `auth:schema` script) out of package.json, its
 *   configuration module, client module and sv's demo routes deleted.
 * - Blockers: a social provider create-auth lacks, a plugin that changes sign-in, app code that
 *   still imports Better Auth or reads `locals.user` / `locals.session` (which its hook set),
 *   a database it cannot read.
 *
 * @param sources every module below `src/` (`.ts`, `.js`, `.svelte`), app-relative path → text
 */
export function planBetterAuthSwitch(
	project: Project,
	manifest: Manifest | undefined,
	library: FoundAuthLibrary,
	sources: Record<string, string>,
	given: { strategy?: Strategy }
): LibrarySwitch {
	const blockers: string[] = [];
	const configPath = library.files.find(({ uses }) => uses.includes('betterAuth()'))?.path;
	const options = configPath ? readBetterAuthOptions(sources[configPath] ?? '') : undefined;
	if (!configPath || !options) blockers.push(`Better Auth's configuration (betterAuth({ … })) was not found${configPath ? ` in ${configPath}` : ''}.`);
	const social = (options?.socialProviders ?? []).flatMap((id) => SOCIAL[id] ?? []);
	const providers = [...(options?.emailAndPassword ? ['credentials'] : []), ...social];
	for (const id of options?.socialProviders ?? []) if (!SOCIAL[id]) blockers.push(`Better Auth signs users in with ${id}, and create-auth has no ${id} provider: those users could not sign in.`);
	for (const plugin of options?.plugins ?? []) if (!INERT_PLUGINS.has(plugin)) blockers.push(`Better Auth's ${plugin} plugin has no counterpart that the switch can carry over.`);
	const dialect = options?.dialect;
	if (options && !dialect) blockers.push(`Better Auth's database in ${configPath} could not be read (drizzleAdapter(db, { provider }), better-sqlite3, pg or mysql2).`);
	// create-auth's tables go where Better Auth's are, through the app's Drizzle db (sv's Better Auth apps have one).
	if (options) blockers.push(...drizzleBlockers(project, manifest, 'Better Auth'));
	if (options && providers.length === 0) blockers.push('Better Auth has neither emailAndPassword nor a social provider create-auth has: nobody could sign in.');

	// What goes: the configuration, the client, sv's demo routes.
	const moduleSpecifier = configPath ? libSpecifierOf(configPath, project.libDir) : undefined;
	const usesLibrary = (text: string) =>
		/\bfrom\s*['"](?:better-auth|@better-auth\/[^'"]+)(?:\/[^'"]*)?['"]/.test(text) ||
		(moduleSpecifier !== undefined && new RegExp(`from\\s*['"]${escapeRegExp(moduleSpecifier)}(?:\\.[jt]s)?['"]`).test(text)) ||
		/\bfrom\s*['"]\$lib\/auth-client(?:\.[jt]s)?['"]/.test(text);
	const deleted = Object.keys(sources).filter(
		(file) =>
			file === configPath ||
			(new RegExp(`^${escapeRegExp(project.libDir)}/auth-client\\.[jt]s$`).test(file) && /better-auth/.test(sources[file]!)) ||
			file.startsWith(SV_DEMO)
	);
	const hooksPath = ['src/hooks.server.ts', 'src/hooks.server.js'].find((file) => sources[file] !== undefined);
	const appTypesPath = sources['src/app.d.ts'] !== undefined ? 'src/app.d.ts' : undefined;
	for (const [file, text] of Object.entries(sources)) {
		if (deleted.includes(file) || file === hooksPath || file === appTypesPath) continue;
		if (usesLibrary(text)) blockers.push(`${file} still uses Better Auth: move it to create-auth (locals.auth(), the signIn / signOut actions) first.`);
		else if (/\blocals\s*\.\s*(?:user|session)\b/.test(text)) blockers.push(`${file} reads locals.user or locals.session, which Better Auth's hook set: read (await locals.auth())?.user instead.`);
	}

	const edits: Record<string, string | undefined> = Object.fromEntries(deleted.map((file) => [file, undefined]));
	if (hooksPath) {
		const hooks = removeLibraryHandle(sources[hooksPath]!, 'svelteKitHandler', hooksPath);
		if (hooks.pending) blockers.push(hooks.pending);
		else edits[hooksPath] = hooks.content;
	}
	if (appTypesPath) {
		const types = removeLibraryTypes(sources[appTypesPath]!, PACKAGES, appTypesPath);
		if (types.pending) blockers.push(types.pending);
		else if (types.content !== sources[appTypesPath]) edits[appTypesPath] = types.content;
	}
	// sv's `auth:schema` script runs Better Auth's CLI on the deleted module.
	const schemaScript = (command: string) => /\bauth\s+generate\b/.test(command) && configPath !== undefined && command.includes(configPath);
	edits['package.json'] = removeScripts(removeDependencies(project.packageJson, PACKAGES), schemaScript);

	return {
		library,
		answers: drizzleAnswers(manifest, providers, given, 'better-auth'),
		edits,
		amend: {},
		// One line each, at most about 76 characters, for an 80-column terminal.
		carried: [
			'Users: their ids, names, addresses (verified or not) and images.',
			...(options?.emailAndPassword ? ["Passwords: Better Auth's hashes, rehashed at each user's next sign-in."] : []),
			...(social.length > 0 ? [`Linked ${social.join(' and ')} accounts, with their tokens.`] : []),
			'Signed-in browsers stay signed in (their cookie, by BETTER_AUTH_SECRET).'
		],
		left: [
			'Links Better Auth mailed and no one used yet (address, password reset).',
			`Better Auth's tables${project.drizzle ? ' and Drizzle schema' : ''} stay, unused: drop them later.`,
			...Object.entries(sources)
				.filter(([file, text]) => !deleted.includes(file) && text.includes(`'/${SV_DEMO.slice('src/routes/'.length, -1)}'`))
				.map(([file]) => `${file} links to /${SV_DEMO.slice('src/routes/'.length, -1)}, deleted here.`)
		],
		blockers,
		dialect
	};
}


