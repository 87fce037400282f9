// @ts-check
/**
 * The benchmark apps, built from the same fixture: `floor` (no auth), `floor-layout` (the floor
 * plus a root layout server load, no auth), `ours` (the app
 * `create-auth --yes --providers credentials` generates) and `authjs` (`@auth/sveltekit` 1.x).
 * Each is the fixture copy + the CLI's output (ours only) + the file layers under `bench/apps/`
 * copied over it, then installed and built with adapter-node.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { build, copyFixture, install, removeApp, repoRoot, runCli } from '../e2e/harness/app.js';

export const FIXTURE = 'kit2-ts';

/** @typedef {'floor' | 'floor-layout' | 'ours' | 'authjs'} AppName */
/** @type {AppName[]} */
export const APP_NAMES = ['floor', 'floor-layout', 'ours', 'authjs'];

/**
 * Apps without auth: no sign-in, no cookie. `floor-layout` is the floor plus a root layout
 * server load returning `{ session: null }`, the shape every generated app has: it shows how
 * much of ours' gap to the floor is SvelteKit's layout load rather than auth.
 * @type {ReadonlySet<AppName>}
 */
export const WITHOUT_AUTH = new Set(['floor', 'floor-layout']);

/**
 * Folders of `bench/apps/` copied over each app, in order: `all` (adapter-node, `/public`,
 * the `/protected` page's markup), `with-auth` (the `/protected` load that calls
 * `locals.auth()`, shared by ours and Auth.js), then the app's own folder.
 * @type {Record<AppName, string[]>}
 */
const LAYERS = {
	floor: ['all', 'floor'],
	'floor-layout': ['all', 'floor', 'floor-layout'],
	ours: ['all', 'with-auth', 'ours'],
	authjs: ['all', 'with-auth', 'authjs']
};

/** Dependencies added to the fixture's package.json (adapter-node 6 needs SvelteKit 3). */
const ADAPTER = { '@sveltejs/adapter-node': '^5' };
const AUTHJS = { '@auth/sveltekit': '^1' };

/** The account every app signs in with (Auth.js's authorize() accepts only this one). */
export const DEMO = { email: 'demo@example.com', password: 'correct horse battery staple' };

/**
 * @typedef {object} App
 * @property {AppName} name
 * @property {string} dir  absolute path of the app
 * @property {Record<string, string>} env  the app's `.env` (adapter-node does not read it)
 * @property {Record<string, string>} versions  installed versions of the packages that matter
 * @property {() => Promise<void>} remove  delete the app folder (a no-op for `--keep` apps)
 */

/**
 * Copy the fixture, apply the CLI (ours) and the layers, install, build.
 * With `keep`, the app lives in `<tmpdir>/create-auth-e2e-bench-<name>` and survives the run;
 * a later `keep` run starts from a fresh fixture copy there but reuses its `node_modules`
 * (npm install then has little to do; better-sqlite3 is not compiled again).
 * @param {AppName} name
 * @param {{ keep: boolean, log: (line: string) => void }} options
 * @returns {Promise<App>}
 */
export async function prepareApp(name, { keep, log }) {
	const dir = keep ? await freshKeptCopy(name) : await copyFixture(FIXTURE);
	log(`${name}: ${dir}`);
	if (name === 'ours') {
		const cli = await runCli(dir, ['--yes', '--providers', 'credentials', '--no-install']);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed in ${dir}:\n${cli.stdout}\n${cli.stderr}`);
	}
	for (const layer of LAYERS[name]) {
		await fs.cp(path.join(repoRoot, 'bench', 'apps', layer), dir, { recursive: true, force: true });
	}
	await editPackageJson(dir, name === 'authjs');
	if (name === 'authjs') {
		await fs.writeFile(path.join(dir, '.env'), `AUTH_SECRET=${randomBytes(32).toString('base64url')}\n`);
	}
	log(`${name}: npm install`);
	await install(dir);
	log(`${name}: vite build`);
	await build(dir);
	const envFile = path.join(dir, '.env');
	const env = existsSync(envFile) ? /** @type {Record<string, string>} */ (parseEnv(await fs.readFile(envFile, 'utf8'))) : {};
	return { name, dir, env, versions: await versions(dir), remove: keep ? async () => {} : () => removeApp(dir) };
}

/**
 * Time `create-auth --yes --no-install` on fresh fixture copies (the copy is not timed).
 * @param {number} times
 * @returns {Promise<number[]>} wall-clock milliseconds, process start to exit
 */
export async function timeCli(times) {
	/** @type {number[]} */
	const durations = [];
	for (let i = 0; i < times; i++) {
		const dir = await copyFixture(FIXTURE);
		try {
			const cli = await runCli(dir, ['--yes', '--no-install'], { timeout: 60_000 });
			if (cli.exitCode !== 0) throw new Error(`create-auth failed in ${dir}:\n${cli.stdout}\n${cli.stderr}`);
			durations.push(cli.durationMs);
		} finally {
			await removeApp(dir);
		}
	}
	return durations;
}

/**
 * `<tmpdir>/create-auth-e2e-bench-<name>` emptied and refilled with the fixture, keeping its
 * `node_modules` if it had one.
 * @param {AppName} name
 */
async function freshKeptCopy(name) {
	const dir = path.join(os.tmpdir(), `create-auth-e2e-bench-${name}`);
	const modules = `${dir}.node_modules`;
	if (existsSync(path.join(dir, 'node_modules'))) {
		await fs.rm(modules, { recursive: true, force: true });
		await fs.rename(path.join(dir, 'node_modules'), modules);
	}
	await fs.rm(dir, { recursive: true, force: true });
	await copyFixture(FIXTURE, { dest: dir });
	if (existsSync(modules)) await fs.rename(modules, path.join(dir, 'node_modules'));
	return dir;
}

/**
 * @param {string} dir
 * @param {boolean} authjs
 */
async function editPackageJson(dir, authjs) {
	const file = path.join(dir, 'package.json');
	const pkg = JSON.parse(await fs.readFile(file, 'utf8'));
	pkg.devDependencies = { ...pkg.devDependencies, ...ADAPTER };
	if (authjs) pkg.dependencies = { ...pkg.dependencies, ...AUTHJS };
	await fs.writeFile(file, `${JSON.stringify(pkg, null, '\t')}\n`);
}

/** @param {string} dir */
async function versions(dir) {
	/** @type {Record<string, string>} */
	const found = {};
	for (const name of ['@sveltejs/kit', '@sveltejs/adapter-node', 'svelte', 'vite', '@auth/sveltekit', '@auth/core', 'jose']) {
		const file = path.join(dir, 'node_modules', name, 'package.json');
		if (existsSync(file)) found[name] = JSON.parse(await fs.readFile(file, 'utf8')).version;
	}
	return found;
}
