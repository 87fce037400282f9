// @ts-check
/**
 * Cost as the user table grows: database sessions on SQLite and PostgreSQL with 1 000, 100 000
 * and 1 000 000 users, each with a password account and a live session row.
 *
 *   node bench/scale.js [--quick] [--keep] [--store sqlite|postgres]… [--sizes 1000,100000,1000000]
 *
 * Per store, `ours-db-<store>` (bench/apps.js, the current major) is set up and served pinned as
 * in `npm run bench`, and the demo user signs in. Then, for each size, smallest first, the tables
 * are filled up to that many users in one statement per table (SQLite: a recursive CTE in one
 * transaction; PostgreSQL: `generate_series`, then `ANALYZE`), and measured:
 * - `/protected` with the demo user's session: req/s and server CPU µs per request (autocannon,
 *   repetitions back to back, median and interquartile range), as the main bench does;
 * - the sign-in `POST /signin` (form, as a browser without JavaScript): wall time of sequential
 *   sign-ins, each as a different user picked at random among those seeded (so the lookups land
 *   all over the indexes), median and 90th percentile. Its cost is mostly the password hash
 *   (scrypt, the same at every size); what grows with the table is the user and account lookups
 *   and the session row's insert.
 * The seeded users share the demo user's password hash, so each of them can sign in with it.
 * The largest size's figures are judged against the smallest's (target: within 1.2 ×).
 *
 * Not part of `npm test` or `npm run bench`: a million users take a while to seed and measure.
 * Prints markdown and writes `bench/results/<date>-scale[-quick].md`.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { repoRoot, run } from '../e2e/harness/app.js';
import { DEMO, KITS, prepareApp } from './apps.js';
import { load } from './load.js';
import { cores, startServer } from './server.js';
import { keptCookie, signIn } from './session.js';
import { formatSpread, judge, quantile, spread } from './stats.js';

const KIT = 3;
const TARGET_GROWTH = 1.2;
const SIGN_INS = 20;
/** Sessions and accounts seeded alongside: what a real table of that many users holds. */
const SESSION_DAYS = 30;

const { values: flags } = parseArgs({
	options: {
		quick: { type: 'boolean', default: false },
		keep: { type: 'boolean', default: false },
		store: { type: 'string', multiple: true, default: ['sqlite', 'postgres'] },
		sizes: { type: 'string', default: '1000,100000,1000000' }
	}
});
const sizes = (flags.sizes ?? '').split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--sizes ${flags.sizes}: expected positive integers`);
sizes.sort((a, b) => a - b);
const stores = /** @type {('sqlite' | 'postgres')[]} */ (flags.store ?? []);
for (const store of stores) if (store !== 'sqlite' && store !== 'postgres') throw new Error(`--store ${store}: expected sqlite or postgres`);
const timing = flags.quick ? { warmup: 1, duration: 3, repetitions: 1 } : { warmup: 2, duration: 5, repetitions: 5 };

/** @param {string} line */
const log = (line) => process.stderr.write(`[scale] ${line}\n`);
process.on('SIGINT', () => process.exit(130));

/**
 * A store's seeding, over the app's own database.
 * @typedef {object} Seeder
 * @property {() => Promise<number>} users  how many users there are
 * @property {(from: number, to: number) => Promise<void>} seed  add users `scale-<from>` … `scale-<to - 1>`, with their accounts and sessions
 * @property {() => Promise<void>} close
 */

/**
 * The demo user's password account, whose type, provider and hash the seeded accounts copy.
 * @typedef {{ type: string, provider: string, password_hash: string }} Template
 */

/**
 * @param {string} file  the app's SQLite database
 * @returns {Seeder}
 */
function sqliteSeeder(file) {
	const db = new Database(file);
	db.pragma('busy_timeout = 10000');
	const template = /** @type {Template} */ (db.prepare('SELECT type, provider, password_hash FROM auth_accounts WHERE providerAccountId = ?').get(DEMO.email));
	return {
		users: async () => /** @type {{ n: number }} */ (db.prepare('SELECT count(*) AS n FROM auth_users').get()).n,
		seed: async (from, to) => {
			// Numbers bind as REAL: cast, or the addresses would read `scale-1.0@…`.
			const series = 'WITH RECURSIVE n(i) AS (SELECT CAST(@from AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @to)';
			const expires = Date.now() + SESSION_DAYS * 86_400_000;
			db.transaction(() => {
				const before = /** @type {{ last: number | null }} */ (db.prepare('SELECT max(rowid) AS last FROM auth_users').get()).last ?? 0;
				db.prepare(`${series} INSERT INTO auth_users (id, name, email) SELECT lower(hex(randomblob(16))), 'Scale ' || i, 'scale-' || i || '@example.com' FROM n`).run({ from, to });
				db.prepare('INSERT INTO auth_accounts (userId, type, provider, providerAccountId, password_hash) SELECT id, @type, @provider, email, @hash FROM auth_users WHERE rowid > @before').run({
					type: template.type,
					provider: template.provider,
					hash: template.password_hash,
					before
				});
				db.prepare("INSERT INTO auth_sessions (sessionToken, userId, expires) SELECT 'sha256.' || substr(hex(randomblob(32)), 1, 43), id, @expires FROM auth_users WHERE rowid > @before").run({ expires, before });
			})();
			db.exec('ANALYZE');
		},
		close: async () => {
			db.close();
		}
	};
}

/**
 * @param {string} url  the app's PostgreSQL database
 * @returns {Promise<Seeder>}
 */
async function postgresSeeder(url) {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	const template = /** @type {Template} */ ((await client.query('SELECT type, provider, password_hash FROM auth_accounts WHERE "providerAccountId" = $1', [DEMO.email])).rows[0]);
	return {
		users: async () => Number((await client.query('SELECT count(*) AS n FROM auth_users')).rows[0].n),
		seed: async (from, to) => {
			await client.query('BEGIN');
			await client.query("INSERT INTO auth_users (id, name, email) SELECT md5(random()::text || i), 'Scale ' || i, 'scale-' || i || '@example.com' FROM generate_series($1::int, $2::int - 1) i", [from, to]);
			await client.query(
				'INSERT INTO auth_accounts ("userId", type, provider, "providerAccountId", password_hash) SELECT id, $1, $2, email, $3 FROM auth_users u WHERE u.email LIKE \'scale-%\' AND NOT EXISTS (SELECT 1 FROM auth_accounts a WHERE a."userId" = u.id)',
				[template.type, template.provider, template.password_hash]
			);
			await client.query(
				`INSERT INTO auth_sessions ("sessionToken", "userId", expires) SELECT 'sha256.' || substr(md5(random()::text) || md5(random()::text), 1, 43), id, now() + interval '${SESSION_DAYS} days' FROM auth_users u WHERE u.email LIKE 'scale-%' AND NOT EXISTS (SELECT 1 FROM auth_sessions s WHERE s."userId" = u.id)`
			);
			await client.query('COMMIT');
			await client.query('ANALYZE');
		},
		close: () => client.end()
	};
}

/**
 * The app's database: SQLite's file in the app folder, or the PostgreSQL URL in its `.env`.
 * @param {import('./apps.js').App} app
 * @param {'sqlite' | 'postgres'} store
 */
async function seederFor(app, store) {
	if (store === 'sqlite') return sqliteSeeder(path.join(app.dir, app.env.AUTH_SQLITE_FILE || 'auth.sqlite'));
	const url = Object.values(app.env).find((value) => value.startsWith('postgres'));
	if (!url) throw new Error(`${app.id}: no PostgreSQL URL in its .env`);
	return postgresSeeder(url);
}

/**
 * Sequential sign-ins, each as a random seeded user with the shared password: wall time in ms.
 * @param {string} url
 * @param {string} origin  the origin the app sees itself at
 * @param {number} users  seeded so far (`scale-0` … `scale-<users - 1>`)
 */
async function signInTimes(url, origin, users) {
	/** @type {number[]} */
	const times = [];
	for (let i = 0; i < SIGN_INS; i++) {
		const email = `scale-${Math.floor(Math.random() * users)}@example.com`;
		const started = performance.now();
		const response = await fetch(`${url}/signin`, {
			method: 'POST',
			redirect: 'manual',
			signal: AbortSignal.timeout(10_000),
			headers: { accept: 'text/html', origin, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ providerId: 'credentials', email, password: DEMO.password, redirectTo: '/protected' }).toString()
		});
		await response.arrayBuffer();
		times.push(performance.now() - started);
		if (response.status !== 303 || response.headers.get('location') !== '/protected') {
			throw new Error(`POST /signin as ${email}: ${response.status} → ${response.headers.get('location')}`);
		}
	}
	return times;
}


const pin = cores();
log('building the CLI (npm run build)');
const cliBuild = await run('npm', ['run', 'build'], { cwd: repoRoot, timeout: 300_000 });
if (cliBuild.exitCode !== 0) throw new Error(`npm run build failed:\n${cliBuild.stdout}\n${cliBuild.stderr}`);

const lines = [
	`# create-auth scale — ${new Date().toISOString()}${flags.quick ? ' (quick mode)' : ''}`,
	'',
	`Kit ${KIT} apps with database sessions; server pinned to core ${pin?.server ?? '(not pinned)'}, load on core ${pin?.load ?? '(not pinned)'}; ` +
		`/protected: autocannon, 10 connections, ${timing.warmup} s warm-up, ${timing.duration} s measured, ${timing.repetitions} repetition(s), median (interquartile range); ` +
		`sign-in: ${SIGN_INS} sequential POST /signin as random seeded users, median and p90.`,
	''
];
for (const store of stores) {
	const name = store === 'sqlite' ? 'ours-db-sqlite' : 'ours-db-postgres';
	const app = await prepareApp(KIT, name, { keep: flags.keep ?? false, log });
	const server = await startServer(app, { core: pin?.server });
	/** @type {Seeder | undefined} */
	let seeder;
	try {
		const origin = KITS[KIT].selfOrigin(server.url);
		let { cookie } = await signIn(name, server.url, origin);
		seeder = await seederFor(app, store);
		/** @type {{ size: number, seedMs: number, rps: number[], cpu: number[], signIn: number[] }[]} */
		const results = [];
		let seeded = 0;
		for (const size of sizes) {
			const started = performance.now();
			await seeder.seed(seeded, size);
			const seedMs = performance.now() - started;
			seeded = size;
			// SQLite's seeding blocks this process's event loop: let fetch see the keep-alive
			// connections the server closed meanwhile, before it picks one of them to send on.
			await new Promise((resolve) => setTimeout(resolve, 200));
			log(`${app.id}: ${await seeder.users()} users (seeded in ${(seedMs / 1000).toFixed(1)} s)`);
			({ cookie } = await keptCookie(server.url, '/protected', cookie));
			const options = { url: `${server.url}/protected`, headers: { cookie }, connections: 10, pid: server.pid };
			await load({ ...options, warmup: 0, duration: flags.quick ? 2 : 5 }, pin?.load);
			/** @type {import('./load.js').LoadResult[]} */
			const runs = [];
			for (let rep = 0; rep < timing.repetitions; rep++) {
				const result = await load({ ...options, warmup: timing.warmup, duration: timing.duration }, pin?.load);
				if (result.errors > 0 || Object.keys(result.statusCodes).some((code) => code !== '200')) {
					throw new Error(`${app.id} /protected at ${size} users: ${JSON.stringify(result)}\n${server.output()}`);
				}
				runs.push(result);
			}
			const signInMs = await signInTimes(server.url, origin, size);
			results.push({ size, seedMs, rps: runs.map((r) => r.rps), cpu: runs.map((r) => r.cpuUsPerRequest), signIn: signInMs });
			log(`${app.id} at ${size}: ${spread(runs.map((r) => r.rps)).median.toFixed(0)} req/s, sign-in median ${spread(signInMs).median.toFixed(1)} ms`);
		}
		lines.push(`## ${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (${app.id})`, '');
		lines.push('| users (and sessions) | seeded in | /protected req/s | CPU µs/req | sign-in ms, median | p90 |', '|---:|---:|---:|---:|---:|---:|');
		for (const r of results) {
			lines.push(
				`| ${r.size.toLocaleString('en')} | ${(r.seedMs / 1000).toFixed(1)} s | ${formatSpread(spread(r.rps), 0)} | ${formatSpread(spread(r.cpu), 0)} | ` +
					`${spread(r.signIn).median.toFixed(1)} | ${quantile([...r.signIn].sort((a, b) => a - b), 0.9).toFixed(1)} |`
			);
		}
		const smallest = /** @type {(typeof results)[number]} */ (results[0]);
		const largest = /** @type {(typeof results)[number]} */ (results.at(-1));
		// The repetitions of two sizes ran minutes apart: compared whole (every pair), not per repetition.
		const across = (/** @type {number[]} */ a, /** @type {number[]} */ b, /** @type {(x: number, y: number) => number} */ f) =>
			spread(a.flatMap((x) => b.map((y) => f(x, y))));
		const rpsDrop = across(smallest.rps, largest.rps, (s, l) => s / l);
		const cpuGrowth = across(largest.cpu, smallest.cpu, (l, s) => l / s);
		const signInGrowth = spread([spread(largest.signIn).median / spread(smallest.signIn).median]);
		lines.push('', `| ${largest.size.toLocaleString('en')} users against ${smallest.size.toLocaleString('en')} | measured | target ≤ ${TARGET_GROWTH} × |`, '|---|---|---|');
		lines.push(`| /protected req/s, smallest ÷ largest | ${formatSpread(rpsDrop, 2)} | ${judge(rpsDrop, { atMost: TARGET_GROWTH })} |`);
		lines.push(`| /protected CPU per request, largest ÷ smallest | ${formatSpread(cpuGrowth, 2)} | ${judge(cpuGrowth, { atMost: TARGET_GROWTH })} |`);
		lines.push(`| sign-in median, largest ÷ smallest | ${formatSpread(signInGrowth, 2)} | ${judge(signInGrowth, { atMost: TARGET_GROWTH })} |`, '');
	} finally {
		await seeder?.close();
		await server.stop();
		await app.remove();
	}
}
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
const dir = path.join(repoRoot, 'bench', 'results');
await fs.mkdir(dir, { recursive: true });
const file = path.join(dir, `${new Date().toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}-scale${flags.quick ? '-quick' : ''}.md`);
await fs.writeFile(file, `${report}\n`);
log(`wrote ${file}`);
