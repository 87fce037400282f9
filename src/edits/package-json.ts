import type { EditResult } from './hooks.js';
import type { PackageManager } from '../project.js';

/**
 * Adds dependencies the app's package.json lacks, keeping the file's indentation and final
 * newline. Ranges the app already declares (in either section) are kept as they are.
 *
 * @param source package.json text (already validated as JSON by project detection)
 * @param dependencies name → semver range, for `dependencies`
 * @param devDependencies name → semver range, for `devDependencies`
 * @returns the new text, or `source` unchanged when nothing is missing
 */
export function addDependencies(
	source: string,
	dependencies: Record<string, string>,
	devDependencies: Record<string, string>
): string {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const declared = (section: string) => (manifest[section] ?? {}) as Record<string, string>;
	const has = (name: string) => name in declared('dependencies') || name in declared('devDependencies');
	let changed = false;
	for (const [section, wanted] of [
		['dependencies', dependencies],
		['devDependencies', devDependencies]
	] as const) {
		const missing = Object.entries(wanted).filter(([name]) => !has(name));
		if (missing.length === 0) continue;
		const merged = { ...declared(section), ...Object.fromEntries(missing) };
		manifest[section] = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
		changed = true;
	}
	return changed ? serialize(manifest, source) : source;
}

/**
 * Removes packages from `dependencies` and `devDependencies` (a section left empty stays, empty),
 * keeping the file's indentation, final newline and every other key as it was.
 *
 * @param source package.json text (already validated as JSON by project detection)
 * @param names the packages to remove; those the app does not declare are ignored
 * @returns the new text, or `source` unchanged when none is declared
 */
export function removeDependencies(source: string, names: readonly string[]): string {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	let changed = false;
	for (const section of ['dependencies', 'devDependencies']) {
		const declared = manifest[section];
		if (!declared || typeof declared !== 'object') continue;
		const kept = Object.entries(declared).filter(([name]) => !names.includes(name));
		if (kept.length === Object.keys(declared).length) continue;
		manifest[section] = Object.fromEntries(kept);
		changed = true;
	}
	return changed ? serialize(manifest, source) : source;
}

/**
 * Removes the `scripts` entries whose command `dead` picks, keeping everything else as it was.
 * @returns the new text, or `source` unchanged when none is picked
 */
export function removeScripts(source: string, dead: (command: string) => boolean): string {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const scripts = manifest.scripts;
	if (!scripts || typeof scripts !== 'object') return source;
	const kept = Object.entries(scripts as Record<string, unknown>).filter(([, command]) => typeof command !== 'string' || !dead(command));
	if (kept.length === Object.keys(scripts).length) return source;
	manifest.scripts = Object.fromEntries(kept);
	return serialize(manifest, source);
}

/**
 * Maps Node subpath imports (package.json `imports`, such as `"#lib/*": "./src/lib/*"`) that
 * the app does not map yet; an entry it has is kept as it is.
 *
 * @returns the new text, or `source` unchanged when every key is mapped
 */
export function addSubpathImports(source: string, imports: Record<string, string>): string {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const current = (manifest.imports ?? {}) as Record<string, unknown>;
	const missing = Object.entries(imports).filter(([key]) => !(key in current));
	if (missing.length === 0) return source;
	manifest.imports = { ...current, ...Object.fromEntries(missing) };
	return serialize(manifest, source);
}

/** What {@link allowBuildScripts} changes. */
export interface BuildScriptsEdit {
	/** package.json's new text (`source` itself when unchanged). */
	packageJson: string;
	/** `pnpm-workspace.yaml`'s new text, for pnpm only; undefined when the file is not to be written. */
	workspace?: string;
	/** Manual steps for shapes the edits do not know, or for a build the app denies on purpose. */
	pending: string[];
}

/**
 * Lets the install scripts of `names` run, the way the app's package manager expects, so that
 * a native dependency is built when the package manager installs it. Idempotent, structural: an
 * entry the app already has is kept as it is, even one that denies the build (that is the
 * user's decision: a manual step is returned instead).
 *
 * - npm: `allowScripts` in package.json ({@link allowNpmScripts}). npm 11.16+ only lists the
 *   scripts it would block; npm 12 skips every dependency's install script not allowed there.
 * - pnpm: `allowBuilds` in `pnpm-workspace.yaml`, the setting of pnpm 10.26+, 11 and 12, which
 *   run no dependency build script that is not allowed; plus `pnpm.onlyBuiltDependencies` in
 *   package.json when the app keeps its approvals there (pnpm 10) ({@link allowPnpmBuilds}).
 * - bun: `trustedDependencies` in package.json, only when the app has that list: without it
 *   Bun trusts its default list, which has better-sqlite3 ({@link trustBunDependencies}).
 * - yarn: nothing. Yarn 1 runs every install script; Yarn 2+ too unless `enableScripts: false`.
 *
 * @param packageJson package.json text (already validated as JSON by project detection)
 * @param workspace `pnpm-workspace.yaml`'s text, or undefined when the app has none
 * @param names package names, e.g. an adapter's `builds` (`better-sqlite3`)
 * @see https://docs.npmjs.com/cli/v12/commands/npm-install-scripts
 * @see https://pnpm.io/settings/build#allowbuilds
 * @see https://bun.sh/docs/pm/lifecycle#trusteddependencies
 */
export function allowBuildScripts(
	manager: PackageManager,
	packageJson: string,
	workspace: string | undefined,
	names: readonly string[]
): BuildScriptsEdit {
	const only = (result: EditResult): BuildScriptsEdit => ({ packageJson: result.content, pending: result.pending ? [result.pending] : [] });
	if (names.length === 0) return { packageJson, pending: [] };
	switch (manager) {
		case 'npm':
			return only(allowNpmScripts(packageJson, names));
		case 'bun':
			return only(trustBunDependencies(packageJson, names));
		case 'pnpm':
			return allowPnpmBuilds(packageJson, workspace, names);
		case 'yarn':
			return { packageJson, pending: [] };
	}
}

/**
 * npm: adds `"<name>": true` to package.json's `allowScripts` for each name it has no entry for.
 * An entry for the name, name-only or pinned (`"better-sqlite3@12.11.1": true`), is the app's
 * policy and is kept; when none of its entries is `true` (a deny), the result carries `pending`.
 * Name-only, because the installed version is not known when planning and create-auth's range
 * changes with its versions.
 *
 * @returns the new text, or `source` unchanged; `pending` when `allowScripts` is not an object
 *   or denies a name
 * @see https://docs.npmjs.com/cli/v12/commands/npm-approve-scripts
 */
export function allowNpmScripts(source: string, names: readonly string[]): EditResult {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const current = manifest.allowScripts;
	const manual = `Allow the install scripts of ${names.join(', ')} in package.json: npm approve-scripts ${names.join(' ')}`;
	if (current !== undefined && !isRecord(current)) return { content: source, pending: manual };
	const entries = Object.entries(current ?? {});
	const missing: string[] = [];
	const denied: string[] = [];
	for (const name of names) {
		const own = entries.filter(([key]) => key === name || key.startsWith(`${name}@`));
		if (own.length === 0) missing.push(name);
		else if (!own.some(([, value]) => value === true)) denied.push(name);
	}
	const allowScripts = { ...current, ...Object.fromEntries(missing.map((name) => [name, true])) };
	const content = missing.length === 0 ? source : serialize({ ...manifest, allowScripts }, source);
	if (denied.length === 0) return { content };
	const allow = denied.map((name) => `"${name}": true`).join(', ');
	return { content, pending: `package.json's allowScripts denies ${denied.join(', ')}, which the auth runtime needs built: set ${allow}` };
}

/** Packages on Bun's default list of trusted dependencies, whose scripts Bun runs unless package.json has its own list. */
const BUN_TRUSTED_BY_DEFAULT = new Set(['better-sqlite3']);

/**
 * bun: adds the names package.json's `trustedDependencies` lacks. An app without that list is
 * left as it is for names on Bun's default list: writing the list would replace the default one
 * (and stop esbuild's or SvelteKit's scripts, say). Other names, without a list, are a manual step.
 *
 * @returns the new text, or `source` unchanged; `pending` when `trustedDependencies` is not an
 *   array, or is absent and a name is not trusted by default
 * @see https://bun.sh/docs/pm/lifecycle#trusteddependencies
 */
export function trustBunDependencies(source: string, names: readonly string[]): EditResult {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const trusted = manifest.trustedDependencies;
	const manual = `Trust ${names.join(', ')} in package.json: bun pm trust ${names.join(' ')}`;
	if (trusted === undefined) {
		return names.every((name) => BUN_TRUSTED_BY_DEFAULT.has(name)) ? { content: source } : { content: source, pending: manual };
	}
	if (!Array.isArray(trusted)) return { content: source, pending: manual };
	const missing = names.filter((name) => !trusted.includes(name));
	if (missing.length === 0) return { content: source };
	return { content: serialize({ ...manifest, trustedDependencies: [...trusted, ...missing] }, source) };
}

/**
 * pnpm: allows the builds in `pnpm-workspace.yaml` ({@link allowPnpmWorkspaceBuilds}, created
 * when the app has none), and also in package.json's `pnpm.onlyBuiltDependencies` when the app
 * keeps that list (pnpm 10 reads it; pnpm 11+ ignores the `pnpm` field with a warning). A name
 * in `pnpm.neverBuiltDependencies` is the app's deny: a manual step, no edit.
 *
 * @returns both files' new text (`workspace` undefined when pnpm-workspace.yaml stays as it
 *   is and did not exist) and the manual steps
 */
export function allowPnpmBuilds(packageJson: string, workspace: string | undefined, names: readonly string[]): BuildScriptsEdit {
	const manifest = JSON.parse(packageJson) as Record<string, unknown>;
	const pending: string[] = [];
	let content = packageJson;
	const settings = manifest.pnpm;
	if (isRecord(settings)) {
		const never = settings.neverBuiltDependencies;
		const denied = Array.isArray(never) ? names.filter((name) => never.includes(name)) : [];
		if (denied.length > 0) {
			const step = `package.json's pnpm.neverBuiltDependencies lists ${denied.join(', ')}, which the auth runtime needs built: remove it there`;
			return { packageJson, pending: [step] };
		}
		const only = settings.onlyBuiltDependencies;
		const missing = Array.isArray(only) ? names.filter((name) => !only.includes(name)) : [];
		if (Array.isArray(only) && missing.length > 0) {
			content = serialize({ ...manifest, pnpm: { ...settings, onlyBuiltDependencies: [...only, ...missing] } }, packageJson);
		}
	}
	const yaml = allowPnpmWorkspaceBuilds(workspace, names);
	if (yaml.pending) pending.push(yaml.pending);
	const written = workspace !== undefined || yaml.content !== '';
	return { packageJson: content, ...(written ? { workspace: yaml.content } : {}), pending };
}

/** A top-level key of a YAML file and the lines of its value (`start` inclusive, `end` exclusive). */
interface YamlBlock {
	key: string;
	/** Text after the colon, comment removed, trimmed: '' for a block value. */
	inline: string;
	line: number;
	end: number;
}

/**
 * pnpm: sets `<name>: true` under `allowBuilds` in `pnpm-workspace.yaml` for each name it has
 * no entry for; a file without `allowBuilds` gets one at its end (and a missing file is
 * created with it). A file that lists approvals under `onlyBuiltDependencies` instead (pnpm
 * 10.5 to 10.25) gets `- <name>` there. Lines are added, none is rewritten, so the user's
 * comments and layout stay. An entry for the name (name-only or `name@version`) is kept as it
 * is: `true` needs nothing; another value (`false`, `warn`) is the user's and becomes `pending`.
 *
 * Only the YAML pnpm itself writes is edited: top-level keys; `allowBuilds` a block mapping of
 * scalars, `onlyBuiltDependencies` a block sequence. Anything else (flow style `{ … }`, tabs,
 * anchors, several documents, `neverBuiltDependencies`) is left alone with `pending`.
 *
 * @param source the file's text, or undefined when it does not exist
 * @returns the new text ('' only for a missing file when nothing is to be written)
 * @see https://pnpm.io/settings/build#allowbuilds
 */
export function allowPnpmWorkspaceBuilds(source: string | undefined, names: readonly string[]): EditResult {
	const text = source ?? '';
	const allowed = (list: readonly string[]) => list.map((name) => `${yamlKey(name)}: true`).join(', ');
	const manual = `Allow the build scripts of ${names.join(', ')} in pnpm-workspace.yaml: allowBuilds: ${allowed(names)} (or run pnpm approve-builds)`;
	const unchanged = { content: text, pending: manual };
	const eol = text.includes('\r\n') ? '\r\n' : '\n';
	const lines = text.split(/\r?\n/);
	const blocks = yamlBlocks(lines);
	if (!blocks) return unchanged;
	const find = (key: string) => blocks.filter((block) => block.key === key);
	const [allow, ...moreAllow] = find('allowBuilds');
	const [only, ...moreOnly] = find('onlyBuiltDependencies');
	if (moreAllow.length > 0 || moreOnly.length > 0 || find('neverBuiltDependencies').length > 0) return unchanged;
	if (find('dangerouslyAllowAllBuilds').some((block) => block.inline === 'true')) return { content: text };

	const indent = /^( +)\S/m.exec(text)?.[1] ?? '  ';
	const insert = (after: number, added: string[]) => [...lines.slice(0, after), ...added, ...lines.slice(after)].join(eol);
	if (allow) {
		if (allow.inline !== '') return unchanged;
		const entries: Array<{ indent: string; key: string; value: string; line: number }> = [];
		for (let line = allow.line + 1; line < allow.end; line++) {
			const entry = /^( +)('[^']*'|"[^"]*"|[^\s'"#][^:#]*?) *: *([^#]*?) *(#.*)?$/.exec(lines[line]!);
			if (!entry) {
				if (isBlankOrComment(lines[line]!)) continue;
				return unchanged;
			}
			// Every entry at one indentation, each a scalar: a nested value is not pnpm's shape.
			if (entry[3] === '' || (entries.length > 0 && entry[1] !== entries[0]!.indent)) return unchanged;
			entries.push({ indent: entry[1]!, key: unquote(entry[2]!), value: entry[3]!, line });
		}
		const entryIndent = entries[0]?.indent ?? indent;
		const missing: string[] = [];
		const denied: string[] = [];
		for (const name of names) {
			const own = entries.filter((entry) => entry.key === name || entry.key.startsWith(`${name}@`));
			if (own.length === 0) missing.push(name);
			else if (!own.some((entry) => /^(true|True|TRUE)$/.test(entry.value))) denied.push(name);
		}
		const after = entries.length > 0 ? entries.at(-1)!.line + 1 : allow.line + 1;
		const content = missing.length === 0 ? text : insert(after, missing.map((name) => `${entryIndent}${yamlKey(name)}: true`));
		if (denied.length === 0) return { content };
		return { content, pending: `pnpm-workspace.yaml's allowBuilds does not allow ${denied.join(', ')}, which the auth runtime needs built: set ${allowed(denied)}` };
	}
	if (only) {
		if (only.inline !== '') return unchanged;
		const items: Array<{ name: string; line: number }> = [];
		for (let line = only.line + 1; line < only.end; line++) {
			const item = /^( *)- +('[^']*'|"[^"]*"|[^\s'"#][^#]*?) *(#.*)?$/.exec(lines[line]!);
			if (!item) {
				if (isBlankOrComment(lines[line]!)) continue;
				return unchanged;
			}
			items.push({ name: unquote(item[2]!), line });
		}
		const missing = names.filter((name) => !items.some((item) => item.name === name));
		if (missing.length === 0) return { content: text };
		const itemIndent = items.length > 0 ? /^ */.exec(lines[items[0]!.line]!)![0] : indent;
		const after = items.length > 0 ? items.at(-1)!.line + 1 : only.line + 1;
		return { content: insert(after, missing.map((name) => `${itemIndent}- ${yamlKey(name)}`)) };
	}
	const block = ['allowBuilds:', ...names.map((name) => `${indent}${yamlKey(name)}: true`)].join(eol) + eol;
	if (text.trim() === '') return { content: `${text}${block}` };
	return { content: `${text}${text.endsWith('\n') ? '' : eol}${block}` };
}

/**
 * The top-level keys of a YAML file, or undefined when the file uses something the
 * line-based edit does not follow (tabs, documents, anchors and aliases, a top-level
 * sequence or scalar).
 */
function yamlBlocks(lines: string[]): YamlBlock[] | undefined {
	const blocks: YamlBlock[] = [];
	for (const [index, line] of lines.entries()) {
		if (/^\t|^ *\t/.test(line) || /^(---|\.\.\.)(\s|$)/.test(line) || /(^|[\s:,[{])[&*][^\s]/.test(line.replace(/#.*$/, ''))) return undefined;
		if (isBlankOrComment(line)) continue;
		// An indented line or a sequence item continues the key above it; before any key, the
		// file is not a mapping.
		if (/^[ -]/.test(line)) {
			if (blocks.length === 0) return undefined;
			continue;
		}
		const key = /^('[^']*'|"[^"]*"|[^\s'"#-][^:#]*?) *:(?: +(.*?))? *$/.exec(line.replace(/ +#.*$/, ''));
		if (!key) return undefined;
		const previous = blocks.at(-1);
		if (previous) previous.end = index;
		blocks.push({ key: unquote(key[1]!), inline: key[2] ?? '', line: index, end: lines.length });
	}
	// A block ends at its last line that is not blank (trailing blank lines and comments belong to the file).
	for (const block of blocks) {
		while (block.end > block.line + 1 && isBlankOrComment(lines[block.end - 1]!)) block.end--;
	}
	return blocks;
}

function isBlankOrComment(line: string): boolean {
	return /^\s*(#.*)?$/.test(line);
}

function unquote(key: string): string {
	return /^'.*'$|^".*"$/.test(key) ? key.slice(1, -1) : key;
}

/** A package name as a YAML key: plain when it can be, else single-quoted (`'@scope/name'`). */
function yamlKey(name: string): string {
	return /^[A-Za-z0-9][\w.-]*$/.test(name) ? name : `'${name}'`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** package.json text for `manifest`, with `source`'s indentation and final newline. */
function serialize(manifest: Record<string, unknown>, source: string): string {
	const indent = /^[ \t]+/m.exec(source)?.[0] ?? '\t';
	return JSON.stringify(manifest, null, indent) + (source.endsWith('\n') ? '\n' : '');
}
