import MagicString from 'magic-string';
import type { Expression, ObjectExpression, Statement } from '@babel/types';
import type { AuthEnvVar } from '../env-vars.js';
import { parseModule } from './ast.js';
import type { EditResult } from './hooks.js';

/**
 * Declares variables in a SvelteKit `src/env.(ts|js)` (explicit environment variables): each
 * one missing from the object given to `defineEnvVars` in `export const variables = …` is
 * appended, private (`public: false`), read when the app starts (not inlined at build time) and
 * optional (its schema returns the value as it is; the auth runtime checks it).
 *
 * Variables already declared are left exactly as the user wrote them, whatever their options;
 * other lines stay byte-identical. Idempotent. A file of another shape (no `variables` export,
 * not an object literal, a parse error) is not edited: the result carries the manual step.
 * @see https://svelte.dev/docs/kit/environment-variables
 */
export function addEnvVariables(source: string, variables: readonly AuthEnvVar[]): EditResult {
	const manual = `Declare in src/env.ts, in export const variables = defineEnvVars({ … }): ${variables
		.map((variable) => `${variable.key}: { public: false, schema: (value) => value }`)
		.join(', ')}.`;
	const ast = parseModule(source);
	const object = ast && findVariablesObject(ast.program.body);
	if (!object) return { content: source, pending: manual };

	const declared = keysOf(object) ?? new Set<string>();
	const missing = variables.filter((variable) => !declared.has(variable.key));
	if (missing.length === 0) return { content: source };

	const edit = new MagicString(source);
	const step = unit(source);
	const last = object.properties.at(-1);
	const outer = indentAt(source, object.start!);
	const indent = last ? indentAt(source, last.start!) : outer + step;
	const entries = missing.map((variable) => entry(variable, indent, step));
	if (last) edit.appendLeft(last.end!, entries.map((text) => `,\n${text}`).join(''));
	else edit.overwrite(object.start!, object.end!, `{\n${entries.join(',\n')}\n${outer}}`);
	return { content: edit.toString() };
}

function entry(variable: AuthEnvVar, indent: string, step: string): string {
	const inner = indent + step;
	return [
		`${indent}${variable.key}: {`,
		`${inner}public: false,`,
		`${inner}description: ${singleQuoted(variable.description)},`,
		`${inner}schema: (value) => value`,
		`${indent}}`
	].join('\n');
}

/**
 * The keys of `export const variables = defineEnvVars({ … })` in an env module (or of a plain
 * object literal, maybe with `satisfies`/`as`).
 *
 * @returns undefined when the source does not parse, has no such export, or its object has a
 *   spread or computed key (its keys cannot be known without running it)
 */
export function declaredVariables(source: string): Set<string> | undefined {
	const ast = parseModule(source);
	const object = ast && findVariablesObject(ast.program.body);
	return object ? keysOf(object) : undefined;
}

/** An object literal's static keys; undefined when it has a spread or a computed key. */
function keysOf(object: ObjectExpression): Set<string> | undefined {
	const keys = new Set<string>();
	for (const property of object.properties) {
		if (property.type === 'SpreadElement' || property.computed) return undefined;
		if (property.key.type === 'Identifier') keys.add(property.key.name);
		else if (property.key.type === 'StringLiteral') keys.add(property.key.value);
		else return undefined;
	}
	return keys;
}

/** `export const variables = defineEnvVars({ … })` (or a plain object, maybe `satisfies …`). */
function findVariablesObject(body: Statement[]): ObjectExpression | undefined {
	for (const node of body) {
		if (node.type !== 'ExportNamedDeclaration' || node.declaration?.type !== 'VariableDeclaration') continue;
		for (const declarator of node.declaration.declarations) {
			if (declarator.id.type !== 'Identifier' || declarator.id.name !== 'variables' || !declarator.init) continue;
			let init: Expression = declarator.init;
			while (init.type === 'TSSatisfiesExpression' || init.type === 'TSAsExpression') init = init.expression;
			if (init.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'defineEnvVars') {
				const [argument] = init.arguments;
				return argument?.type === 'ObjectExpression' ? argument : undefined;
			}
			return init.type === 'ObjectExpression' ? init : undefined;
		}
	}
	return undefined;
}

/** The whitespace that starts the line holding `offset`. */
function indentAt(source: string, offset: number): string {
	const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
	return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

/** One level of indentation as the file does it: a tab unless its lines start with spaces. */
function unit(source: string): string {
	const spaces = /^( +)\S/m.exec(source)?.[1];
	return spaces && !/^\t/m.test(source) ? ' '.repeat(Math.min(spaces.length, 4)) : '\t';
}

function singleQuoted(text: string): string {
	return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
