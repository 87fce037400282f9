// @ts-check
/**
 * Node 22 for apps that need it (SvelteKit 3 wants Node >= 22.17), taken from the `node@22`
 * npm package (the npm registry is the only source this machine can reach) and kept in
 * `<repoRoot>/.cache/node22`. Plain ESM + JSDoc, like `app.js`.
 *
 * Every child that works for a Node 22 app (npm, npx, vite, svelte-check, the app's own node)
 * gets `env` from node22(): `PATH` with the Node 22 bin folder first, so that `#!/usr/bin/env node`
 * scripts (npm included) run under Node 22; and `npm_config_nodedir`, the `node-<platform>-<arch>`
 * package that ships Node 22's headers, so that node-gyp builds native addons (better-sqlite3)
 * for Node 22 instead of for the Node whose headers a user config like `nodedir=/usr` points to.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, run } from './app.js';

/** Where node22() installs the `node@22` package. */
export const node22Dir = path.join(repoRoot, '.cache', 'node22');

/** The lowest Node 22 that SvelteKit 3 accepts. */
const MINIMUM = /** @type {const} */ ([22, 17]);

/**
 * @typedef {object} NodeToolchain
 * @property {string} node  absolute path of the Node 22 binary
 * @property {string} version  its `node -v`, e.g. `'v22.23.3'`
 * @property {string} nodedir  the package folder with `include/node/common.gypi` (node-gyp's `nodedir`)
 * @property {Record<string, string>} env  for `run()`, `install()`, `build()`, `check()`, `start()`:
 *   `PATH` (the Node 22 bin folder, then our `PATH`) and `npm_config_nodedir`
 */

/** @type {Promise<NodeToolchain> | undefined} */
let memo;

/**
 * Make sure Node 22 from the `node@22` npm package is installed in `.cache/node22` (installed
 * once, with `npm install --prefix`; reused while its binary runs and is >= 22.17) and describe
 * it. Memoized within the process (a failure is not remembered, the next call tries again).
 * Throws if the install fails or the binary found is not Node >= 22.17.
 * @returns {Promise<NodeToolchain>}
 */
export function node22() {
	memo ??= setup().catch((error) => {
		memo = undefined;
		throw error;
	});
	return memo;
}

/** @returns {Promise<NodeToolchain>} */
async function setup() {
	const existing = await inspect(node22Dir);
	if (existing.ok) return existing.toolchain;

	// Install into a fresh sibling folder, then move it into place: an interrupted install never
	// looks like a good one, and two processes installing at once do not write into each other.
	await fs.mkdir(path.dirname(node22Dir), { recursive: true });
	const staging = await fs.mkdtemp(`${node22Dir}.tmp-`);
	try {
		await fs.chmod(staging, 0o755); // mkdtemp makes it 0700; it becomes .cache/node22
		await fs.writeFile(
			path.join(staging, 'package.json'),
			JSON.stringify({ name: 'create-auth-node22', private: true, description: 'cache: Node 22 for e2e apps (e2e/harness/node.js)' }, null, '\t') + '\n'
		);
		const result = await run('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', 'node@22'], {
			cwd: staging,
			timeout: 300_000
		});
		if (result.exitCode !== 0) {
			const tail = (/** @type {string} */ s) => s.split('\n').slice(-30).join('\n');
			throw new Error(
				`npm install node@22 in ${staging} failed (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''})\n` +
					`--- stdout (tail) ---\n${tail(result.stdout)}\n--- stderr (tail) ---\n${tail(result.stderr)}`
			);
		}
		const installed = await inspect(staging);
		if (!installed.ok) throw new Error(`npm install node@22 in ${staging} succeeded, but ${installed.why}`);

		// Replace a broken or outdated cache; if another process got there first, use its copy.
		if (existsSync(node22Dir) && !(await inspect(node22Dir)).ok) {
			await fs.rm(node22Dir, { recursive: true, force: true });
		}
		try {
			await fs.rename(staging, node22Dir);
		} catch (error) {
			const code = /** @type {NodeJS.ErrnoException} */ (error).code;
			if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
		}
	} finally {
		await fs.rm(staging, { recursive: true, force: true });
	}
	const final = await inspect(node22Dir);
	if (!final.ok) throw new Error(`Node 22 in ${node22Dir}: ${final.why}`);
	return final.toolchain;
}

/**
 * Look for a working Node >= 22.17 and its headers in an install of `node@22` under `dir`.
 * @param {string} dir  the `--prefix` folder (it holds `node_modules/node`)
 * @returns {Promise<{ ok: true, toolchain: NodeToolchain } | { ok: false, why: string }>}
 */
async function inspect(dir) {
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
	if (major !== MINIMUM[0] || minor < MINIMUM[1]) {
		return { ok: false, why: `${node} is ${version}, not Node ${MINIMUM[0]} >= ${MINIMUM.join('.')}` };
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
