import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { PackageManager } from './workspace.js';

/**
 * What it takes to know a native driver works, beyond `require`: better-sqlite3 loads its addon
 * only when a database opens, so an in-memory one is opened and asked one query. An expression
 * on `driver`, the loaded module. A driver not listed here is only required.
 */
const OPEN: Record<string, string> = {
	'better-sqlite3': "new driver(':memory:').prepare('select 1').get()"
};

/** Milliseconds a driver gets to load before it counts as failed. */
const LOAD_TIMEOUT_MS = 30_000;

/** Why a driver did not load, as {@link loadDriver} found out. */
export interface DriverFailure {
	name: string;
	/** The Node that tried: `process.version` of the `node` on the app's PATH (`v22.21.0`), when it ran. */
	node?: string;
	/** That Node's binary (`process.execPath`), when it ran. */
	nodePath?: string;
	/**
	 * An addon built for another Node (Node's own "compiled against a different Node.js version"
	 * error): the `NODE_MODULE_VERSION` it was built for and the one this Node needs, and the
	 * Node major the first one belongs to (`20`), when known.
	 */
	abi?: { builtFor: number; needs: number; builtForNode?: string };
	/** The first line of the error, or how the process ended (a signal: the addon crashed it). */
	reason: string;
}

/**
 * Loads (and for a native driver, opens: {@link OPEN}) the npm package `name` as the app's server
 * would: in a child process of the `node` on the PATH, in the app's folder, resolved from it. A
 * child, so that an addon that crashes its process (a segmentation fault) ends the child only.
 *
 * @param root the app's folder (absolute)
 * @param env the child's environment (default: this process's)
 * @returns undefined when it loads; else why not ({@link DriverFailure}). Never throws.
 */
export async function loadDriver(root: string, name: string, env: NodeJS.ProcessEnv = process.env): Promise<DriverFailure | undefined> {
	const { execa } = await import('execa');
	const script = [
		"const { createRequire } = require('node:module');",
		"const driver = createRequire(require('node:path').join(process.cwd(), 'package.json'))(process.argv[1]);",
		OPEN[name] ? `${OPEN[name]};` : ''
	].join('\n');
	const result = await execa('node', ['-e', script, name], { cwd: root, env, extendEnv: false, reject: false, timeout: LOAD_TIMEOUT_MS, stdin: 'ignore' });
	if (result.exitCode === 0 && !result.signal) return undefined;
	if (result.code === 'ENOENT') return { name, reason: 'no node is on the PATH' };
	const { node, nodePath } = await nodeFacts(root, env);
	if (result.signal || result.timedOut) return { name, node, nodePath, reason: result.timedOut ? `it did not load within ${LOAD_TIMEOUT_MS / 1000} s` : `loading it crashed Node (${result.signal})` };
	const stderr = String(result.stderr);
	const abi = /NODE_MODULE_VERSION (\d+)\.\s*This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(stderr);
	const reason = /^\w*Error[^\n]*/m.exec(stderr)?.[0] ?? stderr.trim().split('\n').at(-1) ?? `node exited with ${result.exitCode}`;
	if (!abi) return { name, node, nodePath, reason };
	const builtFor = Number(abi[1]);
	return { name, node, nodePath, reason, abi: { builtFor, needs: Number(abi[2]), builtForNode: await nodeMajorOfAbi(builtFor) } };
}

/** `process.version` and `process.execPath` of the `node` on the PATH in `root`; neither when it does not run. */
async function nodeFacts(root: string, env: NodeJS.ProcessEnv): Promise<{ node?: string; nodePath?: string }> {
	const { execa } = await import('execa');
	const result = await execa('node', ['-p', 'process.version + "\\n" + process.execPath'], { cwd: root, env, extendEnv: false, reject: false, timeout: LOAD_TIMEOUT_MS });
	if (result.exitCode !== 0) return {};
	const [node, nodePath] = result.stdout.trim().split('\n');
	return { node, nodePath };
}

/** The Node major (`'20'`) whose addons have `NODE_MODULE_VERSION` `abi`, from `node-abi`'s table; undefined when it does not know it. */
async function nodeMajorOfAbi(abi: number): Promise<string | undefined> {
	const { getTarget } = (await import('node-abi')).default;
	try {
		return getTarget(String(abi), 'node').split('.')[0];
	} catch {
		return undefined;
	}
}

/**
 * The Node major of the headers node-gyp builds against when npm's `nodedir` setting names a
 * folder (read from its `include/node/node_version.h`); undefined when it is unset or unreadable.
 * A `nodedir` of another Node's headers builds every native addon for that Node, whichever Node
 * runs the install: the cause of an ABI mismatch that `npm rebuild` alone would repeat.
 */
export async function nodedirMajor(nodedir: string | undefined): Promise<string | undefined> {
	if (!nodedir) return undefined;
	const header = await readFile(path.join(nodedir, 'include', 'node', 'node_version.h'), 'utf8').catch(() => '');
	return /#define NODE_MAJOR_VERSION (\d+)/.exec(header)?.[1];
}

/**
 * The command that builds a package's native addon again: pnpm's own for its symlinked store;
 * `npm rebuild` for the flat `node_modules` that npm, Yarn (whose 1.x has no rebuild) and Bun make.
 */
export const rebuildCommand = (manager: PackageManager, name: string): string => `${manager === 'pnpm' ? 'pnpm' : 'npm'} rebuild ${name}`;

/**
 * npm's `nodedir` setting as {@link checkDriver} found it: the folder, the Node major of its
 * headers, and, when that is not the running Node's, the running Node's own headers where they
 * are found ({@link ownHeaders}).
 */
export interface NodedirSetting {
	dir: string;
	major: string;
	own?: string;
}

/**
 * A failure as one sentence and the step that fixes it: for an addon built for another Node, the
 * Node it was built for, and the rebuild command (run with the Node that runs the app); when
 * npm's `nodedir` names another Node's headers, that setting first, with the rebuild pointed at
 * this Node's own headers when they were found.
 */
export function describeDriverFailure(failure: DriverFailure, manager: PackageManager, nodedir?: NodedirSetting): { message: string; hint: string } {
	const under = failure.node ? ` under Node ${failure.node}` : '';
	const rebuild = rebuildCommand(manager, failure.name);
	if (!failure.abi) {
		return {
			message: `${failure.name} cannot load${under}: ${failure.reason.replace(/\.+$/, '')}. The auth runtime needs it for every sign-in and session.`,
			hint: `Run ${rebuild} with the Node that runs the app; if it still fails, reinstall the dependencies (delete node_modules and install again).`
		};
	}
	const { builtFor, needs, builtForNode } = failure.abi;
	const built = builtForNode ? `Node ${builtForNode} (NODE_MODULE_VERSION ${builtFor})` : `NODE_MODULE_VERSION ${builtFor}`;
	const runningMajor = failure.node?.slice(1).split('.')[0];
	const message = `${failure.name} cannot load${under}: it was built for ${built}, and this Node needs NODE_MODULE_VERSION ${needs}. Every sign-in and session read would fail.`;
	const orOlder = builtForNode ? `, or run the app with Node ${builtForNode}` : '';
	if (!nodedir || nodedir.major === runningMajor) return { message, hint: `Run ${rebuild} with the Node that runs the app${orOlder}.` };
	const setting = `npm's nodedir setting (${nodedir.dir}) has Node ${nodedir.major}'s headers, so node-gyp builds addons for Node ${nodedir.major}`;
	return {
		message,
		hint: nodedir.own
			? `${setting}: run npm_config_nodedir=${nodedir.own} ${rebuild} (this Node's own headers) with the Node that runs the app${orOlder}; to stop it happening again, npm config delete nodedir.`
			: `${setting}: point it at this Node's headers or remove it (npm config delete nodedir), then run ${rebuild} with the Node that runs the app${orOlder}.`
	};
}

/**
 * Whether the app's native driver `name` loads under the Node that runs the app
 * ({@link loadDriver}); when it does not, the sentence and the fix ({@link describeDriverFailure}),
 * with npm's `nodedir` looked up for an addon built for another Node. After an install and in
 * `doctor`.
 *
 * @param root the app's folder (absolute)
 * @param manager the package manager the app installs with (the fix names it)
 * @returns undefined when it loads. Never throws.
 */
export async function checkDriver(root: string, name: string, manager: PackageManager, env: NodeJS.ProcessEnv = process.env): Promise<{ message: string; hint: string } | undefined> {
	const failure = await loadDriver(root, name, env);
	if (!failure) return undefined;
	if (!failure.abi) return describeDriverFailure(failure, manager);
	const { execa } = await import('execa');
	const configured = await execa('npm', ['config', 'get', 'nodedir'], { cwd: root, env, extendEnv: false, reject: false, timeout: LOAD_TIMEOUT_MS });
	const dir = configured.exitCode === 0 ? configured.stdout.trim() : '';
	const major = dir && dir !== 'undefined' && dir !== 'null' ? await nodedirMajor(dir) : undefined;
	if (!major) return describeDriverFailure(failure, manager);
	const running = failure.node?.slice(1).split('.')[0];
	const own = major !== running && running && failure.nodePath ? await ownHeaders(failure.nodePath, running) : undefined;
	return describeDriverFailure(failure, manager, { dir, major, ...(own ? { own } : {}) });
}

/**
 * The headers of the Node at `nodePath` (major `major`), for node-gyp's `nodedir`: the folder
 * above its binary's `bin/` (Node's tarballs, nvm, Debian's `/usr`), or, for the `node` npm
 * package, its `node-<platform>-<arch>` package there; undefined when neither holds headers of
 * that major.
 */
async function ownHeaders(nodePath: string, major: string): Promise<string | undefined> {
	const prefix = path.dirname(path.dirname(await realpath(nodePath).catch(() => nodePath)));
	const candidates = [prefix, path.join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`)];
	for (const candidate of candidates) if ((await nodedirMajor(candidate)) === major) return candidate;
	return undefined;
}
