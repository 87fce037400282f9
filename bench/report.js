// @ts-check
/** The results as markdown and JSON, written to `bench/results/<date>.{md,json}`. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../e2e/harness/app.js';
import { formatSpread, judge, paired } from './stats.js';

/**
 * The targets (issue 30), as numbers. Ratios are req/s to `floor-layout` (the floor plus the root
 * layout load every generated app has) on the same page, paired per repetition; `cpuOverLayoutUs`
 * is the server's CPU per request above floor-layout's.
 */
export const TARGETS = {
	/** `ours` (JWT sessions), /protected */
	jwtRatio: 0.95,
	cpuOverLayoutUs: 10,
	/** `ours`, /public: an anonymous visitor */
	publicRatio: 0.97,
	/** `ours-idp` (the provider's tokens in the JWT), /protected */
	idpRatio: 0.9,
	/** database sessions without the session cache, /protected */
	databaseRatio: 0.9,
	/** `ours` RSS above floor-layout's after its runs */
	rssOverLayoutMiB: 10,
	/** RSS growth of each of ours from its first measured run to its last */
	rssGrowthMiB: 5,
	clientBytes: 400,
	cliMs: 500,
	regenerateMs: 300
};

/**
 * Which Better Auth row each of ours is judged against ("ahead of Better Auth's matching row"):
 * sessions held in a cookie against Better Auth's `cookieCache`, sessions read from the database
 * on each request against Better Auth's default (a session lookup in its SQLite on every request).
 */
const BETTER_AUTH_MATCH = {
	ours: 'better-auth-cache',
	'ours-idp': 'better-auth-cache',
	'ours-db-postgres-cache': 'better-auth-cache',
	'ours-db-sqlite': 'better-auth',
	'ours-db-postgres': 'better-auth'
};

/**
 * @typedef {object} Row
 * @property {import('./apps.js').KitMajor} kit
 * @property {import('./apps.js').AppName} app
 * @property {'public' | 'protected'} page
 * @property {import('./load.js').LoadResult[]} runs
 * @property {{ rps: number, p50: number, p99: number, cpuUsPerRequest: number }} median
 * @property {number} rssMiB  at the end of the last run
 * @property {number} rssFirstMiB  at the end of the row's first run (V8's heap has grown to its working size by then;
 *   right after the warm-up it may not have)
 * @property {number} served  requests the server answered in the measured runs of both pages
 * @property {{ rps: number, cpu: number }} ratio  to the same kit's floor row for the same page
 * @property {{ rps: import('./stats.js').Spread, cpuUsPerRequest: import('./stats.js').Spread }} spread  of the repetitions
 * @property {{ rps: import('./stats.js').Spread, cpuUs: import('./stats.js').Spread } | null} vsLayout  against the
 *   same kit's floor-layout row for the same page, per repetition: the req/s ratio and the CPU µs
 *   per request above it (null when floor-layout was not measured)
 */

/**
 * Per-app records are keyed by app id, `kit<major>/<app>` (e.g. `kit3/ours`); per-kit ones by
 * `kit<major>`.
 * @typedef {object} Results
 * @property {string} date  ISO timestamp of the start
 * @property {{ nproc: number, cpu: string, node: Record<string, string>, pinning: string }} machine
 *   `node`: per kit, the `node -v` that built and served its apps
 * @property {{ connections: number, warmup: number, duration: number, repetitions: number, quick: boolean }} options
 * @property {Record<string, Record<string, string>>} versions
 * @property {Record<string, string>} unsupported  apps without rows, and why
 * @property {Record<string, { signIn: string[], cookie: { bytes: number, names: string[] },
 *   protected: { withCookie: number, signedInAs: string, withoutCookie: number, withoutCookieLocation: string | null } }>} checks
 *   `cookie`: the `Cookie` header sent with each `/protected` request (a chunked session: one
 *   name per chunk)
 * @property {Row[]} rows
 * @property {Record<string, { requests: number, setCookieHeaders: number, names: string[] }>} setCookies
 * @property {Record<string, Awaited<ReturnType<typeof import('./size.js').componentBytes>>>} clientJs
 * @property {Record<string, { runsMs: number[], medianMs: number, regenerateMs: number, addProviderMs: number }>} cli
 *   per kit, on that kit's fixture: `create-auth --yes --no-install` (each run and the median), then
 *   in the same app the medians of a no-op `regenerate` and of `add-provider github --no-install`
 * @property {{ app: string, page: string, summary: import('./profile.js').ProfileSummary }[]} profiles
 */

/**
 * @param {number} n
 * @param {number} [digits]
 */
const fixed = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
/** @param {boolean} ok */
const verdict = (ok) => (ok ? 'met' : '**missed**');
/** A {@link judge} verdict as the targets table shows it. @param {ReturnType<typeof judge>} v */
const shown = (v) => (v === 'missed' ? '**missed**' : v);
/** @param {string} kit  `kit3` */
const kitLabel = (kit) => `Kit ${kit.slice(3)}`;
/** The apps with auth, one column each per kit that has it in the checks table. */
const CHECKED_APPS = ['ours', 'ours-idp', 'ours-db-sqlite', 'ours-db-postgres', 'ours-db-postgres-cache', 'authjs', 'better-auth', 'better-auth-cache'];
/** @type {Record<string, string>} */
const RIVAL_NAMES = { authjs: 'Auth.js', 'better-auth': 'Better Auth', 'better-auth-cache': 'Better Auth with cookieCache' };
/** The database-session apps without the session cache, and the store each names in the targets. */
const DATABASE_APPS = {
	'ours-db-sqlite': 'SQLite',
	'ours-db-postgres': 'PostgreSQL'
};

/**
 * @param {Results} r
 * @returns {string}
 */
export function markdown(r) {
	const lines = [];
	lines.push(`# create-auth bench — ${r.date}${r.options.quick ? ' (quick mode)' : ''}`, '');
	const nodes = Object.entries(r.machine.node).map(([kit, version]) => `${version} (${kitLabel(kit)} apps)`).join(', ');
	lines.push(
		`Machine: ${r.machine.nproc} cores (nproc), ${r.machine.cpu}, Node ${nodes}. Pinning: ${r.machine.pinning}.`,
		`Load: autocannon, ${r.options.connections} connections, ${r.options.warmup} s warm-up (discarded), ` +
			`${r.options.duration} s measured, ${r.options.repetitions} repetition(s) interleaved; medians, with the interquartile ` +
			`range in brackets. Against floor-layout: per repetition (the same repetition's floor-layout row), then the median.`,
		`Versions: ${Object.entries(r.versions)
			.map(([app, v]) => `${app}: ${Object.entries(v).map(([k, x]) => `${k} ${x}`).join(', ')}`)
			.join('; ')}.`,
		''
	);

	lines.push('| kit | app | page | req/s | × floor | × floor-layout | CPU µs/req | CPU µs over floor-layout | p50 ms | p99 ms | RSS MiB at the end | status codes |');
	lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
	for (const row of r.rows) {
		const codes = Object.entries(sumCodes(row.runs)).map(([code, n]) => `${code}×${n}`).join(' ');
		const layout = row.vsLayout;
		lines.push(
			`| ${row.kit} | ${row.app} | /${row.page} | ${formatSpread(row.spread.rps, 0)} | ${fixed(row.ratio.rps, 3)} | ` +
				`${layout ? formatSpread(layout.rps, 3) : 'n/a'} | ${formatSpread(row.spread.cpuUsPerRequest, 0)} | ${layout ? formatSpread(layout.cpuUs, 0) : 'n/a'} | ` +
				`${fixed(row.median.p50, 1)} | ${fixed(row.median.p99, 1)} | ${fixed(row.rssMiB, 1)} | ${codes} |`
		);
	}
	for (const [id, why] of Object.entries(r.unsupported)) {
		const [kit = '', app] = id.split('/');
		lines.push(`| ${kit.slice(3)} | ${app} | — | — | — | — | — | — | — | — | — | ${why} |`);
	}
	lines.push('');
	const across = crossKit(r);
	if (across) lines.push(across, '');

	const columns = CHECKED_APPS.flatMap((app) => Object.keys(r.machine.node).map((kit) => `${kit}/${app}`)).filter((id) => r.checks[id] || r.unsupported[id]);
	const title = (/** @type {string} */ id) => {
		const [kit = '', app = ''] = id.split('/');
		return `${RIVAL_NAMES[app] ?? app} (${kitLabel(kit)})`;
	};
	/** @param {string} label @param {(id: string) => string} cell */
	const checkRow = (label, cell) => `| ${label} | ${columns.map((id) => (r.unsupported[id] ? 'not supported' : cell(id))).join(' | ')} |`;
	lines.push(`| check | ${columns.map(title).join(' | ')} |`, `|---|${columns.map(() => '---|').join('')}`);
	lines.push(checkRow('sign-in over HTTP', (id) => r.checks[id]?.signIn.join('; ') ?? 'n/a'));
	lines.push(
		checkRow('session Cookie header on each authenticated request', (id) => {
			const c = r.checks[id]?.cookie;
			return c ? `${c.bytes} B, ${c.names.length} cookie${c.names.length === 1 ? '' : 's'} (${c.names.join(', ')})` : 'n/a';
		})
	);
	lines.push(checkRow('GET /protected with / without the cookie', (id) => protectedStatus(r.checks[id])));
	lines.push(
		checkRow('Set-Cookie on authenticated GET /protected', (id) => {
			const c = r.setCookies[id];
			return c ? `${c.setCookieHeaders} in ${c.requests} requests${c.names.length ? ` (${c.names.join(', ')})` : ''}` : 'n/a';
		})
	);
	/** @param {string} id @param {'forms' | 'formsAndClient'} key */
	const js = (id, key) => {
		const c = r.clientJs[id];
		return c ? `${c[key]} B` : 'n/a';
	};
	lines.push(checkRow('client JS gzip added by SignIn + SignOut', (id) => js(id, 'forms')));
	lines.push(checkRow('… plus the client signOut()', (id) => js(id, 'formsAndClient')));
	lines.push(
		checkRow('server-rendered forms on the components page (work without JS)', (id) =>
			r.clientJs[id]?.pages.forms.forms.map((a) => `POST ${a}`).join(', ') || 'none'
		)
	);
	const cliRuns = Object.values(r.cli)[0]?.runsMs.length ?? 0;
	lines.push(
		checkRow(`create-auth --yes --no-install (median of ${cliRuns})`, (id) => {
			const c = r.cli[id.split('/')[0] ?? ''];
			return id.endsWith('/ours') && c ? `${fixed(c.medianMs)} ms` : '—';
		})
	);
	/** @param {string} id @param {'regenerateMs' | 'addProviderMs'} key */
	const cliMs = (id, key) => {
		const c = r.cli[id.split('/')[0] ?? ''];
		return id.endsWith('/ours') && c ? `${fixed(c[key])} ms` : '—';
	};
	lines.push(checkRow(`no-op create-auth regenerate (median of ${cliRuns})`, (id) => cliMs(id, 'regenerateMs')));
	lines.push(checkRow(`create-auth add-provider github --no-install (median of ${cliRuns})`, (id) => cliMs(id, 'addProviderMs')));
	lines.push('');

	lines.push('## Targets (ours)', '', '| target | measured | |', '|---|---|---|');
	for (const t of targets(r)) lines.push(`| ${t.target} | ${t.measured} | ${t.verdict} |`);
	lines.push('');

	for (const { app, page, summary } of r.profiles) {
		lines.push(`## CPU profile: ${app} /${page}`, '', '% of the main thread\'s non-idle samples.', '');
		for (const [title, list] of /** @type {const} */ ([
			['self time by function', summary.self],
			['inclusive time, functions outside node:', summary.inclusive],
			['self time by file or package', summary.files]
		])) {
			lines.push(`| % | ${title} |`, '|---:|---|');
			for (const e of list) lines.push(`| ${e.percent.toFixed(1)} | \`${e.name}\` |`);
			lines.push('');
		}
	}
	return lines.join('\n');
}

/**
 * Kit 3's floor against Kit 2's, when both ran: what the major (and its Node) costs or saves
 * before any auth. Null with fewer than two kits.
 * @param {Results} r
 * @returns {string | null}
 */
function crossKit(r) {
	/** @param {number} kit @param {string} page */
	const floor = (kit, page) => r.rows.find((x) => x.kit === kit && x.app === 'floor' && x.page === page);
	const pages = /** @type {const} */ (['public', 'protected']).flatMap((page) => {
		const two = floor(2, page);
		const three = floor(3, page);
		return two && three ? [`/${page} ${fixed(three.median.rps / two.median.rps, 3)}`] : [];
	});
	if (pages.length === 0) return null;
	return `Kit 3 floor req/s ÷ Kit 2 floor req/s: ${pages.join(', ')} (each served by its own Node: ${Object.values(r.machine.node).join(' vs ')}).`;
}

/**
 * The README's targets for ours, per kit, measured and judged.
 * @param {Results} r
 */
export function targets(r) {
	return Object.keys(r.cli).flatMap((kit) => kitTargets(r, Number(kit.slice(3)), `${kitLabel(kit)}: `));
}

/**
 * @typedef {object} Target
 * @property {string} target
 * @property {string} measured
 * @property {string} verdict  `met`, `**missed**`, `within noise` (the interquartile range straddles it) or `n/a`
 */

/**
 * @param {Results} r
 * @param {number} kit
 * @param {string} prefix
 * @returns {Target[]}
 */
function kitTargets(r, kit, prefix) {
	/** @param {string} app @param {string} page */
	const find = (app, page) => r.rows.find((x) => x.kit === kit && x.app === app && x.page === page);
	/**
	 * A row's req/s against floor-layout, judged against `atLeast`.
	 * @param {string} app @param {'public' | 'protected'} page @param {number} atLeast @param {string} what
	 * @returns {Target[]}
	 */
	const ratioTarget = (app, page, atLeast, what) => {
		const row = find(app, page);
		if (!row) return [];
		const target = `${prefix}${what}: /${page} req/s ≥ ${atLeast} × floor-layout`;
		if (!row.vsLayout) return [{ target, measured: 'floor-layout not measured', verdict: 'n/a' }];
		return [{ target, measured: `${formatSpread(row.vsLayout.rps, 3)} ×`, verdict: shown(judge(row.vsLayout.rps, { atLeast })) }];
	};
	const jwt = find('ours', 'protected');
	const cpu = jwt?.vsLayout
		? [
				{
					target: `${prefix}ours (JWT): /protected CPU ≤ ${TARGETS.cpuOverLayoutUs} µs per request over floor-layout`,
					measured: `${formatSpread(jwt.vsLayout.cpuUs, 0)} µs`,
					verdict: shown(judge(jwt.vsLayout.cpuUs, { atMost: TARGETS.cpuOverLayoutUs }))
				}
			]
		: [];
	const layoutRss = find('floor-layout', 'protected')?.rssMiB;
	const rss =
		jwt && layoutRss !== undefined
			? [
					{
						target: `${prefix}ours: RSS ≤ floor-layout's + ${TARGETS.rssOverLayoutMiB} MiB after the runs`,
						measured: `${fixed(jwt.rssMiB, 1)} vs ${fixed(layoutRss, 1)} MiB`,
						verdict: verdict(jwt.rssMiB <= layoutRss + TARGETS.rssOverLayoutMiB)
					}
				]
			: [];
	/** No growth under load: each of ours' RSS after its last run against after its first. @type {Target[]} */
	const steady = r.rows
		.filter((row) => row.kit === kit && row.page === 'protected' && row.app.startsWith('ours') && row.served > 0)
		.map((row) => ({
			target: `${prefix}${row.app}: RSS grows ≤ ${TARGETS.rssGrowthMiB} MiB from the first /protected run to the last`,
			measured: `${fixed(row.rssFirstMiB, 1)} → ${fixed(row.rssMiB, 1)} MiB; ${row.served.toLocaleString('en')} requests measured in all`,
			verdict: verdict(row.rssMiB - row.rssFirstMiB <= TARGETS.rssGrowthMiB)
		}));
	/** Each of ours ahead of its matching Better Auth row, in the same repetitions. @type {Target[]} */
	const betterAuth = Object.entries(BETTER_AUTH_MATCH).flatMap(([app, rival]) => {
		const ours = find(app, 'protected');
		const theirs = find(rival, 'protected');
		if (!ours || !theirs) return [];
		const ahead = paired(ours.runs.map((x) => x.rps), theirs.runs.map((x) => x.rps), (a, b) => a / b);
		return [{ target: `${prefix}${app}: /protected req/s ahead of ${rival}'s`, measured: `${formatSpread(ahead, 2)} ×`, verdict: shown(judge(ahead, { atLeast: 1 })) }];
	});
	const cookies = r.setCookies[`kit${kit}/ours`];
	const js = r.clientJs[`kit${kit}/ours`];
	const cli = r.cli[`kit${kit}`];
	const formsOk = Boolean(js && js.pages.forms.forms.length >= 2);
	return [
		...ratioTarget('ours', 'protected', TARGETS.jwtRatio, 'ours (JWT)'),
		...cpu,
		...ratioTarget('ours', 'public', TARGETS.publicRatio, 'ours, an anonymous visitor'),
		...ratioTarget('ours-idp', 'protected', TARGETS.idpRatio, "ours-idp (the provider's tokens in the JWT)"),
		...Object.entries(DATABASE_APPS).flatMap(([app, store]) => ratioTarget(app, 'protected', TARGETS.databaseRatio, `database sessions on ${store}`)),
		...rss,
		...steady,
		...betterAuth,
		{
			target: `${prefix}no Set-Cookie on authenticated responses unless due`,
			measured: cookies ? `${cookies.setCookieHeaders} in ${cookies.requests}` : 'n/a',
			verdict: cookies ? verdict(cookies.setCookieHeaders === 0) : 'n/a'
		},
		{
			target: `${prefix}components + client ≤ ${TARGETS.clientBytes} B gzip, forms work without JS`,
			measured: js ? `${js.formsAndClient} B; ${formsOk ? 'plain POST forms' : 'no server-rendered forms'}` : 'n/a',
			verdict: js ? verdict(js.formsAndClient <= TARGETS.clientBytes && formsOk) : 'n/a'
		},
		{
			target: `${prefix}create-auth --yes --no-install ≤ ${TARGETS.cliMs} ms`,
			measured: cli ? `${fixed(cli.medianMs)} ms` : 'n/a',
			verdict: cli ? verdict(cli.medianMs <= TARGETS.cliMs) : 'n/a'
		},
		{
			target: `${prefix}no-op regenerate ≤ ${TARGETS.regenerateMs} ms`,
			measured: cli ? `${fixed(cli.regenerateMs)} ms` : 'n/a',
			verdict: cli ? verdict(cli.regenerateMs <= TARGETS.regenerateMs) : 'n/a'
		}
	];
}

/** @param {import('./load.js').LoadResult[]} runs */
function sumCodes(runs) {
	/** @type {Record<string, number>} */
	const total = {};
	for (const run of runs) for (const [code, n] of Object.entries(run.statusCodes)) total[code] = (total[code] ?? 0) + n;
	return total;
}

/** @param {Results['checks'][string] | undefined} c */
function protectedStatus(c) {
	if (!c) return 'n/a';
	const p = c.protected;
	return `${p.withCookie} (Signed in as ${p.signedInAs}) / ${p.withoutCookie}${p.withoutCookieLocation ? ` → ${p.withoutCookieLocation}` : ''}`;
}

/**
 * Write `bench/results/<date>.md` and `.json` (the date with `:` made file-safe).
 * @param {Results} r
 * @returns {Promise<{ md: string, json: string }>}
 */
export async function save(r) {
	const dir = path.join(repoRoot, 'bench', 'results');
	await fs.mkdir(dir, { recursive: true });
	const stem = path.join(dir, `${r.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}${r.options.quick ? '-quick' : ''}`);
	await fs.writeFile(`${stem}.md`, `${markdown(r)}\n`);
	await fs.writeFile(`${stem}.json`, `${JSON.stringify(r, null, '\t')}\n`);
	return { md: `${stem}.md`, json: `${stem}.json` };
}
