import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installedPackage, resolveFromApp } from './app-modules.js';
import type * as Prettier from 'prettier';

/**
 * Formats one file's text as the app's formatter would write it.
 *
 * @param filePath app-relative POSIX path (`src/routes/signin/+page.svelte`); it picks the
 *   config overrides, the ignore rules and the parser, and need not exist on disk
 * @param text the file's full text
 * @returns the formatted text; `text` itself when the file is ignored, has no parser, or does
 *   not parse. Never rejects.
 */
export type Formatter = (filePath: string, text: string) => Promise<string>;

/** Ignore files the Prettier CLI reads by default (`--ignore-path`), relative to where it runs. */
const IGNORE_FILES = ['.gitignore', '.prettierignore'];

/**
 * Finds the app's own Prettier (its copy and version, never create-auth's), or nothing when the
 * app does not use Prettier 3: `prettier` is not in its package.json `dependencies` or
 * `devDependencies`, is not installed where the app resolves packages, or is older than 3.
 * Only package.json files are read here; Prettier itself is imported on the formatter's first
 * call, once, so a run that formats nothing (its caller had every result cached) pays nothing.
 *
 * The formatter does what `prettier --write .` run at `root` (sv's `format` script) does to a
 * file: the config that applies to the file (`.prettierrc`, `prettier.config.js`, overrides),
 * with `.editorconfig` merged below it; the config's plugins resolved from `root` as the CLI
 * resolves them from its working folder; `.gitignore` and `.prettierignore` at `root` skip
 * files. Prettier caches config files by folder for the life of the process, so call this once
 * per run and reuse the result.
 *
 * @param root absolute path of the app (the folder of its package.json)
 * @see https://prettier.io/docs/api
 * @see https://prettier.io/docs/plugins#using-plugins
 */
export async function loadFormatter(root: string): Promise<Formatter | undefined> {
	if (!(await declaresPrettier(root))) return undefined;
	const installed = installedPackage(root, 'prettier');
	if (!installed || !(Number.parseInt(installed.manifest.version ?? '', 10) >= 3)) return undefined;
	const entry = resolveFromApp(root, 'prettier');
	if (!entry) return undefined;

	let loading: Promise<typeof Prettier> | undefined;
	const load = () =>
		(loading ??= import(pathToFileURL(entry).href).then((module: typeof Prettier & { default?: typeof Prettier }) =>
			typeof module.format === 'function' ? module : module.default!
		));
	const ignorePath = IGNORE_FILES.map((file) => path.join(root, file));
	const plugins = new Map<string, string>();
	const resolvePlugin = (plugin: string | URL | Prettier.Plugin) => {
		if (typeof plugin !== 'string') return plugin;
		let resolved = plugins.get(plugin);
		if (resolved === undefined) {
			resolved = resolvePluginName(root, plugin);
			plugins.set(plugin, resolved);
		}
		return resolved;
	};

	return async (filePath, text) => {
		const file = path.join(root, ...filePath.split('/'));
		try {
			const prettier = await load();
			const config = (await prettier.resolveConfig(file, { editorconfig: true })) ?? {};
			const options = { ...config, plugins: (config.plugins ?? []).map(resolvePlugin), filepath: file };
			const info = await prettier.getFileInfo(file, { ignorePath, plugins: options.plugins, resolveConfig: true });
			if (info.ignored || !info.inferredParser) return text;
			return await prettier.format(text, options);
		} catch {
			return text;
		}
	};
}

async function declaresPrettier(root: string): Promise<boolean> {
	try {
		const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
			dependencies?: Record<string, string>;
			devDependencies?: Record<string, string>;
		};
		return Boolean(manifest.dependencies?.prettier ?? manifest.devDependencies?.prettier);
	} catch {
		return false;
	}
}

/**
 * A plugin named in a config, as the Prettier CLI started at `root` loads it: a URL or absolute
 * path as is, then a file relative to `root`, then a package resolved from `root`. (Paths
 * starting with `.` were already made absolute against the config file by `resolveConfig`.)
 * Prettier itself would resolve from `process.cwd()`, which is not the app when the CLI runs
 * with `--cwd`, and would then find create-auth's own plugins instead of the app's. A name that
 * does not resolve is returned as is, so formatting fails as the app's would.
 */
function resolvePluginName(root: string, name: string): string {
	if (/^[a-z][a-z\d+.-]+:/i.test(name) || path.isAbsolute(name)) return name;
	const local = path.resolve(root, name);
	if (isFile(local)) return local;
	return resolveFromApp(root, name) ?? name;
}

function isFile(file: string): boolean {
	try {
		return statSync(file).isFile();
	} catch {
		return false;
	}
}
