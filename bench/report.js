// @ts-check
/** The results as markdown and JSON, written to `bench/results/<date>.{md,json}`. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../e2e/harness/app.js';

/** The targets of README.md, as numbers. */
export const TARGETS = {
	protectedRatio: 0.9,
	publicRatio: 0.97,
	clientBytes: 400,
	cliMs: 500,
	regenerateMs: 300
};

/**
 * @typedef {object} Row
 * @property {import('./apps.js').AppName} app
 * @property {'public' | 'protected'} page
 * @property {import('./load.js').LoadResult[]} runs
 * @property {{ rps: number, p50: number, p99: number, cpuUsPerRequest: number }} median
 * @property {number} rssMiB  at the end of the last run
 * @property {{ rps: number, cpu: number }} ratio  to the floor's row for the same page
 */

/**
 * @typedef {object} Results
 * @property {string} date  ISO timestamp of the start
 * @property {{ nproc: number, cpu: string, node: string, pinning: string }} machine
 * @property {{ connections: number, warmup: number, duration: number, repetitions: number, quick: boolean }} options
 * @property {Record<string, Record<string, string>>} versions
 * @property {Record<string, { signIn: string[], protected: { withCookie: number, withoutCookie: number, withoutCookieLocation: string | null } }>} checks
 * @property {Row[]} rows
 * @property {Record<string, { requests: number, setCookieHeaders: number, names: string[] }>} setCookies
 * @property {Record<string, Awaited<ReturnType<typeof import('./size.js').componentBytes>>>} clientJs
 * @property {{ runsMs: number[], medianMs: number }} cli
 * @property {string} regenerate
 * @property {string} databaseStrategy
 * @property {{ app: string, page: string, summary: import('./profile.js').ProfileSummary }[]} profiles
 */

/** @param {number[]} values */
export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? /** @type {number} */ (sorted[mid]) : (/** @type {number} */ (sorted[mid - 1]) + /** @type {number} */ (sorted[mid])) / 2;
}

/**
 * @param {number} n
 * @param {number} [digits]
 */
const fixed = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
/** @param {boolean} ok */
const verdict = (ok) => (ok ? 'met' : '**missed**');

/**
 * @param {Results} r
 * @returns {string}
 */
export function markdown(r) {
	const lines = [];
	lines.push(`# create-auth bench — ${r.date}${r.options.quick ? ' (quick mode)' : ''}`, '');
	lines.push(
		`Machine: ${r.machine.nproc} cores (nproc), ${r.machine.cpu}, Node ${r.machine.node}. Pinning: ${r.machine.pinning}.`,
		`Load: autocannon, ${r.options.connections} connections, ${r.options.warmup} s warm-up (discarded), ` +
			`${r.options.duration} s measured, ${r.options.repetitions} repetition(s) interleaved; medians.`,
		`Versions: ${Object.entries(r.versions)
			.map(([app, v]) => `${app}: ${Object.entries(v).map(([k, x]) => `${k} ${x}`).join(', ')}`)
			.join('; ')}.`,
		''
	);

	lines.push('| app | page | req/s | × floor | p50 ms | p99 ms | CPU µs/req | CPU × floor | RSS MiB | status codes |');
	lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
	for (const row of r.rows) {
		const codes = Object.entries(sumCodes(row.runs)).map(([code, n]) => `${code}×${n}`).join(' ');
		lines.push(
			`| ${row.app} | /${row.page} | ${fixed(row.median.rps)} | ${fixed(row.ratio.rps, 3)} | ${fixed(row.median.p50, 1)} | ` +
				`${fixed(row.median.p99, 1)} | ${fixed(row.median.cpuUsPerRequest)} | ${fixed(row.ratio.cpu, 2)} | ${fixed(row.rssMiB, 1)} | ${codes} |`
		);
	}
	lines.push('');

	lines.push('| check | ours | Auth.js |', '|---|---|---|');
	const signIn = (/** @type {string} */ app) => r.checks[app]?.signIn.join('; ') ?? 'n/a';
	lines.push(`| sign-in over HTTP | ${signIn('ours')} | ${signIn('authjs')} |`);
	lines.push(`| GET /protected with / without the cookie | ${protectedStatus(r.checks.ours)} | ${protectedStatus(r.checks.authjs)} |`);
	const cookies = (/** @type {string} */ app) => {
		const c = r.setCookies[app];
		return c ? `${c.setCookieHeaders} in ${c.requests} requests${c.names.length ? ` (${c.names.join(', ')})` : ''}` : 'n/a';
	};
	lines.push(`| Set-Cookie on authenticated GET /protected | ${cookies('ours')} | ${cookies('authjs')} |`);
	const js = (/** @type {string} */ app, /** @type {'forms' | 'formsAndClient'} */ key) => {
		const c = r.clientJs[app];
		return c ? `${c[key]} B` : 'n/a';
	};
	lines.push(`| client JS gzip added by SignIn + SignOut | ${js('ours', 'forms')} | ${js('authjs', 'forms')} |`);
	lines.push(`| … plus the client signOut() | ${js('ours', 'formsAndClient')} | ${js('authjs', 'formsAndClient')} |`);
	const forms = (/** @type {string} */ app) => r.clientJs[app]?.pages.forms.forms.map((a) => `POST ${a}`).join(', ') || 'none';
	lines.push(`| server-rendered forms on the components page (work without JS) | ${forms('ours')} | ${forms('authjs')} |`);
	lines.push(`| create-auth --yes --no-install (median of ${r.cli.runsMs.length}) | ${fixed(r.cli.medianMs)} ms | — |`);
	lines.push(`| no-op regenerate | ${r.regenerate} | — |`);
	lines.push(`| database-strategy rows | ${r.databaseStrategy} | — |`);
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
 * The README's targets, measured and judged.
 * @param {Results} r
 */
export function targets(r) {
	/** @param {string} app @param {string} page */
	const row = (app, page) => r.rows.find((x) => x.app === app && x.page === page);
	const prot = row('ours', 'protected');
	const pub = row('ours', 'public');
	const cookies = r.setCookies.ours;
	const js = r.clientJs.ours;
	const formsOk = Boolean(js && js.pages.forms.forms.length >= 2);
	return [
		{
			target: `/protected req/s ≥ ${TARGETS.protectedRatio} × floor`,
			measured: prot ? `${fixed(prot.ratio.rps, 3)} × floor` : 'n/a',
			verdict: prot ? verdict(prot.ratio.rps >= TARGETS.protectedRatio) : 'n/a'
		},
		{
			target: `/public req/s ≥ ${TARGETS.publicRatio} × floor`,
			measured: pub ? `${fixed(pub.ratio.rps, 3)} × floor` : 'n/a',
			verdict: pub ? verdict(pub.ratio.rps >= TARGETS.publicRatio) : 'n/a'
		},
		{
			target: 'no Set-Cookie on authenticated responses unless due',
			measured: cookies ? `${cookies.setCookieHeaders} in ${cookies.requests}` : 'n/a',
			verdict: cookies ? verdict(cookies.setCookieHeaders === 0) : 'n/a'
		},
		{
			target: `components + client ≤ ${TARGETS.clientBytes} B gzip, forms work without JS`,
			measured: js ? `${js.formsAndClient} B; ${formsOk ? 'plain POST forms' : 'no server-rendered forms'}` : 'n/a',
			verdict: js ? verdict(js.formsAndClient <= TARGETS.clientBytes && formsOk) : 'n/a'
		},
		{
			target: `create-auth --yes --no-install ≤ ${TARGETS.cliMs} ms`,
			measured: `${fixed(r.cli.medianMs)} ms`,
			verdict: verdict(r.cli.medianMs <= TARGETS.cliMs)
		},
		{ target: `no-op regenerate ≤ ${TARGETS.regenerateMs} ms`, measured: r.regenerate, verdict: 'n/a' }
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
	return `${p.withCookie} / ${p.withoutCookie}${p.withoutCookieLocation ? ` → ${p.withoutCookieLocation}` : ''}`;
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
