// @ts-check
/**
 * The sign-in flood: how much a burst of password sign-ins slows the pages of the same server.
 *
 * `node bench/flood.js [--kit 3] [--keep]` sets up `ours` (bench/apps.js) with its rate limits
 * off (`rateLimit: false` in `src/auth.ts`: the flood stands for attempts from many addresses,
 * which per-address limits do not stop, so that every attempt reaches the password hashing),
 * serves it on every core (no pinning: scrypt runs on libuv's thread pool, beside the event
 * loop), and measures `GET /` at a fixed 50 requests/s for 10 s, idle and then while 50
 * connections post wrong passwords to `/signin`: at 25 attempts/s (more than two cores can hash:
 * the judged row, target flooded p99 ≤ 2 × idle p99), and as fast as they are answered (context:
 * once refusals are instant, that is a flood of page requests, which a single event loop cannot
 * absorb whatever they ask for). Each row has the sign-ins answered per second and their statuses
 * (303: checked and refused; 429: refused at once, the hashing queue full). Prints markdown.
 */
import autocannon from 'autocannon';
import fs from 'node:fs/promises';
import path from 'node:path';
import { build, repoRoot, run } from '../e2e/harness/app.js';
import { KITS, prepareApp, toolchain } from './apps.js';
import { startServer } from './server.js';

const args = process.argv.slice(2);
const kit = /** @type {import('./apps.js').KitMajor} */ (Number(args[args.indexOf('--kit') + 1]) || 3);
const keep = args.includes('--keep');
const log = (/** @type {string} */ line) => console.error(`[flood] ${line}`);

/** GET / at a fixed, light rate: latency, not throughput, is what is read. */
const probe = (/** @type {string} */ url) => autocannon({ url: `${url}/`, connections: 5, overallRate: 50, duration: 10 });

log('building the CLI (npm run build)');
await run('npm', ['run', 'build'], { cwd: repoRoot });
const app = await prepareApp(kit, 'ours', { keep, log });
const authFile = path.join(app.dir, 'src/auth.ts');
const auth = await fs.readFile(authFile, 'utf8');
if (!auth.includes("session: { strategy: 'jwt' },")) throw new Error(`${authFile} has no session line to add rateLimit: false after`);
await fs.writeFile(authFile, auth.replace("session: { strategy: 'jwt' },", "session: { strategy: 'jwt' },\n\t\trateLimit: false,"));
log('vite build (rate limits off)');
await build(app.dir, { env: (await toolchain()).env });

const server = await startServer(app);
try {
	const origin = KITS[kit].selfOrigin(server.url);
	await probe(server.url); // warm-up
	const rows = [];
	for (const rate of [25, undefined]) {
		const idle = await probe(server.url);
		const flood = autocannon({
			url: `${server.url}/signin`,
			method: 'POST',
			connections: 50,
			...(rate ? { overallRate: rate } : {}),
			duration: 14,
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin },
			body: new URLSearchParams({ providerId: 'credentials', email: 'flood@example.com', password: 'not the password' }).toString()
		});
		await new Promise((resolve) => setTimeout(resolve, 2000)); // the queue fills
		const flooded = await probe(server.url);
		const signIns = await flood;
		const ratio = flooded.latency.p99 / idle.latency.p99;
		const load = rate ? `${rate} sign-ins/s from 50 connections` : '50 connections posting as fast as they are answered';
		const verdict = rate ? `≤ 2: ${ratio <= 2 ? 'met' : '**missed**'}` : 'context';
		rows.push(
			`| ${load} | ${idle.latency.p99} | ${flooded.latency.p99} | ${ratio.toFixed(2)} | ${verdict} | ${(signIns.requests.total / signIns.duration).toFixed(1)} | ${JSON.stringify(statuses(signIns))} |`
		);
	}
	console.log(
		[
			`| kit${kit}/ours (rate limits off), GET / at 50 req/s during | idle p99 (ms) | flooded p99 (ms) | ratio | target | sign-ins answered/s | their statuses |`,
			'|---|---|---|---|---|---|---|',
			...rows
		].join('\n')
	);
} finally {
	await server.stop();
	await app.remove();
}

/** @param {Awaited<ReturnType<typeof autocannon>>} result  → `{ "303": 120, "429": 40 }` */
function statuses(result) {
	return Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
}
