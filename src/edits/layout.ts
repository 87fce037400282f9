import MagicString from 'magic-string';
import type {
	ArrowFunctionExpression,
	Expression,
	FunctionDeclaration,
	FunctionExpression,
	Node,
	ObjectExpression,
	ObjectPattern,
	ReturnStatement,
	Statement
} from '@babel/types';
import { indentAt, indentUnit, insertImports, nameOf, parseModule, patternNames, topLevelNames, unwrapExpression } from './ast.js';
import type { EditResult } from './hooks.js';

type LoadFunction = FunctionDeclaration | FunctionExpression | ArrowFunctionExpression;

interface Load {
	fn: LoadFunction;
	/** Whether its parameter gets a type from elsewhere (`load: LayoutServerLoad`, `satisfies`). */
	contextuallyTyped: boolean;
}

/**
 * Makes the root layout load (`src/routes/+layout.server.(ts|js)`, given as `path`) return the
 * session too, as `session: await <event>.locals.auth()`, so every page has `data.session`.
 * The user's load is edited in place:
 *
 * - `export const load = async (event) => { … }` (typed, `satisfies`, a function expression),
 *   `export (async) function load(…)`, or a local exported as `load` (`export { load }`);
 * - every `return` of the load itself (never one inside a nested function): an object literal
 *   gets a `session` property; another value is spread, `return { ...data, session: … }`
 *   (awaited first when it may be a promise); a bare `return;` returns the session; a body that
 *   can end without a return gets one; an arrow's expression body, `=> ({ … })` or `=> data`,
 *   the same;
 * - a non-async load is made async; a load without a parameter gets `event` (typed with
 *   `import('./$types').LayoutServerLoadEvent` in TypeScript when nothing else types it); a
 *   destructured parameter without `locals` gets `locals` added to the pattern.
 *
 * A file without `load` gets `export const load = async (event) => ({ session: … })`, typed
 * with `LayoutServerLoad` from `./$types` (imported in TypeScript, JSDoc in JavaScript).
 *
 * Idempotent: a file that already calls `locals.auth()` is returned unchanged. A shape it does
 * not know (`export { load } from …`, `export *`, a load that is not a function, a generator, an
 * explicit return type, a return object that already has a `session` key, a parse error) is not
 * edited; the result then carries `pending`, the one-line manual step naming `path`.
 * @see https://svelte.dev/docs/kit/load#Layout-data
 */
export function mergeLayoutLoad(source: string, path: string): EditResult {
	const unchanged = {
		content: source,
		pending: `Return the session from your root layout load in ${path}: session: await event.locals.auth()`
	};
	const ast = parseModule(source);
	if (!ast) return unchanged;
	const body = ast.program.body;
	const typescript = path.endsWith('.ts');
	const load = findLoad(body);
	const aliases = new Set(['locals']);
	if (load && load !== 'unknown') localsBinding(load.fn, aliases);
	if (callsAuth(ast.program, aliases)) return { content: source };
	if (load === 'unknown') return unchanged;

	const edit = new MagicString(source);
	if (!load) {
		const declared = topLevelNames(body);
		if (declared.has('load')) return unchanged;
		const session = '({ session: await event.locals.auth() })';
		let declaration = `/** @type {import('./$types').LayoutServerLoad} */\nexport const load = async (event) => ${session};`;
		if (typescript) {
			const type = importedType(body, 'LayoutServerLoad');
			if (!type && declared.has('LayoutServerLoad')) return unchanged;
			if (!type) insertImports(edit, ast, source, ["import type { LayoutServerLoad } from './$types';"]);
			declaration = `export const load: ${type ?? 'LayoutServerLoad'} = async (event) => ${session};`;
		}
		const separator = source === '' ? (edit.toString() === '' ? '' : '\n') : source.endsWith('\n') ? '\n' : '\n\n';
		edit.append(`${separator}${declaration}\n`);
		return { content: edit.toString() };
	}

	const { fn } = load;
	if (fn.generator || fn.returnType) return unchanged;
	const locals = useLocals(edit, source, load, typescript, body);
	if (!locals) return unchanged;
	const session = `session: await ${locals}.auth()`;

	if (fn.body.type !== 'BlockStatement') {
		if (!returnSession(edit, source, fn.body, session, true)) return unchanged;
	} else {
		const returns: ReturnStatement[] = [];
		collectReturns(fn.body.body, returns);
		for (const statement of returns) {
			if (!statement.argument) edit.appendLeft(statement.start! + 'return'.length, ` { ${session} }`);
			else if (!returnSession(edit, source, statement.argument, session, false)) return unchanged;
		}
		if (completes(fn.body.body)) appendReturn(edit, source, fn.body, `return { ${session} };`);
	}
	if (!fn.async) edit.appendLeft(fn.start!, 'async ');
	return { content: edit.toString() };
}

/** The module's `load`: undefined when there is none, 'unknown' when it is not a function of this module. */
function findLoad(body: Statement[]): Load | undefined | 'unknown' {
	let name = 'load';
	let exportedByName = false;
	for (const node of body) {
		if (node.type === 'ExportAllDeclaration') return 'unknown';
		if (node.type !== 'ExportNamedDeclaration' || node.exportKind === 'type') continue;
		const specifier = node.specifiers.find((s) => nameOf(s.exported) === 'load');
		if (specifier) {
			if (node.source || specifier.type !== 'ExportSpecifier') return 'unknown';
			name = specifier.local.name;
			exportedByName = true;
		}
	}
	for (const statement of body) {
		const node = statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
		if (node.type === 'FunctionDeclaration' && node.id?.name === name) return { fn: node, contextuallyTyped: false };
		if (node.type !== 'VariableDeclaration') continue;
		const declarator = node.declarations.find((d) => d.id.type === 'Identifier' && d.id.name === name);
		if (!declarator) continue;
		const fn = declarator.init && unwrapExpression(declarator.init);
		if (fn?.type !== 'ArrowFunctionExpression' && fn?.type !== 'FunctionExpression') return 'unknown';
		const annotated = declarator.id.type === 'Identifier' && Boolean(declarator.id.typeAnnotation);
		return { fn, contextuallyTyped: annotated || declarator.init !== fn };
	}
	return exportedByName ? 'unknown' : undefined;
}

/** Adds to `names` what the load's parameter calls `locals` (`l` for `{ locals: l }`). */
function localsBinding(fn: LoadFunction, names: Set<string>): void {
	const [param] = fn.params;
	if (param?.type !== 'ObjectPattern') return;
	const value = localsProperty(param)?.value;
	if (value?.type === 'Identifier') names.add(value.name);
}

function localsProperty(pattern: ObjectPattern) {
	return pattern.properties.find((p) => p.type === 'ObjectProperty' && !p.computed && nameOf(p.key) === 'locals') as
		| Extract<ObjectPattern['properties'][number], { type: 'ObjectProperty' }>
		| undefined;
}

/**
 * How the load reaches `locals` (`event.locals`, `locals`), adding to its parameters what that
 * takes: `event` when it has none, `locals` in a destructuring pattern without it. Undefined for
 * a parameter it cannot use, or when an added `locals` would clash with a name in scope.
 */
function useLocals(edit: MagicString, source: string, load: Load, typescript: boolean, body: Statement[]): string | undefined {
	const { fn } = load;
	const [param] = fn.params;
	if (!param) {
		const open = source.indexOf('(', (fn.typeParameters ?? (fn.type === 'ArrowFunctionExpression' ? fn : fn.id) ?? fn).start!);
		const type = typescript && !load.contextuallyTyped ? ": import('./$types').LayoutServerLoadEvent" : '';
		edit.appendLeft(open + 1, `event${type}`);
		return 'event.locals';
	}
	if (param.type === 'Identifier') return `${param.name}.locals`;
	if (param.type !== 'ObjectPattern') return undefined;
	const property = localsProperty(param);
	if (property) return property.value.type === 'Identifier' ? property.value.name : undefined;

	const bound = topLevelNames(body);
	fn.params.forEach((p) => patternNames(p, bound));
	if (fn.body.type === 'BlockStatement') topLevelNames(fn.body.body).forEach((name) => bound.add(name));
	if (bound.has('locals')) return undefined;
	addMember(edit, source, param, 'locals');
	return 'locals';
}

/** Whether the module calls `auth()` on `locals` (any of `names`) or on an `….locals`. */
function callsAuth(root: Node, names: Set<string>): boolean {
	let found = false;
	walk(root, (node) => {
		if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.callee.computed) return;
		const { object, property } = node.callee;
		if (property.type !== 'Identifier' || property.name !== 'auth') return;
		if (object.type === 'Identifier' && names.has(object.name)) found = true;
		if (object.type === 'MemberExpression' && !object.computed && nameOf(object.property) === 'locals') found = true;
	});
	return found;
}

/** Calls `visit` on every node under `node`. */
function walk(node: Node, visit: (node: Node) => void): void {
	visit(node);
	for (const [key, value] of Object.entries(node)) {
		if (key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
		for (const child of Array.isArray(value) ? value : [value]) {
			if (child && typeof child === 'object' && typeof child.type === 'string') walk(child as Node, visit);
		}
	}
}

/**
 * Makes `value` (a returned value, or an arrow's expression body) carry the session: a `session`
 * property in an object literal, else `{ ...value, session }`. False when the object already has a
 * `session` of another origin.
 */
function returnSession(edit: MagicString, source: string, value: Expression, session: string, arrowBody: boolean): boolean {
	const object = unwrapExpression(value);
	if (object.type === 'ObjectExpression') {
		const has = object.properties.some((p) => p.type !== 'SpreadElement' && !p.computed && nameOf(p.key) === 'session');
		if (has) return false;
		addMember(edit, source, object, session);
		return true;
	}
	// A call may return a promise of the data (an async helper); spreading it would lose the data.
	const spread =
		value.type === 'Identifier' || value.type === 'MemberExpression'
			? ['', '']
			: value.type === 'AwaitExpression'
				? ['(', ')']
				: ['(await ', ')'];
	const parens = arrowBody && !value.extra?.parenthesized;
	const [open, close] = parens ? ['({ ...', ' })'] : ['{ ...', ' }'];
	edit.appendLeft(value.start!, `${open}${spread[0]}`);
	edit.appendRight(value.end!, `${spread[1]}, ${session}${close}`);
	return true;
}

/** Adds `member` to an object literal or destructuring pattern, as its members are laid out. */
function addMember(edit: MagicString, source: string, node: ObjectExpression | ObjectPattern, member: string): void {
	const members: Node[] = node.properties;
	const rest = members.at(-1)?.type === 'RestElement' ? members.at(-1) : undefined;
	const last = rest ? members.at(-2) : members.at(-1);
	const open = node.start!;
	const close = source.lastIndexOf('}', node.type === 'ObjectPattern' && node.typeAnnotation ? node.typeAnnotation.start! : node.end! - 1);
	const first = members[0];
	if (!first) {
		edit.overwrite(open, close + 1, `{ ${member} }`);
		return;
	}
	const multiline = source.slice(open + 1, first.start!).includes('\n');
	const indent = indentAt(source, first.start!);
	if (rest) {
		edit.appendLeft(rest.start!, multiline ? `${member},\n${indent}` : `${member}, `);
		return;
	}
	const after = source.slice(last!.end!, close);
	const comma = /^\s*,/.exec(after);
	if (multiline && comma) edit.appendLeft(last!.end! + comma[0].length, `\n${indent}${member},`);
	else if (multiline) edit.appendLeft(last!.end!, `,\n${indent}${member}`);
	else edit.appendLeft(last!.end!, `, ${member}`);
}

/** The return statements of a function body, not those of functions nested in it. */
function collectReturns(statements: Statement[], out: ReturnStatement[]): void {
	for (const node of statements) {
		if (node.type === 'ReturnStatement') out.push(node);
		else if (node.type === 'BlockStatement') collectReturns(node.body, out);
		else if (node.type === 'IfStatement') collectReturns(node.alternate ? [node.consequent, node.alternate] : [node.consequent], out);
		else if (
			node.type === 'ForStatement' ||
			node.type === 'ForInStatement' ||
			node.type === 'ForOfStatement' ||
			node.type === 'WhileStatement' ||
			node.type === 'DoWhileStatement' ||
			node.type === 'LabeledStatement' ||
			node.type === 'WithStatement'
		) {
			collectReturns([node.body], out);
		} else if (node.type === 'TryStatement') {
			collectReturns([node.block, ...(node.handler ? [node.handler.body] : []), ...(node.finalizer ? [node.finalizer] : [])], out);
		} else if (node.type === 'SwitchStatement') collectReturns(node.cases.flatMap((c) => c.consequent), out);
	}
}

/** Whether running `statements` can reach their end (conservative: true unless clearly not). */
function completes(statements: Statement[]): boolean {
	const last = statements.at(-1);
	if (!last) return true;
	switch (last.type) {
		case 'ReturnStatement':
		case 'ThrowStatement':
			return false;
		case 'BlockStatement':
			return completes(last.body);
		case 'IfStatement':
			return !last.alternate || completes([last.consequent]) || completes([last.alternate]);
		case 'TryStatement':
			if (last.finalizer && !completes(last.finalizer.body)) return false;
			return completes(last.block.body) || (last.handler !== null && last.handler !== undefined && completes(last.handler.body.body));
		default:
			return true;
	}
}

/** Adds `line` as the last statement of a block body, indented like the block's statements. */
function appendReturn(edit: MagicString, source: string, block: { body: Statement[]; start?: number | null; end?: number | null }, line: string): void {
	const close = block.end! - 1;
	const lastStatement = block.body.at(-1);
	const outer = indentAt(source, close);
	if (!source.slice(lastStatement?.end ?? block.start! + 1, close).includes('\n')) {
		const indent = indentAt(source, block.start!) + indentUnit(source);
		const space = /\s$/.test(source.slice(0, close)) ? '' : ' ';
		edit.appendLeft(close, lastStatement ? `${space}${line} ` : `\n${indent}${line}\n${indentAt(source, block.start!)}`);
		return;
	}
	const indent = lastStatement ? indentAt(source, lastStatement.start!) : outer + indentUnit(source);
	edit.appendLeft(source.lastIndexOf('\n', close) + 1, `${indent}${line}\n`);
}

/** The local name of a type imported from `./$types`, if the module imports it. */
function importedType(body: Statement[], name: string): string | undefined {
	for (const node of body) {
		if (node.type !== 'ImportDeclaration' || node.source.value !== './$types') continue;
		for (const specifier of node.specifiers) {
			if (specifier.type === 'ImportSpecifier' && nameOf(specifier.imported) === name) return specifier.local.name;
		}
	}
	return undefined;
}
