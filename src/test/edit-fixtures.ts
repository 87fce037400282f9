import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EditResult } from '../edits/hooks.js';
import { parseModule } from '../edits/ast.js';

/**
 * The table-driven test of a structural edit over its fixture folder,
 * `src/edits/fixtures/<name>/`: for each `<shape>.in.(ts|js)`, the edit must write `<shape>.out`
 * byte for byte (with `<shape>.pending.txt` as the manual step when the file is left alone),
 * change nothing when applied to its own output, and write a file that parses.
 *
 * @param edit the edit under test, given the input text and the file's extension (`ts` or `js`)
 */
export function describeEditFixtures(name: string, edit: (source: string, ext: string) => EditResult): void {
	const folder = new URL(`../edits/fixtures/${name}/`, import.meta.url);
	const read = (file: string) => readFileSync(new URL(file, folder), 'utf8');
	const readPending = (shape: string) => {
		try {
			return read(`${shape}.pending.txt`).trimEnd();
		} catch {
			return undefined;
		}
	};
	const shapes = readdirSync(folder)
		.filter((file) => /\.in\.[jt]s$/.test(file))
		.map((file) => ({ shape: file.slice(0, -'.in.ts'.length), ext: file.slice(-2) }));

	describe.each(shapes)(`fixtures/${name}/$shape.in.$ext`, ({ shape, ext }) => {
		const input = read(`${shape}.in.${ext}`);
		const output = read(`${shape}.out.${ext}`);

		it('writes the expected file byte for byte, or leaves it alone with the expected manual step', () => {
			expect(edit(input, ext)).toEqual({ content: output, pending: readPending(shape) });
		});

		it('is idempotent: applied to its own output it changes nothing', () => {
			expect(edit(output, ext).content).toBe(output);
		});

		it('writes a file that parses', () => {
			expect(parseModule(output)).toBeDefined();
		});
	});
}
