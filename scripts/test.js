#!/usr/bin/env node
// @ts-check
/**
 * `npm test` after the CLI's build: the type checks (`npm run typecheck`, two `tsc` runs on one
 * core) beside the unit suite (vitest's two workers), then, when both passed, the e2e suite.
 * Their output shares the terminal; `tsc` prints only its errors. Exits with the first failing
 * phase's code, naming it on stderr.
 */
import { spawn } from 'node:child_process';

/**
 * Runs a command with the terminal as its output.
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<number>} its exit code (1 when it could not start or was killed)
 */
function phase(command, args) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: 'inherit' });
		child.once('error', () => resolve(1));
		child.once('exit', (code) => resolve(code ?? 1));
	});
}

const [typecheck, unit] = await Promise.all([phase('npm', ['run', '--silent', 'typecheck']), phase('npx', ['vitest', 'run', '--project', 'unit'])]);
for (const [name, code] of /** @type {const} */ ([['npm run typecheck', typecheck], ['vitest run --project unit', unit]])) {
	if (code !== 0) {
		console.error(`npm test: ${name} failed (exit ${code}); the e2e suite did not run`);
		process.exit(code);
	}
}
process.exit(await phase('npx', ['vitest', 'run', '--project', 'e2e']));
