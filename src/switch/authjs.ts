import MagicString from 'magic-string';
import type { CallExpression, Expression, File, ImportDeclaration, Node, ObjectExpression, ObjectProperty } from '@babel/types';
import { DEFAULT_ANSWERS, type Answers, type Strategy } from '../answers.js';
import { parseModule, propertyName, propertyValue, unwrapExpression, walk } from '../edits/ast.js';
import { setEnvValues, type EnvEntry } from '../edits/env.js';
import { removeDependencies } from '../edits/package-json.js';
import type { FoundAuthLibrary } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import type { Project } from '../project.js';
import { authjsAuthorizeModule, authjsAuthorizePath, carryAuthjsAuthorize, readAuthjsCredentials, type AuthjsCredentials } from '../providers/credentials/from-authjs.js';
import { carryOidcIdentity, envReadsOf, oidcEnvEntries, readInlineOidc, type InlineOidc } from '../providers/oidc/from-authjs.js';
import { libSpecifier } from '../render.js';
import type { LibrarySwitch } from './types.js';

/** Auth.js's packages an app declares. */
const PACKAGES = ['@auth/sveltekit', '@auth/core'];

/**
 * Auth.js provider modules (`@auth/sveltekit/providers/<id>`, `@auth/core/providers/<id>`) that
 * create-auth has a provider of the same id for, whose options the switch writes itself
 * (`clientId` / `clientSecret` from `AUTH_<ID>_ID` / `AUTH_<ID>_SECRET`, the names Auth.js reads).
 */
const PROVIDERS = new Set(['github', 'google']);

/** Config keys create-auth writes itself: Auth.js's values are replaced by the same environment variables. */
const REPLACED = new Set(['providers', 'secret', 'trustHost']);
/** Config keys carried into create-auth's `src/auth.ts` as written: the shapes are the same. */
const CARRIED = ['callbacks', 'events', 'pages'] as const;
/** Auth.js's `pages` create-auth's config has too, with the same meaning (the paths of the app's own sign-in, sign-out and "check your email" pages). */
const PAGES = ['signIn', 'signOut', 'verifyRequest'];
/** Keys of Auth.js's `session` the switch reads: the strategy, and the durations create-auth's `session` takes in the same unit (seconds). */
const SESSION_KEYS = ['strategy', 'maxAge', 'updateAge'];

const PROVIDER_MODULE = /^@auth\/(?:sveltekit|core)\/providers\/([a-z0-9-]+)$/;
const ADAPTER_PACKAGE = /^@auth\/[a-z0-9-]+-adapter$/;

/**
 * The `@auth/*` adapters whose tables the switch copies into create-auth's, each with the
 * create-auth adapter that then keeps the users in the same database: PostgreSQL's at
 * `DATABASE_URL`, or the app's own Drizzle `db`.
 */
const ADAPTERS: Record<string, AuthjsAdapter['target']> = { '@auth/pg-adapter': 'postgres', '@auth/drizzle-adapter': 'drizzle' };

/** An Auth.js adapter the switch copies from. */
export interface AuthjsAdapter {
	/** Its package: `@auth/pg-adapter`. */
	package: string;
	/** create-auth's adapter for the same database. */
	target: 'postgres' | 'drizzle';
}

/** A property of the Auth.js configuration carried as written. */
export interface CarriedProperty {
	/** Its source text, `callbacks: { … }`. */
	text: string;
	/** The whitespace its first line starts with there: its other lines are re-indented from it. */
	indent: string;
}

/** What an Auth.js configuration module (`src/auth.ts`, as its SvelteKit guide writes it) holds that the switch needs. */
export interface AuthjsConfig {
	/** create-auth's ids of its providers, in the order listed. */
	providers: string[];
	/** `session.strategy` when written, else `database` with an adapter (Auth.js's default), else `jwt`. */
	strategy: Strategy;
	/** Its `adapter`, when it is one the switch copies from. */
	adapter?: AuthjsAdapter;
	/** `trustHost: true` is written: the request's Host header is trusted (create-auth's `AUTH_TRUST_HOST=true`). */
	trustHost?: true;
	/** The OpenID Connect provider it lists inline, which becomes create-auth's `oidc` provider (its id is in `providers` as `oidc`). */
	oidc?: InlineOidc;
	/** Its `Credentials({ authorize })`, whose `authorize` create-auth's `credentials` provider asks for the users it does not have yet. */
	credentials?: AuthjsCredentials;
	/** Each carried property (`callbacks: { … }`) as written, with the indentation of its first line. */
	carried: CarriedProperty[];
	/** `session.maxAge` and `session.updateAge` as written (`maxAge: 7 * 24 * 60 * 60`), for create-auth's `session`. */
	sessionOptions: string[];
	/** What the switch cannot carry, one line each; empty when it can carry everything. */
	unsupported: string[];
}

/**
 * Reads an Auth.js configuration: the object given to `SvelteKitAuth(…)`, imported from
 * `@auth/sveltekit`.
 * @returns undefined when the module does not parse or has no such call
 */
export function readAuthjsConfig(source: string): AuthjsConfig | undefined {
	const ast = parseModule(source);
	if (!ast) return undefined;
	const imports = ast.program.body.filter((node): node is ImportDeclaration => node.type === 'ImportDeclaration');
	const factory = imports
		.filter((node) => node.source.value === '@auth/sveltekit')
		.flatMap((node) => node.specifiers)
		.find((s) => s.type === 'ImportSpecifier' && s.imported.type === 'Identifier' && s.imported.name === 'SvelteKitAuth')?.local.name;
	const call = factory ? findCall(ast, factory) : undefined;
	if (!call) return undefined;
	const unsupported: string[] = [];
	const providerModules = new Map<string, string>();
	const adapterFactories = new Map<string, string>();
	for (const node of imports) {
		const id = PROVIDER_MODULE.exec(node.source.value)?.[1];
		const local = node.specifiers.find((s) => s.type === 'ImportDefaultSpecifier')?.local.name;
		if (id && local) providerModules.set(local, id);
		if (!ADAPTER_PACKAGE.test(node.source.value)) continue;
		if (ADAPTERS[node.source.value]) for (const specifier of node.specifiers) adapterFactories.set(specifier.local.name, node.source.value);
		else unsupported.push(`The adapter ${node.source.value}: the switch copies the tables of ${Object.keys(ADAPTERS).join(' and ')}, so far.`);
	}
	const first = call.arguments[0];
	const config = first && first.type !== 'SpreadElement' && first.type !== 'ArgumentPlaceholder' ? unwrapExpression(first as Expression) : undefined;
	if (config?.type !== 'ObjectExpression') {
		const lazy = config?.type === 'ArrowFunctionExpression' || config?.type === 'FunctionExpression';
		unsupported.push(lazy ? 'SvelteKitAuth is given a function (lazy initialization); create-auth takes one configuration object.' : 'SvelteKitAuth is not given an object literal, so its configuration cannot be read.');
		return { providers: [], strategy: 'jwt', carried: [], sessionOptions: [], unsupported };
	}
	const providers: string[] = [];
	let oidc: InlineOidc | undefined;
	let credentials: AuthjsCredentials | undefined;
	const envReads = envReadsOf(imports);
	const list = propertyValue(config, 'providers');
	for (const element of list?.type === 'ArrayExpression' ? list.elements : []) {
		const value = element && element.type !== 'SpreadElement' ? unwrapExpression(element) : undefined;
		// An OpenID Connect provider written inline: create-auth's `oidc` provider, with its id kept.
		const inline = value?.type === 'ObjectExpression' ? readInlineOidc(value, envReads) : undefined;
		if (inline !== undefined) {
			const first = firstOf(inline, oidc, 'inline OpenID Connect provider', unsupported);
			if (first) providers.push('oidc');
			oidc ??= first;
			continue;
		}
		const name = value?.type === 'Identifier' ? value.name : value?.type === 'CallExpression' && value.callee.type === 'Identifier' ? value.callee.name : undefined;
		const id = name ? providerModules.get(name) : undefined;
		// Its Credentials provider: create-auth's, asking Auth.js's authorize for the users it does not have yet.
		const password = readAuthjsCredentials(id, value, ast, source);
		if (password !== undefined) {
			const first = firstOf(password, credentials, 'Credentials provider', unsupported);
			if (first) providers.push('credentials');
			credentials ??= first;
			continue;
		}
		if (!id || !PROVIDERS.has(id)) {
			unsupported.push(`The provider ${id ?? (name ? `${name}(…)` : 'written inline')}: create-auth's switch carries GitHub and Google only, so far.`);
			continue;
		}
		const options = value?.type === 'CallExpression' ? value.arguments[0] : undefined;
		const keys = options?.type === 'ObjectExpression' ? options.properties.map((p) => (p.type === 'ObjectProperty' ? propertyName(p) : undefined)) : [];
		if (options && (options.type !== 'ObjectExpression' || keys.some((key) => key !== 'clientId' && key !== 'clientSecret'))) {
			unsupported.push(`The options given to ${name}(…) beyond clientId and clientSecret: the switch writes its own.`);
		}
		providers.push(id);
	}
	if (list?.type !== 'ArrayExpression') unsupported.push('providers is not an array literal, so the providers cannot be read.');
	const adapterValue = propertyValue(config, 'adapter');
	const adapterPackage = adapterValue?.type === 'CallExpression' && adapterValue.callee.type === 'Identifier' ? adapterFactories.get(adapterValue.callee.name) : undefined;
	const adapter = adapterPackage ? { package: adapterPackage, target: ADAPTERS[adapterPackage]! } : undefined;
	const carried: CarriedProperty[] = [];
	const sessionOptions: string[] = [];
	for (const property of config.properties) {
		const key = property.type === 'ObjectProperty' || property.type === 'ObjectMethod' ? propertyName(property as ObjectProperty) : undefined;
		if (key && REPLACED.has(key)) continue;
		// Its rows are copied into create-auth's tables; create-auth's adapter takes its place.
		if (key === 'adapter' && adapter) continue;
		if (key === 'pages' && !isPagesCarried((property as ObjectProperty).value as Expression)) {
			unsupported.push(`The option pages: the switch carries ${PAGES.join(', ')}, each a path written as a string.`);
			continue;
		}
		if (key && (CARRIED as readonly string[]).includes(key)) {
			const lineStart = source.lastIndexOf('\n', property.start! - 1) + 1;
			carried.push({ text: source.slice(property.start!, property.end!), indent: /^[ \t]*/.exec(source.slice(lineStart))![0] });
			continue;
		}
		if (key === 'session') {
			const session = unwrapExpression((property as ObjectProperty).value as Expression);
			const entries = session.type === 'ObjectExpression' ? session.properties.map((p) => (p.type === 'ObjectProperty' ? p : undefined)) : [undefined];
			const readable = (entry: ObjectProperty | undefined) => entry && SESSION_KEYS.includes(propertyName(entry) ?? '') && (propertyName(entry) === 'strategy' || isArithmetic(entry.value as Expression));
			if (entries.every(readable)) {
				// `strategy` decides the answers; `maxAge` and `updateAge` mean the same here (seconds): carried as written.
				sessionOptions.push(...entries.filter((entry) => propertyName(entry!) !== 'strategy').map((entry) => source.slice(entry!.start!, entry!.end!)));
				continue;
			}
		}
		unsupported.push(`The option ${key ?? '(a spread or computed key)'}: the switch does not carry it yet.`);
	}
	const trustHost = propertyValue(config, 'trustHost');
	return {
		providers,
		strategy: strategyOf(config),
		...(adapter ? { adapter } : {}),
		...(oidc ? { oidc } : {}),
		...(credentials ? { credentials } : {}),
		...(trustHost?.type === 'BooleanLiteral' && trustHost.value ? { trustHost: true as const } : {}),
		carried,
		sessionOptions,
		unsupported
	};
}

/**
 * Plans the switch of an app from Auth.js (`@auth/sveltekit`, as its SvelteKit guide sets it up):
 * see {@link LibrarySwitch}.
 *
 * - Answers: its GitHub and Google providers, an OpenID Connect provider written inline (as
 *   `oidc`, its id and name amended in, its settings moved to `AUTH_OIDC_*` in `.env`) and its
 *   Credentials (as `credentials`: its `authorize` moved to `src/authjs-authorize.ts`, which
 *   create-auth's `authorizeWithPassword` asks as `previous`, amended in), its
 *   strategy (`jwt` without an adapter, `database` with one, unless it wrote another); with
 *   `@auth/pg-adapter` create-auth's PostgreSQL adapter,
 *   with `@auth/drizzle-adapter` the app's Drizzle `db` (Auth.js's rows are copied there after the
 *   install: `dialect`); without an adapter the app's Drizzle `db` if it has one, else SQLite, for
 *   the users create-auth keeps from the next sign-in; `previous: ['authjs']`
 *   (`previousSessions: [authjsSessions()]`, which reads its cookie with the same `AUTH_SECRET`).
 * - Edits: its `src/auth.ts` replaced by create-auth's, into which its `callbacks`, `events`, `pages` and
 *   numeric session durations are carried as written (`amend`); `trustHost: true` as
 *   `AUTH_TRUST_HOST=true` in `.env`; `export { handle } from './auth'` out of the hooks file
 *   (create-auth's composition takes its place); `@auth/sveltekit/client` and
 *   `/components` imports pointed at `$lib/auth` (the same `signIn`, `signOut`, `SignIn`,
 *   `SignOut`), its types (`Session`, `User`) too; its packages out of package.json.
 * - Blockers: what {@link readAuthjsConfig} cannot carry (another adapter, another provider,
 *   options it does not know), and app code importing anything else of Auth.js.
 *
 * @param sources every module below `src/` (`.ts`, `.js`, `.svelte`), app-relative path → text
 */
export function planAuthjsSwitch(project: Project, manifest: Manifest | undefined, library: FoundAuthLibrary, sources: Record<string, string>, given: { strategy?: Strategy }): LibrarySwitch {
	const blockers: string[] = [];
	const configPath = ['src/auth.ts', 'src/auth.js'].find((file) => sources[file] !== undefined && /@auth\/sveltekit/.test(sources[file]!));
	const config = configPath ? readAuthjsConfig(sources[configPath]!) : undefined;
	if (!config) blockers.push("Auth.js's configuration (SvelteKitAuth({ … }) in src/auth.ts, as its guide places it) was not found.");
	blockers.push(...(config?.unsupported ?? []));
	if (manifest) blockers.push('create-auth is set up beside Auth.js already: switching such an app is not built yet.');

	const edits: Record<string, string | undefined> = {};
	// create-auth's src/auth.ts takes the place of Auth.js's: planned as a new file, journaled over the old.
	if (configPath) edits[configPath] = undefined;
	const client = libSpecifier('auth/index', project.kit);
	for (const [file, text] of Object.entries(sources)) {
		if (file === configPath) continue;
		// The guide's /signin and /signout actions (`actions = { default: signIn }`): create-auth's pages of the same role replace them.
		if (/^src\/routes\/sign(in|out)\/\+page\.server\.[jt]s$/.test(file) && isActionOnly(text)) {
			edits[file] = undefined;
			continue;
		}
		const moved = pointImports(text, client);
		if (moved.stray.length > 0) blockers.push(`${file} imports ${moved.stray.join(', ')} from Auth.js, which create-auth has no counterpart of.`);
		else if (moved.content !== text) edits[file] = moved.content;
	}
	const hooksPath = ['src/hooks.server.ts', 'src/hooks.server.js'].find((file) => sources[file] !== undefined);
	if (hooksPath) {
		const hooks = withoutReexportedHandle(edits[hooksPath] ?? sources[hooksPath]!);
		if (hooks !== sources[hooksPath]) edits[hooksPath] = hooks;
	}
	const adapter = config?.adapter;
	edits['package.json'] = removeDependencies(project.packageJson, [...PACKAGES, ...(adapter ? [adapter.package] : [])]);
	if (adapter?.target === 'drizzle' && !project.drizzle) blockers.push(`Auth.js uses ${adapter.package}, but the app has no Drizzle setup (drizzle.config and a db module) for create-auth's tables to join.`);

	const answers: Answers = {
		...DEFAULT_ANSWERS,
		providers: config?.providers.length ? config.providers : DEFAULT_ANSWERS.providers,
		strategy: given.strategy ?? config?.strategy ?? 'jwt',
		adapter: adapter?.target ?? (project.drizzle ? 'drizzle' : DEFAULT_ANSWERS.adapter),
		previous: ['authjs']
	};
	const carried = config?.carried ?? [];
	const sessionOptions = config?.sessionOptions ?? [];
	const oidc = config?.oidc;
	// Its settings move to the variables create-auth's oidc provider reads.
	const oidcEnv = oidc ? oidcEnvEntries(oidc, project.files['.env']) : undefined;
	// Auth.js's `trustHost: true` is create-auth's AUTH_TRUST_HOST=true: without it, OAuth sign-in stops outside the dev server.
	const trustHost: EnvEntry[] = config?.trustHost ? [{ key: 'AUTH_TRUST_HOST', value: 'true', comment: "Trust the request's Host header (Auth.js's trustHost: true, carried over)." }] : [];
	const envEntries = [...trustHost, ...(oidcEnv?.entries ?? [])];
	if (envEntries.length > 0) edits['.env'] = setEnvValues(project.files['.env'], envEntries);
	// Its authorize moves to a module of its own, which create-auth's credentials provider asks for the users it does not have yet.
	const credentials = config?.credentials;
	const typescript = configPath?.endsWith('.ts') ?? true;
	const authorizePath = authjsAuthorizePath(typescript);
	if (credentials) {
		if (sources[authorizePath] !== undefined) blockers.push(`${authorizePath} exists: the switch moves Auth.js's authorize there.`);
		const runtime = { index: libSpecifier('server/auth/index', project.kit), passwords: libSpecifier('server/auth/passwords', project.kit) };
		edits[authorizePath] = authjsAuthorizeModule(credentials, runtime, typescript);
	}
	const amend = (text: string) => {
		const identified = oidc ? carryOidcIdentity(text, oidc) : text;
		const authorized = credentials ? carryAuthjsAuthorize(identified, typescript) : identified;
		return carrySessionOptions(carryProperties(authorized, carried), sessionOptions);
	};
	return {
		library,
		answers,
		edits,
		amend: configPath && (carried.length > 0 || sessionOptions.length > 0 || oidc || credentials) ? { [configPath]: amend } : {},
		carried: [
			...(adapter ? [`Users, linked accounts and sessions, from ${adapter.package}'s tables.`] : []),
			`Signed-in browsers stay signed in (their cookie${adapter ? '' : ', by the same AUTH_SECRET'}).`,
			...(carried.length > 0 ? [`Its ${CARRIED.filter((key) => carried.some(({ text }) => text.startsWith(key))).join(' and ')}, into create-auth's src/auth.ts.`] : []),
			...(sessionOptions.length > 0 ? [`Its session ${sessionOptions.map((text) => text.split(':')[0]!.trim()).join(' and ')}, as written.`] : []),
			...(oidc ? [`Its OpenID Connect provider ${oidc.id}: same callback URL, settings in AUTH_OIDC_*.`] : []),
			...(credentials ? [`Its Credentials provider's authorize, in ${authorizePath}: the same password signs in, and each user is kept by create-auth at their first sign-in.`] : []),
			"Its sign-in buttons and signIn / signOut calls, now create-auth's."
		],
		left: [
			...(adapter
				? ['Links Auth.js mailed and no one used yet (its verification tokens).', "Auth.js's tables stay, unused: drop them later."]
				: // Without an adapter Auth.js kept no user rows.
					['Users: Auth.js stored none; create-auth stores each at the next sign-in.']),
			...(credentials ? [`Users who do not sign in stay only in the app's own store; ${authorizePath} can go once all have.`] : []),
			...(oidcEnv?.unset ?? []).map(({ from, to }) => `${to}: set it where ${from} is set (not in .env).`),
			...(config?.trustHost ? ['trustHost: true is AUTH_TRUST_HOST=true in .env: set it on the host too.'] : [])
		],
		blockers,
		...(adapter ? { dialect: adapter.target === 'postgres' ? 'postgres' : project.drizzle?.dialect } : {})
	};
}

/**
 * A provider the switch carries at most once: `read` when it is readable and the first, else
 * undefined, with why in `unsupported` (what {@link read} said, or that this is a second `what`).
 */
function firstOf<T>(read: T | string, carried: T | undefined, what: string, unsupported: string[]): T | undefined {
	if (typeof read === 'string') unsupported.push(read);
	else if (carried) unsupported.push(`A second ${what}: the switch carries one, so far.`);
	else return read;
	return undefined;
}

/** The first call of `name` in the module. */
function findCall(ast: File, name: string): CallExpression | undefined {
	let found: CallExpression | undefined;
	walk(ast.program, (node) => {
		if (!found && node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === name) found = node;
	});
	return found;
}

/** Whether `node` is a number written out: numeric literals and `+ - * /` (`30 * 24 * 60 * 60`), which reads the same in any module. */
function isArithmetic(node: Expression): boolean {
	const value = unwrapExpression(node);
	if (value.type === 'NumericLiteral') return true;
	return value.type === 'BinaryExpression' && ['+', '-', '*', '/'].includes(value.operator) && value.left.type !== 'PrivateName' && isArithmetic(value.left) && isArithmetic(value.right);
}

/** Whether Auth.js's `pages` holds only {@link PAGES}, each a string literal. */
function isPagesCarried(node: Expression): boolean {
	const pages = unwrapExpression(node);
	if (pages.type !== 'ObjectExpression') return false;
	return pages.properties.every((p) => p.type === 'ObjectProperty' && PAGES.includes(propertyName(p) ?? '') && unwrapExpression(p.value as Expression).type === 'StringLiteral');
}

/** See {@link AuthjsConfig.strategy}. */
function strategyOf(config: ObjectExpression): Strategy {
	const session = propertyValue(config, 'session');
	const written = session?.type === 'ObjectExpression' ? propertyValue(session, 'strategy') : undefined;
	if (written?.type === 'StringLiteral' && (written.value === 'jwt' || written.value === 'database')) return written.value;
	return propertyValue(config, 'adapter') ? 'database' : 'jwt';
}

/** The names `@auth/sveltekit` modules export that `$lib/auth` exports with the same use. */
const CLIENT_NAMES = new Set(['signIn', 'signOut', 'SignIn', 'SignOut', 'Session', 'User']);

/**
 * A module's imports of `@auth/sveltekit/client`, `/components` and the package's types pointed at
 * create-auth's client module (`client`); `stray` names what has no counterpart there.
 */
function pointImports(source: string, client: string): { content: string; stray: string[] } {
	const pattern = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*(['"])@auth\/sveltekit(\/client|\/components)?\3/g;
	const stray: string[] = [];
	const content = source.replace(pattern, (whole, type: string | undefined, names: string, quote: string) => {
		const imported = names.split(',').map((name) => name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
		const missing = imported.filter((name) => !CLIENT_NAMES.has(name));
		if (missing.length > 0) {
			stray.push(...missing);
			return whole;
		}
		return `import ${type ?? ''}{${names}} from ${quote}${client}${quote}`;
	});
	const other = /from\s*['"](@auth\/sveltekit(?:\/(?!client|components)[^'"]*)?)['"]/.exec(content);
	if (other && !/\/providers\//.test(other[1]!)) stray.push(other[1]!);
	return { content, stray };
}

/**
 * Whether a route's server module only hands Auth.js's action to the page, as the guide writes
 * it: imports, and `export const actions = { default: signIn }` (or `signOut`), nothing else.
 */
function isActionOnly(source: string): boolean {
	const ast = parseModule(source);
	if (!ast) return false;
	return ast.program.body.every((node) => {
		if (node.type === 'ImportDeclaration') return true;
		const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : undefined;
		if (declaration?.type !== 'VariableDeclaration' || declaration.declarations.length !== 1) return false;
		const [declarator] = declaration.declarations;
		const value = declarator?.init ? unwrapExpression(declarator.init) : undefined;
		if (declarator?.id.type !== 'Identifier' || declarator.id.name !== 'actions' || value?.type !== 'ObjectExpression' || value.properties.length !== 1) return false;
		const [property] = value.properties;
		const action = property?.type === 'ObjectProperty' ? unwrapExpression(property.value as Expression) : undefined;
		return property?.type === 'ObjectProperty' && propertyName(property) === 'default' && action?.type === 'Identifier' && /^sign(In|Out)$/.test(action.name);
	});
}

/** The hooks module without `export { handle } from './auth'` (Auth.js's guide), which create-auth's composition replaces. */
function withoutReexportedHandle(source: string): string {
	const ast = parseModule(source);
	if (!ast) return source;
	const edit = new MagicString(source);
	for (const node of ast.program.body) {
		if (node.type !== 'ExportNamedDeclaration' || !node.source || !/^\.\/auth(\.[jt]s)?$/.test(node.source.value)) continue;
		if (node.specifiers.length !== 1) continue;
		const [specifier] = node.specifiers;
		if (specifier?.type !== 'ExportSpecifier' || specifier.local.name !== 'handle') continue;
		const end = source.indexOf('\n', node.end!);
		edit.remove(node.start!, end === -1 ? source.length : end + 1);
	}
	return edit.toString();
}

/**
 * Adds `session` options carried from Auth.js (`maxAge: 3600`) to the `session: { … }` object of
 * create-auth's `SvelteKitAuth({ … })` config, after what it holds. The source unchanged when
 * there is nothing to add or no such object.
 */
export function carrySessionOptions(source: string, options: readonly string[]): string {
	if (options.length === 0) return source;
	const ast = parseModule(source);
	const config = ast ? findCall(ast, 'SvelteKitAuth')?.arguments[0] : undefined;
	const session = config?.type === 'ObjectExpression' ? propertyValue(config, 'session') : undefined;
	const last = session?.type === 'ObjectExpression' ? session.properties.at(-1) : undefined;
	if (!last) return source;
	return new MagicString(source).appendLeft(last.end!, options.map((option) => `, ${option}`).join('')).toString();
}

/**
 * create-auth's `src/auth.ts` with the carried properties added at the end of the config given to
 * `SvelteKitAuth`, each from its own line, re-indented to the config's indentation (a line's
 * indentation beyond the property's first line is kept as it was).
 * @returns the source unchanged when it has no such config (the plan did not render one)
 */
export function carryProperties(source: string, properties: readonly CarriedProperty[]): string {
	const ast = parseModule(source);
	const call = ast ? findCall(ast, 'SvelteKitAuth') : undefined;
	const config = call?.arguments[0];
	if (!config || config.type !== 'ObjectExpression' || config.properties.length === 0) return source;
	const last = config.properties.at(-1) as Node;
	const indent = /^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', last.start! - 1) + 1))![0];
	// The property sat one level deep in Auth.js's config: its indentation is that file's unit, and
	// each unit beyond it becomes one of this file's (a tab, in create-auth's files).
	const unit = indent.startsWith('\t') ? '\t' : indent.slice(0, indent.length / 2) || '\t';
	const reindent = (line: string, from: string) => {
		if (!from || !line.startsWith(from)) return line;
		let rest = line.slice(from.length);
		let depth = '';
		while (rest.startsWith(from)) {
			depth += unit;
			rest = rest.slice(from.length);
		}
		return indent + depth + rest;
	};
	const reindented = properties.map(({ text, indent: from }) =>
		text
			.split('\n')
			.map((line, index) => (index > 0 ? reindent(line, from) : line))
			.join('\n')
	);
	return new MagicString(source).appendLeft(last.end!, reindented.map((property) => `,\n${indent}${property}`).join('')).toString();
}
