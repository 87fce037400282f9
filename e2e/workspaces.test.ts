/**
 * An app in `apps/web` of a monorepo (issue 26): a pnpm workspace and an npm workspace, each
 * made as its user would (a root package.json, the workspace declaration, the Kit 2 fixture
 * copied into `apps/web`, one install at the root, so the root lock file exists). create-auth is
 * run in `apps/web` as `npx create-auth --yes` runs it (npm's user agent), with its install.
 * Then: the install ran at the workspace root with the workspace's manager; the ROOT lock file
 * has the new dependencies; the app has no lock file of its own and no install of its own
 * ({@link ownInstall}); the build allowance of better-sqlite3 is where the manager reads it (the
 * root `pnpm-workspace.yaml`, the root package.json's `allowScripts`); the user's CI install
 * (`pnpm install --frozen-lockfile`, `npm ci`) accepts the lock file; the app builds, and
 * Chromium signs up and in on it, against its SQLite database.
 *
 * Node 20 and the Kit 2 fixture (the SQLite adapter's better-sqlite3 12 comes from the prebuilt
 * binary cache, `e2e/harness/prebuilds.js`). Machine prerequisite: pnpm on the PATH
 * (`bash scripts/setup.sh`). The two workspaces are set up at the same time (each in a folder of
 * its own, with its own manager), before their describes.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { signInResponse, signUpAt } from './credentials-flow.js';
import { cleanEnv, copyFixture, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { sqliteCount } from './harness/databases.js';
import { keepPrebuilds } from './harness/prebuilds.js';

/** What `npx create-auth` sets (npm runs it); the app has no lock file, so only the workspace can tell pnpm. */
const NPM_USER_AGENT = 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false';
const EMAIL = 'lin@example.com';
const PASSWORD = 'correct horse battery staple';

/** Dependencies create-auth adds for `--providers credentials` with the SQLite adapter (a sample). */
const NEW_DEPENDENCIES = ['jose', 'better-sqlite3', 'rate-limiter-flexible'];

/**
 * What makes an install "of the app's own" rather than the workspace's: npm's record of an
 * install in the folder (`node_modules/.package-lock.json`), pnpm's (`node_modules/.modules.yaml`,
 * a virtual store `node_modules/.pnpm`), or, with pnpm, a package folder that is not the symlink
 * pnpm links a workspace package's dependencies with (into the root's store). `.bin` (pnpm's
 * links to the root store's bins) and Vite's cache are the workspace layout, not an install.
 * @returns the offending paths, app-relative; none when the app has no node_modules at all
 */
async function ownInstall(appDir: string): Promise<string[]> {
	const modules = path.join(appDir, 'node_modules');
	if (!existsSync(modules)) return [];
	const found: string[] = [];
	for (const marker of ['.package-lock.json', '.modules.yaml', '.pnpm']) {
		if (existsSync(path.join(modules, marker))) found.push(`node_modules/${marker}`);
	}
	const entries = await fs.readdir(modules, { withFileTypes: true });
	for (const entry of entries) {
		if (entry.name.startsWith('.')) continue;
		const children = entry.name.startsWith('@') && entry.isDirectory() ? (await fs.readdir(path.join(modules, entry.name))).map((child) => `${entry.name}/${child}`) : [entry.name];
		for (const child of children) {
			if (!(await fs.lstat(path.join(modules, child))).isSymbolicLink()) found.push(`node_modules/${child}`);
		}
	}
	return found;
}

/** A lock file of any manager in `dir`. */
const lockFilesIn = (dir: string) => ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb'].filter((file) => existsSync(path.join(dir, file)));

interface Workspace {
	root: string;
	app: string;
	/** The root lock file's text before and right after create-auth ran. */
	lockBefore: string;
	lockAfter: string;
	cli: RunResult;
	/** The app's node_modules as create-auth left it: whether it exists, and {@link ownInstall}'s findings. */
	appModules: { exists: boolean; own: string[] };
	/** The lock files in the app's folder and in the root's, right after create-auth. */
	appLocks: string[];
	rootLocks: string[];
	/** The user's CI install at the root after create-auth. */
	ci: RunResult;
	server: Server;
}

/**
 * Makes the workspace (`declare` writes its declaration at the root), installs it at the root
 * with `manager`, runs create-auth in `apps/web`, then the CI install, the app's build and its
 * preview server.
 */
async function setUp(manager: 'pnpm' | 'npm', declare: (root: string) => Promise<void>): Promise<Workspace> {
	const root = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-e2e-'));
	await fs.mkdir(path.join(root, '.git'));
	await declare(root);
	const app = await copyFixture('kit2-ts', { dest: path.join(root, 'apps/web') });
	const must = async (command: string, args: string[], cwd: string) => {
		const result = await run(command, args, { cwd, timeout: 300_000 });
		if (result.exitCode !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} failed:\n${result.stdout}\n${result.stderr}`);
		return result;
	};
	await must(manager, ['install', ...(manager === 'npm' ? ['--no-audit', '--no-fund'] : [])], root);
	const lockFile = manager === 'pnpm' ? 'pnpm-lock.yaml' : 'package-lock.json';
	const lockBefore = await fs.readFile(path.join(root, lockFile), 'utf8');
	const cli = await runCli(app, ['--yes', '--providers', 'credentials'], { env: { npm_config_user_agent: NPM_USER_AGENT } });
	if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
	// What create-auth left, before anything else runs (pnpm 12's `pnpm run` installs first, say).
	const lockAfter = await fs.readFile(path.join(root, lockFile), 'utf8');
	const appModules = { exists: existsSync(path.join(app, 'node_modules')), own: await ownInstall(app) };
	const appLocks = lockFilesIn(app);
	const rootLocks = lockFilesIn(root);
	// The harness keeps the addon an install built from the app's own node_modules; here it is the root's.
	keepPrebuilds(root, cleanEnv());
	const ci = await run(manager, manager === 'pnpm' ? ['install', '--frozen-lockfile'] : ['ci', '--dry-run', '--no-audit', '--no-fund'], { cwd: root, timeout: 300_000 });
	// The app's build as its user runs it; `npm run` finds the root's hoisted vite as pnpm links it.
	await must(manager, ['run', 'build'], app);
	const server = await start(app, { mode: 'preview' });
	return { root, app, lockBefore, lockAfter, cli, appModules, appLocks, rootLocks, ci, server };
}

/** The tests both workspaces pass. */
function workspaceFlows(manager: 'pnpm' | 'npm', get: () => Workspace & { browser: Browser }) {
	it(`installs with ${manager} at the workspace root, and says so`, () => {
		const { cli, root } = get();
		expect(cli.stdout).toContain(`Installing dependencies with ${manager} in ${root}`);
		expect(cli.stdout).toContain('Dependencies installed');
	});

	it('leaves no lock file in the app, and no install of its own', () => {
		const { appLocks, rootLocks, appModules } = get();
		expect(appLocks).toEqual([]);
		expect(rootLocks).toEqual([manager === 'pnpm' ? 'pnpm-lock.yaml' : 'package-lock.json']);
		expect(appModules.own).toEqual([]);
		// pnpm links a workspace package's dependencies into its node_modules; npm hoists them all
		// to the root's (the root has no dependencies of its own to conflict with).
		expect(appModules.exists).toBe(manager === 'pnpm');
	});

	it("passes the user's CI install against the root lock file", () => {
		const { ci } = get();
		expect(ci.exitCode, `${ci.stdout}\n${ci.stderr}`).toBe(0);
	});

	it('signs up and in on the built app, with the account in its SQLite database', async () => {
		const { server, browser, app } = get();
		const page = await browser.newPage();
		await signUpAt(page, server.url, EMAIL);
		const other = await (await browser.newContext()).newPage();
		const response = await signInResponse(other, server.url, EMAIL, PASSWORD);
		expect(response.status()).toBe(303);
		await other.goto(`${server.url}/account`);
		expect(new URL(other.url()).pathname).toBe('/account');
		await expect(other.content()).resolves.toContain(EMAIL);
		expect(sqliteCount(app, 'auth_users')).toBe(1);
	});
}

/** Both workspaces, set up at once in the file's beforeAll; each describe awaits its own (and reports its failure). */
const made: Partial<Record<'pnpm' | 'npm', Promise<Workspace>>> = {};
beforeAll(() => {
	made.pnpm = setUp('pnpm', async (root) => {
		await fs.writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'monorepo', private: true }, null, 2) + '\n');
		await fs.writeFile(path.join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'apps/*'\n");
	});
	made.npm = setUp('npm', async (root) => {
		await fs.writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['apps/*'] }, null, 2) + '\n');
	});
	for (const workspace of Object.values(made)) workspace.catch(() => undefined);
});
afterAll(async () => {
	for (const workspace of Object.values(made)) {
		const ready = await workspace.catch(() => undefined);
		await ready?.server.stop();
		if (ready) await removeApp(ready.root);
	}
});

describe('an app in apps/web of a pnpm workspace', () => {
	let workspace: (Workspace & { browser: Browser }) | undefined;
	beforeAll(async () => {
		workspace = { ...(await made.pnpm!), browser: await launchBrowser() };
	});
	afterAll(async () => {
		await workspace?.browser.close();
	});
	const get = () => workspace!;

	it('adds the new dependencies to the ROOT pnpm-lock.yaml, under the app\'s importer', async () => {
		const { lockBefore, lockAfter } = get();
		const importers = (text: string) => (parseYaml(text) as { importers: Record<string, { dependencies?: Record<string, unknown> }> }).importers;
		expect(Object.keys(importers(lockBefore)['apps/web']!.dependencies ?? {})).not.toContain('jose');
		const after = importers(lockAfter);
		expect(Object.keys(after['apps/web']!.dependencies ?? {})).toEqual(expect.arrayContaining(NEW_DEPENDENCIES));
	});

	it("allows better-sqlite3's build in the ROOT pnpm-workspace.yaml, keeping its packages; none in the app", async () => {
		const { root, app } = get();
		expect(await fs.readFile(path.join(root, 'pnpm-workspace.yaml'), 'utf8')).toBe("packages:\n  - 'apps/*'\nallowBuilds:\n  better-sqlite3: true\n");
		expect(existsSync(path.join(app, 'pnpm-workspace.yaml'))).toBe(false);
	});

	workspaceFlows('pnpm', get);
});

describe('an app in apps/web of an npm workspace', () => {
	let workspace: (Workspace & { browser: Browser }) | undefined;
	beforeAll(async () => {
		workspace = { ...(await made.npm!), browser: await launchBrowser() };
	});
	afterAll(async () => {
		await workspace?.browser.close();
	});
	const get = () => workspace!;

	it("adds the new dependencies to the ROOT package-lock.json, and allowScripts to the ROOT package.json (npm reads no workspace package's)", async () => {
		const { root, app, lockBefore, lockAfter } = get();
		type Lock = { packages: Record<string, { dependencies?: Record<string, string> }> };
		expect(Object.keys((JSON.parse(lockBefore) as Lock).packages['apps/web']!.dependencies ?? {})).not.toContain('jose');
		const lock = JSON.parse(lockAfter) as Lock;
		expect(Object.keys(lock.packages['apps/web']!.dependencies ?? {})).toEqual(expect.arrayContaining(NEW_DEPENDENCIES));
		expect(lock.packages).toHaveProperty(['node_modules/better-sqlite3']);
		expect(JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8'))).toEqual({
			name: 'monorepo',
			private: true,
			workspaces: ['apps/*'],
			allowScripts: { 'better-sqlite3': true }
		});
		expect(JSON.parse(await fs.readFile(path.join(app, 'package.json'), 'utf8'))).not.toHaveProperty('allowScripts');
	});

	workspaceFlows('npm', get);
});
