import path from 'node:path';
import type { PackageManager } from '../workspace.js';
import type { Check } from './check.js';

/** Lock files of every package manager create-auth installs with (and npm's shrinkwrap). */
export const LOCK_FILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb'] as const;

/**
 * How the app installs (`Project.packageManager`, `Project.installRoot`; `root` and
 * `installRoot` absolute, equal outside a workspace) and the lock files in the app's own folder.
 */
export interface InstallFacts {
	manager: PackageManager;
	root: string;
	installRoot: string;
	lockFiles: string[];
}

/**
 * `lock-file`: in an app that is a package of a workspace, error when the app's own folder has
 * a lock file ({@link LOCK_FILES}). The workspace's manager installs every package from the
 * root and keeps one lock file there; a second one in the app (an `npm install` run in
 * `apps/web` of a pnpm workspace, as create-auth before issue 26 did) is not read by it, drifts
 * from the root's, and came with a separate `node_modules` install in the app. `ok` when there
 * is none, or when the app is not in a workspace (then its lock file is its own).
 *
 * @see README.md, "Quick start": dependencies are installed at the workspace root
 */
export function installChecks(input: { install: InstallFacts }): Check[] {
	const { manager, root, installRoot, lockFiles } = input.install;
	if (installRoot === root) {
		return [{ id: 'lock-file', status: 'ok', message: `The app installs on its own, with ${manager}.` }];
	}
	const workspace = `the ${manager} workspace at ${installRoot}`;
	if (lockFiles.length === 0) {
		return [{ id: 'lock-file', status: 'ok', message: `The app installs with ${workspace}, whose lock file is the only one.` }];
	}
	const app = path.relative(installRoot, root).split(path.sep).join('/');
	const listed = lockFiles.map((file) => `${app}/${file}`);
	return [
		{
			id: 'lock-file',
			status: 'error',
			message: `${listed.join(' and ')} ${lockFiles.length === 1 ? 'is a second lock file' : 'are more lock files'} inside a package of ${workspace}: ${manager} does not read ${lockFiles.length === 1 ? 'it' : 'them'}, and ${lockFiles.length === 1 ? 'it drifts' : 'they drift'} from the root's.`,
			hint: `Delete ${listed.join(' and ')} (and ${app}/node_modules, if an install in the app made it), then run ${manager} install in ${installRoot}.`
		}
	];
}
