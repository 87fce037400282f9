// @ts-check
/**
 * Instructions per request: the figure this machine's drift does not move. Each app answers a
 * page in-process (`bench/respond.js`, no HTTP) under valgrind's callgrind, once with the warm-up
 * requests only and once with the measured ones after them; the difference over the measured
 * count is what one request costs, in instructions executed (V8 runs single-threaded, so the
 * JIT's and the GC's work lands in the count too). Repeat runs of one build agree within ~2 %;
 * the req/s and CPU µs of `bench/run.js` can move by more than 10 % between repetitions.
 *
 *   node bench/instructions.js [--kit 2|3]… [--app <app>]… [--page public|protected]… [--requests <n>]
 *
 * Apps: `floor-layout` (always, the base) and the ones named (default `ours`, `ours-direct` and
 * `ours-db-sqlite`), built as `bench/run.js --keep` builds them, in the same folders. Apps that
 * sign in with something other than the credentials form (ours-idp, Auth.js, Better Auth) are
 * not offered. Needs valgrind (Debian's `valgrind`); takes about a minute per app and page.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { appId, KITS, KIT_MAJORS, prepareApp, WITH_CREDENTIALS } from './apps.js';

const OFFERED = ['floor-layout', 'ours', 'ours-direct', 'ours-db-sqlite'];
const { values: flags } = parseArgs({
	options: {
		kit: { type: 'string', multiple: true, default: ['3'] },
		app: { type: 'string', multiple: true, default: ['ours', 'ours-direct', 'ours-db-sqlite'] },
		page: { type: 'string', multiple: true, default: ['protected'] },
		requests: { type: 'string', default: '2000' }
	}
});
const requests = Number(flags.requests);
if (!Number.isInteger(requests) || requests < 100) throw new Error(`--requests ${flags.requests}: expected a whole number from 100`);
const WARMUP = 500;
const names = ['floor-layout', ...(flags.app ?? []).filter((name) => name !== 'floor-layout')];
for (const name of names) if (!OFFERED.includes(name)) throw new Error(`--app ${name}: expected one of ${OFFERED.join(', ')}`);
const kits = /** @type {import('./apps.js').KitMajor[]} */ (KIT_MAJORS.filter((major) => flags.kit?.includes(String(major))));
const respond = fileURLToPath(new URL('./respond.js', import.meta.url));

/**
 * Instructions executed by `node bench/respond.js` for `warmup` then `count` requests.
 * @param {import('./apps.js').App} app
 * @param {string} page
 * @param {number} count
 * @returns {Promise<number>}
 */
function instructions(app, page, count) {
	const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', app.node, '--single-threaded', respond, app.dir, page, KITS[app.kit].selfOrigin('http://127.0.0.1:3000'), String(WARMUP), String(count)];
	const env = { ...process.env, ...app.env, NODE_ENV: 'production', BENCH_SIGN_IN: WITH_CREDENTIALS.has(app.name) && page === '/protected' ? 'credentials' : '' };
	return new Promise((resolve, reject) => {
		const child = spawn('valgrind', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', (error) => reject(new Error(`valgrind could not start (apt-get install valgrind): ${error.message}`)));
		child.on('close', (code) => {
			const collected = /Collected : (\d+)/.exec(stderr);
			if (code !== 0 || !collected) reject(new Error(`${app.id} ${page}: exit ${code}\n${stderr.slice(-2000)}`));
			else resolve(Number(collected[1]));
		});
	});
}

/** @param {string} line */
const log = (line) => console.error(`[instructions] ${line}`);
const rows = [];
for (const kit of kits) {
	const apps = [];
	for (const name of names) apps.push(await prepareApp(kit, /** @type {import('./apps.js').AppName} */ (name), { keep: true, log }));
	for (const page of (flags.page ?? []).map((p) => `/${p}`)) {
		/** @type {Map<string, number>} */
		const perRequest = new Map();
		for (const app of apps) {
			log(`${app.id} ${page}: ${WARMUP} requests, then ${requests} more`);
			const [base, total] = [await instructions(app, page, 0), await instructions(app, page, requests)];
			perRequest.set(app.name, (total - base) / requests);
		}
		const floor = /** @type {number} */ (perRequest.get('floor-layout'));
		for (const [name, count] of perRequest) rows.push({ id: appId(kit, /** @type {any} */ (name)), page, count, over: count - floor, ratio: count / floor });
	}
	for (const app of apps) await app.remove();
}
console.log('| app | page | instructions per request | over floor-layout | × floor-layout |');
console.log('|---|---|---:|---:|---:|');
for (const row of rows) {
	console.log(`| ${row.id} | ${row.page} | ${Math.round(row.count).toLocaleString('en')} | ${Math.round(row.over).toLocaleString('en')} | ${row.ratio.toFixed(3)} |`);
}
