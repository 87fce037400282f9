import { describe, expect, it } from 'vitest';
import { describeEditFixtures } from '../test/edit-fixtures.js';
import { mergeLayoutLoad } from './layout.js';

describeEditFixtures('layout', (source, ext) => mergeLayoutLoad(source, `src/routes/+layout.server.${ext}`));

describe('mergeLayoutLoad', () => {
	it('leaves a file that does not parse alone and names it in the manual step', () => {
		const source = 'export const load = (;\n';
		expect(mergeLayoutLoad(source, 'src/routes/+layout.server.js')).toEqual({
			content: source,
			pending: 'Return the session from your root layout load in src/routes/+layout.server.js: session: await event.locals.auth()'
		});
	});

	it('adds the load to an empty file, with nothing before it', () => {
		expect(mergeLayoutLoad('', 'src/routes/+layout.server.js').content).toBe(
			"/** @type {import('./$types').LayoutServerLoad} */\nexport const load = async (event) => ({ session: await event.locals.auth() });\n"
		);
		expect(mergeLayoutLoad('', 'src/routes/+layout.server.ts').content).toBe(
			"import type { LayoutServerLoad } from './$types';\n\nexport const load: LayoutServerLoad = async (event) => ({ session: await event.locals.auth() });\n"
		);
	});

	it('reuses a LayoutServerLoad the file already imports, under its local name', () => {
		const source = "import type { LayoutServerLoad as Load } from './$types';\n\nexport const ssr = false;\n";
		expect(mergeLayoutLoad(source, 'src/routes/+layout.server.ts').content).toBe(
			`${source}\nexport const load: Load = async (event) => ({ session: await event.locals.auth() });\n`
		);
	});

	it('leaves an export of a name the module does not declare alone', () => {
		const source = 'export { load };\n';
		expect(mergeLayoutLoad(source, 'src/routes/+layout.server.js')).toEqual({ content: source, pending: expect.any(String) });
	});

	it('does not add a locals binding that a name in the load already takes', () => {
		const source = 'export const load = async ({ url }) => {\n\tconst locals = url.pathname;\n\treturn { locals };\n};\n';
		expect(mergeLayoutLoad(source, 'src/routes/+layout.server.js').pending).toMatch(/^Return the session/);
	});

	it('adds the session to a one-line block body that can end without a return', () => {
		expect(mergeLayoutLoad('export const load = (event) => { event.depends("x"); };\n', 'src/routes/+layout.server.js').content).toBe(
			'export const load = async (event) => { event.depends("x"); return { session: await event.locals.auth() }; };\n'
		);
	});
});
