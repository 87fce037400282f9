import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import MagicString from 'magic-string';
import { getStaticTOMLValue, parseTOML, type AST } from 'toml-eslint-parser';
import { CliError } from './errors.js';

/** The Wrangler config files, in the order Wrangler itself prefers them. */
export const WRANGLER_CONFIGS = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'] as const;

/** One entry of `d1_databases`: a D1 database bound to the Worker under `binding`. */
export interface D1Database {
	binding: string;
	database_name?: string;
	database_id?: string;
	/** Where `wrangler d1 migrations` finds its `.sql` files, relative to the config (default `migrations`). */
	migrations_dir?: string;
}

/** A Wrangler config, read. */
export interface WranglerConfig {
	/** App-relative path: one of {@link WRANGLER_CONFIGS}. */
	path: string;
	text: string;
	/** The Worker's `name`, if set. */
	name?: string;
	compatibilityFlags: string[];
	d1: D1Database[];
}

/** The D1 binding create-auth adds when the app has none; beside the app's own, {@link AUTH_BINDING}. */
export const DEFAULT_BINDING = 'DB';
export const AUTH_BINDING = 'AUTH_DB';

/** The config a run writes for an app that has none: JSON with comments, as `sv create` writes it. */
export const NEW_WRANGLER_CONFIG = 'wrangler.jsonc';

/**
 * The minimum a SvelteKit app needs to run under Wrangler with adapter-cloudflare (the Worker
 * and assets it builds, `nodejs_compat`), and `database`, as {@link NEW_WRANGLER_CONFIG}'s text.
 * Its compatibility date is one the workerd create-auth was tested with: a later one than the
 * installed workerd knows is refused by it.
 * @param worker the Worker's name ({@link workerName})
 * @see https://svelte.dev/docs/kit/adapter-cloudflare
 */
export function newWranglerConfig(worker: string, database: D1Database): string {
	const config = {
		$schema: 'node_modules/wrangler/config-schema.json',
		name: worker,
		main: '.svelte-kit/cloudflare/_worker.js',
		compatibility_date: COMPATIBILITY_DATE,
		compatibility_flags: ['nodejs_compat'],
		assets: { binding: 'ASSETS', directory: '.svelte-kit/cloudflare' },
		d1_databases: [database]
	};
	return `// Written by create-auth for adapter-cloudflare: https://developers.cloudflare.com/workers/wrangler/configuration/\n${JSON.stringify(config, null, '\t')}\n`;
}

/** A Worker's name made of an npm package name (`@acme/Shop` → `shop`): lowercase letters, digits and dashes; `app` for none. */
export function workerName(packageName: string | undefined): string {
	return (packageName ?? '').replace(/^@[^/]+\//, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'app';
}

/** The compatibility date of a config create-auth writes (workerd 1.2026050x accepts it). */
const COMPATIBILITY_DATE = '2026-05-01';

const invalid = (path: string, why: string) =>
	new CliError('E_WRANGLER_CONFIG', `${path} cannot be read: ${why}.`, `Fix ${path} (npx wrangler deploy --dry-run shows what Wrangler makes of it), then run create-auth again.`);

/**
 * The app's Wrangler config, the first of {@link WRANGLER_CONFIGS} in `files` (app-relative
 * path → text, `undefined` for an absent file); undefined when it has none.
 * @throws {CliError} `E_WRANGLER_CONFIG` when the file does not parse (JSON with comments, or TOML)
 */
export function readWranglerConfig(files: Record<string, string | undefined>): WranglerConfig | undefined {
	const path = WRANGLER_CONFIGS.find((file) => files[file] !== undefined);
	if (!path) return undefined;
	const text = files[path]!;
	let value: Record<string, unknown>;
	if (path.endsWith('.toml')) {
		try {
			value = getStaticTOMLValue(parseTOML(text)) as Record<string, unknown>;
		} catch (err) {
			throw invalid(path, (err as Error).message);
		}
	} else {
		const errors: ParseError[] = [];
		value = parse(text, errors, { allowTrailingComma: true }) ?? {};
		if (errors.length > 0) throw invalid(path, `${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}`);
	}
	const strings = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
	const d1 = (Array.isArray(value.d1_databases) ? value.d1_databases : []).filter(
		(entry): entry is D1Database => typeof entry === 'object' && entry !== null && typeof (entry as D1Database).binding === 'string'
	);
	return {
		path,
		text,
		...(typeof value.name === 'string' ? { name: value.name } : {}),
		compatibilityFlags: strings(value.compatibility_flags),
		d1
	};
}

/** Where an app's vendored D1 migrations are, app-relative: the `migrations_dir` of create-auth's D1 database. */
export const d1MigrationsDir = (libDir: string) => `${libDir}/server/auth/adapters/migrations/d1`;

/**
 * The D1 database create-auth's tables live in: the entry whose `migrations_dir` is
 * {@link d1MigrationsDir} of `libDir` (the vendored migrations, as an earlier run wrote it), else a new one:
 * binding {@link DEFAULT_BINDING} in an app with no D1 database yet, else {@link AUTH_BINDING}
 * beside the app's own, so the app's migrations and ours never share a folder. Its
 * `database_name` is the config's Worker `name` (else `worker`: the app's, {@link workerName})
 * with `-auth`; no `database_id`: `wrangler deploy` creates the database, and local development
 * needs none.
 * @throws {CliError} `E_WRANGLER_CONFIG` when {@link AUTH_BINDING} is taken by a database of the app's
 */
export function authDatabase(config: WranglerConfig | undefined, libDir: string, worker = 'app'): { database: D1Database; added: boolean } {
	const migrationsDir = d1MigrationsDir(libDir);
	const ours = config?.d1.find((entry) => entry.migrations_dir?.replace(/^\.\//, '').replace(/\/$/, '') === migrationsDir);
	if (ours) return { database: ours, added: false };
	const taken = new Set(config?.d1.map((entry) => entry.binding));
	const binding = taken.size === 0 ? DEFAULT_BINDING : AUTH_BINDING;
	if (taken.has(binding)) {
		throw new CliError(
			'E_WRANGLER_CONFIG',
			`${config!.path} already binds a D1 database as ${binding}, with migrations elsewhere than ${migrationsDir}.`,
			`Set its migrations_dir to "${migrationsDir}" if create-auth's tables should live in it, or rename that binding; then run create-auth again.`
		);
	}
	return { database: { binding, database_name: `${config?.name ?? worker}-auth`, migrations_dir: migrationsDir }, added: true };
}

/**
 * `config`'s text with `database` in `d1_databases` (unless an entry binds its name already) and
 * `nodejs_compat` in `compatibility_flags` (the runtime uses `node:crypto`), edited in place: every
 * other byte, comments and formatting included, as it was. JSON and JSONC through jsonc-parser's
 * `modify`; TOML by positions from its syntax tree (toml-eslint-parser): the flag into the
 * root table's array (or a new root key after its last one, before the first table), the
 * database as a new `[[d1_databases]]` table at the end.
 */
export function addD1Database(config: WranglerConfig, database: D1Database): string {
	const flag = !config.compatibilityFlags.includes('nodejs_compat');
	const entry = !config.d1.some((existing) => existing.binding === database.binding);
	if (config.path.endsWith('.toml')) return editToml(config.text, flag, entry ? database : undefined);
	let text = config.text;
	const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '\t';
	const formattingOptions = { insertSpaces: indent[0] === ' ', tabSize: indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
	const insert = (path: (string | number)[], value: unknown) => {
		text = applyEdits(text, modify(text, path, value, { formattingOptions, isArrayInsertion: true }));
	};
	if (flag) insert(['compatibility_flags', config.compatibilityFlags.length], 'nodejs_compat');
	if (entry) insert(['d1_databases', config.d1.length], database);
	return text;
}

function editToml(text: string, flag: boolean, database: D1Database | undefined): string {
	const edited = new MagicString(text);
	const eol = text.includes('\r\n') ? '\r\n' : '\n';
	if (flag) {
		const root = parseTOML(text).body[0];
		const flags = root.body.find((node): node is AST.TOMLKeyValue => node.type === 'TOMLKeyValue' && node.key.keys.length === 1 && keyName(node.key.keys[0]!) === 'compatibility_flags');
		if (flags?.value.type === 'TOMLArray') {
			const last = flags.value.elements.at(-1);
			if (last) edited.appendLeft(last.range[1], ', "nodejs_compat"');
			else edited.appendLeft(flags.value.range[1] - 1, '"nodejs_compat"');
		} else {
			// After the root table's last key, where a root key must be (before the first [table]).
			const lastKey = root.body.filter((node) => node.type === 'TOMLKeyValue').at(-1);
			const line = 'compatibility_flags = ["nodejs_compat"]';
			if (lastKey) edited.appendLeft(lastKey.range[1], `${eol}${line}`);
			else edited.prepend(`${line}${eol}${text.length > 0 ? eol : ''}`);
		}
	}
	if (database) {
		const lines = Object.entries(database).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
		const separator = text.length === 0 ? '' : text.endsWith('\n') ? eol : `${eol}${eol}`;
		edited.append(`${separator}[[d1_databases]]${eol}${lines.join(eol)}${eol}`);
	}
	return edited.toString();
}

const keyName = (key: AST.TOMLKey['keys'][number]) => (key.type === 'TOMLBare' ? key.name : key.value);
