import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The real binary (bin/create-auth.js → dist/), as users run it; `npm test` builds first. */
export const BIN = fileURLToPath(new URL('../../bin/create-auth.js', import.meta.url));
export const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/kit2-ts', import.meta.url));
export const KIT3_FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/kit3-ts', import.meta.url));

/**
 * Runs the binary in `cwd` under the Node running the tests, with `CI=1` and, when the first
 * argument is an object, those variables added to the environment.
 * @returns the exit code (0 on success) and both outputs; never throws for a failed run
 */
export async function run(cwd: string, ...args: string[] | [Record<string, string>, ...string[]]) {
	const env = typeof args[0] === 'object' ? (args.shift() as Record<string, string>) : {};
	try {
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...(args as string[])], {
			cwd,
			env: { ...process.env, CI: '1', ...env }
		});
		return { code: 0, stdout, stderr };
	} catch (error) {
		const e = error as { code: number; stdout: string; stderr: string };
		return { code: e.code, stdout: e.stdout, stderr: e.stderr };
	}
}

/** Every file under `root`, by its path relative to it, with its text. */
export async function snapshot(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
		if (entry.isFile()) {
			const file = path.join(entry.parentPath, entry.name);
			out[path.relative(root, file)] = await readFile(file, 'utf8');
		}
	}
	return out;
}

/** A copy of a fixture app (kit2-ts by default) in a new temp folder. */
export async function fixtureCopy(fixture = FIXTURE): Promise<string> {
	const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-cli-'));
	await cp(fixture, dir, { recursive: true });
	return dir;
}

/** A `PATH` whose first folder holds an `npm` that fails: a broken registry or a full disk. */
export async function failingNpm(): Promise<string> {
	const bin = await mkdtemp(path.join(tmpdir(), 'create-auth-fake-npm-'));
	await writeFile(path.join(bin, 'npm'), '#!/bin/sh\necho "npm error simulated failure" >&2\nexit 1\n', { mode: 0o755 });
	return `${bin}${path.delimiter}${process.env.PATH}`;
}
