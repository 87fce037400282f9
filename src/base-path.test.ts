import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { baseOf, configuredBase, readBase } from './base-path.js';

describe('configuredBase', () => {
	it.each([
		['kit.paths.base in svelte.config.js', "export default { kit: { adapter: adapter(), paths: { base: '/base' } } };", '/base'],
		['paths.base in the sveltekit() plugin options', "export default defineConfig({ plugins: [sveltekit({ adapter: adapter(), paths: { base: '/app' } })] });", '/app'],
		['a quoted key and an empty base', "export default { kit: { 'paths': { relative: false, 'base': '' } } };", '']
	])('reads %s', (_, source, expected) => {
		expect(configuredBase(source)).toBe(expected);
	});

	it.each([
		['an environment variable', "export default { kit: { paths: { base: process.env.BASE_PATH } } };"],
		['a condition', "export default { kit: { paths: { base: dev ? '' : '/base' } } };"],
		['a template', 'export default { kit: { paths: { base: `/${name}` } } };']
	])('says the build decides (null) for %s', (_, source) => {
		expect(configuredBase(source)).toBeNull();
	});

	it.each([
		['no paths', 'export default { kit: { adapter: adapter() } };'],
		['paths without base', "export default { kit: { paths: { assets: 'https://cdn.example' } } };"],
		['text that does not parse', 'export default {']
	])('finds none for %s', (_, source) => {
		expect(configuredBase(source)).toBeUndefined();
	});
});

describe('baseOf and readBase', () => {
	it('take the first config file that sets a base, else none', () => {
		expect(baseOf(['', "export default defineConfig({ plugins: [sveltekit({ paths: { base: '/app' } })] });"])).toBe('/app');
		expect(baseOf(["export default { kit: { paths: { base: process.env.BASE } } };", "sveltekit({ paths: { base: '/app' } })"])).toBeNull();
		expect(baseOf(['export default {', ''])).toBe('');
	});

	it("reads the app's svelte.config.js and Vite config; an app without them has no base", async () => {
		const app = await mkdtemp(path.join(tmpdir(), 'create-auth-base-'));
		try {
			expect(await readBase(app)).toBe('');
			await writeFile(path.join(app, 'vite.config.ts'), "export default defineConfig({ plugins: [sveltekit({ paths: { base: '/shop' } })] });\n");
			expect(await readBase(app)).toBe('/shop');
		} finally {
			await rm(app, { recursive: true, force: true });
		}
	});
});
