import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ignoredBuilds, installCommand } from './install.js';
import { detectPackageManager } from './project.js';

describe('installCommand', () => {
	it.each([
		['npm', 'npm', ['install'], { npm_config_fund: 'false', npm_config_audit: 'false' }],
		['pnpm', 'pnpm', ['install', '--no-frozen-lockfile'], {}],
		['yarn', 'yarn', ['install', '--no-immutable'], {}],
		['bun', 'bun', ['install'], {}]
	] as const)('installs with %s, allowed to update the lock file create-auth made stale', (manager, command, args, env) => {
		expect(installCommand(manager)).toEqual({ command, args, env });
	});
});

describe('ignoredBuilds', () => {
	// Each pnpm major's own words (the tails of real installs), box drawing included.
	const PNPM_10_20 = [
		'╭ Warning ─────────────────────────────────────────────────────────────────────╮',
		'│                                                                              │',
		'│   Ignored build scripts: better-sqlite3, esbuild.                            │',
		'│   Run "pnpm approve-builds" to pick which dependencies should be allowed     │',
		'│   to run scripts.                                                            │',
		'│                                                                              │',
		'╰──────────────────────────────────────────────────────────────────────────────╯',
		'Done in 487ms using pnpm v10.20.0'
	].join('\n');
	const PNPM_10_34 = [
		'│   Ignored build scripts: better-sqlite3@12.11.1, esbuild@0.25.12.            │',
		'│   Run "pnpm approve-builds" to pick which dependencies should be allowed     │'
	].join('\n');
	const PNPM_11 = [
		'dependencies:',
		'+ better-sqlite3 12.11.1',
		'+ esbuild 0.25.12',
		'',
		'[ERR_PNPM_IGNORED_BUILDS] Ignored build scripts: better-sqlite3@12.11.1, esbuild@0.25.12',
		'',
		'Run "pnpm approve-builds" to pick which dependencies should be allowed to run scripts.'
	].join('\n');
	const PNPM_12 = [
		'Error: ERR_PNPM_IGNORED_BUILDS',
		'',
		'  × installing dependencies',
		'  ╰─▶ Ignored build scripts: @parcel/watcher@2.5.1, better-sqlite3@12.11.1,',
		'      esbuild@0.25.12',
		'  help: Run "pnpm approve-builds" to pick which dependencies should be allowed',
		'        to run scripts.'
	].join('\n');

	it.each([
		['pnpm 10.20 (names, in a warning box)', PNPM_10_20, ['better-sqlite3', 'esbuild']],
		['pnpm 10.34 (name@version, in a warning box)', PNPM_10_34, ['better-sqlite3', 'esbuild']],
		['pnpm 11 (ERR_PNPM_IGNORED_BUILDS)', PNPM_11, ['better-sqlite3', 'esbuild']],
		['pnpm 12 (a scoped name, the list wrapped)', PNPM_12, ['@parcel/watcher', 'better-sqlite3', 'esbuild']]
	])('reads the names from %s', (_, output, names) => {
		expect(ignoredBuilds(output)).toEqual(names);
	});

	it('finds none in an install that ignored no build', () => {
		expect(ignoredBuilds('Packages: +2\n++\nDone in 890ms using pnpm v12.21.0\n')).toEqual([]);
	});
});

describe('detectPackageManager', () => {
	let root: string;
	beforeEach(async () => {
		root = await mkdtemp(path.join(os.tmpdir(), 'create-auth-pm-'));
	});
	afterEach(async () => {
		await rm(root, { recursive: true, force: true });
	});

	it.each([
		['pnpm-lock.yaml', 'pnpm'],
		['yarn.lock', 'yarn'],
		['bun.lock', 'bun'],
		['bun.lockb', 'bun'],
		['package-lock.json', 'npm']
	] as const)('picks the manager of the lock file %s', async (file, manager) => {
		await writeFile(path.join(root, file), '');
		expect(detectPackageManager(root, '')).toBe(manager);
	});

	it.each([
		['pnpm/10.12.1 npm/? node/v22.17.0 linux x64', 'pnpm'],
		['yarn/1.22.22 npm/? node/v20.19.0 linux x64', 'yarn'],
		['yarn/4.18.1 npm/? node/v22.17.0 linux x64', 'yarn'],
		['bun/1.3.5 npm/? node/v24.3.0 linux x64', 'bun'],
		['npm/11.19.1 node/v20.20.2 linux x64 workspaces/false', 'npm']
	] as const)('without a lock file, picks the manager that runs create-auth (%s)', (userAgent, manager) => {
		expect(detectPackageManager(root, userAgent)).toBe(manager);
	});

	it('falls back to npm without a lock file or a user agent it knows', () => {
		expect(detectPackageManager(root, '')).toBe('npm');
		expect(detectPackageManager(root, 'deno/2.1.0 npm/? deno/2.1.0 linux x86_64')).toBe('npm');
	});

	it('prefers the lock file to the user agent: npx create-auth in a pnpm app installs with pnpm', async () => {
		await writeFile(path.join(root, 'pnpm-lock.yaml'), '');
		expect(detectPackageManager(root, 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false')).toBe('pnpm');
		await writeFile(path.join(root, 'yarn.lock'), '');
		expect(detectPackageManager(root, 'bun/1.3.5 npm/? node/v24.3.0 linux x64')).toBe('pnpm');
	});
});
