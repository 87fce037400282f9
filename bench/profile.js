// @ts-check
/**
 * CPU profile of one app under load: `node --cpu-prof build`, the same load as a bench row,
 * then where the main thread's samples went. (Work on libuv's thread pool, e.g. WebCrypto
 * jobs, is not sampled: it shows in the rows' CPU µs/req, not here.)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from './load.js';
import { startServer } from './server.js';

/**
 * @typedef {object} ProfileEntry
 * @property {string} name  `function file:line`, or a file / package
 * @property {number} percent  of all non-idle samples
 */

/**
 * @typedef {object} ProfileSummary
 * @property {ProfileEntry[]} self  self time by function
 * @property {ProfileEntry[]} inclusive  time with the function on the stack (each sample once),
 *   for functions outside Node's own `node:` modules
 * @property {ProfileEntry[]} files  self time by file (package name for node_modules)
 */

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, hitCount?: number, children?: number[] }} ProfileNode
 */

/**
 * Summarize a `.cpuprofile` (Chrome DevTools format).
 * @param {{ nodes: ProfileNode[] }} profile
 * @param {string} appDir  stripped from file paths
 * @param {number} top  entries per list
 * @returns {ProfileSummary}
 */
export function summarize(profile, appDir, top) {
	/** @param {string} url */
	const file = (url) => url.replace(/^file:\/\//, '').replace(`${appDir}/`, '').replace(/^(.*\/)?node_modules\//, '');
	/** @param {ProfileNode} node */
	const fnName = ({ callFrame: f }) => `${f.functionName || '(anonymous)'}${f.url ? ` ${file(f.url)}:${f.lineNumber + 1}` : ''}`;
	/** @param {string} url */
	const fileName = (url) => {
		const f = file(url);
		const pkg = /^(@[^/]+\/[^/]+|[^/]+)\//.exec(url.includes('/node_modules/') ? f : '');
		return pkg ? /** @type {string} */ (pkg[1]) : f || '(native / V8)';
	};

	/** @type {Map<number, ProfileNode>} */
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	/** @type {Map<number, number>} */
	const parent = new Map();
	for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

	/** @type {Record<'self' | 'inclusive' | 'files', Map<string, number>>} */
	const sums = { self: new Map(), inclusive: new Map(), files: new Map() };
	/** @param {Map<string, number>} map @param {string} key @param {number} n */
	const add = (map, key, n) => map.set(key, (map.get(key) ?? 0) + n);
	let total = 0;
	for (const node of profile.nodes) {
		const hits = node.hitCount ?? 0;
		if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
		total += hits;
		add(sums.self, fnName(node), hits);
		add(sums.files, fileName(node.callFrame.url), hits);
		const seen = new Set();
		for (let id = /** @type {number | undefined} */ (node.id); id !== undefined; id = parent.get(id)) {
			const frame = /** @type {ProfileNode} */ (byId.get(id));
			const { url } = frame.callFrame;
			const name = fnName(frame);
			if (!url || url.startsWith('node:') || seen.has(name)) continue;
			seen.add(name);
			add(sums.inclusive, name, hits);
		}
	}
	/** @param {Map<string, number>} map */
	const list = (map) =>
		[...map]
			.sort((a, b) => b[1] - a[1])
			.slice(0, top)
			.map(([name, hits]) => ({ name, percent: total ? (100 * hits) / total : 0 }));
	return { self: list(sums.self), inclusive: list(sums.inclusive), files: list(sums.files) };
}

/**
 * Serve `app` with `--cpu-prof`, load `page` as a bench row does, stop, summarize.
 * @param {import('./apps.js').App} app
 * @param {string} page
 * @param {Record<string, string>} headers
 * @param {{ cores: { server: string, load: string } | null, connections: number, warmup: number, duration: number, top: number }} options
 * @returns {Promise<ProfileSummary>}
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
		return summarize(JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')), app.dir, top);
	} finally {
		await fs.rm(dir, { recursive: true, force: true });
	}
}
