/**
 * The harness under every Node we support (20, 22, 24), without installing an app: copyFixture()
 * under this test's Node and, through the `node@20` / `node@22` / `node@24` packages
 * (./harness/node.js), under each of them whatever Node runs the suite. Node 22 and 24 refuse `fs.cp` of a folder
 * into an existing (even empty) one with `errorOnExist: true, force: false`
 * (ERR_FS_CP_EEXIST), which Node 20 allowed; copyFixture() once did that, and broke the demo
 * and every e2e test on today's LTS. CI runs this file under Node 20, 22 and 24 (scripts/node-dependent.js).
 * Last, the demo's check of its native driver (scripts/native-driver.js): better-sqlite3 installed
 * under this Node, loaded by Node 22 (by Node 24 when this is 22), is rebuilt for it.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNativeDriver, nodeEnv, nodeHeaders } from '../scripts/native-driver.js';
import { cleanEnv, copyFixture, install, removeApp, repoRoot, run } from './harness/app.js';
import { NODE_MAJORS, nodeDir, nodeToolchain } from './harness/node.js';
import { keepPrebuilds } from './harness/prebuilds.js';

const FIXTURE = 'kit2-ts';
const fixtureDir = path.join(import.meta.dirname, 'fixtures', FIXTURE);

/** Every file under `dir` (relative paths, sorted) with its content, skipping what copyFixture() skips. */
async function snapshot(dir: string): Promise<Record<string, string>> {
	const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
	const files: Record<string, string> = {};
	for (const entry of entries) {
		const full = path.join(entry.parentPath, entry.name);
		const relative = path.relative(dir, full);
		if (relative.split(path.sep).some((part) => part === 'node_modules' || part === '.svelte-kit')) continue;
		if (entry.isFile()) files[relative] = await fs.readFile(full, 'utf8');
	}
	return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const temps: string[] = [];
/** A new empty `create-auth-e2e-*` folder in tmpdir (removeApp() accepts those). */
async function tempDir() {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-e2e-'));
	temps.push(dir);
	return dir;
}

afterAll(async () => {
	for (const dir of temps) await removeApp(dir);
});

describe(`copyFixture() under this Node (${process.version})`, () => {
	it('copies the fixture into a new temp folder, every file, byte for byte', async () => {
		const app = await copyFixture(FIXTURE);
		temps.push(app);
		expect(path.dirname(app)).toBe(path.resolve(os.tmpdir()));
		expect(path.basename(app)).toMatch(/^create-auth-e2e-/);
		const copied = await snapshot(app);
		expect(Object.keys(copied)).toContain('package.json');
		expect(copied).toEqual(await snapshot(fixtureDir));
	});

	it('copies into a dest that exists and is empty (the case Node 22 and 24 refused)', async () => {
		const dest = path.join(await tempDir(), 'app');
		await fs.mkdir(dest);
		expect(await copyFixture(FIXTURE, { dest })).toBe(dest);
		expect(await snapshot(dest)).toEqual(await snapshot(fixtureDir));
	});

	it('creates a dest that does not exist, parents included', async () => {
		const dest = path.join(await tempDir(), 'demo', 'app');
		expect(await copyFixture(FIXTURE, { dest })).toBe(dest);
		expect(await snapshot(dest)).toEqual(await snapshot(fixtureDir));
	});

	it('refuses a dest that is not empty and leaves what is there alone', async () => {
		const dest = await tempDir();
		await fs.writeFile(path.join(dest, 'notes.txt'), 'mine\n');
		await expect(copyFixture(FIXTURE, { dest })).rejects.toThrow(/exists and is not empty/);
		expect(await fs.readdir(dest)).toEqual(['notes.txt']);
		expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('mine\n');
	});

	it('refuses a dest that is a file, and leaves it alone', async () => {
		const dest = path.join(await tempDir(), 'file');
		await fs.writeFile(dest, 'mine\n');
		await expect(copyFixture(FIXTURE, { dest })).rejects.toThrow(/not a folder/);
		expect(await fs.readFile(dest, 'utf8')).toBe('mine\n');
	});

	it('throws for a fixture that does not exist', async () => {
		await expect(copyFixture('no-such-fixture')).rejects.toThrow(/no fixture named "no-such-fixture"/);
	});
});

describe.each(NODE_MAJORS)('copyFixture() under Node %i from npm', (major) => {
	it('copies into a new temp folder and into an empty dest', async () => {
		const toolchain = await nodeToolchain(major);
		expect(toolchain.version.startsWith(`v${major}.`), toolchain.version).toBe(true);
		expect(toolchain.node.startsWith(nodeDir(major) + path.sep)).toBe(true);
		const dest = path.join(await tempDir(), 'app');
		await fs.mkdir(dest);
		const script = [
			`import { copyFixture } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'e2e/harness/app.js')).href)};`,
			`const temp = await copyFixture(${JSON.stringify(FIXTURE)});`,
			`const dest = await copyFixture(${JSON.stringify(FIXTURE)}, { dest: ${JSON.stringify(dest)} });`,
			`console.log(JSON.stringify({ version: process.version, temp, dest }));`
		].join('\n');
		const result = await run(toolchain.node, ['--input-type=module', '-e', script], { cwd: repoRoot, env: toolchain.env, timeout: 60_000 });
		expect(result.exitCode, result.stderr).toBe(0);
		const out = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
		temps.push(out.temp);
		expect(out.version).toBe(toolchain.version);
		expect(out.dest).toBe(dest);
		const expected = await snapshot(fixtureDir);
		expect(await snapshot(out.temp)).toEqual(expected);
		expect(await snapshot(dest)).toEqual(expected);
		expect(existsSync(path.join(dest, 'node_modules'))).toBe(false);
	});
});

/** A Node from npm other than the one running this file. */
const OTHER = process.versions.node.startsWith('22.') ? 24 : 22;

describe(`the demo's native driver under Node ${OTHER} (scripts/native-driver.js)`, () => {
	/** A package with better-sqlite3 alone, at the repo's range, installed under this test's Node. */
	let probe: string;

	beforeAll(async () => {
		probe = await tempDir();
		const range = JSON.parse(await fs.readFile(path.join(repoRoot, 'package.json'), 'utf8')).devDependencies['better-sqlite3'];
		await fs.writeFile(path.join(probe, 'package.json'), JSON.stringify({ name: 'probe', private: true, dependencies: { 'better-sqlite3': range } }));
		await install(probe);
	});

	it('finds the headers of each Node from npm, and puts that Node first for children', async () => {
		for (const major of NODE_MAJORS) {
			const toolchain = await nodeToolchain(major);
			expect(nodeHeaders(toolchain.node)).toBe(toolchain.nodedir);
			expect(nodeEnv(toolchain.node)).toEqual(toolchain.env);
		}
		const ours = nodeHeaders();
		if (ours) expect(existsSync(path.join(ours, 'include', 'node', 'common.gypi'))).toBe(true);
	});

	it('says "absent" for an app without better-sqlite3, "ok" when it loads as installed', async () => {
		expect(await ensureNativeDriver(await tempDir())).toEqual({ status: 'absent' });
		expect(await ensureNativeDriver(probe)).toEqual({ status: 'ok' });
	});

	it('when it cannot rebuild, throws with the command to run and leaves the app as it was', async () => {
		const toolchain = await nodeToolchain(OTHER);
		const binary = path.join(probe, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
		const before = await fs.readFile(binary);
		const noNpm = { ...toolchain.env, PATH: path.dirname(toolchain.node) };
		const error = await ensureNativeDriver(probe, { node: toolchain.node, env: noNpm }).catch((e: Error) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toMatch(new RegExp(`does not load in Node v${OTHER}\\.[\\s\\S]*NODE_MODULE_VERSION ${process.versions.modules}\\b`));
		expect((error as Error).message).toContain(`cd ${probe} && PATH=${path.dirname(toolchain.node)}:$PATH npm_config_nodedir=${toolchain.nodedir} npm rebuild better-sqlite3`);
		expect((await fs.readFile(binary)).equals(before)).toBe(true);
	});

	it(`rebuilds a driver built for this Node so that Node ${OTHER} loads it, then says "ok"`, async () => {
		const toolchain = await nodeToolchain(OTHER);
		const result = await ensureNativeDriver(probe, { node: toolchain.node, env: nodeEnv(toolchain.node) });
		expect(result.status).toBe('rebuilt');
		expect(result.why).toMatch(new RegExp(`NODE_MODULE_VERSION ${process.versions.modules}\\b`));
		keepPrebuilds(probe, cleanEnv(toolchain.env)); // a compile is kept for the next run
		expect(await ensureNativeDriver(probe, { node: toolchain.node })).toEqual({ status: 'ok' });
		const query = await run(toolchain.node, ['-e', `const D = require('better-sqlite3'); console.log(new D(':memory:').prepare('SELECT 6 * 7 AS n').get().n)`], {
			cwd: probe,
			timeout: 30_000
		});
		expect(query.stdout.trim(), query.stderr).toBe('42');
	});
});
