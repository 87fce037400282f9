import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDriverFailure, loadDriver, nodedirMajor, rebuildCommand } from './driver-load.js';

let app: string;

/** An app folder whose node_modules has the repo's own better-sqlite3 (built for this Node) and a package that throws as it loads. */
beforeAll(async () => {
	app = await mkdtemp(path.join(tmpdir(), 'driver-load-'));
	await writeFile(path.join(app, 'package.json'), '{"name":"app","private":true}');
	await mkdir(path.join(app, 'node_modules', 'broken-driver'), { recursive: true });
	await writeFile(path.join(app, 'node_modules', 'broken-driver', 'package.json'), '{"name":"broken-driver","main":"index.js"}');
	await writeFile(path.join(app, 'node_modules', 'broken-driver', 'index.js'), "throw new TypeError('the addon is missing');");
	await symlink(path.resolve('node_modules/better-sqlite3'), path.join(app, 'node_modules', 'better-sqlite3'));
	await symlink(path.resolve('node_modules/bindings'), path.join(app, 'node_modules', 'bindings'));
	await symlink(path.resolve('node_modules/file-uri-to-path'), path.join(app, 'node_modules', 'file-uri-to-path'));
});
afterAll(() => rm(app, { recursive: true, force: true }));

describe('loadDriver', () => {
	it('loads better-sqlite3 and opens an in-memory database with the node on the PATH, in the app’s folder', async () => {
		expect(await loadDriver(app, 'better-sqlite3')).toBeUndefined();
	});

	it('says why a driver does not load: the first line of its error, and the Node that tried', async () => {
		expect(await loadDriver(app, 'broken-driver')).toEqual({ name: 'broken-driver', node: process.version, nodePath: process.execPath, reason: 'TypeError: the addon is missing' });
		expect(await loadDriver(app, 'not-installed')).toMatchObject({ name: 'not-installed', reason: expect.stringContaining("Cannot find module 'not-installed'") });
	});
});

describe('describeDriverFailure', () => {
	const abi = { name: 'better-sqlite3', node: 'v22.21.0', reason: 'Error: …', abi: { builtFor: 115, needs: 127, builtForNode: '20' } };

	it('names the Node the addon was built for, and the rebuild with the app’s manager', () => {
		expect(describeDriverFailure(abi, 'npm')).toEqual({
			message: 'better-sqlite3 cannot load under Node v22.21.0: it was built for Node 20 (NODE_MODULE_VERSION 115), and this Node needs NODE_MODULE_VERSION 127. Every sign-in and session read would fail.',
			hint: 'Run npm rebuild better-sqlite3 with the Node that runs the app, or run the app with Node 20.'
		});
		expect(describeDriverFailure(abi, 'pnpm').hint).toMatch(/^Run pnpm rebuild better-sqlite3 /);
	});

	it('blames npm’s nodedir when it holds another Node’s headers: a plain rebuild would build for the wrong Node again', () => {
		expect(describeDriverFailure(abi, 'npm', { dir: '/usr', major: '20' }).hint).toBe(
			"npm's nodedir setting (/usr) has Node 20's headers, so node-gyp builds addons for Node 20: point it at this Node's headers or remove it (npm config delete nodedir), then run npm rebuild better-sqlite3 with the Node that runs the app, or run the app with Node 20."
		);
		expect(describeDriverFailure(abi, 'npm', { dir: '/opt/node22', major: '22' }).hint).toMatch(/^Run npm rebuild/);
		// With this Node's own headers found beside its binary, the rebuild that works, ready to paste.
		expect(describeDriverFailure(abi, 'pnpm', { dir: '/usr', major: '20', own: '/opt/node22' }).hint).toBe(
			"npm's nodedir setting (/usr) has Node 20's headers, so node-gyp builds addons for Node 20: run npm_config_nodedir=/opt/node22 pnpm rebuild better-sqlite3 (this Node's own headers) with the Node that runs the app, or run the app with Node 20; to stop it happening again, npm config delete nodedir."
		);
	});

	it('says what it can of any other failure', () => {
		expect(describeDriverFailure({ name: 'better-sqlite3', node: 'v20.20.2', reason: 'loading it crashed Node (SIGSEGV)' }, 'npm').message).toBe(
			'better-sqlite3 cannot load under Node v20.20.2: loading it crashed Node (SIGSEGV). The auth runtime needs it for every sign-in and session.'
		);
	});
});

describe('nodedirMajor', () => {
	it('reads the Node major of the headers npm’s nodedir names, and nothing for a folder without them', async () => {
		const dir = path.join(app, 'headers');
		await mkdir(path.join(dir, 'include', 'node'), { recursive: true });
		await writeFile(path.join(dir, 'include', 'node', 'node_version.h'), '#define NODE_MAJOR_VERSION 20\n#define NODE_MINOR_VERSION 20\n');
		expect(await nodedirMajor(dir)).toBe('20');
		expect(await nodedirMajor(app)).toBeUndefined();
		expect(await nodedirMajor(undefined)).toBeUndefined();
	});

	it('gives each manager its rebuild', () => {
		expect(['npm', 'pnpm', 'yarn', 'bun'].map((manager) => rebuildCommand(manager as 'npm', 'better-sqlite3'))).toEqual([
			'npm rebuild better-sqlite3',
			'pnpm rebuild better-sqlite3',
			'npm rebuild better-sqlite3',
			'npm rebuild better-sqlite3'
		]);
	});
});
