// @ts-check
/**
 * What an e2e file costs, counted as it runs: the harness counts each install, create-auth run,
 * svelte-check, build, app server, browser launch and child process, the app servers' scrypt
 * hashes at production cost, and the seconds a test waits on the real clock on purpose
 * ({@link pause}). `e2e/harness/ledger-check.js` (the e2e project's setup file) compares the counts
 * with the file's line in `e2e/ledger.json` when the file ends, so that a new build or install
 * cannot land without the ledger saying so in the same commit.
 *
 * Each e2e file runs in a process of its own, so the counts of this module are the file's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The counted costs, in the ledger's order.
 * - `installs`: `install()` (a package manager's install of an app; the CLI's own installs are in
 *   `cliRuns`); `cliRuns`: create-auth runs (`runCli()`, `runPackedCli()`); `checks`: `check()`
 *   (svelte-kit sync + svelte-check); `builds`: `build()` (vite build); `servers`: `start()`;
 *   `browsers`: `launchBrowser()`; `spawns`: every child process the harness starts (those above
 *   included); `fullCostHashes`: scrypt derivations at N=2^17 in the app servers started;
 *   `waitSeconds`: seconds a test may wait on the real clock on purpose: each {@link pause},
 *   rounded up, and the bound of each poll that waits for the real clock (`count('waitSeconds', s)`).
 */
export const COSTS = /** @type {const} */ (['installs', 'cliRuns', 'checks', 'builds', 'servers', 'browsers', 'spawns', 'fullCostHashes', 'waitSeconds']);

/** @typedef {typeof COSTS[number]} Cost */
/** @typedef {Record<Cost, number>} Counts */
/** @typedef {{ step: string, ms: number }} Step  one timed harness step: what it was, and its duration in ms */

/** @type {Counts} */
const counts = /** @type {Counts} */ (Object.fromEntries(COSTS.map((cost) => [cost, 0])));
/** @type {Step[]} */
const steps = [];
/** @type {Map<string, string>} app folder → what it was made from, for step names */
const origins = new Map();

/** The environment variable that names the file an app server counts its full-cost hashes in. */
export const HASHES_ENV = 'CREATE_AUTH_TEST_HASHES';

/** @type {string[]} files an app server appends a line to per full-cost hash ({@link hashTally}) */
const hashFiles = [];
/** Set within {@link uncounted}. */
const notCounted = new AsyncLocalStorage();

/**
 * Adds `amount` to a cost, unless called within {@link uncounted}.
 * @param {Cost} cost
 * @param {number} [amount]
 */
export function count(cost, amount = 1) {
	if (!notCounted.getStore()) counts[cost] += amount;
}

/**
 * Runs `body` with nothing it starts counted: for filling the machine's cache (a Node installed
 * from npm), which a file pays for only on a machine that lacks it, so it is no cost of the file.
 * @template T
 * @param {() => Promise<T>} body
 * @returns {Promise<T>}
 */
export function uncounted(body) {
	return notCounted.run(true, body);
}

/**
 * Counts one `cost` and times `body` as a step named `<cost> <what>`.
 * @template T
 * @param {Cost} cost
 * @param {string} what  e.g. the app it works on ({@link appLabel})
 * @param {() => Promise<T>} body
 * @returns {Promise<T>}
 */
export async function timed(cost, what, body) {
	count(cost);
	const started = Date.now();
	try {
		return await body();
	} finally {
		steps.push({ step: `${cost.replace(/s$/, '')} ${what}`, ms: Date.now() - started });
	}
}

/**
 * Remembers what an app folder was made from (`kit2-ts`, `copy of kit2-ts`), for step names.
 * @param {string} appDir
 * @param {string} origin
 */
export function nameApp(appDir, origin) {
	origins.set(path.resolve(appDir), origin);
}

/**
 * An app folder as steps name it: its origin ({@link nameApp}) and its folder name.
 * @param {string} appDir
 */
export function appLabel(appDir) {
	const origin = origins.get(path.resolve(appDir));
	return origin ? `${origin} (${path.basename(appDir)})` : path.basename(appDir);
}

/**
 * A deliberate wait on the real clock, counted in `waitSeconds`: only where the real clock is
 * the point (a test that moves an app's clock does not wait).
 * @param {number} ms  how long, in ms
 * @returns {Promise<void>}
 */
export function pause(ms) {
	count('waitSeconds', Math.ceil(Math.max(0, ms) / 1000));
	return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * A new file (not made yet) for an app server to count its full-cost hashes in, one line each
 * (./scrypt-preload.js): its lines are added to `fullCostHashes` whenever the counts are read,
 * so a server still running, or stopped, counts alike. Removed when the process exits.
 * @returns {string} its absolute path
 */
export function hashTally() {
	const file = path.join(os.tmpdir(), `create-auth-hashes-${process.pid}-${hashFiles.length}`);
	rmSync(file, { force: true }); // left by an earlier process of the same pid that did not exit cleanly
	if (hashFiles.length === 0) process.on('exit', () => hashFiles.forEach((tally) => rmSync(tally, { force: true })));
	hashFiles.push(file);
	return file;
}

/** @param {string} file  lines in it; 0 when it does not exist */
function linesOf(file) {
	try {
		return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
	} catch {
		return 0;
	}
}

/**
 * This file's counts so far, and its timed steps in the order they ended.
 * @returns {{ counts: Counts, steps: Step[] }}
 */
export function ledgerSoFar() {
	const hashes = hashFiles.reduce((sum, file) => sum + linesOf(file), 0);
	return { counts: { ...counts, fullCostHashes: counts.fullCostHashes + hashes }, steps: [...steps] };
}

/**
 * The differences between what a file cost and its ledger line, as sentences; empty when none
 * counts against it. A count above the line always counts; when the whole file ran and passed,
 * any other difference does too, and so does a missing line.
 * @param {Record<string, number>} counted
 * @param {Record<string, number> | undefined} booked  the file's line in e2e/ledger.json
 * @param {boolean} whole  every test of the file ran and passed
 * @returns {string[]}
 */
export function ledgerDifferences(counted, booked, whole) {
	if (!booked) return whole ? ['the file has no line in e2e/ledger.json'] : [];
	return COSTS.flatMap((cost) => {
		const was = booked[cost] ?? 0;
		const now = counted[cost] ?? 0;
		if (now > was || (whole && now !== was)) return [`${cost}: ${now} counted, the ledger says ${was}`];
		return [];
	});
}
