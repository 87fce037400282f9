import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { detect } from 'package-manager-detector/detect';

/** The package managers whose install command the CLI knows how to run. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

const MANAGERS: readonly string[] = ['npm', 'pnpm', 'yarn', 'bun'] satisfies PackageManager[];

/** How an app's dependencies are installed: with which manager, in which folder. */
export interface PackageManagerSetup {
	manager: PackageManager;
	/**
	 * Absolute path of the folder the install runs in and whose lock file it updates: the root
	 * of the workspace the app is a package of (pnpm, npm, Yarn or Bun workspaces; Turborepo
	 * uses theirs), else the app's own root.
	 */
	installRoot: string;
}

/**
 * The package manager of the app at `appRoot` and where it installs ({@link findWorkspaceRoot}):
 * what `package-manager-detector` reads in the install folder only (a lock file, then
 * package.json's `packageManager`, then its `devEngines.packageManager`; where both a lock
 * file and `packageManager` are there, `packageManager` wins), else `pnpm` for a pnpm workspace
 * root with no lock file yet, else the manager that runs create-auth, named first in
 * `userAgent` (`pnpm dlx create-auth` sets `npm_config_user_agent` to
 * `pnpm/10.12.1 npm/? node/v22.17.0 linux x64`), else npm. Managers the CLI cannot run (deno)
 * count as not found.
 *
 * Inside a workspace, the app's own folder is not consulted: a `package-lock.json` left in
 * `apps/web` of a pnpm workspace is a stray (doctor reports it), not the workspace's manager.
 *
 * @param appRoot the app's folder (absolute)
 * @param userAgent `npm_config_user_agent`, or '' when it is not set
 * @see https://github.com/antfu-collective/package-manager-detector
 */
export async function detectPackageManager(appRoot: string, userAgent: string): Promise<PackageManagerSetup> {
	const installRoot = (await findWorkspaceRoot(appRoot)) ?? appRoot;
	const found = await detect({ cwd: installRoot, stopDir: installRoot });
	const fromAgent = /^(npm|pnpm|yarn|bun)\//.exec(userAgent)?.[1];
	const manager =
		found && MANAGERS.includes(found.name)
			? found.name
			: installRoot !== appRoot && existsSync(path.join(installRoot, 'pnpm-workspace.yaml'))
				? 'pnpm'
				: (fromAgent ?? 'npm');
	return { manager: manager as PackageManager, installRoot };
}

/**
 * The root of the workspace the app at `appRoot` is a package of, or undefined when it is in
 * none (then it installs in its own folder).
 *
 * Walks up from the app's parent folder to the first folder that declares a workspace (a
 * `pnpm-workspace.yaml` with `packages`, or a package.json with `workspaces`, an array or
 * Yarn's `{ packages }`), and answers it when one of its patterns matches the app's path
 * (picomatch, `!` patterns exclude) and none of its `!` patterns does. Package managers look
 * for their workspace root the same way. The walk stops:
 * - at the first workspace declaration, member or not (an app that a monorepo's patterns leave
 *   out installs on its own);
 * - at the repository root (the first folder with a `.git` folder, the app's own included): a
 *   workspace never spans repositories, so a stray lock file or package.json in a folder above
 *   the clone (a home folder) is never read. A `.git` file (a submodule, a linked worktree)
 *   does not stop it: a submodule may be a package of the monorepo around it;
 * - at the filesystem root.
 * An app that declares a workspace itself is its own root (pnpm reads the nearest
 * `pnpm-workspace.yaml`; create-auth writes one with `allowBuilds` into a pnpm app).
 * A `pnpm-workspace.yaml` without a readable `packages` list declares a workspace of its own
 * folder alone; a package.json whose `workspaces` is not a list declares none.
 *
 * @param appRoot the app's folder (absolute)
 * @returns an absolute folder above `appRoot`, or undefined
 */
export async function findWorkspaceRoot(appRoot: string): Promise<string | undefined> {
	if ((await workspacePatterns(appRoot)) !== undefined || isRepositoryRoot(appRoot)) return undefined;
	let dir = appRoot;
	for (let parent = path.dirname(dir); parent !== dir; dir = parent, parent = path.dirname(dir)) {
		const patterns = await workspacePatterns(parent);
		if (patterns !== undefined) return (await isMember(path.relative(parent, appRoot), patterns)) ? parent : undefined;
		if (isRepositoryRoot(parent)) return undefined;
	}
	return undefined;
}

/**
 * The package globs `dir` declares as a workspace root: `pnpm-workspace.yaml`'s `packages`
 * (pnpm ignores package.json's `workspaces`), else package.json's `workspaces`.
 * @returns undefined when `dir` declares no workspace
 */
async function workspacePatterns(dir: string): Promise<string[] | undefined> {
	const pnpm = await readFile(path.join(dir, 'pnpm-workspace.yaml'), 'utf8').catch(() => undefined);
	if (pnpm !== undefined) {
		// pnpm 10.32.1+: a file without `packages` (settings only) makes a workspace of its folder alone.
		// Loaded here, not at start-up: only an app with such a file pays for the YAML parser.
		const { parse } = await import('yaml');
		return stringList(safely(() => (parse(pnpm) as { packages?: unknown } | null)?.packages)) ?? [];
	}
	const json = await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => undefined);
	if (json === undefined) return undefined;
	const workspaces = safely(() => (JSON.parse(json) as { workspaces?: unknown } | null)?.workspaces);
	return stringList(Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages);
}

/** Whether a package at `relative` (to the workspace root, OS separators) matches the patterns. */
async function isMember(relative: string, patterns: readonly string[]): Promise<boolean> {
	const { default: picomatch } = await import('picomatch');
	const posix = relative.split(path.sep).join('/');
	const clean = (pattern: string) => pattern.replace(/^\.\//, '').replace(/\/+$/, '');
	const included = patterns.filter((pattern) => !pattern.startsWith('!')).map(clean);
	const excluded = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => clean(pattern.slice(1)));
	return included.length > 0 && picomatch(included)(posix) && (excluded.length === 0 || !picomatch(excluded)(posix));
}

/** Whether `dir` is the top of a git repository: it has a `.git` folder (one it may not read counts too: the walk stops). */
function isRepositoryRoot(dir: string): boolean {
	return safely(() => statSync(path.join(dir, '.git'), { throwIfNoEntry: false })?.isDirectory() ?? false) ?? true;
}

function stringList(value: unknown): string[] | undefined {
	return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

function safely<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}

/**
 * A file of the workspace root as the plan keys it: app-relative, POSIX (`../../package.json`
 * for an app in `apps/web`). The plan writes the root's `pnpm-workspace.yaml` and package.json
 * (the build allowances a package manager reads from the root only) under these keys, and the
 * journal restores them like the app's own files.
 *
 * @param appRoot the app's folder (absolute)
 * @param installRoot {@link PackageManagerSetup.installRoot}
 * @param file a file name at the root (`pnpm-workspace.yaml`)
 * @returns `file` itself when the app is its own install root
 */
export function installRootFile(appRoot: string, installRoot: string, file: string): string {
	return path.relative(appRoot, path.join(installRoot, file)).split(path.sep).join('/');
}
