import MagicString from 'magic-string';
import type { Comment, Statement, TSModuleBlock } from '@babel/types';
import { endOfImports, indentUnit, parseModule } from './ast.js';
import type { EditResult } from './hooks.js';


/** The members `src/app.d.ts` must declare, per `App` interface, given the local name of our `Session` type. */
const membersFor = (session: string) =>
	[
		{ name: 'Locals', member: 'auth', line: `auth(): Promise<${session} | null>;` },
		{ name: 'PageData', member: 'session', line: `session: ${session} | null;` }
	] as const;

/** The local name of our `Session` where the file already imports another library's (Better Auth's). */
const ALIAS = 'AuthSession';

/**
 * Types `event.locals.auth()` and `page.data.session` in an existing `src/app.d.ts`: adds the
 * `Session` type import (from `sessionModule`: `$lib/auth`, `$lib/auth/index` or
 * `#lib/auth/index.js`) unless the file already imports it from there, and, inside
 * `declare global { namespace App { … } }`, the `auth` member of `Locals` and the `session`
 * member of `PageData`. Where the file already imports a `Session` from elsewhere (`better-auth`,
 * as `sv add better-auth` writes; issue 26), ours is imported as `AuthSession` and the members use
 * that name. Shapes:
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
	const ast = parseModule(source);
	const app = ast && findAppNamespace(ast.program.body);
	const session = ast ? sessionName(ast.program.body, sessionModule) : { local: 'Session', imported: false };
	const SESSION_IMPORT = `import type { ${session.local === 'Session' ? 'Session' : `Session as ${session.local}`} } from '${sessionModule}';`;
	const { local } = session;
	const manual = `Declare in src/app.d.ts: ${SESSION_IMPORT} and, in namespace App, interface Locals { auth(): Promise<${local} | null> } and interface PageData { session: ${local} | null }.`;
	if (!ast || !app) return { content: source, pending: manual };

	const edit = new MagicString(source);
	const unit = indentUnit(source);
	const indent = indentOf(source, app.start!) || unit + unit;
	let changed = false;
	for (const { name, member, line } of membersFor(local)) {
		const existing = app.body.find(
			(node) => node.type === 'TSInterfaceDeclaration' && node.id.name === name
		);
		if (existing?.type === 'TSInterfaceDeclaration') {
			const has = existing.body.body.some(
				(m) => (m.type === 'TSPropertySignature' || m.type === 'TSMethodSignature') && m.key.type === 'Identifier' && m.key.name === member
			);
			if (has) continue;
			const last = existing.body.body.at(-1);
			// A body on one line (`interface Locals { user?: User; session?: Session }`) stays on one line.
			if (last && !source.slice(existing.body.start!, existing.body.end!).includes('\n')) {
				edit.appendLeft(last.end!, `${/[;,]$/.test(source.slice(0, last.end!)) ? '' : ';'} ${line}`);
			} else if (last) edit.appendLeft(endOfLine(source, last.end!), `\n${indent}${unit}${line}`);
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
	if (!session.imported) {
		const at = endOfImports(ast);
		if (at === 0) {
			// After sv's leading comment block, before `declare global`.
			const first = ast.program.body[0]!;
			edit.appendLeft(first.start!, `${SESSION_IMPORT}\n\n`);
		} else edit.appendLeft(at, `\n${SESSION_IMPORT}`);
	}
	return { content: edit.toString() };
}

/** Specifiers of the runtime's `auth/index` however spelled: `$lib/auth`, `$lib/auth/index`, `#lib/auth/index.js`, `./lib/auth`. */
const OUR_SESSION_MODULE = /^(?:[$#]lib|\.\/lib)\/auth(?:\/index(?:\.[jt]s)?)?$/;

/**
 * The name the file knows our `Session` by: the local name of an import of `Session` from
 * `sessionModule` or another spelling of it (`imported`); else `Session` when no import binds that name; else
 * {@link ALIAS}, since `Session` is another module's.
 */
function sessionName(body: Statement[], sessionModule: string): { local: string; imported: boolean } {
	const imports = body.flatMap((node) => (node.type === 'ImportDeclaration' ? node.specifiers.map((specifier) => ({ node, specifier })) : []));
	const ours = imports.find(
		({ node, specifier }) =>
			(node.source.value === sessionModule || OUR_SESSION_MODULE.test(node.source.value)) &&
			specifier.type === 'ImportSpecifier' &&
			(specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value) === 'Session'
	);
	if (ours) return { local: ours.specifier.local.name, imported: true };
	const taken = imports.some(({ specifier }) => specifier.local.name === 'Session');
	return { local: taken ? ALIAS : 'Session', imported: false };
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
