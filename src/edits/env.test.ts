import { describe, expect, it } from 'vitest';
import { parse } from 'dotenv';
import { addEnvEntries, addMissingLines, setEnvValues } from './env.js';

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

describe('setEnvValues', () => {
	const next = { key: 'AUTH_SECRET', value: 'n3w_Secret-value', comment: 'Session key.' };

	it.each([
		['a plain assignment', 'AUTH_SECRET=old\n', 'AUTH_SECRET=n3w_Secret-value\n'],
		['an empty value', 'AUTH_SECRET=\n', 'AUTH_SECRET=n3w_Secret-value\n'],
		['double quotes', 'AUTH_SECRET="old value"\n', 'AUTH_SECRET="n3w_Secret-value"\n'],
		['single quotes', "AUTH_SECRET='old'\n", "AUTH_SECRET='n3w_Secret-value'\n"],
		['empty quotes', 'AUTH_SECRET=""\n', 'AUTH_SECRET="n3w_Secret-value"\n'],
		['an export prefix and spaces', 'export AUTH_SECRET = old  \n', 'export AUTH_SECRET = n3w_Secret-value  \n'],
		['a trailing comment', 'AUTH_SECRET=old # rotated in May\n', 'AUTH_SECRET=n3w_Secret-value # rotated in May\n'],
		['a colon separator', 'AUTH_SECRET: old\n', 'AUTH_SECRET: n3w_Secret-value\n'],
		['no final newline', 'AUTH_SECRET=old', 'AUTH_SECRET=n3w_Secret-value']
	])('replaces the value in place (%s)', (_, source, expected) => {
		expect(setEnvValues(source, [next])).toBe(expected);
		expect(parse(expected).AUTH_SECRET).toBe(next.value);
	});

	it('replaces the last definition, the one dotenv reads, and leaves the others alone', () => {
		const result = setEnvValues('AUTH_SECRET=first\nAUTH_SECRET=second\n', [next]);
		expect(result).toBe('AUTH_SECRET=first\nAUTH_SECRET=n3w_Secret-value\n');
		expect(parse(result).AUTH_SECRET).toBe(next.value);
	});

	it('does not take a longer key or a commented-out line for the key', () => {
		const source = '# AUTH_SECRET=commented\nAUTH_SECRET_1=keep\n';
		expect(setEnvValues(source, [next])).toBe(`${source}\n# Session key.\nAUTH_SECRET=n3w_Secret-value\n`);
	});

	it('keeps every other byte, comments and CRLF line ends included, and appends in CRLF', () => {
		const source = '# app\r\nDATABASE_URL="postgres://x" # db\r\nAUTH_SECRET=old\r\n\r\nOTHER=1\r\n';
		const result = setEnvValues(source, [next, { key: 'AUTH_SECRET_1', value: 'old', comment: 'Previous.' }]);
		expect(result).toBe(
			'# app\r\nDATABASE_URL="postgres://x" # db\r\nAUTH_SECRET=n3w_Secret-value\r\n\r\nOTHER=1\r\n\r\n# Previous.\r\nAUTH_SECRET_1=old\r\n'
		);
		expect(parse(result)).toEqual({ DATABASE_URL: 'postgres://x', AUTH_SECRET: next.value, OTHER: '1', AUTH_SECRET_1: 'old' });
	});

	it('creates the file when there is none', () => {
		expect(setEnvValues(undefined, [next])).toBe('# Session key.\nAUTH_SECRET=n3w_Secret-value\n');
	});

	it.each([
		['a space', 'old secret', 'AUTH_SECRET=x\n', "AUTH_SECRET='old secret'\n"],
		['a hash', 'a#b', 'AUTH_SECRET=x\n', "AUTH_SECRET='a#b'\n"],
		['a single quote', "it's", 'AUTH_SECRET=x\n', 'AUTH_SECRET=`it\'s`\n'],
		['a backslash-n, in double quotes already', 'a\\nb', 'AUTH_SECRET="x"\n', "AUTH_SECRET='a\\nb'\n"],
		['a double quote, in double quotes already', 'say "hi"', 'AUTH_SECRET="x" # note\n', "AUTH_SECRET='say \"hi\"' # note\n"],
		['a space, in single quotes already', 'old secret', "AUTH_SECRET='x'\n", "AUTH_SECRET='old secret'\n"],
		['a space, appended', 'old secret', '', "# Session key.\nAUTH_SECRET='old secret'\n"]
	])('quotes a value with %s so that dotenv reads it back verbatim', (_, value, source, expected) => {
		const result = setEnvValues(source, [{ ...next, value }]);
		expect(result).toBe(expected);
		expect(parse(result).AUTH_SECRET).toBe(value);
	});

	it.each([['carriage\rreturn'], ['all \' " ` and \\']])('refuses a value dotenv cannot read back verbatim (%j)', (value) => {
		expect(() => setEnvValues('', [{ ...next, value }])).toThrow(TypeError);
	});
});
