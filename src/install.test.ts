import { describe, expect, it } from 'vitest';
import { ignoredBuilds, installCommand } from './install.js';

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
