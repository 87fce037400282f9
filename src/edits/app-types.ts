import MagicString from 'magic-string';
import type { Comment, Statement, TSModuleBlock } from '@babel/types';
import { endOfImports, indentUnit, parseModule } from './ast.js';
import type { EditResult } from './hooks.js';


/** The members `src/app.d.ts` must declare, per `App` interface. */
const MEMBERS = [
	{ name: 'Locals', member: 'auth', line: 'auth(): Promise<Session | null>;' },
	{ name: 'PageData', member: 'session', line: 'session: Session | null;' }
] as const;

/**
 * Types `event.locals.auth()` and `page.data.session` in an existing `src/app.d.ts`: adds the
 * `Session` type import (from `sessionModule`: `$lib/auth` or `#lib/auth/index.js`) unless the
 * file already imports a `Session`, and, inside `declare global { namespace App { … } }`, the
 * `auth` member of `Locals` and the `session` member of `PageData`. Shapes:
 *
 * - sv's placeholder comment (`// interface Locals {}`): replaced by the interface;
 * - an interface the user declared (empty, or with members and comments): the member is
 *   appended after the last one (after a comment ending that line), members and comments kept;
 * - no such interface nor placeholder: the interface is added at the end of the namespace;
 * - with or without `export {};`, next to other global declarations (`Window`, `declare module`,
 *   `const` globals), indented with the file's tabs or spaces.
 *
 * Returns the new text; idempotent, members already present are left as they are. A file with
 * no `App` namespace inside `declare global` (none at all, or a top-level
 * `declare namespace App` of a script file, which an import would turn into a module) is not
 * edited: `pending` then holds the one-line manual step.
 */
export function addAppTypes(source: string, sessionModule: string): EditResult {
	const SESSION_IMPORT = `import type { Session } from '${sessionModule}';`;
	const manual = `Declare in src/app.d.ts: ${SESSION_IMPORT} and, in namespace App, interface Locals { auth(): Promise<Session | null> } and interface PageData { session: Session | null }.`;
	const ast = parseModule(source);
	const app = ast && findAppNamespace(ast.program.body);
	if (!ast || !app) return { content: source, pending: manual };

	const edit = new MagicString(source);
	const unit = indentUnit(source);
	const indent = indentOf(source, app.start!) || unit + unit;
	let changed = false;
	for (const { name, member, line } of MEMBERS) {
		const existing = app.body.find(
			(node) => node.type === 'TSInterfaceDeclaration' && node.id.name === name
		);
		if (existing?.type === 'TSInterfaceDeclaration') {
			const has = existing.body.body.some(
				(m) => (m.type === 'TSPropertySignature' || m.type === 'TSMethodSignature') && m.key.type === 'Identifier' && m.key.name === member
			);
			if (has) continue;
			const last = existing.body.body.at(-1);
			if (last) edit.appendLeft(endOfLine(source, last.end!), `\n${indent}${unit}${line}`);
			else edit.appendLeft(existing.body.end! - 1, `\n${indent}${unit}${line}\n${indent}`);
			changed = true;
			continue;
		}
		const declaration = `interface ${name} {\n${indent}${unit}${line}\n${indent}}`;
		const placeholder = findPlaceholder(ast.comments ?? [], name, app);
		if (placeholder) edit.overwrite(placeholder.start!, placeholder.end!, declaration);
		else edit.appendLeft(app.end! - 1, `${unit}${declaration}\n${indent.slice(unit.length)}`);
		changed = true;
	}
	if (!changed) return { content: source };
	const imported = ast.program.body.some(
		(node) => node.type === 'ImportDeclaration' && node.specifiers.some((s) => s.local.name === 'Session')
	);
	if (!imported) {
		const at = endOfImports(ast);
		if (at === 0) {
			// After sv's leading comment block, before `declare global`.
			const first = ast.program.body[0]!;
			edit.appendLeft(first.start!, `${SESSION_IMPORT}\n\n`);
		} else edit.appendLeft(at, `\n${SESSION_IMPORT}`);
	}
	return { content: edit.toString() };
}

function findAppNamespace(body: Statement[]): TSModuleBlock | undefined {
	for (const node of body) {
		if (node.type !== 'TSModuleDeclaration' || node.body.type !== 'TSModuleBlock') continue;
		if (node.id.type !== 'Identifier' || node.id.name !== 'global') continue;
		for (const inner of node.body.body) {
			if (
				inner.type === 'TSModuleDeclaration' &&
				inner.id.type === 'Identifier' &&
				inner.id.name === 'App' &&
				inner.body.type === 'TSModuleBlock'
			) {
				return inner.body;
			}
		}
	}
	return undefined;
}

/** sv's `// interface Locals {}` line inside the App namespace, if the user left it. */
function findPlaceholder(comments: Comment[], name: string, app: TSModuleBlock): Comment | undefined {
	return comments.find(
		(c) =>
			c.type === 'CommentLine' &&
			c.start! > app.start! &&
			c.end! < app.end! &&
			c.value.trim().replace(/\s+/g, ' ') === `interface ${name} {}`
	);
}

/** Indentation of the members of the block starting at `blockStart` (the line after `{`). */
function indentOf(source: string, blockStart: number): string {
	const lineStart = source.indexOf('\n', blockStart) + 1;
	return /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? '';
}

/**
 * Where a line added after the member ending at `offset` goes: past a comment that ends its line
 * (`user: User; // from the hooks`), which stays with its member; else right after the member.
 */
function endOfLine(source: string, offset: number): number {
	const match = /^[ \t]*(\/\/[^\r\n]*)?(?=\r?\n|$)/.exec(source.slice(offset));
	return match ? offset + match[0].length : offset;
}
