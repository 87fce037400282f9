import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedPackage } from './app-modules.js';

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(path.join(os.tmpdir(), 'create-auth-modules-'));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

async function fakePackage(folder: string, name: string, version: string): Promise<void> {
	await mkdir(path.join(folder, 'node_modules', name), { recursive: true });
	await writeFile(path.join(folder, 'node_modules', name, 'package.json'), JSON.stringify({ name, version, exports: { '.': './index.js' } }));
}

describe('installedPackage', () => {
	it("finds a package hoisted to the workspace root's node_modules, and prefers the app's own copy", async () => {
		const app = path.join(dir, 'apps/web');
		await mkdir(app, { recursive: true });
		await fakePackage(dir, '@sveltejs/kit', '3.0.1');
		expect(installedPackage(app, '@sveltejs/kit', dir)).toEqual({
			dir: path.join(dir, 'node_modules/@sveltejs/kit'),
			manifest: expect.objectContaining({ version: '3.0.1' })
		});
		await fakePackage(app, '@sveltejs/kit', '2.50.0');
		expect(installedPackage(app, '@sveltejs/kit', dir)?.manifest.version).toBe('2.50.0');
	});

	it('does not look above `within`: an app not installed yet is not given a copy from an unrelated folder', async () => {
		const app = path.join(dir, 'clone');
		await mkdir(app, { recursive: true });
		await fakePackage(dir, 'prettier', '3.6.0');
		expect(installedPackage(app, 'prettier', app)).toBeUndefined();
		expect(installedPackage(app, 'prettier')?.manifest.version).toBe('3.6.0');
	});

	it('skips a copy whose package.json is not JSON', async () => {
		await mkdir(path.join(dir, 'node_modules/broken'), { recursive: true });
		await writeFile(path.join(dir, 'node_modules/broken/package.json'), '{');
		expect(installedPackage(dir, 'broken', dir)).toBeUndefined();
	});
});
