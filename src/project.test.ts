import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

describe('detectProject: the files it reads', () => {
	/** A copy of the Kit 2 fixture inside a folder of its own, with `files` written into it (app-relative). */
	async function appWith(files: Record<string, string>): Promise<string> {
		const outer = await mkdtemp(path.join(tmpdir(), 'create-auth-project-'));
		apps.push(outer);
		const app = path.join(outer, 'app');
		await cp(KIT2_FIXTURE, app, { recursive: true, filter: (source) => !source.includes('node_modules') });
		for (const [file, text] of Object.entries(files)) {
			await mkdir(path.dirname(path.join(app, file)), { recursive: true });
			await writeFile(path.join(app, file), text);
		}
		return app;
	}
	const manifestOf = (paths: string[], conflicts?: unknown) =>
		JSON.stringify({
			version: '0.0.1',
			answers: { providers: ['credentials'] },
			files: Object.fromEntries(paths.map((file) => [file, { strategy: 'merge', content: 'x\n' }])),
			...(conflicts === undefined ? {} : { conflicts })
		});

	it('reads every page any provider adds, under both extensions, whether or not it exists', async () => {
		const app = await appWith({ 'src/routes/signin/forgot-password/+page.svelte': 'mine\n', 'src/routes/signin/email/+page.server.js': 'js\n' });
		const { files } = await detectProject(app);
		expect(files['src/routes/signin/forgot-password/+page.svelte']).toBe('mine\n');
		expect(files['src/routes/signin/email/+page.server.js']).toBe('js\n');
		expect(files).toHaveProperty(['src/routes/signin/verify-request/+page.svelte'], undefined);
		expect(files).toHaveProperty(['src/routes/signin/reset-password/+page.server.ts'], undefined);
	});

	it('reads every file the manifest records inside the app, such as a page an earlier release wrote', async () => {
		const app = await appWith({
			'src/routes/signin/magic/+page.svelte': 'old page\n',
			'.create-auth/manifest.json': manifestOf(['src/routes/signin/magic/+page.svelte', 'src/gone.ts'], ['src/routes/conflicted.svelte']),
			'src/routes/conflicted.svelte': '<<<<<<< yours\n'
		});
		const { files } = await detectProject(app);
		expect(files['src/routes/signin/magic/+page.svelte']).toBe('old page\n');
		expect(files).toHaveProperty(['src/gone.ts'], undefined);
		expect(files['src/routes/conflicted.svelte']).toBe('<<<<<<< yours\n');
	});

	it('never reads a path a damaged manifest records outside the app or in another spelling', async () => {
		const outside = ['../secret.txt', 'src/../../secret.txt', '/etc/hostname', './src/auth.ts', 'src//auth.ts', '..', 'src\\..\\..\\secret.txt'];
		const app = await appWith({ '.create-auth/manifest.json': manifestOf(outside, 'not a list') });
		await writeFile(path.join(app, '..', 'secret.txt'), 'secret\n');
		const { files } = await detectProject(app);
		for (const file of outside) expect(files, file).not.toHaveProperty([file]);
	});

	it('reads nothing more for a manifest that is not JSON', async () => {
		const app = await appWith({ '.create-auth/manifest.json': '{ not json' });
		const { files } = await detectProject(app);
		expect(files['.create-auth/manifest.json']).toBe('{ not json');
	});
});
