// @ts-check
/**
 * Serve a built app with `node build` (adapter-node) on 127.0.0.1, pinned to one core with
 * `taskset` where the machine allows, in its own process group that is killed on our exit.
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { cleanEnv, freePort, waitForHttp } from '../e2e/harness/app.js';
import { status } from './measure.js';

/**
 * Core for the server and core for the load generator, or null when they cannot be pinned
 * (fewer than two cores, no `taskset`, or sched_setaffinity refused).
 * @returns {{ server: string, load: string } | null}
 */
export function cores() {
	if (os.availableParallelism() < 2) return null;
	const probe = spawnSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' });
	return probe.status === 0 ? { server: '0', load: '1' } : null;
}

/**
 * `[taskset -c <core>] <node> …args`
 * @param {string | undefined} core
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function pinned(core, args) {
	return core === undefined ? [process.execPath, args] : ['taskset', ['-c', core, process.execPath, ...args]];
}

/** @type {Set<number>} process groups of servers still running */
const live = new Set();
process.on('exit', () => {
	for (const pid of live) kill(pid, 'SIGKILL');
});

/**
 * @param {number} pid
 * @param {NodeJS.Signals} signal
 */
function kill(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		/* already gone */
	}
}

/**
 * @typedef {object} NodeServer
 * @property {string} url  `http://127.0.0.1:<port>`
 * @property {number} pid  the node process (taskset execs it, so it is also the group leader)
 * @property {string} cpus  its Cpus_allowed_list, e.g. `0`
 * @property {() => string} output
 * @property {() => Promise<void>} stop  SIGTERM (adapter-node exits cleanly, so `--cpu-prof`
 *   writes its profile), SIGKILL after 10 s
 */

/**
 * @param {import('./apps.js').App} app
 * @param {{ core?: string, nodeArgs?: string[] }} [options]
 * @returns {Promise<NodeServer>}
 */
export async function startServer(app, { core, nodeArgs = [] } = {}) {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const [command, args] = pinned(core, [...nodeArgs, 'build']);
	const child = spawn(command, args, {
		cwd: app.dir,
		env: cleanEnv({ ...app.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ORIGIN: url }),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true
	});
	const pid = child.pid;
	if (pid === undefined) throw new Error(`cannot start node build in ${app.dir}`);
	live.add(pid);
	let output = '';
	child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
	child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
	let exited = false;
	const exitedPromise = new Promise((resolve) => child.on('exit', () => resolve((exited = true))));

	const stop = async () => {
		if (!exited) {
			kill(pid, 'SIGTERM');
			const timer = setTimeout(() => kill(pid, 'SIGKILL'), 10_000);
			await exitedPromise;
			clearTimeout(timer);
		}
		kill(pid, 'SIGKILL');
		live.delete(pid);
	};

	if (!(await waitForHttp(`${url}/public`, { timeout: 30_000, until: () => exited }))) {
		await stop();
		throw new Error(`node build in ${app.dir} did not answer on ${url}\n--- output ---\n${output}`);
	}
	return { url, pid, cpus: status(pid, 'Cpus_allowed_list'), output: () => output, stop };
}
