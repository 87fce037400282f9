import { describe, expect, it } from 'vitest';
import { describeEditFixtures } from '../test/edit-fixtures.js';
import { composeHooks } from './hooks.js';

describeEditFixtures('hooks', (source, ext) => composeHooks(source, `src/hooks.server.${ext}`));

describe('composeHooks', () => {
	it('keeps an existing exported const handle and runs it after authentication and authorization', () => {
		const source = [
			"import type { Handle } from '@sveltejs/kit';",
			'',
			'export const handle: Handle = async ({ event, resolve }) => {',
			"\tevent.locals.theme = 'dark';",
			'\treturn resolve(event);',
			'};',
			''
		].join('\n');
		const { content, pending } = composeHooks(source);
		expect(pending).toBeUndefined();
		expect(content).toBe(
			[
				"import type { Handle } from '@sveltejs/kit';",
				"import { sequence } from '@sveltejs/kit/hooks';",
				"import { handle as authentication } from './auth';",
				"import { authorization } from './authorization';",
				'',
				'const appHandle: Handle = async ({ event, resolve }) => {',
				"\tevent.locals.theme = 'dark';",
				'\treturn resolve(event);',
				'};',
				'',
				'export const handle = sequence(authentication, authorization, appHandle);',
				''
			].join('\n')
		);
	});

	it('renames an exported function handle and reuses an existing sequence import', () => {
		const source = "import { sequence } from '@sveltejs/kit/hooks';\n\nexport async function handle({ event, resolve }) {\n\treturn resolve(event);\n}\n";
		const { content } = composeHooks(source);
		expect(content).toContain('async function appHandle({ event, resolve }) {');
		expect(content.match(/from '@sveltejs\/kit\/hooks'/g)).toHaveLength(1);
		expect(content.endsWith('export const handle = sequence(authentication, authorization, appHandle);\n')).toBe(true);
	});

	it('adds a handle to a hooks file that exports none, keeping its other exports byte for byte', () => {
		const source = "export const handleError = ({ error }) => {\n\tconsole.error(error);\n};\n";
		const { content } = composeHooks(source);
		expect(content).toContain(source);
		expect(content).toContain('export const handle = sequence(authentication, authorization);');
	});

	it('is idempotent: a file that already imports ./auth comes back unchanged', () => {
		const once = composeHooks('export const handle = ({ event, resolve }) => resolve(event);\n').content;
		expect(composeHooks(once).content).toBe(once);
	});

	it.each([
		['a re-exported handle', "export { handle } from './other';\n"],
		['an exported name with no local binding', 'export { h as handle };\n'],
		['a name the edit needs is taken', "const authorization = 1;\nexport const handle = ({ event, resolve }) => resolve(event);\n"],
		['a file that does not parse', 'export const handle = (;\n']
	])('leaves the file alone and reports a manual step for %s', (_, source) => {
		const { content, pending } = composeHooks(source);
		expect(content).toBe(source);
		expect(pending).toMatch(/^Compose the auth handle into src\/hooks\.server: .*sequence\(authentication, authorization/);
	});

	it('names the file it was given in the manual step', () => {
		expect(composeHooks("export * from './x';\n", 'src/hooks.server.js').pending).toMatch(/^Compose the auth handle into src\/hooks\.server\.js: /);
	});
});
