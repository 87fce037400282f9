// @ts-check
/**
 * Node 20, 22 and 24 from npm, for apps and checks that need a Node other than the one running
 * (SvelteKit 3 wants Node >= 22.17; CI runs the whole suite under 24 and what depends on the
 * Node version under 20 and 22: scripts/ci-node.js). Each
 * major comes from the `node@<major>` npm package (the npm registry is the only source this
 * machine can reach) and is kept in `<machine cache>/node<major>` (./cache.js, outside the clone). Plain ESM + JSDoc, like
 * `app.js`.
 *
 * Every child that works for such an app (npm, npx, vite, svelte-check, the app's own node)
 * gets `env` from the toolchain: `PATH` with that Node's bin folder first, so that
 * `#!/usr/bin/env node` scripts (npm included) run under it; and `npm_config_nodedir`, the
 * `node-<platform>-<arch>` package that ships its headers, so that node-gyp builds native addons
 * (better-sqlite3) for it instead of for the Node whose headers a user config like
 * `nodedir=/usr` points to.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from './app.js';
import { machineCacheDir } from './cache.js';
import { uncounted } from './ledger.js';

/**
 * The lowest version accepted for each major nodeToolchain() installs: 20.19, create-auth's
 * `engines`; 22.17, what SvelteKit 3 needs; any 24.
 * @type {Readonly<Record<number, readonly [number, number]>>}
 */
const MINIMUM = { 20: [20, 19], 22: [22, 17], 24: [24, 0] };

/** The majors nodeToolchain() can install. */
export const NODE_MAJORS = /** @type {readonly number[]} */ (Object.keys(MINIMUM).map(Number));

/**
 * Where nodeToolchain(major) installs the `node@<major>` package: `<machine cache>/node<major>`.
 * @param {number} major
 */
export function nodeDir(major) {
	return path.join(machineCacheDir, `node${major}`);
}

/** Where node22() installs the `node@22` package. */
export const node22Dir = nodeDir(22);

/**
 * @typedef {object} NodeToolchain
 * @property {string} node  absolute path of the Node binary
 * @property {string} version  its `node -v`, e.g. `'v22.23.3'`
 * @property {string} nodedir  the package folder with `include/node/common.gypi` (node-gyp's `nodedir`)
 * @property {Record<string, string>} env  for `run()`, `install()`, `build()`, `check()`, `start()`:
 *   `PATH` (that Node's bin folder, then our `PATH`) and `npm_config_nodedir`
 */

/** @type {Map<number, Promise<NodeToolchain>>} */
const memo = new Map();

/**
 * Make sure Node `major` from the `node@<major>` npm package is installed in
 * `<machine cache>/node<major>` (installed once, with `npm install --prefix`; reused while its binary
 * runs and is at least the minimum: 20.19 for 20, 22.17 for 22, 24.0 for 24) and describe it. Memoized
 * per major within the process (a failure is not remembered, the next call tries again).
 * Throws for a major other than 20, 22 or 24, if the install fails (5 min limit) or if the binary
 * found is not that major at its minimum.
 * @param {number} major  20, 22 or 24
 * @returns {Promise<NodeToolchain>}
 */
export function nodeToolchain(major) {
	const minimum = MINIMUM[major];
	if (!minimum) return Promise.reject(new Error(`nodeToolchain: Node ${major} is not one of ${NODE_MAJORS.join(', ')}`));
	let pending = memo.get(major);
	if (!pending) {
		pending = uncounted(() => setup(major, minimum)).catch((error) => {
			memo.delete(major);
			throw error;
		});
		memo.set(major, pending);
	}
	return pending;
}

/**
 * Node 22 (>= 22.17, what SvelteKit 3 needs): `nodeToolchain(22)`.
 * @returns {Promise<NodeToolchain>}
 */
export function node22() {
	return nodeToolchain(22);
}

/**
 * @param {number} major
 * @param {readonly [number, number]} minimum
 * @returns {Promise<NodeToolchain>}
 */
async function setup(major, minimum) {
	const dir = nodeDir(major);
	const existing = await inspect(dir, minimum);
	if (existing.ok) return existing.toolchain;

	// Install into a fresh sibling folder, then move it into place: an interrupted install never
	// looks like a good one, and two processes installing at once do not write into each other.
	await fs.mkdir(path.dirname(dir), { recursive: true });
	const staging = await fs.mkdtemp(`${dir}.tmp-`);
	try {
		await fs.chmod(staging, 0o755); // mkdtemp makes it 0700; it becomes node<major>
		await fs.writeFile(
			path.join(staging, 'package.json'),
			JSON.stringify(
				{ name: `create-auth-node${major}`, private: true, description: `cache: Node ${major} from npm (e2e/harness/node.js)` },
				null,
				'\t'
			) + '\n'
		);
		const spec = `node@${major}`;
		const result = await run('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', spec], {
			cwd: staging,
			timeout: 300_000
		});
		if (result.exitCode !== 0) {
			const tail = (/** @type {string} */ s) => s.split('\n').slice(-30).join('\n');
			throw new Error(
				`npm install ${spec} in ${staging} failed (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''})\n` +
					`--- stdout (tail) ---\n${tail(result.stdout)}\n--- stderr (tail) ---\n${tail(result.stderr)}`
			);
		}
		const installed = await inspect(staging, minimum);
		if (!installed.ok) throw new Error(`npm install ${spec} in ${staging} succeeded, but ${installed.why}`);

		// Replace a broken or outdated cache; if another process got there first, use its copy.
		if (existsSync(dir) && !(await inspect(dir, minimum)).ok) {
			await fs.rm(dir, { recursive: true, force: true });
		}
		try {
			await fs.rename(staging, dir);
		} catch (error) {
			const code = /** @type {NodeJS.ErrnoException} */ (error).code;
			if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
		}
	} finally {
		await fs.rm(staging, { recursive: true, force: true });
	}
	const final = await inspect(dir, minimum);
	if (!final.ok) throw new Error(`Node ${major} in ${dir}: ${final.why}`);
	return final.toolchain;
}

/**
 * Look for a working Node of `minimum`'s major, at least `minimum`, and its headers in an
 * install of `node@<major>` under `dir`.
 * @param {string} dir  the `--prefix` folder (it holds `node_modules/node`)
 * @param {readonly [number, number]} minimum  `[major, minor]`
 * @returns {Promise<{ ok: true, toolchain: NodeToolchain } | { ok: false, why: string }>}
 */
async function inspect(dir, minimum) {
	const pkg = path.join(dir, 'node_modules', 'node');
	// The node package's preinstall links the arch package's binary to bin/node.
	const archName = `node-${process.platform}-${process.arch}`;
	const archCandidates = [path.join(pkg, 'node_modules', archName), path.join(dir, 'node_modules', archName)];
	const nodedir = archCandidates.find((candidate) => existsSync(path.join(candidate, 'include', 'node', 'common.gypi')));
	if (!nodedir) return { ok: false, why: `no ${archName} package with include/node/common.gypi under ${dir}` };
	const node = [path.join(pkg, 'bin', 'node'), path.join(nodedir, 'bin', 'node')].find((candidate) => existsSync(candidate));
	if (!node) return { ok: false, why: `no node binary in ${pkg}/bin or ${nodedir}/bin` };

	/** @type {import('./app.js').RunResult} */
	let result;
	try {
		result = await run(node, ['--version'], { cwd: dir, timeout: 15_000 });
	} catch (error) {
		return { ok: false, why: `${node} cannot be run: ${/** @type {Error} */ (error).message}` };
	}
	const version = result.stdout.trim();
	const match = /^v(\d+)\.(\d+)\.(\d+)$/.exec(version);
	if (result.exitCode !== 0 || !match) {
		return { ok: false, why: `${node} --version gave exit ${result.exitCode}: ${JSON.stringify(version + result.stderr)}` };
	}
	const [major, minor] = [Number(match[1]), Number(match[2])];
	if (major !== minimum[0] || minor < minimum[1]) {
		return { ok: false, why: `${node} is ${version}, not Node ${minimum[0]} >= ${minimum.join('.')}` };
	}
	const binDir = path.dirname(node);
	const inheritedPath = process.env.PATH ?? '';
	return {
		ok: true,
		toolchain: {
			node,
			version,
			nodedir,
			env: {
				PATH: inheritedPath ? `${binDir}${path.delimiter}${inheritedPath}` : binDir,
				npm_config_nodedir: nodedir
			}
		}
	};
}
