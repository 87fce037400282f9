import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adapterChecks, probeAdapter, type AdapterFacts, type AdapterFile } from './adapter.js';
import { envSources } from './check.js';

const file = (extra: Partial<AdapterFile> = {}): AdapterFile => ({ key: 'AUTH_SQLITE_FILE', path: 'auth.sqlite', folder: 'writable', file: 'absent', ...extra });
const facts = (extra: Partial<AdapterFacts> = {}): AdapterFacts => ({
	adapter: 'sqlite',
	drivers: [{ name: 'better-sqlite3', resolved: true }],
	files: [file()],
	...extra
});
const byId = (f: AdapterFacts) => Object.fromEntries(adapterChecks(f).map((check) => [check.id, check]));

describe('adapterChecks', () => {
	it('is ok when the driver resolves and the database file can be created', () => {
		expect(adapterChecks(facts())).toEqual([
			{ id: 'adapter-driver', status: 'ok', message: "The sqlite adapter's driver is installed (better-sqlite3)." },
			{ id: 'adapter-storage', status: 'ok', message: 'auth.sqlite (AUTH_SQLITE_FILE) can be created.' }
		]);
	});

	it('is an error when the driver cannot be found from the app', () => {
		expect(byId(facts({ drivers: [{ name: 'better-sqlite3', resolved: false }] }))['adapter-driver']).toMatchObject({
			status: 'error',
			message: expect.stringContaining('better-sqlite3 cannot be found'),
			hint: expect.stringContaining('install')
		});
	});

	it.each([
		['its folder does not exist', file({ path: 'data/auth.sqlite', folder: 'missing' }), 'the folder of data/auth.sqlite (AUTH_SQLITE_FILE) does not exist'],
		['the file is read-only', file({ file: 'read-only' }), 'auth.sqlite (AUTH_SQLITE_FILE) is read-only'],
		['its folder is read-only and the file absent', file({ folder: 'read-only' }), 'the folder of auth.sqlite (AUTH_SQLITE_FILE) is read-only']
	])('is an error when %s', (_, f, problem) => {
		expect(byId(facts({ files: [f] }))['adapter-storage']).toMatchObject({ status: 'error', message: expect.stringContaining(problem) });
	});

	it('is ok with an existing writable file in a read-only folder (SQLite writes the file)', () => {
		expect(byId(facts({ files: [file({ folder: 'read-only', file: 'writable' })] }))['adapter-storage']).toMatchObject({ status: 'ok', message: expect.stringContaining('can be written') });
	});

	it('has no storage check for an adapter that writes no file', () => {
		expect(adapterChecks(facts({ files: [] })).map((check) => check.id)).toEqual(['adapter-driver']);
	});
});

describe('probeAdapter', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'create-auth-adapter-'));
		writeFileSync(path.join(root, 'package.json'), '{}');
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("resolves the driver from the app's node_modules, not create-auth's", async () => {
		expect((await probeAdapter(root, 'sqlite', envSources()))?.drivers).toEqual([{ name: 'better-sqlite3', resolved: false }]);
		mkdirSync(path.join(root, 'node_modules/better-sqlite3'), { recursive: true });
		writeFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), '{"name":"better-sqlite3","main":"index.js"}');
		writeFileSync(path.join(root, 'node_modules/better-sqlite3/index.js'), '');
		expect((await probeAdapter(root, 'sqlite', envSources()))?.drivers).toEqual([{ name: 'better-sqlite3', resolved: true }]);
	});

	it('looks at AUTH_SQLITE_FILE relative to the app, defaulting to auth.sqlite', async () => {
		expect((await probeAdapter(root, 'sqlite', envSources()))?.files).toEqual([file()]);
		const env = envSources({ env: { AUTH_SQLITE_FILE: 'data/auth.db' } });
		expect((await probeAdapter(root, 'sqlite', env))?.files).toEqual([file({ path: 'data/auth.db', folder: 'missing' })]);
		mkdirSync(path.join(root, 'data'));
		writeFileSync(path.join(root, 'data/auth.db'), '');
		expect((await probeAdapter(root, 'sqlite', env))?.files).toEqual([file({ path: 'data/auth.db', file: 'writable' })]);
	});
});
