// @ts-check
/**
 * The sign-in flood: how much a burst of password sign-ins slows the pages of the same server.
 *
 * `node bench/flood.js [--kit 3] [--keep]` sets up `ours` (bench/apps.js) with its rate limits
 * off (`rateLimit: false` in `src/auth.ts`: the flood stands for attempts from many addresses,
 * which per-address limits do not stop, so that every attempt reaches the password hashing),
 * serves it on every core (no pinning: scrypt runs on libuv's thread pool, beside the event
 * loop), and measures `GET /` at a fixed 50 requests/s for 10 s: first idle, then while 50
 * connections post wrong passwords to `/signin` as fast as they are answered. The row is the
 * flooded p99 over the idle p99 (target ≤ 2), with the sign-ins answered per second and their
 * statuses (303: checked and refused; 429: the hashing queue was full). Prints a markdown table.
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
await build(app.dir, { env: (await toolchain(kit)).env });

const server = await startServer(app);
try {
	const origin = KITS[kit].selfOrigin(server.url);
	await probe(server.url); // warm-up
	const idle = await probe(server.url);
	const flood = autocannon({
		url: `${server.url}/signin`,
		method: 'POST',
		connections: 50,
		duration: 14,
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin },
		body: new URLSearchParams({ providerId: 'credentials', email: 'flood@example.com', password: 'not the password' }).toString()
	});
	await new Promise((resolve) => setTimeout(resolve, 2000)); // the queue fills
	const flooded = await probe(server.url);
	const signIns = await flood;
	const ratio = flooded.latency.p99 / idle.latency.p99;
	console.log(
		[
			`| kit${kit}/ours, rate limits off | idle p99 (ms) | flooded p99 (ms) | ratio | target | sign-ins/s | sign-in statuses |`,
			'|---|---|---|---|---|---|---|',
			`| GET / at 50 req/s, 50 connections posting wrong passwords | ${idle.latency.p99} | ${flooded.latency.p99} | ${ratio.toFixed(2)} | ≤ 2: ${ratio <= 2 ? 'met' : '**missed**'} | ${(signIns.requests.total / signIns.duration).toFixed(1)} | ${JSON.stringify(statuses(signIns))} |`
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
