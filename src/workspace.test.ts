import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectPackageManager, findWorkspaceRoot, installRootFile } from './workspace.js';

const NPM_AGENT = 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false';

let repo: string;
beforeEach(async () => {
	// A clone: `.git` bounds every walk, so nothing above the temp folder is read.
	repo = await mkdtemp(path.join(os.tmpdir(), 'create-auth-pm-'));
	await mkdir(path.join(repo, '.git'));
});
afterEach(async () => {
	await rm(repo, { recursive: true, force: true });
});

/** Writes `files` (repo-relative path → text; an object is written as JSON) and returns the absolute path of `app`. */
async function tree(files: Record<string, string | object>, app = 'apps/web'): Promise<string> {
	for (const [file, content] of Object.entries(files)) {
		await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
		await writeFile(path.join(repo, file), typeof content === 'string' ? content : JSON.stringify(content));
	}
	await mkdir(path.join(repo, app), { recursive: true });
	return path.join(repo, app);
}

const APP = { 'apps/web/package.json': { name: 'web', devDependencies: { '@sveltejs/kit': '^2.0.0' } } };

describe('detectPackageManager in an app on its own', () => {
	it.each([
		['pnpm-lock.yaml', 'pnpm'],
		['yarn.lock', 'yarn'],
		['bun.lock', 'bun'],
		['bun.lockb', 'bun'],
		['package-lock.json', 'npm']
	] as const)('picks the manager of the lock file %s, installed in the app', async (file, manager) => {
		const app = await tree({ 'package.json': { name: 'app' }, [file]: '' }, '.');
		expect(await detectPackageManager(app, '')).toEqual({ manager, installRoot: app });
	});

	it.each([
		['pnpm/10.12.1 npm/? node/v22.17.0 linux x64', 'pnpm'],
		['yarn/1.22.22 npm/? node/v20.19.0 linux x64', 'yarn'],
		['yarn/4.18.1 npm/? node/v22.17.0 linux x64', 'yarn'],
		['bun/1.3.5 npm/? node/v24.3.0 linux x64', 'bun'],
		[NPM_AGENT, 'npm']
	] as const)('without a lock file, picks the manager that runs create-auth (%s)', async (userAgent, manager) => {
		const app = await tree({ 'package.json': { name: 'app' } }, '.');
		expect((await detectPackageManager(app, userAgent)).manager).toBe(manager);
	});

	it('falls back to npm without a lock file or a user agent it knows', async () => {
		const app = await tree({ 'package.json': { name: 'app' } }, '.');
		expect((await detectPackageManager(app, '')).manager).toBe('npm');
		expect((await detectPackageManager(app, 'deno/2.1.0 npm/? deno/2.1.0 linux x86_64')).manager).toBe('npm');
		await writeFile(path.join(app, 'deno.lock'), '');
		expect((await detectPackageManager(app, '')).manager).toBe('npm');
	});

	it('prefers the lock file to the user agent: npx create-auth in a pnpm app installs with pnpm', async () => {
		const app = await tree({ 'package.json': { name: 'app' }, 'pnpm-lock.yaml': '' }, '.');
		expect((await detectPackageManager(app, NPM_AGENT)).manager).toBe('pnpm');
	});

	it('reads package.json packageManager, and devEngines.packageManager', async () => {
		const app = await tree({ 'package.json': { name: 'app', packageManager: 'yarn@4.18.1+sha512.abc' } }, '.');
		expect((await detectPackageManager(app, NPM_AGENT)).manager).toBe('yarn');
		await writeFile(path.join(app, 'package.json'), JSON.stringify({ devEngines: { packageManager: { name: 'bun', version: '1.3.5' } } }));
		expect((await detectPackageManager(app, NPM_AGENT)).manager).toBe('bun');
	});

	it('does not read a lock file above the repository: a stray one in a parent folder is not the app\'s', async () => {
		// A folder holding a clone (<tmp>/clone, with .git) whose package.json even declares a
		// workspace that would take the clone in: the walk stops at the clone's .git.
		await writeFile(path.join(repo, 'package-lock.json'), '{}');
		await writeFile(path.join(repo, 'package.json'), JSON.stringify({ name: 'stray', workspaces: ['*'], packageManager: 'yarn@1.22.22' }));
		const app = await tree({ 'clone/.git/HEAD': '', 'clone/package.json': { name: 'app' } }, 'clone');
		expect(await detectPackageManager(app, '')).toEqual({ manager: 'npm', installRoot: app });
		expect((await detectPackageManager(app, 'pnpm/12.21.0 npm/? node/v22.23.3 linux x64')).manager).toBe('pnpm');
	});

	it('does not take a parent folder\'s lock file for the app\'s when the parent declares no workspace', async () => {
		await rm(path.join(repo, '.git'), { recursive: true });
		const app = await tree({ 'pnpm-lock.yaml': '', 'package.json': { name: 'not-a-workspace' }, ...APP });
		expect(await detectPackageManager(app, NPM_AGENT)).toEqual({ manager: 'npm', installRoot: app });
	});
});

describe('detectPackageManager in a workspace', () => {
	it('a pnpm workspace: pnpm, at the root, even with a stray package-lock.json in the app', async () => {
		const app = await tree({
			'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - packages/*\n",
			'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
			'package.json': { name: 'monorepo', private: true },
			...APP,
			'apps/web/package-lock.json': '{}'
		});
		expect(await detectPackageManager(app, NPM_AGENT)).toEqual({ manager: 'pnpm', installRoot: repo });
	});

	it('a pnpm workspace without a lock file yet: pnpm, at the root', async () => {
		const app = await tree({ 'pnpm-workspace.yaml': 'packages:\n  - apps/**\n', 'package.json': { name: 'monorepo' }, ...APP });
		expect(await detectPackageManager(app, NPM_AGENT)).toEqual({ manager: 'pnpm', installRoot: repo });
	});

	it.each([
		['npm', 'package-lock.json', ['apps/*']],
		['yarn', 'yarn.lock', { packages: ['apps/*'] }],
		['bun', 'bun.lock', ['apps/web']]
	] as const)('a %s workspace (package.json workspaces): at the root', async (manager, lock, workspaces) => {
		const app = await tree({ 'package.json': { name: 'monorepo', private: true, workspaces }, [lock]: '', ...APP });
		expect(await detectPackageManager(app, 'pnpm/12.21.0 npm/? node/v22.23.3 linux x64')).toEqual({ manager, installRoot: repo });
	});

	it('a Turborepo on npm, the manager named by the root packageManager field, the app two levels down', async () => {
		const app = await tree(
			{ 'package.json': { name: 'turbo', workspaces: ['apps/**'], packageManager: 'bun@1.3.5' }, 'turbo.json': '{}', 'apps/site/web/package.json': { name: 'web' } },
			'apps/site/web'
		);
		expect(await detectPackageManager(app, NPM_AGENT)).toEqual({ manager: 'bun', installRoot: repo });
	});

	it('an app that is a git submodule of the monorepo (a .git file) is still its package', async () => {
		const app = await tree({ 'pnpm-workspace.yaml': 'packages:\n  - apps/*\n', 'pnpm-lock.yaml': '', ...APP, 'apps/web/.git': 'gitdir: ../../.git/modules/web\n' });
		expect(await detectPackageManager(app, NPM_AGENT)).toEqual({ manager: 'pnpm', installRoot: repo });
	});

	it('an app the workspace patterns leave out installs on its own', async () => {
		const excluded = await tree({ 'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - '!apps/web'\n", 'pnpm-lock.yaml': '', ...APP });
		expect(await detectPackageManager(excluded, NPM_AGENT)).toEqual({ manager: 'npm', installRoot: excluded });
		const elsewhere = await tree({ 'tools/web/package.json': { name: 'web' } }, 'tools/web');
		expect(await findWorkspaceRoot(elsewhere)).toBeUndefined();
	});

	it('a pnpm-workspace.yaml with settings only (no packages) is a workspace of its own folder', async () => {
		const app = await tree({ 'pnpm-workspace.yaml': 'allowBuilds:\n  esbuild: true\n', 'pnpm-lock.yaml': '', ...APP });
		expect(await findWorkspaceRoot(app)).toBeUndefined();
	});

	it('an app that declares a workspace itself is its own root', async () => {
		const app = await tree({ 'pnpm-workspace.yaml': 'packages:\n  - apps/*\n', ...APP, 'apps/web/pnpm-workspace.yaml': 'allowBuilds:\n  better-sqlite3: true\n' });
		expect(await findWorkspaceRoot(app)).toBeUndefined();
	});

	it('a malformed declaration counts as none and never throws', async () => {
		const app = await tree({ 'package.json': '{ "workspaces": [', 'pnpm-lock.yaml': '', ...APP });
		expect(await detectPackageManager(app, '')).toEqual({ manager: 'npm', installRoot: app });
		await writeFile(path.join(repo, 'pnpm-workspace.yaml'), 'packages: [apps/*\n  - : :');
		expect(await findWorkspaceRoot(app)).toBeUndefined();
	});
});

describe('installRootFile', () => {
	it('names a root file relative to the app, POSIX', () => {
		expect(installRootFile('/r/apps/web', '/r', 'pnpm-workspace.yaml')).toBe('../../pnpm-workspace.yaml');
		expect(installRootFile('/r', '/r', 'package.json')).toBe('package.json');
	});
});

describe('detectProject in a workspace', () => {
	it("reads the root's package.json and pnpm-workspace.yaml under app-relative keys, and the Kit the workspace hoisted", async () => {
		const { detectProject } = await import('./project.js');
		const app = await tree({
			'package.json': { name: 'monorepo', private: true, workspaces: ['apps/*'] },
			'package-lock.json': '{}',
			'node_modules/@sveltejs/kit/package.json': { name: '@sveltejs/kit', version: '3.0.2' },
			'apps/web/package.json': { name: 'web', devDependencies: { '@sveltejs/kit': '^2.0.0 || ^3.0.0' } }
		});
		const project = await detectProject(app, '');
		expect(project).toMatchObject({ root: app, packageManager: 'npm', installRoot: repo });
		expect(project.kit.major).toBe(3);
		expect(JSON.parse(project.files['../../package.json']!)).toMatchObject({ workspaces: ['apps/*'] });
		expect(project.files['../../pnpm-workspace.yaml']).toBeUndefined();
	});
});
