import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { detectProject } from './project.js';

const KIT2_FIXTURE = fileURLToPath(new URL('../e2e/fixtures/kit2-ts', import.meta.url));

const apps: string[] = [];
afterEach(async () => {
	await Promise.all(apps.splice(0).map((app) => rm(app, { recursive: true, force: true })));
});

/** A copy of the Kit 2 fixture whose `sveltekit()` options in vite.config.ts have `paths` set as written. */
async function appWithPaths(paths: string): Promise<string> {
	const app = await mkdtemp(path.join(tmpdir(), 'create-auth-project-'));
	apps.push(app);
	await cp(KIT2_FIXTURE, app, { recursive: true, filter: (source) => !source.includes('node_modules') });
	const config = path.join(app, 'vite.config.ts');
	await writeFile(config, (await readFile(config, 'utf8')).replace('adapter: adapter()', `adapter: adapter(),\n\t\t\tpaths: ${paths}`));
	return app;
}

describe('detectProject: paths.base', () => {
	it.each([
		["{ base: '/base' }", '/base'],
		['{ relative: false }', ''],
		['{ base: process.env.BASE_PATH }', null]
	])('reads %s as %j', async (paths, expected) => {
		expect((await detectProject(await appWithPaths(paths))).base).toBe(expected);
	});
});
