import * as prompts from '@clack/prompts';
import { gatherDoctorInput, runChecks, type Check } from '../doctor/index.js';
import { CliError } from '../errors.js';

/** Options of `create-auth doctor`, as commander parses them. */
export interface DoctorOptions {
	/** The app's folder; the process's cwd when not given. */
	cwd?: string;
	/** `--json`: print `{ ok, checks }` to stdout, and nothing else. */
	json?: boolean;
}

/** What `doctor --json` prints. */
export interface DoctorReport {
	/** true when every check is `ok`. */
	ok: boolean;
	checks: Check[];
}

/**
 * `create-auth doctor`: checks the app's auth setup (manifest and conflicts, secrets, trusted
 * origin and callback URLs, provider variables, declared variables, the adapter, pending steps,
 * the vendored runtime) and prints one line per check, or with `json` the
 * {@link DoctorReport} as JSON on stdout. Reads only; writes nothing.
 *
 * A folder that is not a SvelteKit app is reported as the check `sveltekit-app` (error), so
 * `--json` always prints a report.
 *
 * @returns 0 when every check is `ok`; 1 when any is `warn` or `error`
 */
export async function doctor(options: DoctorOptions): Promise<number> {
	let checks: Check[];
	try {
		checks = runChecks(await gatherDoctorInput(options.cwd ?? process.cwd()));
	} catch (error) {
		if (!(error instanceof CliError) || error.code !== 'E_NOT_SVELTEKIT') throw error;
		checks = [{ id: 'sveltekit-app', status: 'error', message: error.message, ...(error.hint ? { hint: error.hint } : {}) }];
	}
	const report: DoctorReport = { ok: checks.every((check) => check.status === 'ok'), checks };
	if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
	else printReport(report);
	return report.ok ? 0 : 1;
}

const LOG = { ok: prompts.log.success, warn: prompts.log.warn, error: prompts.log.error } as const;

function printReport({ ok, checks }: DoctorReport): void {
	for (const check of checks) LOG[check.status](check.hint ? `${check.message}\n${check.hint}` : check.message);
	const count = (status: Check['status']) => checks.filter((check) => check.status === status).length;
	const [errors, warnings] = [count('error'), count('warn')];
	if (ok) prompts.log.success(`All ${checks.length} checks passed.`);
	else {
		const parts = [errors && `${errors} ${errors === 1 ? 'error' : 'errors'}`, warnings && `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`];
		prompts.log.message(parts.filter(Boolean).join(', '));
	}
}
