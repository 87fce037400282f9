import { describe, expect, it } from 'vitest';
import { configuredBase } from './base-path.js';

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
