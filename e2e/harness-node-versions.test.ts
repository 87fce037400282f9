/**
 * The harness under every Node we support (20, 22, 24), without installing an app: copyFixture()
 * under this test's Node and, through the `node@22` / `node@24` packages (./harness/node.js),
 * under Node 22 and 24 whatever Node runs the suite. Node 22 and 24 refuse `fs.cp` of a folder
 * into an existing (even empty) one with `errorOnExist: true, force: false`
 * (ERR_FS_CP_EEXIST), which Node 20 allowed; copyFixture() once did that, and broke the demo
 * and every e2e test on today's LTS. CI runs this file under Node 22 and 24 too (scripts/ci-node.js).
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeApp, repoRoot, run } from './harness/app.js';
import { NODE_MAJORS, nodeDir, nodeToolchain } from './harness/node.js';

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
