import MagicString from 'magic-string';
import type { CallExpression, ExportNamedDeclaration, ExportSpecifier, Expression, Statement } from '@babel/types';
import { insertImports, nameOf, parseModule, topLevelNames, unwrapExpression } from './ast.js';

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
const OURS = ['authentication', 'authorization'];
/** What the app's own `export const handle` / `export function handle` is renamed to. */
const APP_HANDLE = 'appHandle';
/** The composed handle, for an app whose local is itself named `handle` (`export { handle }`). */
const COMPOSED = 'handleWithAuth';

/**
 * Adds authentication and authorization in front of the app's own `handle` in an existing
 * `src/hooks.server.(ts|js)`. The app's handle is kept and composed, never replaced; its type
 * annotation, JSDoc, `satisfies` and comments stay as written. Shapes:
 *
 * - `export const handle = …` (typed, `satisfies Handle`, any initializer) or
 *   `export (async) function handle(…)`: the declaration loses its `export` and is renamed
 *   `appHandle`; the file ends with
 *   `export const handle = sequence(authentication, authorization, appHandle);`.
 * - A local exported by name, `export { myHandle as handle }`: that export becomes
 *   `export const handle = sequence(authentication, authorization, myHandle);` (the local is
 *   not renamed). For `export { handle }` the specifier becomes `handleWithAuth as handle`,
 *   with `const handleWithAuth = sequence(authentication, authorization, handle);`.
 * - A handle that already is a call of SvelteKit's `sequence` (imported from
 *   `@sveltejs/kit/hooks`, under any name or through a namespace): `authentication,
 *   authorization` become its first arguments instead of wrapping it.
 * - No `handle`: one is added, `export const handle = sequence(authentication, authorization);`.
 *
 * The imports `import { handle as authentication } from './auth';` and
 * `import { authorization } from './authorization';` (and `sequence`, unless the file
 * already imports it) go after the file's last import.
 *
 * Idempotent: a file that already imports `./auth` is returned unchanged. A shape it does not
 * know (a re-export `export { handle } from …` or `export * from …`, a name the edit adds
 * already bound, several declarators in one `export const`, a parse error) is not edited; the
 * result then carries `pending`, the one-line manual step to print, naming `path` (the file's
 * path in the app, `src/hooks.server.ts` or `.js`).
 */
export function composeHooks(source: string, path = 'src/hooks.server'): EditResult {
	const ast = parseModule(source);
	const manual = `Compose the auth handle into ${path}: ${SEQUENCE_IMPORT} ${AUTH_IMPORT} ${AUTHORIZATION_IMPORT} then export const handle = sequence(authentication, authorization, <your handle>);`;
	const unchanged = { content: source, pending: manual };
	if (!ast) return unchanged;
	const body = ast.program.body;
	if (body.some((node) => node.type === 'ImportDeclaration' && /^\.\/auth(\.[jt]s)?$/.test(node.source.value))) {
		return { content: source };
	}
	const target = findHandle(body);
	if (target === 'unknown') return unchanged;
	const declared = topLevelNames(body);
	const sequence = sequenceReference(body);
	const edit = new MagicString(source);
	const free = (names: string[]) => names.every((name) => !declared.has(name));

	const call = target.init && sequence ? sequenceCall(target.init, sequence) : undefined;
	if (call) {
		if (!free(OURS)) return unchanged;
		insertImports(edit, ast, source, [AUTH_IMPORT, AUTHORIZATION_IMPORT]);
		prependArguments(edit, source, call, OURS);
		return { content: edit.toString() };
	}

	const needed = [...OURS, ...(sequence ? [] : ['sequence'])];
	if (target.kind === 'none') needed.push('handle');
	if (target.kind === 'declaration') needed.push(APP_HANDLE);
	if (target.kind === 'specifier') needed.push(target.local === 'handle' ? COMPOSED : 'handle');
	if (!free(needed)) return unchanged;
	const compose = (handle?: string) => `${sequence ?? 'sequence'}(${[...OURS, ...(handle ? [handle] : [])].join(', ')})`;
	insertImports(edit, ast, source, [...(sequence ? [] : [SEQUENCE_IMPORT]), AUTH_IMPORT, AUTHORIZATION_IMPORT]);
	const append = (line: string) => edit.append(`${source === '' || source.endsWith('\n') ? '' : '\n'}\n${line}\n`);

	switch (target.kind) {
		case 'none':
			append(`export const handle = ${compose()};`);
			break;
		case 'declaration':
			edit.remove(target.exportStart, target.declarationStart);
			edit.overwrite(target.idStart, target.idEnd, APP_HANDLE);
			append(`export const handle = ${compose(APP_HANDLE)};`);
			break;
		case 'specifier': {
			const { statement, specifier, local } = target;
			// In place only where the local already has its value, so `sequence(…)` never reads it
			// before its declaration ran; otherwise at the end of the file.
			const inPlace = statement === body.at(-1) && target.initializedBefore;
			if (local === 'handle') {
				edit.overwrite(specifier.start!, specifier.end!, `${COMPOSED} as handle`);
				const line = `const ${COMPOSED} = ${compose('handle')};`;
				if (inPlace) edit.appendLeft(statement.start!, `${line}\n`);
				else append(line);
				break;
			}
			const line = `export const handle = ${compose(local)};`;
			if (statement.specifiers.length > 1) {
				removeSpecifier(edit, statement, specifier);
				append(line);
			} else if (inPlace) edit.overwrite(statement.start!, statement.end!, line);
			else {
				removeLine(edit, source, statement);
				append(line);
			}
			break;
		}
	}
	return { content: edit.toString() };
}

type HandleTarget =
	| { kind: 'none'; init?: undefined }
	/** `export const handle = …` / `export function handle`. */
	| { kind: 'declaration'; exportStart: number; declarationStart: number; idStart: number; idEnd: number; init?: Expression }
	/** `export { local as handle }`, `local` declared in this module. */
	| {
			kind: 'specifier';
			statement: ExportNamedDeclaration;
			specifier: ExportSpecifier;
			local: string;
			init?: Expression;
			/** Whether `local` has its value by the time `statement` runs (hoisted, or declared above it). */
			initializedBefore: boolean;
	  };

/** Where the module's `handle` export comes from; 'unknown' for shapes the edit leaves alone. */
function findHandle(body: Statement[]): HandleTarget | 'unknown' {
	// `export * from …` may export a handle of its own.
	if (body.some((node) => node.type === 'ExportAllDeclaration')) return 'unknown';
	for (const node of body) {
		if (node.type !== 'ExportNamedDeclaration' || node.exportKind === 'type') continue;
		const specifier = node.specifiers.find((s) => nameOf(s.exported) === 'handle');
		if (specifier) {
			if (node.source || specifier.type !== 'ExportSpecifier' || specifier.exportKind === 'type') return 'unknown';
			const local = specifier.local.name;
			const binding = findLocal(body, local);
			if (!binding) return 'unknown';
			return {
				kind: 'specifier',
				statement: node,
				specifier,
				local,
				init: binding.init,
				initializedBefore: binding.hoisted || binding.end <= node.start!
			};
		}
		const declaration = node.declaration;
		if (declaration?.type === 'FunctionDeclaration' && declaration.id?.name === 'handle') {
			return {
				kind: 'declaration',
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
			return {
				kind: 'declaration',
				exportStart: node.start!,
				declarationStart: declaration.start!,
				// The identifier's range includes a type annotation (`handle: Handle`); rename the name only.
				idStart: handle.id.start!,
				idEnd: handle.id.start! + 'handle'.length,
				init: handle.init ?? undefined
			};
		}
	}
	return { kind: 'none' };
}

/** A top-level binding named `name`: its initializer (for variables), where it ends, whether it is hoisted. */
function findLocal(body: Statement[], name: string): { init?: Expression; end: number; hoisted: boolean } | undefined {
	for (const statement of body) {
		const node = statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
		if (node.type === 'ImportDeclaration' && node.specifiers.some((s) => s.local.name === name)) {
			return { end: node.end!, hoisted: true };
		}
		if (node.type === 'FunctionDeclaration' && node.id?.name === name) return { end: node.end!, hoisted: true };
		if (node.type === 'ClassDeclaration' && node.id?.name === name) return { end: node.end!, hoisted: false };
		if (node.type === 'VariableDeclaration') {
			const declarator = node.declarations.find((d) => d.id.type === 'Identifier' && d.id.name === name);
			if (declarator) return { init: declarator.init ?? undefined, end: node.end!, hoisted: false };
		}
	}
	return undefined;
}

/**
 * How this module refers to SvelteKit's `sequence`: its local name (`sequence`, or `seq` for
 * `import { sequence as seq }`), `hooks.sequence` for a namespace import, or undefined.
 */
function sequenceReference(body: Statement[]): string | undefined {
	for (const node of body) {
		if (node.type !== 'ImportDeclaration' || node.source.value !== '@sveltejs/kit/hooks' || node.importKind === 'type') {
			continue;
		}
		for (const specifier of node.specifiers) {
			if (specifier.type === 'ImportNamespaceSpecifier') return `${specifier.local.name}.sequence`;
			if (specifier.type === 'ImportSpecifier' && specifier.importKind !== 'type' && nameOf(specifier.imported) === 'sequence') {
				return specifier.local.name;
			}
		}
	}
	return undefined;
}

/** The `sequence(…)` call `init` is (through `satisfies`, `as`, parentheses), if it is one. */
function sequenceCall(init: Expression, reference: string): CallExpression | undefined {
	const call = unwrapExpression(init);
	if (call.type !== 'CallExpression') return undefined;
	const { callee } = call;
	const name =
		callee.type === 'Identifier'
			? callee.name
			: callee.type === 'MemberExpression' && !callee.computed && callee.object.type === 'Identifier' && callee.property.type === 'Identifier'
				? `${callee.object.name}.${callee.property.name}`
				: undefined;
	return name === reference ? call : undefined;
}

/** Puts `names` first in the call's arguments, one per line when the call has one argument per line. */
function prependArguments(edit: MagicString, source: string, call: CallExpression, names: string[]): void {
	const open = source.indexOf('(', (call.typeParameters ?? call.callee).end!);
	const first = call.arguments[0];
	if (!first) {
		edit.appendLeft(open + 1, names.join(', '));
		return;
	}
	const between = source.slice(open + 1, first.start!);
	if (!between.includes('\n')) {
		edit.appendLeft(first.start!, `${names.join(', ')}, `);
		return;
	}
	const indent = /[ \t]*$/.exec(source.slice(0, first.start!))![0];
	edit.appendLeft(first.start!, names.map((name) => `${name},\n${indent}`).join(''));
}

/** Removes one specifier from an export list, with the comma that separates it from its neighbour. */
function removeSpecifier(edit: MagicString, statement: ExportNamedDeclaration, specifier: ExportSpecifier): void {
	const list = statement.specifiers;
	const index = list.indexOf(specifier);
	const next = list[index + 1];
	if (next) edit.remove(specifier.start!, next.start!);
	else edit.remove(list[index - 1]!.end!, specifier.end!);
}

/**
 * Removes a statement; when it has its line(s) to itself, the whole lines, and one of the blank
 * lines around it so no double blank line is left.
 */
function removeLine(edit: MagicString, source: string, statement: Statement): void {
	const lineStart = source.lastIndexOf('\n', statement.start! - 1) + 1;
	const alone = /^[ \t]*$/.test(source.slice(lineStart, statement.start!)) && source[statement.end!] === '\n';
	if (!alone) {
		edit.remove(statement.start!, statement.end!);
		return;
	}
	const blankBefore = lineStart === 0 || source.slice(0, lineStart).endsWith('\n\n');
	const blankAfter = source[statement.end! + 1] === '\n';
	edit.remove(lineStart, statement.end! + (blankBefore && blankAfter ? 2 : 1));
}
