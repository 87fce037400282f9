import { describe, expect, it } from 'vitest';
import { addEnvEntries, addMissingLines } from './env.js';

const secret = { key: 'AUTH_SECRET', value: 'new-secret', comment: 'Session key.' };

describe('addEnvEntries', () => {
	it('creates the file when there is none', () => {
		expect(addEnvEntries(undefined, [secret])).toBe('# Session key.\nAUTH_SECRET=new-secret\n');
	});

	it.each([
		['a plain assignment', 'AUTH_SECRET=mine\n'],
		['a quoted value', 'AUTH_SECRET="my secret"\n'],
		['an export prefix', 'export AUTH_SECRET=mine\n'],
		['an empty value', 'AUTH_SECRET=\n']
	])('never overwrites an existing key (%s)', (_, source) => {
		expect(addEnvEntries(source, [secret])).toBe(source);
	});

	it('appends only missing keys, keeping existing lines byte for byte', () => {
		const source = 'DATABASE_URL=postgres://x';
		const result = addEnvEntries(source, [secret, { key: 'DATABASE_URL', value: 'other', comment: 'x' }]);
		expect(result).toBe('DATABASE_URL=postgres://x\n\n# Session key.\nAUTH_SECRET=new-secret\n');
	});
});

describe('addMissingLines', () => {
	it('adds lines once under a heading', () => {
		const once = addMissingLines('node_modules\n', ['/auth.sqlite*'], 'local database');
		expect(once).toBe('node_modules\n\n# local database\n/auth.sqlite*\n');
		expect(addMissingLines(once, ['/auth.sqlite*'], 'local database')).toBe(once);
	});
});
