import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadRuntime, loadTemplates } from './assets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The paths `npm pack` would publish (package.json `files`), without building first. */
async function packedFiles(): Promise<string[]> {
	const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
	const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }];
	return pack.files.map((file) => file.path);
}

describe('the published package', () => {
	it('carries every runtime file and template the CLI writes into apps, and no test or test stand-in', async () => {
		const files = await packedFiles();
		const runtime = Object.keys(await loadRuntime()).map((file) => `runtime/${file}`);
		const templates = Object.keys(await loadTemplates()).map((file) => `templates/${file}`);
		expect(files).toEqual(expect.arrayContaining([...runtime, ...templates, 'bin/create-auth.js', 'package.json']));
		expect(files.filter((file) => /\.test\.[jt]s$|^runtime\/test\/|^runtime\/tsconfig\.json$/.test(file))).toEqual([]);
	}, 30_000);
});
