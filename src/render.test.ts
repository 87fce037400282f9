import { describe, expect, it } from 'vitest';
import { libSpecifier } from './render.js';

describe('libSpecifier', () => {
	it('uses the $lib alias with index files implied', () => {
		expect(libSpecifier('server/auth/index', false)).toBe('$lib/server/auth');
		expect(libSpecifier('auth/index', false)).toBe('$lib/auth');
		expect(libSpecifier('server/auth/passwords', false)).toBe('$lib/server/auth/passwords');
	});

	it('names the file with a .js extension for #lib subpath imports, as sv migrate does', () => {
		expect(libSpecifier('server/auth/index', true)).toBe('#lib/server/auth/index.js');
		expect(libSpecifier('server/auth/adapters/sqlite', true)).toBe('#lib/server/auth/adapters/sqlite.js');
	});
});
