// @ts-check
/**
 * `npm run bench` — floor vs ours (credentials and idp sessions) vs Auth.js, side by side, on
 * SvelteKit 2 and 3. See bench/README.md.
 *
 *   node bench/run.js [--quick] [--repetitions <n>] [--keep] [--kit 2|3]… [--app <app>]… [--profile kit<major>/<app>:<page>]…
 *
 * --quick    1 repetition, 1 s warm-up, 3 s measured (for iterating; not for conclusions)
 * --repetitions <n>  that many interleaved repetitions instead (e.g. `--quick --repetitions 5`:
 *            short runs, paired figures with a spread)
 * --keep     build the apps in <tmpdir>/create-auth-e2e-bench-kit<major>-<app> and leave them
 *            there; the next --keep run reuses their node_modules
 * --kit      only these SvelteKit majors (default: 2 and 3)
 * --app      only these apps, plus `floor` and `floor-layout` (the ratios' bases) (default: all of each major's)
 * --profile  after the rows, a CPU profile of that row (e.g. `kit3/ours-idp:protected`), top self time
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { repoRoot, run } from '../e2e/harness/app.js';
import { appId, BETTER_AUTH, KIT_MAJORS, KITS, ON_REQUEST, prepareApp, timeCli, WITH_IDP, WITHOUT_AUTH } from './apps.js';
import { withIdp } from './idp.js';
import { load } from './load.js';
import { profile } from './profile.js';
import { markdown, save } from './report.js';
import { median, paired, spread } from './stats.js';
import { checkProtected, cookieSize, countSetCookies, keptCookie, signIn } from './session.js';
import { componentBytes } from './size.js';
import { cores, startServer } from './server.js';

const PAGES = /** @type {const} */ (['public', 'protected']);
const CONNECTIONS = 10;
const CLI_RUNS = 5;
const SET_COOKIE_REQUESTS = 20;
const PROFILE_TOP = 15;

const { values: flags } = parseArgs({
	options: {
		quick: { type: 'boolean', default: false },
		repetitions: { type: 'string' },
		keep: { type: 'boolean', default: false },
		kit: { type: 'string', multiple: true, default: KIT_MAJORS.map(String) },
		app: { type: 'string', multiple: true, default: [] },
		profile: { type: 'string', multiple: true, default: [] }
	}
});
const kits = KIT_MAJORS.filter((major) => flags.kit?.includes(String(major)));
if (kits.length === 0) throw new Error(`--kit ${flags.kit?.join(' ')}: expected ${KIT_MAJORS.join(' or ')}`);
const known = new Set(kits.flatMap((kit) => KITS[kit].apps));
const unknown = flags.app?.filter((name) => !known.has(/** @type {any} */ (name))) ?? [];
if (unknown.length > 0) throw new Error(`--app ${unknown.join(' ')}: expected one of ${[...known].join(', ')}`);
/** @param {import('./apps.js').AppName} name */
const chosen = (name) => (flags.app?.length ? WITHOUT_AUTH.has(name) || flags.app.includes(name) : !ON_REQUEST.has(name));
/** The apps of the chosen majors, Kit 2's first, in KITS order. */
const plan = kits.flatMap((kit) => KITS[kit].apps.filter(chosen).map((name) => ({ kit, name, id: appId(kit, name) })));
// Many short repetitions rather than a few long ones: this machine's speed drifts over minutes,
// and each repetition loads every row back to back, so figures paired per repetition cancel it.
const timing = flags.quick ? { warmup: 1, duration: 3, repetitions: 1 } : { warmup: 2, duration: 5, repetitions: 7 };
if (flags.repetitions !== undefined) {
	timing.repetitions = Number(flags.repetitions);
	if (!Number.isInteger(timing.repetitions) || timing.repetitions < 1) throw new Error(`--repetitions ${flags.repetitions}: expected a whole number from 1`);
}
/** Seconds of load on each row of a fresh server before any measurement (JIT warm-up), discarded. */
const SERVER_WARMUP = flags.quick ? 2 : 5;
const profiles = (flags.profile ?? []).map((spec) => {
	const [app, page] = spec.split(':');
	if (!plan.some((p) => p.id === app) || !PAGES.includes(/** @type {any} */ (page))) {
		throw new Error(`--profile ${spec}: expected <${plan.map((p) => p.id).join('|')}>:<${PAGES.join('|')}>`);
	}
	return { app: /** @type {string} */ (app), page: /** @type {typeof PAGES[number]} */ (page) };
});

/** @param {string} line */
const log = (line) => process.stderr.write(`[bench] ${line}\n`);
process.on('SIGINT', () => process.exit(130)); // the exit hooks then kill the servers

const date = new Date().toISOString();
const pin = cores();
const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';

log('building the CLI (npm run build)');
const cliBuild = await run('npm', ['run', 'build'], { cwd: repoRoot, timeout: 300_000 });
if (cliBuild.exitCode !== 0) throw new Error(`npm run build failed:\n${cliBuild.stdout}\n${cliBuild.stderr}`);

/** @type {import('./report.js').Results['cli']} */
const cli = {};
for (const kit of kits) {
	log(`timing create-auth --yes --no-install, a no-op regenerate and add-provider on the Kit ${kit} fixture (${CLI_RUNS} runs)`);
	const runs = await timeCli(kit, CLI_RUNS);
	cli[`kit${kit}`] = {
		runsMs: runs.init,
		medianMs: median(runs.init),
		regenerateMs: median(runs.regenerate),
		addProviderMs: median(runs.addProvider)
	};
}

/** @type {import('./apps.js').App[]} */
const apps = [];
/** @type {import('./server.js').NodeServer[]} */
const servers = [];
/**
 * The dev IdPs of the apps that sign in at one (bench/idp.js), running until the end.
 * @type {import('../src/dev-idp/index.js').DevIdp[]}
 */
const idps = [];
try {
	for (const { kit, name } of plan) apps.push(await prepareApp(kit, name, { keep: flags.keep, log }));
	for (const [i, app] of apps.entries()) {
		if (WITH_IDP.has(app.name)) {
			const served = await withIdp(app);
			idps.push(served.idp);
			apps[i] = served.app;
			log(`${app.id}: dev IdP at ${served.idp.issuer}`);
		}
		servers.push(await startServer(/** @type {import('./apps.js').App} */ (apps[i]), { core: pin?.server }));
	}
	const pinning = pin
		? `server on core ${pin.server} (taskset; Cpus_allowed_list ${servers.map((s) => s.cpus).join('/')}), load generator on core ${pin.load}`
		: 'not pinned (taskset unavailable or fewer than 2 cores)';
	log(pinning);

	/** @type {import('./report.js').Results['checks']} */
	const checks = {};
	/** @type {Record<string, string>} */
	const cookies = {};
	/** @type {import('./report.js').Results['setCookies']} */
	const setCookies = {};
	/** @type {import('./report.js').Results['clientJs']} */
	const clientJs = {};
	for (const [i, app] of apps.entries()) {
		const { url } = /** @type {import('./server.js').NodeServer} */ (servers[i]);
		const guarded = !WITHOUT_AUTH.has(app.name);
		const session = guarded ? await signIn(app.name, url, KITS[app.kit].selfOrigin(url)) : { cookie: '', steps: ['none (no auth)'] };
		cookies[app.id] = session.cookie;
		checks[app.id] = {
			signIn: session.steps,
			cookie: cookieSize(session.cookie),
			protected: await checkProtected(url, '/protected', session.cookie, { guarded })
		};
		if (!guarded) continue;
		setCookies[app.id] = await countSetCookies(url, '/protected', session.cookie, SET_COOKIE_REQUESTS);
		if (!BETTER_AUTH.has(app.name)) clientJs[app.id] = await componentBytes(url); // Better Auth's apps have no components pages
		log(`${app.id}: signed in; cookie ${JSON.stringify(checks[app.id]?.cookie)}; /protected ${JSON.stringify(checks[app.id]?.protected)}`);
	}

	/**
	 * Public pages are loaded as an anonymous visitor, protected ones with the session cookie.
	 * @param {string} id  `kit<major>/<app>`
	 * @param {typeof PAGES[number]} page
	 * @returns {Record<string, string>}
	 */
	const headersFor = (id, page) => {
		const cookie = cookies[id];
		return page === 'protected' && cookie ? { cookie } : {};
	};
	/**
	 * @param {number} i  index of the app (and its server)
	 * @param {typeof PAGES[number]} page
	 * @param {{ warmup: number, duration: number }} seconds
	 */
	const loadRow = async (i, page, seconds) => {
		const server = /** @type {import('./server.js').NodeServer} */ (servers[i]);
		const { id } = /** @type {import('./apps.js').App} */ (apps[i]);
		// As a browser would: the session cookie the app re-issued since (a JWT re-checked after 60 s) replaces the old one.
		if (page === 'protected' && cookies[id]) {
			const kept = await keptCookie(server.url, '/protected', cookies[id]);
			if (kept.reissued) log(`${id}: the session cookie was re-issued; loading with the new one, as a browser would`);
			cookies[id] = kept.cookie;
		}
		return load({ url: `${server.url}/${page}`, headers: headersFor(id, page), connections: CONNECTIONS, ...seconds, pid: server.pid }, pin?.load);
	};

	log(`warming up every row for ${SERVER_WARMUP} s`);
	for (const page of PAGES) for (const i of apps.keys()) await loadRow(i, page, { warmup: 0, duration: SERVER_WARMUP });

	/** @type {Map<string, import('./load.js').LoadResult[]>} */
	const runs = new Map();
	for (let rep = 1; rep <= timing.repetitions; rep++) {
		for (const page of PAGES) {
			for (const [i, app] of apps.entries()) {
				const server = /** @type {import('./server.js').NodeServer} */ (servers[i]);
				const result = await loadRow(i, page, { warmup: timing.warmup, duration: timing.duration });
				if (result.errors > 0 || Object.keys(result.statusCodes).some((code) => code !== '200')) {
					throw new Error(`${app.id} /${page}: unexpected answers ${JSON.stringify(result)}\n${server.output()}`);
				}
				log(`rep ${rep} ${app.id} /${page}: ${result.rps.toFixed(0)} req/s, ${result.cpuUsPerRequest.toFixed(0)} µs CPU/req`);
				const key = `${app.id} ${page}`;
				runs.set(key, [...(runs.get(key) ?? []), result]);
			}
		}
	}

	/** @type {import('./report.js').Row[]} */
	const rows = [];
	/** @param {string} id @param {typeof PAGES[number]} page */
	const runsOf = (id, page) => runs.get(`${id} ${page}`);
	for (const app of apps) {
		for (const page of PAGES) {
			const list = /** @type {import('./load.js').LoadResult[]} */ (runsOf(app.id, page));
			const m = {
				rps: median(list.map((x) => x.rps)),
				p50: median(list.map((x) => x.p50)),
				p99: median(list.map((x) => x.p99)),
				cpuUsPerRequest: median(list.map((x) => x.cpuUsPerRequest))
			};
			const floor = rows.find((x) => x.kit === app.kit && x.app === 'floor' && x.page === page)?.median ?? m;
			const layout = runsOf(appId(app.kit, 'floor-layout'), page);
			rows.push({
				kit: app.kit,
				app: app.name,
				page,
				runs: list,
				median: m,
				spread: { rps: spread(list.map((x) => x.rps)), cpuUsPerRequest: spread(list.map((x) => x.cpuUsPerRequest)) },
				vsLayout: layout
					? {
							rps: paired(list.map((x) => x.rps), layout.map((x) => x.rps), (a, b) => a / b),
							cpuUs: paired(list.map((x) => x.cpuUsPerRequest), layout.map((x) => x.cpuUsPerRequest), (a, b) => a - b)
						}
					: null,
				rssMiB: /** @type {import('./load.js').LoadResult} */ (list.at(-1)).rssMiB,
				rssFirstMiB: /** @type {import('./load.js').LoadResult} */ (list[0]).rssMiB,
				served: PAGES.reduce((total, p) => total + (runsOf(app.id, p) ?? []).reduce((sum, x) => sum + x.requests, 0), 0),
				ratio: { rps: m.rps / floor.rps, cpu: m.cpuUsPerRequest / floor.cpuUsPerRequest }
			});
		}
	}

	for (const server of servers.splice(0)) await server.stop();

	/** @type {import('./report.js').Results['profiles']} */
	const profileResults = [];
	for (const { app: name, page } of profiles) {
		const app = /** @type {import('./apps.js').App} */ (apps.find((a) => a.id === name));
		log(`profiling ${name} /${page}`);
		const summary = await profile(app, `/${page}`, headersFor(name, page), { cores: pin, connections: CONNECTIONS, warmup: timing.warmup, duration: timing.duration, top: PROFILE_TOP });
		profileResults.push({ app: name, page, summary });
	}

	/** @type {import('./report.js').Results} */
	const results = {
		date,
		machine: { nproc: os.availableParallelism(), cpu: cpuModel, node: Object.fromEntries(apps.map((a) => [`kit${a.kit}`, a.nodeVersion])), pinning },
		options: { connections: CONNECTIONS, ...timing, quick: flags.quick ?? false },
		versions: Object.fromEntries(apps.map((a) => [a.id, a.versions])),
		unsupported: Object.fromEntries(kits.flatMap((kit) => Object.entries(KITS[kit].unsupported).map(([name, why]) => [appId(kit, /** @type {import('./apps.js').AppName} */ (name)), why]))),
		checks,
		rows,
		setCookies,
		clientJs,
		cli,
		profiles: profileResults
	};
	const files = await save(results);
	process.stdout.write(`${markdown(results)}\n`);
	log(`wrote ${files.md} and ${files.json}`);
} finally {
	for (const server of servers) await server.stop();
	for (const idp of idps) await idp.stop();
	for (const app of apps) await app.remove();
}
