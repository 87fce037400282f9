import MagicString from 'magic-string';
import type { ImportDeclaration, Node } from '@babel/types';
import { endOfLine, parseModule, walk } from '../edits/ast.js';
import type { EditResult } from '../edits/hooks.js';

/**
 * Takes a previous library's types out of `src/app.d.ts` (issue 29): its type imports
 * (`import type { User, Session } from 'better-auth'`, any module of `packages` or below them)
 * and the interface members typed with them (`interface Locals { user?: User; session?: Session }`,
 * members its hook filled), or typed with an inline import of such a module
 * (`user: import('$lib/server/auth').SessionValidationResult['user']`, as `sv add lucia` writes them). Everything else stays byte-identical; an interface left empty stays,
 * empty (create-auth's own edit then adds `auth()` to `Locals`).
 *
 * @param packages the library's packages (`better-auth`) or module specifiers (`$lib/server/auth`)
 * @returns the new text (the source when it imports nothing of them); `pending` for a file that
 *   does not parse, or that uses an imported name outside an interface member's type
 */
export function removeLibraryTypes(source: string, packages: readonly string[], path = 'src/app.d.ts'): EditResult & { removed: string[] } {
	const ast = parseModule(source);
	if (!ast) return { content: source, pending: `Remove the types of ${packages.join(', ')} from ${path}.`, removed: [] };
	const fromLibrary = (node: ImportDeclaration) => packages.some((name) => node.source.value === name || node.source.value.startsWith(`${name}/`));
	const imports = ast.program.body.filter((node): node is ImportDeclaration => node.type === 'ImportDeclaration' && fromLibrary(node));
	const inline = (node: Node) => importsInline(node, packages);
	if (imports.length === 0 && !inline(ast.program)) return { content: source, removed: [] };
	const names = new Set(imports.flatMap((node) => node.specifiers.map((specifier) => specifier.local.name)));
	const edit = new MagicString(source);
	for (const node of imports) edit.remove(node.start!, endOfLine(source, node.end!));

	const removed: string[] = [];
	const members = new Set<object>();
	walk(ast.program, (node) => {
		if (node.type !== 'TSInterfaceBody') return;
		const typedMembers = node.body.filter((member) => member.type === 'TSPropertySignature' && member.key.type === 'Identifier' && (usesAny(member, names) || inline(member)));
		if (typedMembers.length > 0 && typedMembers.length === node.body.length && !source.slice(node.start!, node.end!).includes('\n')) {
			// A one-line interface whose every member goes: `interface Locals {}`.
			for (const member of typedMembers) {
				members.add(member);
				removed.push((member as { key: { name: string } }).key.name);
			}
			edit.overwrite(node.start!, node.end!, '{}');
			return;
		}
		for (const member of node.body) {
			if (!(usesAny(member, names) || inline(member)) || member.type !== 'TSPropertySignature' || member.key.type !== 'Identifier') continue;
			members.add(member);
			removed.push(member.key.name);
			// The member and the separator after it (`;` or `,`), and the line when it is alone on it.
			const separator = /^[ \t]*[;,]?/.exec(source.slice(member.end!))![0];
			const end = member.end! + separator.length;
			const lineStart = source.lastIndexOf('\n', member.start! - 1) + 1;
			const alone = /^[ \t]*$/.test(source.slice(lineStart, member.start!)) && /^[ \t]*\r?\n/.test(source.slice(end));
			if (alone) edit.remove(lineStart, endOfLine(source, end));
			else edit.remove(member.start!, end);
		}
	});
	// An imported name used anywhere but in a removed member: the file is left for the user.
	let stray = false;
	walk(ast.program, (node) => {
		if (node.type === 'TSTypeReference' && node.typeName.type === 'Identifier' && names.has(node.typeName.name)) {
			const inRemoved = [...members].some((member) => (member as { start: number }).start <= node.start! && node.end! <= (member as { end: number }).end);
			if (!inRemoved) stray = true;
		}
	});
	if (stray) return { content: source, pending: `Remove the types of ${packages.join(', ')} from ${path}: its types are used beyond App.Locals.`, removed: [] };
	return { content: edit.toString().replace(/^\s*\n/, ''), removed };
}

/** Whether `node` mentions one of `names`. */
function usesAny(node: Node, names: Set<string>): boolean {
	let found = false;
	walk(node, (inner) => {
		if (inner.type === 'Identifier' && names.has(inner.name)) found = true;
	});
	return found;
}

/** Whether a type under `node` is an inline import of one of `modules` or below them: `import('$lib/server/auth').User`. */
function importsInline(node: Node, modules: readonly string[]): boolean {
	let found = false;
	walk(node, (inner) => {
		if (inner.type !== 'TSImportType') return;
		const argument = inner.argument as Node;
		const literal = argument.type === 'TSLiteralType' ? argument.literal : argument;
		const value = literal.type === 'StringLiteral' ? literal.value : undefined;
		if (value !== undefined && modules.some((name) => value === name || value.startsWith(`${name}/`))) found = true;
	});
	return found;
}
