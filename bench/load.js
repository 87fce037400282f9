// @ts-check
/**
 * The load generator, run as its own process (pinned to the core the server does not use):
 * `node bench/load.js '<json LoadOptions>'` prints one JSON {@link LoadResult} on stdout.
 * A warm-up run (discarded), then the measured run; the server's CPU time is read from /proc
 * right before and right after the measured run, its RSS right after.
 */
import autocannon from 'autocannon';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../e2e/harness/app.js';
import { cpuMicros, rssMiB } from './measure.js';
import { pinned } from './server.js';

/**
 * @typedef {object} LoadOptions
 * @property {string} url  full URL to GET
 * @property {Record<string, string>} headers
 * @property {number} connections
 * @property {number} warmup  seconds, discarded (0: none)
 * @property {number} duration  seconds, measured
 * @property {number} pid  the server process, for /proc readings
 */

/**
 * @typedef {object} LoadResult
 * @property {number} requests  responses completed in the measured run
 * @property {number} seconds  its actual length
 * @property {number} rps  requests / seconds
 * @property {number} p50  latency in ms
 * @property {number} p99
 * @property {number} cpuUsPerRequest  server user+system CPU over the measured run ÷ requests
 * @property {number} rssMiB  server VmRSS right after
 * @property {Record<string, number>} statusCodes  of the measured run
 * @property {number} errors  connection errors + timeouts
 */

/**
 * Run this file in a child process (pinned to `core` if given) and parse its answer.
 * @param {LoadOptions} options
 * @param {string | undefined} core
 * @returns {Promise<LoadResult>}
 */
export async function load(options, core) {
	const [command, args] = pinned(core, [fileURLToPath(import.meta.url), JSON.stringify(options)]);
	const timeout = (options.warmup + options.duration + 60) * 1000;
	const result = await run(command, args, { cwd: path.dirname(fileURLToPath(import.meta.url)), timeout });
	if (result.exitCode !== 0) throw new Error(`load ${options.url} failed (exit ${result.exitCode}):\n${result.stderr}`);
	return JSON.parse(result.stdout);
}

/**
 * @param {LoadOptions} options
 * @returns {Promise<LoadResult>}
 */
async function measure({ url, headers, connections, warmup, duration, pid }) {
	/** @param {number} seconds */
	const cannon = (seconds) => autocannon({ url, headers, connections, duration: seconds });
	if (warmup > 0) await cannon(warmup);
	const cpuBefore = cpuMicros(pid);
	const result = await cannon(duration);
	const cpu = cpuMicros(pid) - cpuBefore;
	const requests = result.requests.total;
	/** @type {Record<string, number>} */
	const statusCodes = {};
	for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
	return {
		requests,
		seconds: result.duration,
		rps: requests / result.duration,
		p50: result.latency.p50,
		p99: result.latency.p99,
		cpuUsPerRequest: requests > 0 ? cpu / requests : Number.NaN,
		rssMiB: rssMiB(pid),
		statusCodes,
		errors: result.errors + result.timeouts
	};
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const options = /** @type {LoadOptions} */ (JSON.parse(/** @type {string} */ (process.argv[2])));
	process.stdout.write(`${JSON.stringify(await measure(options))}\n`);
}
