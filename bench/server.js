// @ts-check
/**
 * Serve a built app with `node build` (adapter-node) on 127.0.0.1 through the e2e harness,
 * pinned to one core with `taskset` where the machine allows.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { start } from '../e2e/harness/app.js';
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

/**
 * @typedef {import('../e2e/harness/app.js').Server & { cpus: string }} NodeServer
 * `cpus`: the server's Cpus_allowed_list as the kernel reports it, e.g. `0`
 */

/**
 * Serves `app` with `node build` (its kit's Node), pinned to `core` when given, on `app.port`
 * when it has one (else a free port).
 * @param {import('./apps.js').App} app
 * @param {{ core?: string, nodeArgs?: string[] }} [options]
 * @returns {Promise<NodeServer>}
 */
export async function startServer(app, { core, nodeArgs = [] } = {}) {
	const server = await start(app.dir, { mode: 'node', env: app.env, nodeArgs, cpu: core, port: app.port, timeout: 30_000, node: app.node });
	return { ...server, cpus: status(server.pid, 'Cpus_allowed_list') };
}
