// @ts-check
/**
 * The demo's native SQLite driver (better-sqlite3) built for the Node that runs the demo. A
 * native addon loads only in the Node ABI it was compiled for (`process.versions.modules`: 115
 * for Node 20, 127 for 22, 137 for 24); one built for another Node fails to load, and the app
 * then answers every sign-up with a 503. It happens when node-gyp compiles against another
 * Node's headers (an npm config `nodedir` left over for another Node) or when the app was
 * installed under another Node. This module finds the running Node's headers, so that installs
 * and rebuilds compile for it, and checks (and repairs) the driver an app has.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { run } from '../e2e/harness/app.js';

const DRIVER = 'better-sqlite3';

/**
 * The folder with the headers of the Node at `node` (the one node-gyp calls `nodedir`: it holds
 * `include/node/common.gypi`), or `undefined` when there is none next to it. Looks beside the
 * binary's real path (`<prefix>/bin/node` → `<prefix>`, as in Node's own tarballs, nvm and
 * Debian's `/usr`) and, for the `node` npm package, in its `node-<platform>-<arch>` package.
 * @param {string} [node]  absolute path of a Node binary; default: the running one
 * @returns {string | undefined}
 */
export function nodeHeaders(node = process.execPath) {
	const prefix = path.dirname(path.dirname(node));
	const arch = `node-${process.platform}-${process.arch}`;
	const candidates = [
		path.dirname(path.dirname(realpathSync(node))),
		prefix,
		path.join(prefix, 'node_modules', arch),
		path.join(path.dirname(prefix), arch)
	];
	return candidates.find((dir) => existsSync(path.join(dir, 'include', 'node', 'common.gypi')));
}

/**
 * The environment for children that install or run an app under the Node at `node`: `PATH` with
 * its bin folder first (npm and `#!/usr/bin/env node` bins such as vite run under it), and
 * `npm_config_nodedir` = its headers when {@link nodeHeaders} finds them (node-gyp then compiles
 * native addons for it, whatever nodedir an npm config names).
 * @param {string} [node]  absolute path of a Node binary; default: the running one
 * @returns {Record<string, string>}
 */
export function nodeEnv(node = process.execPath) {
	const inherited = process.env.PATH ?? '';
	const bin = path.dirname(node);
	/** @type {Record<string, string>} */
	const env = { PATH: inherited ? `${bin}${path.delimiter}${inherited}` : bin };
	const headers = nodeHeaders(node);
	if (headers) env.npm_config_nodedir = headers;
	return env;
}

/**
 * Whether the app's better-sqlite3 opens a database in the Node at `node` (in a child process:
 * a failed load cannot be retried in the same process).
 * @param {string} appDir
 * @param {string} node
 * @returns {{ ok: true } | { ok: false, why: string }}
 */
function driverLoads(appDir, node) {
	const script = `const Database = require(require.resolve(${JSON.stringify(DRIVER)}, { paths: [process.argv[1]] })); new Database(':memory:').close();`;
	try {
		execFileSync(node, ['-e', script, appDir], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000, encoding: 'utf8' });
		return { ok: true };
	} catch (error) {
		const stderr = String(/** @type {{ stderr?: string }} */ (error).stderr ?? '');
		// Node prints the error's message (several lines for an ABI mismatch), then its stack.
		const message = /^\w*Error\b.*(?:\n(?!\s+at ).+)*/m.exec(stderr)?.[0] ?? (stderr.trim() || String(error));
		return { ok: false, why: message.replace(/\s+/g, ' ').trim() };
	}
}

/**
 * @typedef {object} DriverCheck
 * @property {'absent' | 'ok' | 'rebuilt'} status  `absent`: the app has no better-sqlite3 (another
 *   adapter); `ok`: it loads as installed; `rebuilt`: it did not load, `npm rebuild` fixed it
 * @property {string} [why]  for `rebuilt`, the load error seen before the rebuild
 */

/**
 * Makes sure the app's better-sqlite3 loads in the Node at `node`: loads it in a child process
 * and, if that fails (built for another Node's ABI, or not built), runs
 * `npm rebuild better-sqlite3` in the app with `env` (give it {@link nodeEnv}`(node)`, so that
 * npm and node-gyp work for that Node), 10 min limit, then loads it again. The rebuild runs the
 * package's install script, `prebuild-install || node-gyp rebuild`: prebuild-install loads the
 * binary it unpacks and drops it if that Node cannot, so a bad prebuilt binary ends in a compile.
 * @param {string} appDir  an installed app
 * @param {{ node?: string, env?: Record<string, string>, echo?: boolean }} [options]  `node`:
 *   default the running one; `env`: default `nodeEnv(node)`; `echo`: show the rebuild's output
 * @returns {Promise<DriverCheck>}
 * @throws {Error} when it still does not load after the rebuild (or the rebuild failed), with
 *   the command to run by hand in its message
 */
export async function ensureNativeDriver(appDir, { node = process.execPath, env = nodeEnv(node), echo = false } = {}) {
	if (!existsSync(path.join(appDir, 'node_modules', DRIVER, 'package.json'))) return { status: 'absent' };
	const first = driverLoads(appDir, node);
	if (first.ok) return { status: 'ok' };

	const rebuild = await run('npm', ['rebuild', DRIVER], { cwd: appDir, env, timeout: 600_000, echo }).catch(
		(/** @type {Error} */ error) => ({ exitCode: 127, stdout: '', stderr: error.message, timedOut: false, durationMs: 0 })
	);
	const second = driverLoads(appDir, node);
	if (rebuild.exitCode === 0 && second.ok) return { status: 'rebuilt', why: first.why };

	const nodedir = env.npm_config_nodedir;
	const command = `cd ${appDir} && PATH=${path.dirname(node)}:$PATH ${nodedir ? `npm_config_nodedir=${nodedir} ` : ''}npm rebuild ${DRIVER}`;
	const reason =
		rebuild.exitCode === 0 && !second.ok ? second.why : `npm rebuild exited with ${rebuild.exitCode}: ${rebuild.stderr.trim().split('\n').slice(-5).join('\n')}`;
	throw new Error(
		`${DRIVER} in ${appDir} does not load in Node ${nodeVersion(node)} (${first.why}), ` +
			`and rebuilding it did not help (${reason}).\nRun this, with the Node that runs the app first on the PATH` +
			`${nodedir ? '' : ' and node-gyp able to find its headers (npm_config_nodedir=<folder with include/node>)'}:\n  ${command}`
	);
}

/**
 * `node --version` of a binary.
 * @param {string} node
 */
function nodeVersion(node) {
	return node === process.execPath ? process.version : execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 15_000 }).trim();
}
