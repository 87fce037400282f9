import MagicString from 'magic-string';
import type { Statement } from '@babel/types';
import { endOfImports, parseModule } from './ast.js';

/** Result of a structural edit of a user file. */
export interface EditResult {
	/** The new text; equal to the input when nothing had to change. */
	content: string;
	/** Set when the file has a shape the edit does not know: the manual step to print. */
	pending?: string;
}

const AUTH_IMPORT = "import { handle as authentication } from './auth';";
const AUTHORIZATION_IMPORT = "import { authorization } from './authorization';";
const SEQUENCE_IMPORT = "import { sequence } from '@sveltejs/kit/hooks';";
/** What the app's own `handle` is renamed to, so it can run after ours. */
const APP_HANDLE = 'appHandle';

/**
 * Adds authentication and authorization to an existing `hooks.server.(ts|js)` that may export
 * a `handle` of its own. That handle is kept and composed, not replaced:
 * `export const handle = …` becomes `const appHandle = …` and the file ends with
 * `export const handle = sequence(authentication, authorization, appHandle);`.
 *
 * Idempotent: a file that already imports `./auth` is returned unchanged. A shape it does not
 * know (`export { x as handle }`, a re-export, a name clash, a parse error) is not edited; the
 * result then carries the manual step.
 */
export function composeHooks(source: string): EditResult {
	const ast = parseModule(source);
	const manual = `Compose the auth handle into src/hooks.server: ${SEQUENCE_IMPORT} ${AUTH_IMPORT} ${AUTHORIZATION_IMPORT} then export const handle = sequence(authentication, authorization, <your handle>);`;
	if (!ast) return { content: source, pending: manual };
	const body = ast.program.body;
	if (body.some((node) => node.type === 'ImportDeclaration' && node.source.value === './auth')) {
		return { content: source };
	}
	const declared = topLevelNames(body);
	if (['authentication', 'authorization', APP_HANDLE].some((name) => declared.has(name))) {
		return { content: source, pending: manual };
	}

	const edit = new MagicString(source);
	const handleExport = findHandleExport(body);
	if (handleExport === 'unknown') return { content: source, pending: manual };

	const sequenceImported = body.some(
		(node) =>
			node.type === 'ImportDeclaration' &&
			node.source.value === '@sveltejs/kit/hooks' &&
			node.specifiers.some((s) => s.type === 'ImportSpecifier' && s.local.name === 'sequence')
	);
	if (sequenceImported === false && declared.has('sequence')) return { content: source, pending: manual };

	const imports = [...(sequenceImported ? [] : [SEQUENCE_IMPORT]), AUTH_IMPORT, AUTHORIZATION_IMPORT].join('\n');
	const importsAt = endOfImports(ast);
	if (importsAt === 0) edit.prepend(`${imports}\n\n`);
	else edit.appendLeft(importsAt, `\n${imports}`);

	const handlers = ['authentication', 'authorization'];
	if (handleExport) {
		edit.remove(handleExport.exportStart, handleExport.declarationStart);
		edit.overwrite(handleExport.idStart, handleExport.idEnd, APP_HANDLE);
		handlers.push(APP_HANDLE);
	}
	const tail = source.endsWith('\n') ? '' : '\n';
	edit.append(`${tail}\nexport const handle = sequence(${handlers.join(', ')});\n`);
	return { content: edit.toString() };
}

interface HandleExport {
	exportStart: number;
	declarationStart: number;
	idStart: number;
	idEnd: number;
}

/** Where `export const handle` / `export function handle` is; null if none; 'unknown' for other shapes. */
function findHandleExport(body: Statement[]): HandleExport | null | 'unknown' {
	for (const node of body) {
		if (node.type === 'ExportNamedDeclaration') {
			if (node.specifiers.some((s) => s.exported.type === 'Identifier' && s.exported.name === 'handle')) {
				return 'unknown';
			}
			const declaration = node.declaration;
			if (declaration?.type === 'FunctionDeclaration' && declaration.id?.name === 'handle') {
				return {
					exportStart: node.start!,
					declarationStart: declaration.start!,
					idStart: declaration.id.start!,
					idEnd: declaration.id.end!
				};
			}
			if (declaration?.type === 'VariableDeclaration') {
				const handle = declaration.declarations.find((d) => d.id.type === 'Identifier' && d.id.name === 'handle');
				if (!handle) continue;
				if (declaration.declarations.length > 1) return 'unknown';
				const id = handle.id;
				// The identifier's range includes a type annotation (`handle: Handle`); rename the name only.
				return {
					exportStart: node.start!,
					declarationStart: declaration.start!,
					idStart: id.start!,
					idEnd: id.start! + 'handle'.length
				};
			}
		}
		if (node.type === 'ExportAllDeclaration') return 'unknown';
	}
	return null;
}

/** Names bound at the top level of a module: imports, functions, classes and variables. */
function topLevelNames(body: Statement[]): Set<string> {
	const names = new Set<string>();
	for (const statement of body) {
		const node =
			statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
		if (node.type === 'ImportDeclaration') node.specifiers.forEach((s) => names.add(s.local.name));
		if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) names.add(node.id.name);
		if (node.type === 'VariableDeclaration') {
			for (const d of node.declarations) if (d.id.type === 'Identifier') names.add(d.id.name);
		}
	}
	return names;
}
