import { beforeAll, describe, expect, it } from 'vitest';
import { loadRuntime } from './assets.js';
import { runtimeClosure } from './vendor.js';

describe('runtimeClosure', () => {
	it('follows static, type-only, export-from and literal dynamic imports, resolving .js to .ts and folders to index.ts', () => {
		const runtime = {
			'server/a.ts': "import { b } from './b.js';\nimport type { T } from './types.js';\nexport { c } from './c';\nexport * from './d/index.js';\nconst e = () => import('./e.js');",
			'server/b.ts': 'export const b = 1;',
			'server/types.ts': "export type T = import('./deep.js').Deep;",
			'server/deep.ts': 'export type Deep = 1;',
			'server/c/index.ts': "export const c = 1;\nimport pkg from 'some-package';",
			'server/d/index.ts': 'export {};',
			'server/e.ts': 'export {};',
			'server/unreached.ts': "import './a.js';"
		};
		expect([...runtimeClosure(runtime, ['server/a.ts'])].sort()).toEqual([
			'server/a.ts',
			'server/b.ts',
			'server/c/index.ts',
			'server/d/index.ts',
			'server/deep.ts',
			'server/e.ts',
			'server/types.ts'
		]);
	});

	it('reads the <script> blocks of Svelte components, and reaches components imported by path', () => {
		const runtime = {
			'auth/index.ts': "export { default as SignIn } from './SignIn.svelte';",
			'auth/SignIn.svelte': '<script module lang="ts">\n\timport type { A } from \'./a.js\';\n</script>\n<script lang="ts">\n\timport { b } from \'./b.js\';\n</script>\n<form><slot /></form>',
			'auth/a.ts': 'export type A = 1;',
			'auth/b.ts': 'export const b = 1;'
		};
		expect([...runtimeClosure(runtime, ['auth/index'])].sort()).toEqual(['auth/SignIn.svelte', 'auth/a.ts', 'auth/b.ts', 'auth/index.ts']);
	});

	it('ignores a dynamic import of a computed specifier, and cycles end', () => {
		const runtime = { 'a.ts': "import './b.js';\nconst name = 'c';\nimport(`./${name}.js`);", 'b.ts': "import './a.js';", 'c.ts': '' };
		expect([...runtimeClosure(runtime, ['a.ts'])].sort()).toEqual(['a.ts', 'b.ts']);
	});

	it('throws on an unknown entry, an import of a file the runtime lacks, and a module that does not parse', () => {
		expect(() => runtimeClosure({ 'a.ts': '' }, ['b.ts'])).toThrow(/no runtime file b\.ts/);
		expect(() => runtimeClosure({ 'a.ts': "import './gone.js';" }, ['a.ts'])).toThrow(/a\.ts imports \.\/gone\.js/);
		expect(() => runtimeClosure({ 'a.ts': 'import {' }, ['a.ts'])).toThrow(/a\.ts does not parse/);
	});

	describe('on the real runtime', () => {
		let runtime: Record<string, string>;
		beforeAll(async () => {
			runtime = await loadRuntime();
		});
		const protocolModules = (files: Set<string>) => [...files].filter((file) => /^server\/auth\/(oauth|oauth1|webauthn)\//.test(file));

		it('the public entries reach no OAuth, OAuth 1.0a, WebAuthn, email-link or password module', () => {
			const closure = runtimeClosure(runtime, ['server/auth/index.ts', 'auth/index.ts']);
			expect(closure).toContain('server/auth/kit.ts');
			expect(closure).toContain('auth/SignIn.svelte');
			expect(protocolModules(closure)).toEqual([]);
			expect([...closure].filter((file) => /^server\/auth\/(passwords|signin\/(email|oauth|passkey|credentials))\b/.test(file))).toEqual([]);
		});

		it('social reaches OAuth 1.0a (and OAuth 2); github reaches OAuth 2 and not OAuth 1.0a', () => {
			const social = runtimeClosure(runtime, ['server/auth/providers/social.ts']);
			expect(protocolModules(social).some((file) => file.startsWith('server/auth/oauth1/'))).toBe(true);
			expect(social).toContain('server/auth/oauth/callback.ts');
			const github = runtimeClosure(runtime, ['server/auth/providers/github.ts']);
			expect(github).toContain('server/auth/oauth/authorize.ts');
			expect(protocolModules(github).filter((file) => file.startsWith('server/auth/oauth1/'))).toEqual([]);
			expect(protocolModules(github).filter((file) => file.startsWith('server/auth/webauthn/'))).toEqual([]);
		});

		it('passkey reaches the WebAuthn ceremonies and no OAuth; credentials reaches the password accounts and no protocol', () => {
			const passkey = runtimeClosure(runtime, ['server/auth/providers/passkey.ts']);
			expect(passkey).toContain('server/auth/webauthn/ceremonies.ts');
			expect(protocolModules(passkey).filter((file) => !file.startsWith('server/auth/webauthn/'))).toEqual([]);
			const credentials = runtimeClosure(runtime, ['server/auth/providers/credentials.ts', 'server/auth/passwords.ts']);
			expect(credentials).toContain('server/auth/passwords/signup.ts');
			expect(protocolModules(credentials)).toEqual([]);
		});
	});
});
