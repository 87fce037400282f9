import { createRequire } from 'node:module';
import type MagicString from 'magic-string';
import type { Expression, File, Node, ObjectExpression, ObjectProperty, Statement } from '@babel/types';

let babel: typeof import('@babel/parser') | undefined;

/**
 * Parses a JavaScript or TypeScript module with positions, for structural edits: callers find
 * nodes here and splice text at their `start`/`end` offsets, so every line they do not touch
 * stays byte-identical.
 *
 * @returns the AST, or `undefined` when the source does not parse (callers then leave the file
 *   alone and report a manual step)
 */
export function parseModule(source: string): File | undefined {
	// Loaded on first use (synchronously: it is CommonJS), so commands that parse nothing start faster.
	babel ??= createRequire(import.meta.url)('@babel/parser') as typeof import('@babel/parser');
	try {
		return babel.parse(source, {
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

/**
 * The expression inside TypeScript wrappers and parentheses: `(x) satisfies T`, `x as T`,
 * `<T>x`, `x!` all give `x`. Edits look through them to the value the user wrote and splice
 * inside it, so the wrappers stay as they were.
 */
export function unwrapExpression(node: Expression): Expression {
	let inner = node;
	while (
		inner.type === 'TSSatisfiesExpression' ||
		inner.type === 'TSAsExpression' ||
		inner.type === 'TSTypeAssertion' ||
		inner.type === 'TSNonNullExpression' ||
		inner.type === 'ParenthesizedExpression'
	) {
		inner = inner.expression;
	}
	return inner;
}

/**
 * Names bound at the top level of a module (values and types alike): imports, functions,
 * classes, variables (destructuring included), enums and TypeScript declarations. An edit that
 * adds a top-level name checks it here first, so it never shadows or redeclares one of the
 * user's.
 */
export function topLevelNames(body: Statement[]): Set<string> {
	const names = new Set<string>();
	for (const statement of body) {
		const node =
			(statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') &&
			statement.declaration
				? statement.declaration
				: statement;
		if (node.type === 'ImportDeclaration') node.specifiers.forEach((s) => names.add(s.local.name));
		if (node.type === 'VariableDeclaration') node.declarations.forEach((d) => patternNames(d.id, names));
		if (
			(node.type === 'FunctionDeclaration' ||
				node.type === 'ClassDeclaration' ||
				node.type === 'TSEnumDeclaration' ||
				node.type === 'TSInterfaceDeclaration' ||
				node.type === 'TSTypeAliasDeclaration' ||
				node.type === 'TSImportEqualsDeclaration' ||
				node.type === 'TSDeclareFunction') &&
			node.id
		) {
			names.add(node.id.name);
		}
	}
	return names;
}

/** Adds the identifiers a binding pattern declares (`a`, `{ a, b: c }`, `[a, ...rest]`, `a = 1`). */
export function patternNames(pattern: Node, names = new Set<string>()): Set<string> {
	switch (pattern.type) {
		case 'Identifier':
			names.add(pattern.name);
			break;
		case 'ObjectPattern':
			for (const property of pattern.properties) {
				patternNames(property.type === 'RestElement' ? property.argument : property.value, names);
			}
			break;
		case 'ArrayPattern':
			for (const element of pattern.elements) if (element) patternNames(element, names);
			break;
		case 'AssignmentPattern':
			patternNames(pattern.left, names);
			break;
		case 'RestElement':
			patternNames(pattern.argument, names);
			break;
		case 'TSParameterProperty':
			patternNames(pattern.parameter, names);
			break;
	}
	return names;
}

/** The name an export specifier or a module-level key gives: `handle` for `x as handle` or `x as 'handle'`. */
export function nameOf(node: Node): string | undefined {
	if (node.type === 'Identifier') return node.name;
	if (node.type === 'StringLiteral') return node.value;
	return undefined;
}

/** The name of an object property written as an identifier or a string (`a: 1`, `'a': 1`); undefined for a computed key (`[a]: 1`). */
export function propertyName(property: { computed: boolean; key: Node }): string | undefined {
	return property.computed ? undefined : nameOf(property.key);
}

/** The value of the property named `key` of an object literal (see {@link propertyName}), TypeScript wrappers looked through; undefined when it has none. */
export function propertyValue(object: ObjectExpression, key: string): Expression | undefined {
	const property = object.properties.find((p): p is ObjectProperty => p.type === 'ObjectProperty' && propertyName(p) === key);
	return property ? unwrapExpression(property.value as Expression) : undefined;
}

/** The whitespace that starts the line holding `offset`. */
export function indentAt(source: string, offset: number): string {
	const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
	return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

/**
 * Just past the line break that ends the line holding `offset`, when only whitespace (or a `;`)
 * follows `offset` on that line; else `offset`. Removing a statement up to here takes its line
 * along with it, and nothing after it on the line.
 */
export function endOfLine(source: string, offset: number): number {
	const end = source.indexOf('\n', offset);
	const stop = end === -1 ? source.length : end + 1;
	return /^[ \t;]*\r?\n?$/.test(source.slice(offset, stop)) ? stop : offset;
}

/** One level of indentation as the file does it: a tab unless its lines start with spaces. */
export function indentUnit(source: string): string {
	const spaces = /^( +)[^\s*]/m.exec(source)?.[1];
	return spaces && !/^\t/m.test(source) ? ' '.repeat(Math.min(spaces.length, 4)) : '\t';
}

/**
 * Adds import lines after the module's last import; in a module without imports, above its
 * first statement and the doc comment attached to it (a header comment separated by a blank
 * line, such as `// @ts-check`, stays first).
 */
export function insertImports(edit: MagicString, ast: File, source: string, lines: readonly string[]): void {
	if (lines.length === 0) return;
	const imports = lines.join('\n');
	const end = endOfImports(ast);
	if (end > 0) {
		edit.appendLeft(end, `\n${imports}`);
		return;
	}
	const first = ast.program.body[0];
	if (!first) {
		edit.append(`${source.length > 0 && !source.endsWith('\n') ? '\n' : ''}${imports}\n`);
		return;
	}
	let at = first.start!;
	for (const comment of [...(first.leadingComments ?? [])].reverse()) {
		if (/\n[ \t]*\n/.test(source.slice(comment.end!, at))) break;
		at = comment.start!;
	}
	edit.appendLeft(at, `${imports}\n\n`);
}

/**
 * Calls `visit` on `node` and every AST node below it, depth first (positions and comments are
 * not nodes and are skipped).
 */
export function walk(node: Node, visit: (node: Node) => void): void {
	visit(node);
	for (const [key, value] of Object.entries(node)) {
		if (key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'loc') continue;
		for (const child of Array.isArray(value) ? value : [value]) {
			if (child && typeof child === 'object' && typeof (child as Node).type === 'string') walk(child as Node, visit);
		}
	}
}
