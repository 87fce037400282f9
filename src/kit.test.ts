import { describe, expect, it } from 'vitest';
import { enablesExplicitEnv, hasRequestEvent, hasResolve, kitMajor, libFolder, missingNode } from './kit.js';

describe('kitMajor', () => {
	it.each([
		['the installed version over the range', '3.2.0', '^2.5.0', 3],
		['the range when nothing is installed', undefined, '^2.70.4', 2],
		['a prerelease range', undefined, '^3.0.0-next.0', 3],
		['the newest major for a tag', undefined, 'latest', 3]
	])('takes %s', (_, installed, range, major) => {
		expect(kitMajor(installed, range)).toBe(major);
	});
});

describe('hasRequestEvent', () => {
	it.each([
		['an installed 2.20', '2.20.0', '^2.5.0', true],
		['an installed 2.19 whatever the range says', '2.19.3', '^2.63.0', false],
		['a range from 2.63 when nothing is installed', undefined, '^2.63.0', true],
		['a range from 2.5', undefined, '~2.5.0', false],
		['SvelteKit 3', undefined, '^3.0.0-next.0', true],
		['a tag (the newest)', undefined, 'latest', true]
	])('%s: %s', (_, installed, range, expected) => {
		expect(hasRequestEvent(installed, range)).toBe(expected);
	});
});

describe('hasResolve', () => {
	it.each([
		['an installed 2.26', '2.26.0', '^2.5.0', true],
		['an installed 2.25 whatever the range says', '2.25.9', '^2.63.0', false],
		['a range from 2.63 when nothing is installed', undefined, '^2.63.0', true],
		['a range from 2.20', undefined, '^2.20.0', false],
		['SvelteKit 3', '3.2.0', '^3.0.0-next.0', true],
		['a tag (the newest)', undefined, 'latest', true]
	])('%s: %s', (_, installed, range, expected) => {
		expect(hasResolve(installed, range)).toBe(expected);
	});
});

describe('libFolder', () => {
	it("reads #lib/* from package.json's imports", () => {
		expect(libFolder({ '#lib': './src/lib/index.js', '#lib/*': './src/lib/*' })).toEqual({ libImports: true, libDir: 'src/lib' });
		expect(libFolder({ '#lib/*': './app/lib/*' })).toEqual({ libImports: true, libDir: 'app/lib' });
	});

	it.each([
		['no imports field', undefined],
		['imports of other things', { '#utils/*': './src/utils/*' }],
		['a conditional #lib/* mapping', { '#lib/*': { default: './src/lib/*' } }],
		['not an object', 'nope']
	])('falls back to the $lib alias and src/lib for %s', (_, imports) => {
		expect(libFolder(imports)).toEqual({ libImports: false, libDir: 'src/lib' });
	});
});

describe('enablesExplicitEnv', () => {
	it('finds the flag in svelte.config.js and in the sveltekit() plugin options', () => {
		expect(enablesExplicitEnv('export default { kit: { experimental: { explicitEnvironmentVariables: true } } };')).toBe(true);
		expect(
			enablesExplicitEnv("export default defineConfig({ plugins: [sveltekit({ experimental: { 'explicitEnvironmentVariables': true } })] });")
		).toBe(true);
	});

	it.each([
		['the flag set to false', 'export default { kit: { experimental: { explicitEnvironmentVariables: false } } };'],
		['no flag', 'export default { kit: {} };'],
		['the name in a comment only', '// explicitEnvironmentVariables: true\nexport default {};'],
		['a file that does not parse', 'export default {']
	])('is false for %s', (_, source) => {
		expect(enablesExplicitEnv(source)).toBe(false);
	});
});

describe('missingNode', () => {
	it('asks SvelteKit 3 for Node 22.17 or later', () => {
		expect(missingNode({ major: 3 }, '20.20.2')).toBe('22.17');
		expect(missingNode({ major: 3 }, '22.16.0')).toBe('22.17');
		expect(missingNode({ major: 3 }, '22.17.0')).toBeUndefined();
		expect(missingNode({ major: 3 }, '24.1.0')).toBeUndefined();
	});

	it('is content with any Node this CLI runs on for SvelteKit 2', () => {
		expect(missingNode({ major: 2 }, '20.19.0')).toBeUndefined();
	});
});
