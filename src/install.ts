import { CliError } from './errors.js';
import type { PackageManager } from './project.js';

/**
 * Runs the app's package manager to install what package.json now declares.
 *
 * @param signal aborts the install (Ctrl-C); the child process is killed
 * @throws {CliError} `E_INSTALL_FAILED` with the tail of the package manager's output
 */
export async function installDependencies(root: string, manager: PackageManager, signal?: AbortSignal): Promise<void> {
	// Loaded here, not at start-up: only a run that installs pays for it.
	const { execa } = await import('execa');
	const result = await execa(manager, ['install'], {
		cwd: root,
		reject: false,
		all: true,
		stdin: 'ignore',
		cancelSignal: signal,
		env: { npm_config_fund: 'false', npm_config_audit: 'false' }
	});
	if (result.failed) {
		const tail = (result.all ?? '').split('\n').slice(-15).join('\n');
		throw new CliError('E_INSTALL_FAILED', `${manager} install failed${result.isCanceled ? ' (cancelled)' : ''}.\n${tail}`, `Fix the cause and run create-auth again.`);
	}
}
