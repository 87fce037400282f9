import { describe, expect, it } from 'vitest';
import { hrefValue, libSpecifier } from './render.js';

describe('libSpecifier', () => {
	const alias = { libImports: false };
	const subpath = { libImports: true };

	it('uses the $lib alias with index files implied', () => {
		expect(libSpecifier('server/auth/index', alias)).toBe('$lib/server/auth');
		expect(libSpecifier('auth/index', alias)).toBe('$lib/auth');
		expect(libSpecifier('server/auth/passwords', alias)).toBe('$lib/server/auth/passwords');
	});

	it('names the file with a .js extension for #lib subpath imports, as sv migrate does', () => {
		expect(libSpecifier('server/auth/index', subpath)).toBe('#lib/server/auth/index.js');
		expect(libSpecifier('server/auth/adapters/sqlite', subpath)).toBe('#lib/server/auth/adapters/sqlite.js');
	});

	it("names the index of a folder an app module shadows (src/lib/server/auth.ts), and only that folder's", () => {
		const shadowed = { libImports: false, shadowedLibFolders: ['server/auth'] };
		expect(libSpecifier('server/auth/index', shadowed)).toBe('$lib/server/auth/index');
		expect(libSpecifier('server/auth/passwords', shadowed)).toBe('$lib/server/auth/passwords');
		expect(libSpecifier('auth/index', shadowed)).toBe('$lib/auth');
		expect(libSpecifier('auth/index', { libImports: false, shadowedLibFolders: ['server/auth', 'auth'] })).toBe('$lib/auth/index');
	});

	it('keeps #lib specifiers as they are when a folder is shadowed: they name the file already', () => {
		expect(libSpecifier('server/auth/index', { libImports: true, shadowedLibFolders: ['server/auth'] })).toBe('#lib/server/auth/index.js');
	});
});

describe('hrefValue', () => {
	it("links through resolve() where the app's SvelteKit has it, so the link keeps paths.base", () => {
		expect(hrefValue('/signin', true)).toBe("{resolve('/signin')}");
		expect(hrefValue('/signup', true, 'callbackQuery')).toBe(`"{resolve('/signup')}{callbackQuery}"`);
	});

	it('writes the plain path on a SvelteKit 2 older than 2.26', () => {
		expect(hrefValue('/signin', false)).toBe('"/signin"');
		expect(hrefValue('/signup', false, 'callbackQuery')).toBe('"/signup{callbackQuery}"');
	});
});
