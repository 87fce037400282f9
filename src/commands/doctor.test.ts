import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadToolPackage } from '../assets.js';
import { MANIFEST_PATH, serializeManifest, type Manifest } from '../manifest.js';
import { doctor, type DoctorReport } from './doctor.js';

let root: string;
let stdout: string[];

/** Writes an app by hand: app-relative path → text. */
function writeApp(files: Record<string, string>): void {
	for (const [file, text] of Object.entries(files)) {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), text);
	}
}

const packageJson = JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2.5.0', '@sveltejs/adapter-node': '^5.0.0' } });
const manifest = (extra: Partial<Manifest>): string =>
	serializeManifest({
		version: '0.0.1',
		answers: { providers: ['credentials'], strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' },
		files: { 'src/lib/server/auth/kit.ts': { strategy: 'managed', content: 'kit\n' } },
		pending: [],
		...extra
	});

beforeEach(() => {
	root = mkdtempSync(path.join(tmpdir(), 'create-auth-doctor-'));
	stdout = [];
	vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
		stdout.push(String(chunk));
		return true;
	});
	// The checks read the process environment too: the test runner's must not leak in.
	for (const key of ['AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_URL', 'AUTH_TRUST_HOST', 'AUTH_GITHUB_ID', 'AUTH_GITHUB_SECRET', 'AUTH_SQLITE_FILE']) {
		vi.stubEnv(key, '');
	}
});
afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllEnvs();
	rmSync(root, { recursive: true, force: true });
});

const report = (): DoctorReport => {
	expect(stdout).toHaveLength(1);
	return JSON.parse(stdout[0]!) as DoctorReport;
};


/** A better-sqlite3 stand-in that opens an in-memory database as doctor's load check does (the real addon is tested in src/driver-load.test.ts). */
const FAKE_DRIVER = 'module.exports = class { prepare() { return { get: () => ({ 1: 1 }) }; } };';

describe('doctor', () => {
	it("in a pnpm workspace: a lock file in the app is an error; the driver hoisted to the workspace's node_modules is found", async () => {
		writeApp({
			'.git/HEAD': 'ref: refs/heads/main\n',
			'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n",
			'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
			'package.json': '{ "name": "monorepo", "private": true }',
			'node_modules/better-sqlite3/package.json': '{ "name": "better-sqlite3", "main": "index.js" }',
			'node_modules/better-sqlite3/index.js': FAKE_DRIVER,
			'apps/web/package.json': packageJson,
			'apps/web/package-lock.json': '{}',
			[`apps/web/${MANIFEST_PATH}`]: manifest({})
		});
		expect(await doctor({ cwd: path.join(root, 'apps/web'), json: true })).toBe(1);
		const checks = Object.fromEntries(report().checks.map((check) => [check.id, check]));
		expect(checks['lock-file']).toMatchObject({ status: 'error', message: expect.stringContaining('apps/web/package-lock.json is a second lock file'), hint: expect.stringContaining(`pnpm install in ${root}`) });
		expect(checks['adapter-driver']?.status).toBe('ok');
	});

	it('exits 1 and prints only { ok, checks } as JSON for an app with problems', async () => {
		writeApp({
			'package.json': packageJson,
			'.env': '# Session key.\nAUTH_SECRET=too-short\nAUTH_GITHUB_ID=\n',
			[MANIFEST_PATH]: manifest({
				answers: { providers: ['credentials', 'github'], strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' },
				pending: ['Return the session from your root layout load.']
			}),
			'src/lib/server/auth/kit.ts': 'kit, edited\n'
		});
		expect(await doctor({ cwd: root, json: true })).toBe(1);
		const { ok, checks } = report();
		expect(ok).toBe(false);
		for (const check of checks) {
			expect(Object.keys(check).every((key) => ['id', 'status', 'message', 'hint'].includes(key))).toBe(true);
			expect(check.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*(?::[\w-]+)?$/);
		}
		const status = Object.fromEntries(checks.map((check) => [check.id, check.status]));
		expect(status).toMatchObject({
			manifest: 'ok',
			'manifest-version': 'warn',
			'pending:1': 'warn',
			'runtime-edited': 'warn',
			'runtime-deleted': 'ok',
			'auth-secret': 'error',
			'trusted-origin': 'warn',
			'callback-url:github': 'ok',
			'env-missing:AUTH_GITHUB_ID': 'warn',
			'env-missing:AUTH_GITHUB_SECRET': 'warn',
			'adapter-driver': 'error',
			'adapter-storage': 'ok'
		});
		expect(checks.find((check) => check.id === 'callback-url:github')?.message).toContain('http://localhost:5173/auth/callback/github');
		expect(stdout[0]).not.toContain('too-short');
	});

	describe('on a healthy app', () => {
		beforeEach(async () => {
			writeApp({
				'package.json': packageJson,
				'.env': `AUTH_SECRET=${'s'.repeat(43)}\nAUTH_URL=https://app.example.com\n`,
				[MANIFEST_PATH]: manifest({ version: (await loadToolPackage()).version }),
				'src/lib/server/auth/kit.ts': 'kit\n',
				'node_modules/better-sqlite3/package.json': '{"name":"better-sqlite3","main":"index.js"}',
				'node_modules/better-sqlite3/index.js': FAKE_DRIVER
			});
		});

		it('exits 0 with every check ok (--json)', async () => {
			expect(await doctor({ cwd: root, json: true })).toBe(0);
			const { ok, checks } = report();
			expect(ok).toBe(true);
			expect(checks.filter((check) => check.status !== 'ok')).toEqual([]);
		});

		it('prints a readable list, ending with the summary', async () => {
			expect(await doctor({ cwd: root })).toBe(0);
			const text = stdout.join('');
			expect(text).toContain('AUTH_SECRET is set (from .env, 43 characters).');
			expect(text).toMatch(/All \d+ checks passed\./);
			expect(text).not.toContain('s'.repeat(43));
		});
	});

	it('reports the one manifest error in an app create-auth has not set up', async () => {
		writeApp({ 'package.json': packageJson });
		expect(await doctor({ cwd: root, json: true })).toBe(1);
		expect(report()).toEqual({ ok: false, checks: [expect.objectContaining({ id: 'manifest', status: 'error', message: 'create-auth has not set up this app; run npx create-auth.' })] });
	});

	it('reports a folder that is not a SvelteKit app as a check, so --json still prints a report', async () => {
		writeApp({ 'package.json': '{}' });
		expect(await doctor({ cwd: root, json: true })).toBe(1);
		expect(report()).toEqual({ ok: false, checks: [expect.objectContaining({ id: 'sveltekit-app', status: 'error' })] });
	});

	it('names the files that still hold conflict markers', async () => {
		writeApp({
			'package.json': packageJson,
			[MANIFEST_PATH]: manifest({ conflicts: ['src/auth.ts'] }),
			'src/auth.ts': '<<<<<<< yours\na\n=======\nb\n>>>>>>> create-auth\n'
		});
		await doctor({ cwd: root, json: true });
		expect(report().checks.find((check) => check.id === 'conflicts')).toMatchObject({ status: 'error', message: expect.stringContaining('src/auth.ts') });
	});
});
