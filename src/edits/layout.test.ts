import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseModule } from './ast.js';
import { mergeLayoutLoad } from './layout.js';

/** `fixtures/layout/<shape>.in.(ts|js)` → `.out` (and `.pending.txt` for a file left alone). */
const FIXTURES = new URL('./fixtures/layout/', import.meta.url);
const shapes = readdirSync(FIXTURES)
	.filter((file) => /\.in\.[jt]s$/.test(file))
	.map((file) => ({ shape: file.slice(0, -'.in.ts'.length), ext: file.slice(-2) }));
const read = (file: string) => readFileSync(new URL(file, FIXTURES), 'utf8');
const readPending = (shape: string) => {
	try {
		return read(`${shape}.pending.txt`).trimEnd();
	} catch {
		return undefined;
	}
};

describe.each(shapes)('mergeLayoutLoad on fixtures/layout/$shape.in.$ext', ({ shape, ext }) => {
	const path = `src/routes/+layout.server.${ext}`;
	const input = read(`${shape}.in.${ext}`);
	const output = read(`${shape}.out.${ext}`);

	it('writes the expected file byte for byte, or leaves it alone with the expected manual step', () => {
		expect(mergeLayoutLoad(input, path)).toEqual({ content: output, pending: readPending(shape) });
	});

	it('is idempotent: applied to its own output it changes nothing', () => {
		expect(mergeLayoutLoad(output, path).content).toBe(output);
	});

	it('writes a file that parses', () => {
		expect(parseModule(output)).toBeDefined();
	});
});

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
