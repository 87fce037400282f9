import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRE_RESHAPE, releaseBin } from '../e2e/harness/release.js';
import { loadRuntime } from './assets.js';
import type { Manifest } from './manifest.js';
import { movedFrom, RUNTIME_MOVES } from './renames.js';

let runtime: Set<string>;
let previous: string[];
beforeAll(async () => {
	runtime = new Set(Object.keys(await loadRuntime()));
	// The runtime files of the release before the reshape, as its package ships them.
	const root = path.join(path.dirname(path.dirname(releaseBin(PRE_RESHAPE))), 'runtime');
	previous = readdirSync(root, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
});

describe('RUNTIME_MOVES', () => {
	it('maps every runtime file of the previous release that is gone to a file of this runtime', () => {
		expect(previous.length).toBeGreaterThan(50);
		const lost = previous.filter((file) => !runtime.has(file) && !runtime.has(RUNTIME_MOVES[file] ?? ''));
		expect(lost).toEqual([]);
	});

	it('names, as old paths, only files this runtime no longer has', () => {
		expect(Object.keys(RUNTIME_MOVES).filter((file) => runtime.has(file))).toEqual([]);
	});
});

describe('movedFrom', () => {
	const from = 'server/auth/cookies.ts';
	const to = RUNTIME_MOVES[from]!;
	const manifest = (files: Manifest['files']): Manifest => ({ version: PRE_RESHAPE, answers: {} as Manifest['answers'], files, pending: [] });

	it('finds the old path of a moved file the manifest recorded as managed', () => {
		expect(movedFrom(`src/lib/${to}`, 'src/lib', manifest({ [`src/lib/${from}`]: { strategy: 'managed', content: 'x' } }))).toBe(`src/lib/${from}`);
	});

	it('finds none when the manifest already records the new path, never recorded the old one, or there is no manifest', () => {
		const both = manifest({ [`src/lib/${from}`]: { strategy: 'managed', content: 'x' }, [`src/lib/${to}`]: { strategy: 'managed', content: 'y' } });
		expect(movedFrom(`src/lib/${to}`, 'src/lib', both)).toBeUndefined();
		expect(movedFrom(`src/lib/${to}`, 'src/lib', manifest({}))).toBeUndefined();
		expect(movedFrom(`src/lib/${to}`, 'src/lib', undefined)).toBeUndefined();
		expect(movedFrom(`src/lib/${to}`, 'app/lib', manifest({ [`src/lib/${from}`]: { strategy: 'managed', content: 'x' } }))).toBeUndefined();
	});
});
