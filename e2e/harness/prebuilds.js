/**
 * Native addons built once per version and Node ABI, then reused by every later install.
 *
 * better-sqlite3's install script is `prebuild-install || node-gyp rebuild`: prebuild-install
 * fetches a prebuilt binary from GitHub, which this machine cannot reach, so every install
 * compiles it (~60 s on 2 cores). prebuild-install first looks for the binary in a local folder
 * (`npm_config_better_sqlite3_local_prebuilds`), under the file name it would download. After an
 * install, {@link keepPrebuilds} packs the binary the app has into that folder, in that format;
 * the next install of the same version on the same ABI unpacks it instead of compiling. The
 * install itself (npm's, pnpm's, the CLI's) is unchanged: only where the binary comes from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineCacheDir } from './cache.js';

/** `<machine cache>/prebuilds` (./cache.js, outside the clone): kept across runs and clones, keyed by version and ABI. */
export const prebuildsDir = path.join(machineCacheDir, 'prebuilds');

/** The addons kept, by package name: the file prebuild-install unpacks, relative to the package. */
const ADDONS = { 'better-sqlite3': 'build/Release/better_sqlite3.node' };

/**
 * The variables that point prebuild-install at {@link prebuildsDir}; cleanEnv() gives them to
 * every child.
 * @returns {Record<string, string>}
 */
export function prebuildEnv() {
	return Object.fromEntries(Object.keys(ADDONS).map((name) => [`npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_')}_local_prebuilds`, prebuildsDir]));
}

/**
 * The file name prebuild-install looks for: `<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`.
 * @param {string} name
 * @param {string} version
 * @param {string} abi  `process.versions.modules` of the Node that loads it
 */
export function prebuildName(name, version, abi) {
	return `${name}-v${version}-node-v${abi}-${process.platform}-${process.arch}.tar.gz`;
}

/**
 * After an install in `appDir`: packs each native addon the app has in its own node_modules,
 * and the folder lacks for its version and ABI, into {@link prebuildsDir} (written to a temp
 * name, then renamed, so a reader never sees half a file). The ABI is that of the `node` first
 * on `env.PATH`, the Node the install ran its scripts with, and that Node must load the binary:
 * one it cannot load is not kept. Does nothing for an app without the addon or its binary.
 * @param {string} appDir
 * @param {NodeJS.ProcessEnv} env  the install's environment
 * @returns {string[]} the files it wrote (absolute paths)
 */
export function keepPrebuilds(appDir, env) {
	const resolve = createRequire(path.join(appDir, 'package.json')).resolve;
	const ownModules = path.join(realpathSync(appDir), 'node_modules') + path.sep;
	/** @type {string[]} */
	const written = [];
	for (const [name, binary] of Object.entries(ADDONS)) {
		let manifest;
		try {
			manifest = realpathSync(resolve(`${name}/package.json`));
		} catch {
			continue;
		}
		const packageDir = path.dirname(manifest);
		if (!manifest.startsWith(ownModules) || !existsSync(path.join(packageDir, binary))) continue;
		const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
		let abi;
		try {
			abi = execFileSync('node', ['-e', 'require(process.argv[1]); console.log(process.versions.modules)', path.join(packageDir, binary)], {
				env,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore']
			}).trim();
		} catch {
			continue;
		}
		const target = path.join(prebuildsDir, prebuildName(name, version, abi));
		if (existsSync(target)) continue;
		mkdirSync(prebuildsDir, { recursive: true });
		const temp = `${target}.${process.pid}.tmp`;
		execFileSync('tar', ['-czf', temp, '-C', packageDir, binary]);
		renameSync(temp, target);
		written.push(target);
	}
	return written;
}

/** The repository's own root: its node_modules holds addons built by the repository's install. */
const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The `PATH`s {@link seedPrebuilds} has run under in this process. */
const seeded = new Set();

/**
 * Before an install: packs the addons this repository's own install built (better-sqlite3, for
 * its tests) into {@link prebuildsDir}, as {@link keepPrebuilds} does for an app, so that the
 * first app asking for the same version on the same ABI unpacks it instead of compiling it
 * (about a minute on 2 cores, on every fresh machine). Once per `env.PATH` per process; a binary
 * the Node on that PATH cannot load (another ABI) is not kept.
 * @param {NodeJS.ProcessEnv} env  the install's environment
 */
export function seedPrebuilds(env) {
	const key = env.PATH ?? '';
	if (seeded.has(key)) return;
	seeded.add(key);
	keepPrebuilds(repoRoot, env);
}

