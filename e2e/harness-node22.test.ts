/**
 * The harness under Node 22, which SvelteKit 3 needs (>= 22.17): node22() installs it from the
 * `node@22` npm package, and its `env` is enough for install / build / preview / check of the
 * kit3 fixtures. One real install (kit3-ts); the kit3-jsdoc copy shares it (shareInstall).
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	build,
	check,
	copyFixture,
	install,
	removeApp,
	run,
	runCli,
	shareInstall,
	start,
	type Server
} from './harness/app.js';
import { node22, node22Dir, type NodeToolchain } from './harness/node.js';

const fixtureDeps = async (name: string) => {
	const pkg = JSON.parse(await fs.readFile(path.join(import.meta.dirname, 'fixtures', name, 'package.json'), 'utf8'));
	return { dependencies: pkg.dependencies, devDependencies: pkg.devDependencies };
};

describe('node22()', () => {
	it('gives Node >= 22.17 from the node@22 package, an env that puts it first, and its headers', async () => {
		const toolchain = await node22();
		expect(toolchain.version).toMatch(/^v22\.\d+\.\d+$/);
		const minor = Number(toolchain.version.split('.')[1]);
		expect(minor, toolchain.version).toBeGreaterThanOrEqual(17);
		expect(path.isAbsolute(toolchain.node)).toBe(true);
		expect(toolchain.node.startsWith(node22Dir + path.sep)).toBe(true);
		expect(toolchain.env.PATH).toBe(`${path.dirname(toolchain.node)}${path.delimiter}${process.env.PATH}`);
		expect(existsSync(path.join(toolchain.env.npm_config_nodedir!, 'include', 'node', 'common.gypi'))).toBe(true);
		expect(await node22()).toBe(toolchain); // memoized

		// Through run() (cleanEnv): `node` and npm's own node are Node 22, npm sees the nodedir.
		const cwd = os.tmpdir();
		expect((await run('node', ['--version'], { cwd, env: toolchain.env })).stdout.trim()).toBe(toolchain.version);
		const npmVersions = await run('npm', ['version', '--json'], { cwd, env: toolchain.env, timeout: 60_000 });
		expect(JSON.parse(npmVersions.stdout).node).toBe(toolchain.version.slice(1));
		const nodedir = await run('npm', ['config', 'get', 'nodedir'], { cwd, env: toolchain.env, timeout: 60_000 });
		expect(nodedir.stdout.trim()).toBe(toolchain.nodedir);
	});
});

describe('kit3 fixtures under Node 22', () => {
	let toolchain: NodeToolchain;
	let app: string | undefined;
	let app2: string | undefined;
	let server: Server | undefined;

	beforeAll(async () => {
		toolchain = await node22();
		app = await copyFixture('kit3-ts');
		const installed = await install(app, { env: toolchain.env });
		const built = await build(app, { env: toolchain.env });
		console.log(
			`[kit3-ts under ${toolchain.version}] npm install ${(installed.durationMs / 1000).toFixed(1)} s, ` +
				`vite build ${(built.durationMs / 1000).toFixed(1)} s`
		);
		server = await start(app, { env: toolchain.env });
	});

	afterAll(async () => {
		await server?.stop();
		if (app) await removeApp(app);
		if (app2) await removeApp(app2);
	});

	it('previews the built kit3-ts app under Node 22: GET / is 200 with the welcome heading', async () => {
		// vite's `#!/usr/bin/env node` found Node 22 through the env's PATH.
		expect(realpathSync(`/proc/${server!.pid}/exe`)).toBe(realpathSync(toolchain.node));
		const response = await fetch(`${server!.url}/`, { signal: AbortSignal.timeout(10_000) });
		expect(response.status).toBe(200);
		expect(await response.text()).toContain('Welcome to SvelteKit');
	});

	it('type-checks the kit3-ts fixture as generated', async () => {
		const result = await check(app!, { env: toolchain.env });
		console.log(`[kit3-ts] svelte-check: ${JSON.stringify({ exitCode: result.exitCode, errors: result.errors, warnings: result.warnings, files: result.files, diagnostics: result.diagnostics })}`);
		expect(result.errors, result.output).not.toBeNull();
	});

	it('shares the install with a kit3-jsdoc copy (same dependencies), which then builds and type-checks', async () => {
		expect(await fixtureDeps('kit3-jsdoc')).toEqual(await fixtureDeps('kit3-ts'));
		app2 = await copyFixture('kit3-jsdoc');
		const shared = await shareInstall(app!, app2);
		console.log(`[kit3-jsdoc] shareInstall ${(shared.durationMs / 1000).toFixed(2)} s`);

		// Files are hard links, folders are new, .bin entries are still relative symlinks.
		const file = path.join('node_modules', '@sveltejs', 'kit', 'package.json');
		expect(statSync(path.join(app2, file)).ino).toBe(statSync(path.join(app!, file)).ino);
		const vite = path.join(app2, 'node_modules', '.bin', 'vite');
		expect(lstatSync(vite).isSymbolicLink()).toBe(true);
		expect(path.isAbsolute(readlinkSync(vite))).toBe(false);
		expect(realpathSync(vite).startsWith(realpathSync(app2) + path.sep)).toBe(true);
		// ...except what svelte-kit sync writes in place for each app (Kit 3: node_modules/$app).
		const appTsconfig = path.join('node_modules', '$app', 'tsconfig.json');
		expect(existsSync(path.join(app!, appTsconfig))).toBe(true);
		expect(statSync(path.join(app2, appTsconfig)).ino).not.toBe(statSync(path.join(app!, appTsconfig)).ino);

		const built = await build(app2, { env: toolchain.env });
		console.log(`[kit3-jsdoc] vite build ${(built.durationMs / 1000).toFixed(1)} s`);
		expect(existsSync(path.join(app2, '.svelte-kit'))).toBe(true);

		const result = await check(app2, { tsconfig: './jsconfig.json', env: toolchain.env });
		console.log(`[kit3-jsdoc] svelte-check: ${JSON.stringify({ exitCode: result.exitCode, errors: result.errors, warnings: result.warnings, files: result.files, diagnostics: result.diagnostics })}`);
		expect(result.errors, result.output).not.toBeNull();
	});
});

describe('shareInstall() refusals', () => {
	const dirs: string[] = [];
	const app = async (pkg: object) => {
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-e2e-'));
		dirs.push(dir);
		await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify(pkg));
		return dir;
	};

	afterAll(async () => {
		for (const dir of dirs) await removeApp(dir);
	});

	it('throws for different dependencies and copies nothing', async () => {
		const from = await app({ name: 'a', devDependencies: { vite: '^8.1.5', svelte: '^5.56.7' } });
		await fs.mkdir(path.join(from, 'node_modules', 'vite'), { recursive: true });
		const to = await app({ name: 'b', devDependencies: { vite: '^8.1.5', svelte: '^5.56.8' } });
		await expect(shareInstall(from, to)).rejects.toThrow(/not have the same dependencies[\s\S]*devDependencies/);
		expect(existsSync(path.join(to, 'node_modules'))).toBe(false);

		const moved = await app({ name: 'c', dependencies: { vite: '^8.1.5' }, devDependencies: { svelte: '^5.56.7' } });
		await expect(shareInstall(from, moved)).rejects.toThrow(/not have the same dependencies/);
	});

	it('accepts the same dependencies in another key order, but not without node_modules to share', async () => {
		const from = await app({ name: 'a', devDependencies: { vite: '^8.1.5', svelte: '^5.56.7' } });
		const to = await app({ name: 'b', devDependencies: { svelte: '^5.56.7', vite: '^8.1.5' } });
		await expect(shareInstall(from, to)).rejects.toThrow(/node_modules is missing/);
	});
});

describe('runCli() with another node', () => {
	it('runs the CLI with the given binary', async () => {
		const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-e2e-'));
		try {
			await expect(runCli(dir, ['--yes'], { node: path.join(dir, 'no-such-node') })).rejects.toThrow(/cannot run .*no-such-node/);
		} finally {
			await removeApp(dir);
		}
	});
});
