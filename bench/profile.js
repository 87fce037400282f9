// @ts-check
/**
 * CPU profile of one app under load: `node --cpu-prof build`, the same load as a bench row,
 * then the functions with the most self time (V8 samples summed by function).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from './load.js';
import { startServer } from './server.js';

/**
 * @typedef {object} ProfileEntry
 * @property {string} fn  function name, `(anonymous)` or V8's `(garbage collector)`, `(program)`, …
 * @property {string} where  `file:line` (paths shortened to what follows node_modules/ or the app)
 * @property {number} percent  of all non-idle samples
 */

/**
 * Self time by function of a `.cpuprofile` (Chrome DevTools format), highest first.
 * @param {{ nodes: { callFrame: { functionName: string, url: string, lineNumber: number }, hitCount?: number }[] }} profile
 * @param {string} appDir  stripped from file paths
 * @param {number} top
 * @returns {ProfileEntry[]}
 */
export function selfTime(profile, appDir, top) {
	/** @type {Map<string, { fn: string, where: string, hits: number }>} */
	const byFunction = new Map();
	let total = 0;
	for (const { callFrame, hitCount = 0 } of profile.nodes) {
		if (callFrame.functionName === '(idle)') continue;
		total += hitCount;
		const file = callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(`${appDir}/`, '');
		const where = file ? `${file}:${callFrame.lineNumber + 1}` : '';
		const fn = callFrame.functionName || '(anonymous)';
		const key = `${fn} ${where}`;
		const entry = byFunction.get(key) ?? { fn, where, hits: 0 };
		entry.hits += hitCount;
		byFunction.set(key, entry);
	}
	return [...byFunction.values()]
		.sort((a, b) => b.hits - a.hits)
		.slice(0, top)
		.map(({ fn, where, hits }) => ({ fn, where, percent: total ? (100 * hits) / total : 0 }));
}

/**
 * Serve `app` with `--cpu-prof`, load `page` as a bench row does, stop, summarize.
 * @param {import('./apps.js').App} app
 * @param {string} page
 * @param {Record<string, string>} headers
 * @param {{ cores: { server: string, load: string } | null, connections: number, warmup: number, duration: number, top: number }} options
 */
export async function profile(app, page, headers, { cores, connections, warmup, duration, top }) {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-bench-prof-'));
	try {
		const server = await startServer(app, { core: cores?.server, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] });
		try {
			await load({ url: `${server.url}${page}`, headers, connections, warmup, duration, pid: server.pid }, cores?.load);
		} finally {
			await server.stop();
		}
		const [file] = (await fs.readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
		if (!file) throw new Error(`no .cpuprofile written in ${dir}; server output:\n${server.output()}`);
		return selfTime(JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')), app.dir, top);
	} finally {
		await fs.rm(dir, { recursive: true, force: true });
	}
}
