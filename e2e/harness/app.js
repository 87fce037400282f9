// @ts-check
/**
 * Drive a real SvelteKit app: copy a fixture, run the CLI on it, install, build, type-check,
 * start (preview or dev) and remove it. Plain ESM + JSDoc so that tests, `scripts/demo.js`
 * and `bench/` can import it without a build step.
 *
 * Every child process runs in its own process group with a time limit; nothing here waits
 * forever, and servers listen on 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { HASHES_ENV, appLabel, count, hashTally, nameApp, timed } from './ledger.js';
import { TEST_SCRYPT_N_ENV } from './scrypt-preload.js';
import { testClock } from './clock.js';
import { keepPrebuilds, prebuildEnv, seedPrebuilds } from './prebuilds.js';

/** Absolute path of the create-auth repository. */
export const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Absolute path of `e2e/fixtures`. */
export const fixturesDir = path.join(repoRoot, 'e2e', 'fixtures');
/** Absolute path of the CLI entry (`bin/create-auth.js`, which imports `dist/cli.js`). */
export const cliBin = path.join(repoRoot, 'bin', 'create-auth.js');

const TEMP_PREFIX = 'create-auth-e2e-';
/** The app servers' scrypt at a test cost, or counted at production cost for the e2e ledger. */
const SCRYPT_PRELOAD = new URL('./scrypt-preload.js', import.meta.url).href;
/** The N an app server derives the runtime's production-cost hashes at, as the unit suite does. */
const TEST_SCRYPT_N = 2 ** 10;
/** @type {Set<string>} app folders whose servers hash at the runtime's production cost */
const productionCostApps = new Set();

/**
 * Has start() serve `appDir` with scrypt at the runtime's production cost (N=2^17 on Node), each
 * such hash counted in the ledger's `fullCostHashes`, instead of the test cost every other app's
 * servers derive those hashes at (./scrypt-preload.js). For the apps whose flows prove that cost
 * end to end; every server of the app must then run at it, as the hashes in its database need.
 * @param {string} appDir
 */
export function hashAtProductionCost(appDir) {
	productionCostApps.add(path.resolve(appDir));
}

/** @type {Set<string>} app folders made by copyFixture() in this process */
const createdApps = new Set();

/**
 * @typedef {object} RunResult
 * @property {number} exitCode  exit code (128 + signal number when killed by a signal, e.g. on timeout)
 * @property {string} stdout
 * @property {string} stderr
 * @property {boolean} timedOut
 * @property {number} durationMs
 */

/**
 * The environment children get: ours, minus what `npm run`/`npm test` injects (`npm_*`,
 * `INIT_CWD`), so that an app's own npm and the CLI's package-manager detection behave as in
 * a user's shell, and minus the `NODE_ENV=test` vitest sets in its process: a `vite build` with
 * it is a development build (esm-env's `DEV`, so `$app/environment`'s `dev` is true and the
 * generated `src/auth.ts` trusts any host), never what a user's `npm run build` makes; plus
 * `prefer-offline` for npm and pnpm (an install takes what the machine's
 * package cache holds without asking the registry whether it is still current, and fetches only
 * what is missing: 4 s instead of 7.7 s for kit2-ts); plus prebuild-install's local folder
 * (./prebuilds.js); plus `extra`.
 * @param {Record<string, string | undefined>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function cleanEnv(extra = {}) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE_ENV') continue;
		env[key] = value;
	}
	env.npm_config_prefer_offline = 'true';
	env.NPM_CONFIG_UPDATE_NOTIFIER = 'false';
	Object.assign(env, prebuildEnv());
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}

/** @type {Set<import('node:child_process').ChildProcess>} live process groups, killed if we exit */
const liveGroups = new Set();

/**
 * Servers of start() that exited on their own after they had answered, not stopped by the test:
 * each test's next request to one fails with ECONNREFUSED, which names no cause. The e2e setup
 * file ./server-exits.js takes them after every test and fails it with the exit and the output.
 * @type {{ url: string, exit: { code: number | null, signal: NodeJS.Signals | null }, output: () => string }[]}
 */
const unexpectedExits = [];

/**
 * The servers that exited on their own since the last call (see `unexpectedExits`), and forgets them.
 * @returns {{ url: string, exit: { code: number | null, signal: NodeJS.Signals | null }, output: () => string }[]}
 */
export function takeUnexpectedExits() {
	return unexpectedExits.splice(0);
}

let exitHookInstalled = false;
function installExitHook() {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on('exit', () => {
		for (const child of liveGroups) killGroup(child, 'SIGKILL');
	});
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} signal
 */
function killGroup(child, signal) {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

/**
 * Run a command to completion in its own process group. Never throws for a non-zero exit;
 * rejects only if the command cannot be started. On timeout the whole group gets SIGTERM,
 * then SIGKILL 5 s later. `echo: true` also copies the output to ours as it arrives.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: Record<string, string | undefined>, timeout?: number, echo?: boolean }} options
 * @returns {Promise<RunResult>}
 */
export function run(command, args, { cwd, env, timeout = 600_000, echo = false }) {
	installExitHook();
	count('spawns');
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd,
			env: cleanEnv(env),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true
		});
		liveGroups.add(child);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout?.setEncoding('utf8').on('data', (d) => {
			stdout += d;
			if (echo) process.stdout.write(d);
		});
		child.stderr?.setEncoding('utf8').on('data', (d) => {
			stderr += d;
			if (echo) process.stderr.write(d);
		});
		/** @type {NodeJS.Timeout | undefined} */
		let killTimer;
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child, 'SIGTERM');
			killTimer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
		}, timeout);
		child.on('error', (error) => {
			clearTimeout(timer);
			clearTimeout(killTimer);
			liveGroups.delete(child);
			reject(new Error(`cannot run ${command}: ${error.message}`, { cause: error }));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			clearTimeout(killTimer);
			liveGroups.delete(child);
			const exitCode = code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0);
			if (timedOut) stderr += `\n[harness] ${command} ${args.join(' ')} timed out after ${timeout} ms\n`;
			resolve({ exitCode, stdout, stderr, timedOut, durationMs: Date.now() - started });
		});
	});
}

/**
 * @param {string} what
 * @param {RunResult} result
 */
function failure(what, result) {
	const tail = (/** @type {string} */ s) => s.split('\n').slice(-60).join('\n');
	return new Error(
		`${what} failed (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''})\n` +
			`--- stdout (tail) ---\n${tail(result.stdout)}\n--- stderr (tail) ---\n${tail(result.stderr)}`
	);
}

/**
 * Copy `e2e/fixtures/<name>` into a new folder and return its absolute path: by default a new
 * temp folder `<os.tmpdir()>/create-auth-e2e-XXXXXX`; with `dest`, that folder (created with its
 * parents if absent; refused, with nothing written, if it is a file or a folder that is not
 * empty). `node_modules` and `.svelte-kit` are never copied.
 *
 * The fixture's entries are copied one by one into the target folder, never the fixture folder
 * onto it: since Node 22, `fs.cp` of a folder onto an existing one, even an empty one, with
 * `errorOnExist: true, force: false` throws ERR_FS_CP_EEXIST (Node 20 merged them).
 * @param {string} name  fixture folder name, e.g. `'kit2-ts'`
 * @param {{ dest?: string }} [options]
 * @returns {Promise<string>}
 * @throws {Error} for an unknown fixture or an unusable `dest`
 */
export async function copyFixture(name, { dest } = {}) {
	const source = path.join(fixturesDir, name);
	if (!existsSync(path.join(source, 'package.json'))) {
		throw new Error(`no fixture named ${JSON.stringify(name)} in ${fixturesDir}`);
	}
	let target;
	if (dest) {
		target = path.resolve(dest);
		const stat = await fs.stat(target).catch(() => null);
		if (stat && !stat.isDirectory()) throw new Error(`copyFixture: ${target} exists and is not a folder`);
		if (stat && (await fs.readdir(target)).length > 0) throw new Error(`copyFixture: ${target} exists and is not empty`);
		await fs.mkdir(target, { recursive: true });
	} else {
		target = await fs.mkdtemp(path.join(os.tmpdir(), TEMP_PREFIX));
	}
	const skipped = ['node_modules', '.svelte-kit'];
	for (const entry of await fs.readdir(source)) {
		if (skipped.includes(entry)) continue;
		await fs.cp(path.join(source, entry), path.join(target, entry), {
			recursive: true,
			errorOnExist: true,
			force: false,
			filter: (src) => !skipped.includes(path.basename(src))
		});
	}
	createdApps.add(target);
	nameApp(target, name);
	return target;
}

/**
 * A copy of an app as it stands, for a second build of the same app with an edit (e.g. an option
 * turned on in its `src/auth.ts`) made ahead of time: a new temp folder
 * `<os.tmpdir()>/create-auth-e2e-XXXXXX` (removeApp() deletes it) with every entry of `appDir` but
 * its install and build output (`node_modules`, `.svelte-kit`, `build`) and its lock files, which
 * shareInstall() gives it from `appDir`. Data files the app wrote (e.g. `auth.sqlite`) are copied as
 * they are at that moment: point the copy's `.env` at the original's to share them.
 * @param {string} appDir  an app folder (made by copyFixture())
 * @returns {Promise<string>}  the copy's absolute path
 * @throws {Error} `appDir` has no package.json
 */
export async function copyApp(appDir) {
	const source = path.resolve(appDir);
	if (!existsSync(path.join(source, 'package.json'))) throw new Error(`copyApp: ${source} has no package.json`);
	const target = await fs.mkdtemp(path.join(os.tmpdir(), TEMP_PREFIX));
	createdApps.add(target);
	const skipped = new Set(['node_modules', '.svelte-kit', 'build', ...LOCK_FILES]);
	for (const entry of await fs.readdir(source)) {
		if (skipped.has(entry)) continue;
		await fs.cp(path.join(source, entry), path.join(target, entry), { recursive: true, verbatimSymlinks: true });
	}
	nameApp(target, `copy of ${appLabel(source)}`);
	return target;
}

/** The most a manifest this version writes may weigh, in bytes: users commit it. */
export const MANIFEST_LIMIT = 50_000;

/**
 * Run the CLI (`node bin/create-auth.js ...args`) in `appDir`: stdin ignored (not a TTY),
 * `CI=1`, `NO_COLOR=1` (override with `env`). Never throws on a non-zero exit; throws when this
 * repo's CLI left a manifest over {@link MANIFEST_LIMIT}.
 * `node`: the node binary to run it with (default: ours, `process.execPath`), e.g.
 * `(await node22()).node`; pass that toolchain's `env` too, so that the npm the CLI runs uses it.
 * `bin`: another create-auth's entry (default: this repo's), e.g. an earlier release's
 * (`releaseBin()` in ./release.js).
 * @param {string} appDir
 * @param {string[]} args
 * @param {{ env?: Record<string, string | undefined>, timeout?: number, echo?: boolean, node?: string, bin?: string }} [options]
 * @returns {Promise<RunResult>}
 */
export async function runCli(appDir, args, { env = {}, timeout = 600_000, echo = false, node = process.execPath, bin = cliBin } = {}) {
	const cliEnv = { CI: '1', NO_COLOR: '1', FORCE_COLOR: undefined, ...env };
	seedPrebuilds(cleanEnv(cliEnv));
	const result = await timed('cliRuns', `${appLabel(appDir)}: ${args.join(' ')}`, () => run(node, [bin, ...args], { cwd: appDir, env: cliEnv, timeout, echo }));
	// The CLI may have installed the app's dependencies.
	keepPrebuilds(appDir, cleanEnv(cliEnv));
	const manifest = await fs.stat(path.join(appDir, '.create-auth', 'manifest.json')).catch(() => undefined);
	if (bin === cliBin && manifest && manifest.size > MANIFEST_LIMIT) {
		throw new Error(`${appLabel(appDir)}: create-auth ${args.join(' ')} wrote a manifest of ${manifest.size} bytes, over ${MANIFEST_LIMIT}`);
	}
	return result;
}

/** @type {Promise<string> | undefined} */
let packed;

/**
 * This repo as `npm publish` would upload it: `npm pack` of the built `dist` (`npm test` builds it
 * first; `--ignore-scripts`, so `prepare` does not write `dist` again while tests read it), with
 * package.json's `files` applied, into `.cache/packed/<pid>`. Once per process.
 * @returns {Promise<string>} the tarball's absolute path
 */
export function packedTarball() {
	packed ??= (async () => {
		const dir = path.join(repoRoot, '.cache', 'packed', String(process.pid));
		await fs.mkdir(dir, { recursive: true });
		const result = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: repoRoot, timeout: 120_000 });
		if (result.exitCode !== 0) throw failure('npm pack', result);
		return path.join(dir, JSON.parse(result.stdout)[0].filename);
	})();
	return packed;
}

/**
 * Run create-auth from {@link packedTarball} in `appDir`, as a user runs the published package:
 * `npx --yes --package=<tarball> create-auth ...args`, so npm installs it and its dependencies from
 * the registry (a dependency missing from package.json fails here, not in this repo). `CI=1`,
 * `NO_COLOR=1`, stdin ignored. Never throws on a non-zero exit.
 * @param {string} appDir
 * @param {string[]} args
 * @returns {Promise<RunResult>}
 */
export async function runPackedCli(appDir, args) {
	const tarball = await packedTarball();
	return timed('cliRuns', `${appLabel(appDir)}: npx create-auth ${args.join(' ')}`, () =>
		run('npx', ['--yes', `--package=${tarball}`, 'create-auth', ...args], { cwd: appDir, env: { CI: '1', NO_COLOR: '1', FORCE_COLOR: undefined }, timeout: 600_000 })
	);
}

/**
 * `npm install --no-audit --no-fund` in the app. Throws (with the output's tail) on failure.
 * The first install of better-sqlite3 compiles from source, hence the 10-minute default.
 * `env` as for run() (e.g. `(await node22()).env` to install under Node 22).
 * @param {string} appDir
 * @param {{ timeout?: number, args?: string[], env?: Record<string, string | undefined>, echo?: boolean }} [options]
 * @returns {Promise<RunResult>}
 */
export async function install(appDir, { timeout = 600_000, args = [], env, echo = false } = {}) {
	seedPrebuilds(cleanEnv(env));
	const result = await timed('installs', appLabel(appDir), () => run('npm', ['install', '--no-audit', '--no-fund', ...args], { cwd: appDir, env, timeout, echo }));
	if (result.exitCode !== 0) throw failure(`npm install in ${appDir}`, result);
	keepPrebuilds(appDir, cleanEnv(env));
	return result;
}

/** package.json fields that decide what `npm install` puts in node_modules; shareInstall() compares them. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'overrides'];
/**
 * Entries of node_modules that belong to the app rather than to a package, and that tools
 * rewrite in place (`fs.writeFile` on the existing file, so through a hard link into the other
 * app too): npm's hidden lock file, and `$app/` (`tsconfig.json`, `types/`), which SvelteKit 3's
 * `svelte-kit sync` writes for the app's own routes and env. shareInstall() copies them for real.
 */
const APP_OWNED = ['.package-lock.json', '$app'];
/** Lock files shareInstall() copies, when `fromApp` has one. */
const LOCK_FILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock'];

/**
 * @param {string} appDir
 * @returns {Promise<Record<string, unknown>>}
 */
async function readPackageJson(appDir) {
	const file = path.join(appDir, 'package.json');
	const text = await fs.readFile(file, 'utf8').catch((error) => {
		throw new Error(`cannot read ${file}: ${error.message}`, { cause: error });
	});
	return JSON.parse(text);
}

/**
 * JSON with object keys sorted, so that key order does not make two values differ.
 * @param {unknown} value
 * @returns {string}
 */
function canonicalJson(value) {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'undefined';
}

/**
 * Give `toApp` the dependencies installed in `fromApp` without a second install (no network,
 * no native rebuild; a second kit3 app is ready in about a second instead of a minute):
 * `fromApp/node_modules` is copied to `toApp/node_modules` as hard links (`cp -al`: folders
 * are new, files are shared, symlinks such as `node_modules/.bin/*` stay relative symlinks),
 * and `fromApp`'s lock file, if any, is copied (a real copy; an npm lock gets `toApp`'s
 * `name` and `version`). What belongs to the app inside node_modules is copied for real, not
 * linked: `.package-lock.json` (npm rewrites it in place) and `$app/` (SvelteKit 3's
 * `svelte-kit sync` rewrites it in place for the app's routes; it holds `fromApp`'s until the
 * next sync in `toApp`, which build(), check() and start() run); `.vite` (vite's per-app
 * cache) is left out.
 *
 * Refuses (throws) unless both package.json files have equal `dependencies`,
 * `devDependencies`, `optionalDependencies`, `peerDependencies` and `overrides`, `fromApp`
 * has a `node_modules` and `toApp` has neither a `node_modules` nor that lock file.
 * Files stay shared: do not rebuild or patch packages in either app afterwards (a `npm
 * install <pkg>` or `npm rebuild` in one app can change the other's files).
 * @param {string} fromApp  an installed app
 * @param {string} toApp  an app with the same dependencies, not installed
 * @returns {Promise<RunResult>}  the `cp -al` run (its `durationMs`)
 */
export async function shareInstall(fromApp, toApp) {
	const from = path.resolve(fromApp);
	const to = path.resolve(toApp);
	if (from === to) throw new Error(`shareInstall: ${from} is both the source and the target`);
	const [fromPkg, toPkg] = await Promise.all([readPackageJson(from), readPackageJson(to)]);
	const differences = DEPENDENCY_FIELDS.filter((field) => canonicalJson(fromPkg[field] ?? {}) !== canonicalJson(toPkg[field] ?? {})).map(
		(field) => `${field}: ${canonicalJson(fromPkg[field] ?? {})} in ${from} vs ${canonicalJson(toPkg[field] ?? {})} in ${to}`
	);
	if (differences.length > 0) {
		throw new Error(
			`shareInstall: refusing, the two apps do not have the same dependencies (install ${to} on its own):\n${differences.join('\n')}`
		);
	}
	const source = path.join(from, 'node_modules');
	const target = path.join(to, 'node_modules');
	if (!existsSync(source)) throw new Error(`shareInstall: ${source} is missing: install(${JSON.stringify(from)}) first`);
	if (existsSync(target)) throw new Error(`shareInstall: refusing, ${target} exists already`);
	const locks = LOCK_FILES.filter((name) => existsSync(path.join(from, name)));
	for (const name of locks) {
		if (existsSync(path.join(to, name))) throw new Error(`shareInstall: refusing, ${path.join(to, name)} exists already`);
	}

	const result = await run('cp', ['-al', '--', source, target], { cwd: to, timeout: 120_000 });
	if (result.exitCode !== 0) {
		await fs.rm(target, { recursive: true, force: true });
		throw failure(`cp -al ${source} ${target}`, result);
	}
	await fs.rm(path.join(target, '.vite'), { recursive: true, force: true });
	for (const name of APP_OWNED) {
		const linked = path.join(target, name);
		if (!existsSync(linked)) continue;
		const aside = `${linked}.shared-${process.pid}`;
		await fs.rename(linked, aside);
		await fs.cp(aside, linked, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
		await fs.rm(aside, { recursive: true, force: true });
	}
	for (const name of locks) {
		const text = await fs.readFile(path.join(from, name), 'utf8');
		let out = text;
		if (name.endsWith('.json')) {
			const lock = JSON.parse(text);
			for (const entry of [lock, lock.packages?.['']]) {
				if (!entry || typeof entry !== 'object') continue;
				if ('name' in entry && typeof toPkg.name === 'string') entry.name = toPkg.name;
				if ('version' in entry && typeof toPkg.version === 'string') entry.version = toPkg.version;
			}
			out = JSON.stringify(lock, null, text.includes('\n\t') ? '\t' : 2) + '\n';
		}
		await fs.writeFile(path.join(to, name), out, { flag: 'wx' });
	}
	return result;
}

/**
 * Absolute path of `node_modules/.bin/<name>` for the app, looked up as `npm run` does: in the
 * app's own `node_modules/.bin`, then in each parent folder's (a workspace hoists its packages'
 * bins to the root), stopping below this repository's root, whose own tools must never stand in
 * for an app's missing install (`.demo/app` is inside it). Throws if none has it.
 * @param {string} appDir
 * @param {string} name
 * @returns {string}
 */
export function localBin(appDir, name) {
	for (let dir = path.resolve(appDir); dir !== repoRoot; dir = path.dirname(dir)) {
		const bin = path.join(dir, 'node_modules', '.bin', name);
		if (existsSync(bin)) return bin;
		if (path.dirname(dir) === dir) break;
	}
	throw new Error(`no node_modules/.bin/${name} in ${appDir} or above: install the app's dependencies first (install(appDir))`);
}

/**
 * `vite build` with the app's own vite. Throws (with the output's tail) on failure.
 * @param {string} appDir
 * @param {{ timeout?: number, env?: Record<string, string | undefined>, echo?: boolean }} [options]
 * @returns {Promise<RunResult>}
 */
export async function build(appDir, { timeout = 300_000, env, echo = false } = {}) {
	const result = await timed('builds', appLabel(appDir), () => run(localBin(appDir, 'vite'), ['build'], { cwd: appDir, timeout, env, echo }));
	if (result.exitCode !== 0) throw failure(`vite build in ${appDir}`, result);
	return result;
}

/**
 * @typedef {object} CheckDiagnostic
 * @property {'ERROR' | 'WARNING'} type
 * @property {string} file
 * @property {number} line
 * @property {number} column
 * @property {string} message
 */

/**
 * @typedef {object} CheckResult
 * @property {number} exitCode  svelte-kit sync's if it failed, else svelte-check's
 * @property {string} output  stdout + stderr of both steps
 * @property {number | null} errors  from svelte-check's COMPLETED line (null if there is none)
 * @property {number | null} warnings
 * @property {number | null} files
 * @property {number | null} filesWithProblems
 * @property {CheckDiagnostic[]} diagnostics  the ERROR / WARNING lines, parsed
 */

/**
 * `svelte-kit sync && svelte-check --tsconfig ./tsconfig.json --output machine`.
 * Never throws for type errors: look at `errors` / `diagnostics`. `env` as for run(), for both.
 * @param {string} appDir
 * @param {{ timeout?: number, tsconfig?: string, env?: Record<string, string | undefined> }} [options]
 * @returns {Promise<CheckResult>}
 */
export function check(appDir, options = {}) {
	return timed('checks', appLabel(appDir), () => syncAndCheck(appDir, options));
}

/**
 * {@link check}'s two commands.
 * @param {string} appDir
 * @param {{ timeout?: number, tsconfig?: string, env?: Record<string, string | undefined> }} options
 * @returns {Promise<CheckResult>}
 */
async function syncAndCheck(appDir, { timeout = 300_000, tsconfig = './tsconfig.json', env }) {
	const sync = await run(localBin(appDir, 'svelte-kit'), ['sync'], { cwd: appDir, env, timeout });
	let output = sync.stdout + sync.stderr;
	if (sync.exitCode !== 0) {
		return { exitCode: sync.exitCode, output, errors: null, warnings: null, files: null, filesWithProblems: null, diagnostics: [] };
	}
	const result = await run(
		localBin(appDir, 'svelte-check'),
		['--tsconfig', tsconfig, '--output', 'machine'],
		{ cwd: appDir, env, timeout }
	);
	output += result.stdout + result.stderr;
	return { exitCode: result.exitCode, output, ...parseSvelteCheck(result.stdout) };
}

/**
 * Parse svelte-check's `--output machine` text.
 * @param {string} text
 */
function parseSvelteCheck(text) {
	/** @type {CheckDiagnostic[]} */
	const diagnostics = [];
	/** @type {{ errors: number | null, warnings: number | null, files: number | null, filesWithProblems: number | null }} */
	const counts = { errors: null, warnings: null, files: null, filesWithProblems: null };
	for (const line of text.split('\n')) {
		const diag = /^\d+ (ERROR|WARNING) ("(?:[^"\\]|\\.)*") (\d+):(\d+) ("(?:[^"\\]|\\.)*")/.exec(line);
		if (diag) {
			diagnostics.push({
				type: /** @type {'ERROR' | 'WARNING'} */ (diag[1]),
				file: JSON.parse(/** @type {string} */ (diag[2])),
				line: Number(diag[3]),
				column: Number(diag[4]),
				message: JSON.parse(/** @type {string} */ (diag[5]))
			});
			continue;
		}
		const done = /^\d+ COMPLETED (\d+) FILES (\d+) ERRORS (\d+) WARNINGS(?: (\d+) FILES_WITH_PROBLEMS)?/.exec(line);
		if (done) {
			counts.files = Number(done[1]);
			counts.errors = Number(done[2]);
			counts.warnings = Number(done[3]);
			counts.filesWithProblems = done[4] === undefined ? null : Number(done[4]);
		}
	}
	return { ...counts, diagnostics };
}

/**
 * A TCP port that was free on 127.0.0.1 a moment ago (listen on port 0, read it, close).
 * @returns {Promise<number>}
 */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
		});
	});
}

/**
 * Sets `KEY=value` lines in an app's dotenv file: a line defining the key is replaced (other
 * lines stay as they are), a missing key is appended.
 * @param {string} file
 * @param {Record<string, string>} values
 * @returns {Promise<void>}
 */
export async function setEnv(file, values) {
	let text = await fs.readFile(file, 'utf8');
	for (const [key, value] of Object.entries(values)) {
		const line = new RegExp(`^${key}=.*$`, 'm');
		text = line.test(text) ? text.replace(line, `${key}=${value}`) : `${text.replace(/\n?$/, '\n')}${key}=${value}\n`;
	}
	await fs.writeFile(file, text);
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Poll `url` with GET (redirects not followed, 2 s per request) every 200 ms until any HTTP
 * answer comes back (true), `timeout` ms pass or `until()` returns true (false).
 * @param {string} url
 * @param {{ timeout?: number, until?: () => boolean }} [options]
 * @returns {Promise<boolean>}
 */
export async function waitForHttp(url, { timeout = 60_000, until = () => false } = {}) {
	const deadline = Date.now() + timeout;
	const maxAttempts = Math.ceil(timeout / 200) + 1;
	for (let attempt = 0; attempt < maxAttempts && Date.now() < deadline; attempt++) {
		if (until()) return false;
		try {
			const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
			await response.body?.cancel();
			return true;
		} catch {
			await sleep(200);
		}
	}
	return false;
}

/**
 * Whether the app's vite has `--bypass-lock` (Vite 8.4 refuses a second `vite preview` or `vite
 * dev` of one project without it; tests run two servers of one build, as two server processes of
 * an app would). Older versions, which have no such check, do not know the flag either.
 * @param {string} appDir
 * @returns {Promise<boolean>}
 */
async function bypassesLock(appDir) {
	try {
		const manifest = createRequire(path.join(path.resolve(appDir), 'package.json')).resolve('vite/package.json');
		return (await fs.readFile(path.join(path.dirname(manifest), 'dist', 'node', 'cli.js'), 'utf8')).includes('bypass-lock');
	} catch {
		return false;
	}
}

/**
 * @typedef {object} Server
 * @property {string} url  e.g. `http://127.0.0.1:41234` (no trailing slash)
 * @property {number} port
 * @property {number} pid  the server's process id, also its process group id
 * @property {() => Promise<void>} stop  kill the whole process group and wait for it to exit
 * @property {() => string} output  everything the server printed so far (stdout + stderr)
 * @property {((seconds: number) => Promise<void>) | undefined} advanceClock  moves the server's clock
 *   (`Date.now()`, `new Date()`, `Date()` in its Node) forward by `seconds`, for its next reading;
 *   `undefined` in mode `wrangler`, whose workerd keeps the real clock (see ./clock.js)
 * @property {() => number} now  the server's clock, in milliseconds since the epoch
 */

/**
 * The function each serverless adapter builds (what ./function-host.js serves for `start`'s modes
 * `vercel` and `netlify`), relative to the app.
 */
const FUNCTIONS = { vercel: '.vercel/output/functions/![-]/catchall.func', netlify: '.netlify/functions-internal/sveltekit-render.mjs' };

/**
 * Start the app on 127.0.0.1 and a free port (or `port`): with its own vite (`vite preview`,
 * after build(), or `vite dev`; `--strictPort`), or with `node build` (mode `node`, for an
 * adapter-node build, run by `node` (default: ours); `PORT`, `HOST`, `ORIGIN` and
 * `NODE_ENV=production` are set), or as a serverless platform runs what adapter-vercel or
 * adapter-netlify built (modes `vercel` and `netlify`: ./function-host.js, with `PORT` and `HOST`, on
 * adapter-vercel's catch-all function or adapter-netlify's render function;
 * `env` is then the platform's settings, as the function reads no `.env`), or under `wrangler dev`
 * (mode `wrangler`: what adapter-cloudflare built, in workerd, with the app's local D1 and `.env`
 * as the Worker's secrets). `env` as for run(): vite's `#!/usr/bin/env node` follows its
 * `PATH` (e.g. `(await node22()).env`). The server's Node runs on a test clock
 * (`Server.advanceClock`, ./clock.js) and derives the runtime's production-cost scrypt hashes at
 * a test cost, or, for an app of hashAtProductionCost(), at that cost, counted for the e2e ledger
 * (./scrypt-preload.js), but for mode `wrangler` (workerd: the clock and the cost are real). Resolves
 * once `GET /` gets any HTTP answer (redirects are not followed); rejects, after stopping the
 * server, if it exits first or does not answer within `timeout` (polls every 200 ms).
 * @param {string} appDir
 * @param {{ mode?: 'preview' | 'dev' | 'node' | 'vercel' | 'netlify' | 'wrangler', port?: number, timeout?: number, env?: Record<string, string | undefined>,
 *   nodeArgs?: string[], cpu?: string, node?: string }} [options]  `nodeArgs`: extra node flags (mode `node`);
 *   `node`: the node binary for mode `node` (default: ours, `process.execPath`);
 *   `cpu`: run the server under `taskset -c <cpu>` (taskset execs it, so `pid` stays the server's)
 * @returns {Promise<Server>}
 */
export async function start(appDir, { mode = 'preview', port, timeout = 60_000, env, nodeArgs = [], cpu, node = process.execPath } = {}) {
	installExitHook();
	count('servers');
	count('spawns');
	const chosenPort = port ?? (await freePort());
	const url = `http://127.0.0.1:${chosenPort}`;
	const hosted = mode === 'vercel' || mode === 'netlify';
	const vite = mode === 'node' || mode === 'wrangler' || hosted ? undefined : localBin(appDir, 'vite');
	const server = hosted
		? [node, path.join(repoRoot, 'e2e', 'harness', 'function-host.js'), mode, path.join(appDir, FUNCTIONS[mode])]
		: mode === 'wrangler'
			? [localBin(appDir, 'wrangler'), 'dev', '--ip', '127.0.0.1', '--port', String(chosenPort), '--inspector-port', String(await freePort())]
			: vite === undefined
			? [node, ...nodeArgs, 'build']
			: [vite, mode, '--host', '127.0.0.1', '--port', String(chosenPort), '--strictPort', ...(await bypassesLock(appDir) ? ['--bypass-lock'] : [])];
	const [command, ...args] = cpu === undefined ? server : ['taskset', '-c', cpu, ...server];
	const serverEnv =
		mode === 'node'
			? { ...env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(chosenPort), ORIGIN: url }
			: hosted
				? { ...env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(chosenPort) }
				: mode === 'wrangler'
					? { ...env, CI: '1', WRANGLER_SEND_METRICS: 'false' }
					: env;
	const nodeOptions = serverEnv && 'NODE_OPTIONS' in serverEnv ? serverEnv.NODE_OPTIONS : process.env.NODE_OPTIONS;
	const cost = productionCostApps.has(path.resolve(appDir)) ? { [HASHES_ENV]: hashTally() } : { [TEST_SCRYPT_N_ENV]: String(TEST_SCRYPT_N) };
	const hashes = mode === 'wrangler' ? undefined : { ...cost, NODE_OPTIONS: [nodeOptions, `--import=${SCRYPT_PRELOAD}`].filter(Boolean).join(' ') };
	const clock = mode === 'wrangler' ? undefined : await testClock(hashes?.NODE_OPTIONS);
	const child = spawn(/** @type {string} */ (command), args, {
		cwd: appDir,
		env: cleanEnv({ ...serverEnv, ...hashes, ...clock?.env }),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true
	});
	liveGroups.add(child);
	let output = '';
	child.stdout?.setEncoding('utf8').on('data', (d) => (output += d));
	child.stderr?.setEncoding('utf8').on('data', (d) => (output += d));
	/** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
	let exited = null;
	/** @type {Error | null} */
	let spawnError = null;
	/** Whether GET / was answered: an exit after that, not asked for by stop(), is unexpected. */
	let up = false;
	let stopping = false;
	const exitedPromise = new Promise((resolve) => {
		child.on('error', (error) => {
			spawnError = error;
			exited ??= { code: null, signal: null };
			resolve(undefined);
		});
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			liveGroups.delete(child);
			if (up && !stopping) unexpectedExits.push({ url, exit: exited, output: () => output });
			resolve(undefined);
		});
	});

	const stop = async () => {
		stopping = true;
		if (exited) {
			killGroup(child, 'SIGKILL'); // whatever the leader left behind in its group
			await clock?.remove();
			return;
		}
		killGroup(child, 'SIGTERM');
		const gone = await Promise.race([exitedPromise.then(() => true), sleep(5_000).then(() => false)]);
		if (!gone) {
			killGroup(child, 'SIGKILL');
			await Promise.race([exitedPromise, sleep(2_000)]);
		}
		// vite may leave children (esbuild) in the group: make sure the group is gone.
		killGroup(child, 'SIGKILL');
		liveGroups.delete(child);
		await clock?.remove();
	};

	if (await waitForHttp(`${url}/`, { timeout, until: () => exited !== null })) {
		// It answered, so it was spawned and has a pid.
		up = true;
		return { url, port: chosenPort, pid: /** @type {number} */ (child.pid), stop, output: () => output, advanceClock: clock?.advance, now: clock?.now ?? Date.now };
	}
	await stop();
	const why = spawnError
		? `could not be started: ${/** @type {Error} */ (spawnError).message}`
		: exited
			? `exited early (${JSON.stringify(exited)})`
			: `did not answer GET / within ${timeout} ms`;
	throw new Error(`${[command, ...args].join(' ')} in ${appDir} ${why}\n--- output ---\n${output}`);
}

/**
 * Delete an app folder. Refuses anything that copyFixture() did not create in this process,
 * unless it is a `create-auth-e2e-*` folder directly under os.tmpdir().
 * @param {string} appDir
 * @returns {Promise<void>}
 */
export async function removeApp(appDir) {
	const target = path.resolve(appDir);
	const isOurTemp =
		path.dirname(target) === path.resolve(os.tmpdir()) && path.basename(target).startsWith(TEMP_PREFIX);
	if (!createdApps.has(target) && !isOurTemp) {
		throw new Error(`removeApp: refusing to delete ${target} (not made by copyFixture)`);
	}
	await fs.rm(target, { recursive: true, force: true, maxRetries: 3 });
	createdApps.delete(target);
}
