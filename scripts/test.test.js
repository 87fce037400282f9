// @ts-check
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./test.js', import.meta.url));

/**
 * scripts/test.js with stand-ins for `npm` and `npx` first on the PATH: each logs its arguments
 * and exits with the code the environment gives its phase.
 */
describe('scripts/test.js', () => {
	let bin = '';
	beforeAll(async () => {
		bin = await mkdtemp(path.join(tmpdir(), 'create-auth-test-js-'));
		/** @param {string} name @param {string} exits a shell line that exits */
		const standIn = (name, exits) => `#!/bin/sh\necho "${name} $*" >> "$PHASE_LOG"\n${exits}\n`;
		await writeFile(path.join(bin, 'npm'), standIn('npm', 'exit "${TYPECHECK_EXIT:-0}"'));
		await writeFile(path.join(bin, 'npx'), standIn('npx', 'case "$*" in *unit*) exit "${UNIT_EXIT:-0}";; *) exit "${E2E_EXIT:-0}";; esac'));
		await chmod(path.join(bin, 'npm'), 0o755);
		await chmod(path.join(bin, 'npx'), 0o755);
	});
	afterAll(() => rm(bin, { recursive: true, force: true }));

	/** @param {Record<string, string>} exits */
	async function run(exits) {
		const log = path.join(bin, `log-${Object.values(exits).join('-') || 'ok'}`);
		const { code, stderr } = await new Promise((resolve) => {
			execFile(process.execPath, [SCRIPT], { env: { ...process.env, ...exits, PATH: `${bin}:${process.env.PATH}`, PHASE_LOG: log } }, (error, _stdout, stderr) =>
				resolve({ code: error ? /** @type {{ code: number }} */ (error).code : 0, stderr })
			);
		});
		const phases = (await readFile(log, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
		return { code, stderr, phases };
	}

	it('runs the type checks and the unit suite, then the e2e suite, and passes when all do', async () => {
		const { code, phases } = await run({});
		expect(code).toBe(0);
		expect(phases.slice(0, 2).sort()).toEqual(['npm run --silent typecheck', 'npx vitest run --project unit']);
		expect(phases[2]).toBe('npx vitest run --project e2e');
	});

	it.each([
		['the type checks', { TYPECHECK_EXIT: '3' }, 3, 'npm run typecheck failed (exit 3)'],
		['the unit suite', { UNIT_EXIT: '1' }, 1, 'vitest run --project unit failed (exit 1)']
	])('fails with %s, naming it, and runs no e2e test', async (_, exits, expected, named) => {
		const { code, stderr, phases } = await run(exits);
		expect(code).toBe(expected);
		expect(stderr).toContain(named);
		expect(phases).not.toContain('npx vitest run --project e2e');
	});

	it("fails with the e2e suite's code", async () => {
		expect((await run({ E2E_EXIT: '2' })).code).toBe(2);
	});
});
