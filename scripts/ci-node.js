#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/ci-node.js <20|22|24> [--tests node-dependent|unit|all] [--rev <commit>]`: the tests
 * under Node 20, 22 or 24 from the `node@<major>` npm package (e2e/harness/node.js), whatever Node
 * runs this script, in a copy of the tree as a user's clone would be. `.ci/run` calls it with
 * `--tests all` under 24, the active LTS, and for 22 and 20 with what depends on the Node version.
 *
 * 1. copy: the working tree (git's tracked and untracked, not ignored, files), or with `--rev`
 *    that commit's tree (`git archive`: what was committed, without work in progress), into
 *    `<machine cache>/ci/node<major>` (e2e/harness/cache.js: outside the clone, so a clean clone's
 *    run finds the `node_modules` and `.cache` of the last run there and keeps them);
 * 2. install: `npm install` there under that Node (PATH first, its headers as
 *    `npm_config_nodedir`: better-sqlite3 built for it, or unpacked from the machine's prebuilds),
 *    which also builds dist/ (`prepare`); under Node 24, better-sqlite3 13 in place of the repo's 12;
 * 3. the tests, by `--tests`:
 *    - `node-dependent` (the default): the files of scripts/node-dependent.js, unit then e2e, then
 *      the demo;
 *    - `unit`: the whole unit suite, the node-dependent e2e files, then the demo;
 *    - `all`: `npm test`, README's command, and nothing else;
 *    the demo: `node scripts/demo.js` until `GET /signin` answers 200 and a sign-up with a password
 *    is redirected (303, not the 503 of a driver built for another Node), then Ctrl-C (SIGINT),
 *    and both ports (5173, 9400) must be closed again.
 * Prints which Node runs each step, its result and its duration, then a summary; exits 1 if a
 * step failed (the steps after a failed install are skipped), 2 for a bad argument.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, repoRoot, run } from '../e2e/harness/app.js';
import { machineCacheDir } from '../e2e/harness/cache.js';
import { NODE_MAJORS, nodeToolchain } from '../e2e/harness/node.js';
import { keepPrebuilds } from '../e2e/harness/prebuilds.js';
import { nodeDependentFiles } from './node-dependent.js';

const TEST_SETS = ['node-dependent', 'unit', 'all'];
/** @type {{ values: { tests?: string, rev?: string }, positionals: string[] }} */
let parsed;
try {
	parsed = parseArgs({ allowPositionals: true, options: { tests: { type: 'string', default: 'node-dependent' }, rev: { type: 'string' } } });
} catch {
	parsed = { values: {}, positionals: [] };
}
const major = Number(parsed.positionals[0]);
const { tests = '', rev } = parsed.values;
if (parsed.positionals.length !== 1 || !NODE_MAJORS.includes(major) || !TEST_SETS.includes(tests) || rev === '') {
	console.error(`usage: node scripts/ci-node.js <${NODE_MAJORS.join('|')}> [--tests ${TEST_SETS.join('|')}] [--rev <commit>]`);
	process.exit(2);
}
const copyDir = path.join(machineCacheDir, 'ci', `node${major}`);
/** Entries of the copy kept from one run to the next. */
const KEPT = ['node_modules', '.cache'];
/** scripts/demo.js's ports: the app (vite dev) and the dev IdP. */
const DEMO_PORTS = [5173, 9400];
const MINUTE = 60_000;
/** The better-sqlite3 the copy's own tests load under Node 24 (see the install step). */
const BETTER_SQLITE3_NODE24 = '^13.2.0';

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** @param {string} text */
const tail = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** @type {{ step: string, ok: boolean | null, ms: number, note: string }[]} */
const results = [];
const toolchain = await nodeToolchain(major);
const label = `Node ${toolchain.version} (node@${major} from npm)`;
const env = toolchain.env;

/**
 * Runs one step under the toolchain and records its result; a thrown error is a failure.
 * @param {string} step
 * @param {() => Promise<string>} body  resolves with a note for the summary
 */
async function step(step, body) {
	console.log(`\n=== ci-node ${major}: ${step} under ${label} ===`);
	const started = Date.now();
	let ok = true;
	let note;
	try {
		note = await body();
	} catch (error) {
		ok = false;
		note = /** @type {Error} */ (error).message;
	}
	const ms = Date.now() - started;
	results.push({ step, ok, ms, note });
	console.log(`=== ci-node ${major}: ${step} ${ok ? 'PASSED' : 'FAILED'} in ${seconds(ms)}${ok ? '' : `\n${note}`} ===`);
	return ok;
}

/**
 * A command in the copy, its output shown as it comes; throws (with the tail) on a non-zero exit.
 * @param {string} command
 * @param {string[]} args
 * @param {number} timeout  ms
 */
async function inCopy(command, args, timeout) {
	const result = await run(command, args, { cwd: copyDir, env, timeout, echo: true });
	if (result.exitCode !== 0) {
		throw new Error(`${command} ${args.join(' ')} exited with ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}\n${tail(result.stderr || result.stdout)}`);
	}
	return result;
}

/** @param {number} port  whether something accepts connections on 127.0.0.1:port */
function listening(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		socket.setTimeout(2_000);
		socket.once('connect', () => (socket.destroy(), resolve(true)));
		socket.once('timeout', () => (socket.destroy(), resolve(false)));
		socket.once('error', () => resolve(false));
	});
}

async function copyTree() {
	await fs.mkdir(copyDir, { recursive: true });
	for (const entry of await fs.readdir(copyDir)) {
		if (!KEPT.includes(entry)) await fs.rm(path.join(copyDir, entry), { recursive: true, force: true });
	}
	let count;
	if (rev) {
		const archive = await run('sh', ['-c', 'git archive --format=tar "$0" | tar -x -C "$1"', rev, copyDir], { cwd: repoRoot, timeout: MINUTE });
		if (archive.exitCode !== 0) throw new Error(`git archive ${rev} failed in ${repoRoot}: ${archive.stderr}`);
		const listed = await run('git', ['ls-tree', '-r', '--name-only', '-z', rev], { cwd: repoRoot, timeout: MINUTE });
		count = `${listed.stdout.split('\0').filter(Boolean).length} files of ${rev}`;
	} else {
		const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, timeout: MINUTE });
		if (listed.exitCode !== 0) throw new Error(`git ls-files failed in ${repoRoot}: ${listed.stderr}`);
		const files = listed.stdout.split('\0').filter((file) => file && existsSync(path.join(repoRoot, file)));
		for (const file of files) {
			await fs.cp(path.join(repoRoot, file), path.join(copyDir, file), { verbatimSymlinks: true, preserveTimestamps: true });
		}
		count = `${files.length} files of the working tree`;
	}
	return `${count} into ${copyDir}`;
}

async function demo() {
	for (const port of DEMO_PORTS) {
		if (await listening(port)) throw new Error(`port ${port} is in use: stop what listens there (another demo?) first`);
	}
	const url = `http://127.0.0.1:${DEMO_PORTS[0]}`;
	const child = spawn(toolchain.node, ['scripts/demo.js'], { cwd: copyDir, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	for (const stream of [child.stdout, child.stderr]) {
		stream.setEncoding('utf8').on('data', (data) => {
			output += data;
			process.stdout.write(data);
		});
	}
	/** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
	let exit = null;
	const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exit = { code, signal }))));
	const killGroup = () => {
		try {
			if (child.pid) process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* gone */
		}
	};
	try {
		// The first run installs the app (create-auth's npm install), hence the long wait.
		const deadline = Date.now() + 15 * MINUTE;
		let status = 0;
		while (Date.now() < deadline && !exit) {
			const response = await fetch(`${url}/signin`, { redirect: 'manual', signal: AbortSignal.timeout(60_000) }).catch(() => null);
			status = response?.status ?? 0;
			await response?.body?.cancel();
			if (status === 200) break;
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
		if (status !== 200) throw new Error(exit ? `the demo exited (${JSON.stringify(exit)}) before GET /signin answered 200` : `GET ${url}/signin did not answer 200 within 15 min`);
		console.log(`ci-node ${major}: GET ${url}/signin answered 200`);

		const email = `ci-node${major}-${Date.now()}@example.com`;
		const signUp = await fetch(`${url}/signup`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
			body: new URLSearchParams({ email, password: 'correct horse battery staple 42' }),
			signal: AbortSignal.timeout(60_000)
		});
		await signUp.body?.cancel();
		if (signUp.status !== 303) throw new Error(`POST /signup answered ${signUp.status}, not a 303 to the signed-in page`);
		console.log(`ci-node ${major}: POST ${url}/signup (${email}) answered 303 to ${signUp.headers.get('location')}`);
	} finally {
		// Ctrl-C, as a user stops it; then make sure nothing of its process group is left.
		if (!exit && child.pid) process.kill(child.pid, 'SIGINT');
		const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 20_000))]);
		killGroup();
		if (!stopped) output += '\n[ci-node] the demo did not exit within 20 s of SIGINT; killed';
	}
	const open = [];
	for (const port of DEMO_PORTS) if (await listening(port)) open.push(port);
	if (open.length > 0) throw new Error(`after the demo stopped, ports ${open.join(', ')} still answer`);
	if (output.includes('[ci-node] the demo did not exit')) throw new Error('the demo did not exit within 20 s of SIGINT');
	return `GET /signin 200, sign-up 303, stopped by SIGINT (${JSON.stringify(exit)})`;
}

console.log(`ci-node ${major}: ${label} at ${toolchain.node}`);
await step(rev ? `copy of ${rev}` : 'copy of the working tree', copyTree);
const installed = await step('npm install', async () => {
	const result = await inCopy('npm', ['install', '--no-audit', '--no-fund'], 15 * MINUTE);
	if (!existsSync(path.join(copyDir, 'dist', 'cli.js'))) await inCopy('npm', ['run', 'build'], 5 * MINUTE);
	// Kept before the swap below: the harness test's probe app installs better-sqlite3 12 under this
	// Node and unpacks the build kept here (its child npm does not get this Node's headers).
	const kept = keepPrebuilds(copyDir, cleanEnv(env));
	if (major >= 24) {
		// better-sqlite3 12 (the repo's, for Node 20) subclasses node::ObjectWrap, whose destructor
		// Node 24 aborts on when a Statement is collected late (`Assertion failed: (env) != nullptr`
		// in RemoveEnvironmentCleanupHook, nodejs/node#65446): a vitest worker died so, once in three
		// runs. 13 is built on Node-API and needs Node >= 22; the tests use nothing that differs.
		await inCopy('npm', ['install', '--no-save', '--no-audit', '--no-fund', `better-sqlite3@${BETTER_SQLITE3_NODE24}`], 5 * MINUTE);
	}
	return `${seconds(result.durationMs)}${kept.length ? `, kept ${kept.map((file) => path.basename(file)).join(', ')}` : ''}`;
});
const vitest = path.join(copyDir, 'node_modules', 'vitest', 'vitest.mjs');
/** @type {[name: string, command: string, args: string[], timeout: number][]} */
const testSteps =
	tests === 'all'
		? [['npm test', 'npm', ['test'], 75 * MINUTE]]
		: [
				tests === 'unit'
					? ['unit suite (vitest run --project unit)', toolchain.node, [vitest, 'run', '--project', 'unit'], 30 * MINUTE]
					: ['node-dependent unit tests (scripts/node-dependent.js)', toolchain.node, [vitest, 'run', '--project', 'unit', ...nodeDependentFiles('unit')], 15 * MINUTE],
				['node-dependent e2e tests (scripts/node-dependent.js)', toolchain.node, [vitest, 'run', '--project', 'e2e', ...nodeDependentFiles('e2e')], 15 * MINUTE]
			];
for (const [name, command, args, timeout] of testSteps) {
	if (!installed) results.push({ step: name, ok: null, ms: 0, note: 'skipped: the install failed' });
	else await step(name, async () => tail((await inCopy(command, args, timeout)).stdout, 6).replace(/\u001b\[[0-9;]*m/g, ''));
}
if (tests !== 'all') {
	if (!installed) results.push({ step: 'demo', ok: null, ms: 0, note: 'skipped: the install failed' });
	else await step('demo (node scripts/demo.js)', demo);
}

console.log(`\n=== ci-node ${major}: summary, ${label} ===`);
for (const { step, ok, ms, note } of results) {
	console.log(`${ok === null ? 'SKIPPED' : ok ? 'PASSED ' : 'FAILED '} ${seconds(ms).padStart(8)}  ${step}${ok ? '' : `: ${note.split('\n')[0]}`}`);
}
const failed = results.some((result) => result.ok !== true);
console.log(`=== ci-node ${major}: ${failed ? 'FAILED' : 'PASSED'} ===`);
process.exit(failed ? 1 : 0);
