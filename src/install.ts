import { ADAPTERS } from './adapters.js';
import { CliError } from './errors.js';
import type { PackageManager } from './workspace.js';

/**
 * Runtime dependencies whose install script must run: better-sqlite3's builds (or fetches) the
 * native SQLite addon the SQLite adapter loads. A package manager that skips it leaves an app
 * that installs but cannot sign anyone in.
 */
const RUNTIME_BUILDS = ADAPTERS.flatMap((adapter) => adapter.builds);

/** A package manager's install, as {@link installDependencies} runs it. */
export interface InstallCommand {
	/** The executable, looked up on the PATH: the manager's own name. */
	command: PackageManager;
	args: string[];
	/** Added to the environment the install inherits. */
	env: Record<string, string>;
}

/**
 * The install command for `manager`. create-auth has just changed package.json, so each one
 * is allowed to update the lock file: in CI (`CI` set) pnpm installs with a frozen lock file
 * and Yarn 2+ with immutable installs by default, and both would refuse. Yarn 1 accepts and
 * ignores `--no-immutable`.
 *
 * @see https://pnpm.io/cli/install#--frozen-lockfile
 * @see https://yarnpkg.com/cli/install#options
 */
export function installCommand(manager: PackageManager): InstallCommand {
	switch (manager) {
		case 'npm':
			return { command: 'npm', args: ['install'], env: { npm_config_fund: 'false', npm_config_audit: 'false' } };
		case 'pnpm':
			return { command: 'pnpm', args: ['install', '--no-frozen-lockfile'], env: {} };
		case 'yarn':
			return { command: 'yarn', args: ['install', '--no-immutable'], env: {} };
		case 'bun':
			return { command: 'bun', args: ['install'], env: {} };
	}
}

/**
 * The dependencies whose build scripts pnpm did not run, read from its install output: the
 * `Ignored build scripts: a@1.0.0, b@2.0.0` line pnpm 10 prints in a warning box (exit 0) and
 * pnpm 11 and 12 in `ERR_PNPM_IGNORED_BUILDS` (exit 1; pnpm 12 may wrap the list across lines).
 * Versions are dropped: `['@parcel/watcher', 'esbuild']`.
 *
 * @param output pnpm's stdout and stderr, interleaved
 * @returns the package names, in pnpm's order; none when pnpm ignored no build
 * @see https://pnpm.io/settings/build#strictdepbuilds
 */
export function ignoredBuilds(output: string): string[] {
	const start = output.indexOf('Ignored build scripts:');
	if (start === -1) return [];
	const rest = output.slice(start + 'Ignored build scripts:'.length);
	const end = rest.search(/\bRun "pnpm approve-builds"|\bhelp:|\n\s*\n/);
	// The list, without the box pnpm 10 draws around it and pnpm 12's gutter.
	const list = (end === -1 ? rest : rest.slice(0, end)).replace(/[│╭╮╰╯─▶×]/g, ' ');
	return list
		.split(/[\s,]+/)
		.map((entry) => entry.replace(/\.$/, ''))
		.filter((entry) => /^(@[^\s/@]+\/)?[^\s/@]+(@\S+)?$/.test(entry))
		.map((entry) => {
			const at = entry.lastIndexOf('@');
			return at > 0 ? entry.slice(0, at) : entry;
		});
}

/** What {@link installDependencies} leaves for the user to know. */
export interface InstallResult {
	/**
	 * Dependencies whose build scripts pnpm skipped because the app has not approved them
	 * (`pnpm approve-builds`), none of them the runtime's. pnpm 11+ reports this as an error
	 * after installing everything; the app is in the state its own `pnpm install` leaves it.
	 */
	skippedBuilds: string[];
}

/**
 * Runs the app's package manager ({@link installCommand}) to install what package.json now
 * declares, in `root`: the app's folder, or the root of the workspace it is a package of
 * (`Project.installRoot`), where the manager installs every package and updates the one lock file.
 *
 * With pnpm, the builds it skipped are checked: one of {@link RUNTIME_BUILDS} skipped is a
 * failure (the app would install but not sign anyone in: pnpm before 10.26 does not read
 * `allowBuilds`); others skipped are returned, not thrown, even when pnpm 11+ exits with
 * `ERR_PNPM_IGNORED_BUILDS` after completing the install.
 *
 * @param root absolute path of the folder to install in
 * @param signal aborts the install (Ctrl-C); the child process is killed
 * @throws {CliError} `E_INSTALL_FAILED` with the tail of the package manager's output, when it
 *   is not installed, fails, is cancelled, or skipped a build the runtime needs
 */
export async function installDependencies(root: string, manager: PackageManager, signal?: AbortSignal): Promise<InstallResult> {
	// Loaded here, not at start-up: only a run that installs pays for it.
	const { execa } = await import('execa');
	const { command, args, env } = installCommand(manager);
	const result = await execa(command, args, {
		cwd: root,
		reject: false,
		all: true,
		stdin: 'ignore',
		cancelSignal: signal,
		env
	});
	const output = result.all ?? '';
	const tail = output.split('\n').slice(-15).join('\n');
	if (result.code === 'ENOENT') {
		throw new CliError(
			'E_INSTALL_FAILED',
			`${manager} is not installed: this app uses it (its or its workspace's lock file or packageManager field, or the package manager that ran create-auth), and no ${command} is on the PATH.`,
			`Install ${manager} and run create-auth again, or run it with --no-install and install the dependencies yourself.`
		);
	}
	const skipped = manager === 'pnpm' && !result.isCanceled ? ignoredBuilds(output) : [];
	const needed = skipped.filter((name) => RUNTIME_BUILDS.includes(name));
	if (needed.length > 0) {
		throw new CliError(
			'E_INSTALL_FAILED',
			`pnpm did not run the build script of ${needed.join(', ')}, which the auth runtime needs (the SQLite adapter loads its native module).\n${tail}`,
			`create-auth allowed it in pnpm-workspace.yaml (allowBuilds), which pnpm reads from 10.26: update pnpm, or allow it with \`pnpm approve-builds\`, then run create-auth again.`
		);
	}
	const onlySkippedBuilds = manager === 'pnpm' && output.includes('ERR_PNPM_IGNORED_BUILDS') && skipped.length > 0;
	if (result.failed && (result.isCanceled || !onlySkippedBuilds)) {
		throw new CliError('E_INSTALL_FAILED', `${manager} install failed${result.isCanceled ? ' (cancelled)' : ''}.\n${tail}`, `Fix the cause and run create-auth again.`);
	}
	return { skippedBuilds: skipped };
}
