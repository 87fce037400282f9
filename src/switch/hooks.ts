import MagicString from 'magic-string';
import type { Expression, File, Identifier, ImportDeclaration, Node, Statement } from '@babel/types';
import type { EditResult } from '../edits/hooks.js';
import { endOfLine, parseModule, unwrapExpression, walk } from '../edits/ast.js';

/**
 * Takes a previous library's handle out of `src/hooks.server.(ts|js)`, so that after a switch
 * one auth hook runs (issue 29). The handle is the top-level function or `const` whose body
 * calls `marker` (Better Auth's `svelteKitHandler`, as `sv add better-auth` and Better Auth's
 * guide write it):
 *
 * - its declaration goes;
 * - `export const handle = thatHandle` goes too (the file then has no `handle`; create-auth's
 *   `composeHooks` adds its own); in `sequence(thatHandle, other)` the argument goes;
 * - an `export const handle` that is itself such a function goes;
 * - imports that only the removed code used go (`svelteKitHandler`, the library's `auth`,
 *   `building`), and nothing else: the rest of the file stays byte-identical.
 *
 * A file without the marker comes back unchanged. A shape this does not know (the handle used
 * elsewhere than in `handle`, a parse error) is not edited; the result carries `pending`, the
 * manual step, naming `path`.
 *
 * @param marker the function only the library's handle calls (`svelteKitHandler`)
 * @returns the new text, and the names of the declarations removed in `removed`
 */
export function removeLibraryHandle(source: string, marker: string, path = 'src/hooks.server.ts'): EditResult & { removed: string[] } {
	const ast = parseModule(source);
	const manual = `Remove the handle that calls ${marker} from ${path}, and its imports: create-auth's handle replaces it.`;
	if (!ast) return { content: source, pending: manual, removed: [] };
	if (!identifiers(ast.program).has(marker)) return { content: source, removed: [] };
	const body = ast.program.body;
	const edit = new MagicString(source);
	const removed: string[] = [];
	const candidates = new Set<string>();
	const drop = (node: Node) => {
		identifiers(node).forEach((name) => candidates.add(name));
		edit.remove(lineStart(source, node.start!), endOfLine(source, node.end!));
	};

	const declared = new Map<string, Statement>();
	for (const statement of body) {
		const node = statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
		if (node.type === 'FunctionDeclaration' && node.id && identifiers(node.body).has(marker)) declared.set(node.id.name, statement);
		if (node.type === 'VariableDeclaration' && node.declarations.length === 1) {
			const [declarator] = node.declarations;
			if (declarator!.id.type === 'Identifier' && declarator!.init && identifiers(declarator!.init).has(marker)) declared.set(declarator!.id.name, statement);
		}
	}
	if (declared.size === 0) return { content: source, pending: manual, removed: [] };

	// A worklist: a `const x = theHandle` alias (create-auth's own `appHandle`, say) goes too, and its uses are looked at in turn.
	const queue = [...declared];
	const dropped = new Set<Statement>();
	while (queue.length > 0) {
		const [name, statement] = queue.shift()!;
		drop(statement);
		dropped.add(statement);
		removed.push(name);
		if (name === 'handle') continue;
		// Every other use of the handle must be an alias of it, `handle`'s value, or an argument of `handle`'s sequence.
		for (const other of body) {
			if (dropped.has(other) || other.type === 'ImportDeclaration' || !identifiers(other).has(name)) continue;
			const alias = aliasOf(other, name);
			if (alias) {
				queue.push([alias, other]);
				dropped.add(other);
				continue;
			}
			const value = exportedHandleValue(other);
			if (!value) return { content: source, pending: manual, removed: [] };
			if (value.type === 'Identifier' && value.name === name) {
				drop(other);
				dropped.add(other);
				removed.push('handle');
				continue;
			}
			const argument = value.type === 'CallExpression' ? value.arguments.find((node) => node.type === 'Identifier' && node.name === name) : undefined;
			if (!argument || value.type !== 'CallExpression') return { content: source, pending: manual, removed: [] };
			const index = value.arguments.indexOf(argument);
			const next = value.arguments[index + 1];
			const previous = value.arguments[index - 1];
			if (next) edit.remove(argument.start!, next.start!);
			else if (previous) edit.remove(previous.end!, argument.end!);
			else edit.remove(argument.start!, argument.end!);
		}
	}

	const content = withoutUnusedImports(edit.toString(), candidates);
	// Blank lines left where declarations were: at most one in a row, none at the start.
	return { content: content.replace(/\n{3,}/g, '\n\n').replace(/^\s+/, ''), removed };
}

/**
 * The name `statement` declares when it is a module-private `const <name> = <target>` (a type
 * annotation or `satisfies` allowed). An exported one is not an alias to drop: the app exports it.
 */
function aliasOf(statement: Statement, target: string): string | undefined {
	if (statement.type !== 'VariableDeclaration' || statement.declarations.length !== 1) return undefined;
	const [declarator] = statement.declarations;
	const value = declarator?.init ? unwrapExpression(declarator.init) : undefined;
	return declarator?.id.type === 'Identifier' && value?.type === 'Identifier' && value.name === target ? declarator.id.name : undefined;
}

/** The value of `export const handle = …` (TypeScript wrappers looked through), when `statement` is that. */
function exportedHandleValue(statement: Statement): Expression | undefined {
	if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration') return undefined;
	const [declarator] = statement.declaration.declarations;
	if (declarator?.id.type !== 'Identifier' || declarator.id.name !== 'handle' || !declarator.init) return undefined;
	return unwrapExpression(declarator.init);
}

/** Import specifiers among `candidates` that nothing in the module refers to any more, removed (a declaration left empty goes whole). */
function withoutUnusedImports(source: string, candidates: Set<string>): string {
	const ast = parseModule(source);
	if (!ast) return source;
	const used = identifiers(nonImports(ast));
	const edit = new MagicString(source);
	for (const node of ast.program.body.filter((n): n is ImportDeclaration => n.type === 'ImportDeclaration')) {
		const unused = node.specifiers.filter((s) => candidates.has(s.local.name) && !used.has(s.local.name));
		if (unused.length === 0) continue;
		if (unused.length === node.specifiers.length) {
			edit.remove(lineStart(source, node.start!), endOfLine(source, node.end!));
			continue;
		}
		for (const specifier of unused) {
			const after = source.slice(specifier.end!).match(/^\s*,\s*/)?.[0];
			if (after) edit.remove(specifier.start!, specifier.end! + after.length);
			else edit.remove(source.lastIndexOf(',', specifier.start!), specifier.end!);
		}
	}
	return edit.toString();
}

/** The module's body without its imports, as one node to walk. */
function nonImports(ast: File): Node {
	return { ...ast.program, body: ast.program.body.filter((node) => node.type !== 'ImportDeclaration') } as Node;
}

/** Every identifier name under `node` (references and declarations alike; enough to tell what is still used). */
function identifiers(node: Node): Set<string> {
	const names = new Set<string>();
	walk(node, (child) => {
		if (child.type === 'Identifier' || child.type === 'JSXIdentifier') names.add((child as Identifier).name);
	});
	return names;
}

/** The start of the line holding `offset`, when only whitespace is before it there. */
function lineStart(source: string, offset: number): number {
	const start = source.lastIndexOf('\n', offset - 1) + 1;
	return /^[ \t]*$/.test(source.slice(start, offset)) ? start : offset;
}
