import { parse } from '@babel/parser';
import type { File } from '@babel/types';

/**
 * Parses a JavaScript or TypeScript module with positions, for structural edits: callers find
 * nodes here and splice text at their `start`/`end` offsets, so every line they do not touch
 * stays byte-identical.
 *
 * @returns the AST, or `undefined` when the source does not parse (callers then leave the file
 *   alone and report a manual step)
 */
export function parseModule(source: string): File | undefined {
	try {
		return parse(source, {
			sourceType: 'module',
			plugins: ['typescript'],
			errorRecovery: false
		});
	} catch {
		return undefined;
	}
}

/** The offset just after the last top-level import, or 0 when there is none. */
export function endOfImports(ast: File): number {
	let end = 0;
	for (const node of ast.program.body) {
		if (node.type === 'ImportDeclaration') end = node.end ?? end;
	}
	return end;
}
