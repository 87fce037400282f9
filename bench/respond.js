// @ts-check
/**
 * One built app answering requests in this process, without HTTP: adapter-node's `server.respond`
 * on `Request` objects, one after another. What `bench/instructions.js` runs under callgrind, so
 * that only the app's own work (SvelteKit, the page, the auth) is counted, not sockets or a load
 * generator.
 *
 *   node bench/respond.js <app dir> <page> <origin> <warm-up requests> <measured requests>
 *
 * The app's `.env` values come in the environment (adapter-node does not read `.env`), with
 * `BENCH_SIGN_IN=credentials` for an app that signs the demo user up and in first
 * (`POST /signup`, `POST /signin`, through the same `respond`); the session cookie is then sent
 * with every request. Exits 0 once every answer was 200, 1 otherwise.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, page, origin, warmup, measured] = process.argv.slice(2);
if (!dir || !page || !origin || warmup === undefined || measured === undefined) {
	throw new Error('usage: node bench/respond.js <app dir> <page> <origin> <warm-up requests> <measured requests>');
}
process.env.ORIGIN = origin;
process.chdir(dir);
// A fresh SQLite file each run: a sign-up that finds its user from the last run would skip the
// password hashing, and the runs `bench/instructions.js` subtracts would differ by more than the requests.
for (const suffix of ['', '-wal', '-shm']) if (process.env.AUTH_SQLITE_FILE) rmSync(path.resolve(dir, process.env.AUTH_SQLITE_FILE + suffix), { force: true });
// handler.js initialises the server (server.init with process.env) when imported.
await import(pathToFileURL(path.join(dir, 'build', 'handler.js')).href);
const { server } = await import(pathToFileURL(path.join(dir, 'build', 'adapter-node.js')).href);
const options = { getClientAddress: () => '127.0.0.1', platform: {} };

/**
 * @param {string} pathname
 * @param {Record<string, string>} form
 */
const post = (pathname, form) =>
	server.respond(
		new Request(origin + pathname, {
			method: 'POST',
			headers: { origin, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(form)
		}),
		options
	);

let cookie = '';
if (process.env.BENCH_SIGN_IN === 'credentials') {
	const demo = { email: 'demo@example.com', password: 'correct horse battery staple' };
	await post('/signup', demo);
	/** @type {Response} */
	const signin = await post('/signin', { providerId: 'credentials', ...demo, redirectTo: page });
	cookie = signin.headers
		.getSetCookie()
		.map((header) => /** @type {string} */ (header.split(';')[0]))
		.filter((pair) => !pair.endsWith('='))
		.join('; ');
	if (!cookie) throw new Error(`POST /signin answered ${signin.status} without a session cookie`);
}

/** @type {Record<string, string>} */
const headers = { accept: 'text/html', ...(cookie ? { cookie } : {}) };
const total = Number(warmup) + Number(measured);
for (let i = 0; i < total; i++) {
	const response = await server.respond(new Request(origin + page, { headers }), options);
	const body = await response.text();
	if (response.status !== 200) {
		console.error(`GET ${page}: ${response.status} ${body.slice(0, 200)}`);
		process.exit(1);
	}
}
process.exit(0);
