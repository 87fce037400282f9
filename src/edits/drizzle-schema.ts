import { parseModule } from './ast.js';
import type { EditResult } from './hooks.js';

/**
 * Re-exports the auth tables from the app's Drizzle schema file, so that drizzle-kit (which
 * reads only that file) creates and migrates them with the app's own tables:
 * `export * from '<specifier>';` appended after the last line. Idempotent: a file that already
 * re-exports `specifier` is returned as it is.
 *
 * @param specifier a relative specifier (drizzle-kit resolves no `$lib` alias), e.g.
 *   `'../auth/adapters/drizzle-schema/sqlite'`
 * @returns the new text; `pending` (and the text unchanged) when the file does not parse
 */
export function addSchemaExport(source: string, specifier: string, path: string): EditResult {
	const ast = parseModule(source);
	if (!ast) {
		return { content: source, pending: `Add \`export * from '${specifier}';\` to ${path}: it does not parse, so create-auth left it alone.` };
	}
	const present = ast.program.body.some((node) => node.type === 'ExportAllDeclaration' && node.source.value === specifier);
	if (present) return { content: source };
	const line = `export * from '${specifier}';\n`;
	const newline = source.length === 0 || source.endsWith('\n') ? '' : '\n';
	return { content: `${source}${newline}\n// The auth tables (create-auth): drizzle-kit creates them with yours.\n${line}` };
}
