/**
 * The `credentials` provider's part of `create-auth switch` from Auth.js (issue 29): Auth.js's
 * `Credentials({ credentials, authorize })` checks passwords against the app's own users, which
 * create-auth never saw. Its `authorize` is carried as written into a module of its own
 * (`src/authjs-authorize.ts`, with the imports and module-level declarations it uses), and
 * create-auth's `authorizeWithPassword` asks it for an address that has no create-auth password
 * account yet, keeping the user it signs in (the runtime's `passwords/previous.ts`). So the same
 * password signs in after the switch, and each user moves over at their own first sign-in.
 * `switch/authjs.ts` asks it; it lives here, with the provider (docs/architecture.md).
 */
import MagicString from 'magic-string';
import type { ArrowFunctionExpression, Expression, File, ImportDeclaration, Node, ObjectMethod, ObjectProperty, Statement } from '@babel/types';
import { CliError } from '../../errors.js';
import { parseModule, patternNames, propertyName, topLevelNames, unwrapExpression, walk } from '../../edits/ast.js';

/** The name the carried module exports its function by, and the local name create-auth's `src/auth.ts` imports it as. */
const EXPORTED = 'authorize';
const LOCAL = 'authjsAuthorize';

/** Auth.js's error classes an `authorize` may throw, each with create-auth's class of the same name and meaning (`CredentialsSignin`: refuse, with a `code`). */
const ERRORS = new Set(['CredentialsSignin']);
const AUTHJS_MODULE = /^@auth\/(?:sveltekit|core)(?:\/errors)?$/;

/** Auth.js's `Credentials` provider as the switch carries it. */
export interface AuthjsCredentials {
	/** The `authorize` function as written (a method turned into a `function` expression). */
	authorize: string;
	/** The module-level statements it uses, in their order: the imports (only the names it uses) and declarations. */
	uses: string[];
	/** Auth.js's error classes it uses (`CredentialsSignin`), imported from create-auth's runtime instead. */
	errors: string[];
}

/**
 * Reads an entry of Auth.js's `providers` in its configuration module (`ast` of `source`), when it
 * is a call of Auth.js's Credentials provider: `module` is the id of the Auth.js provider module
 * its callee was imported from (`credentials` for `@auth/sveltekit/providers/credentials`).
 * @returns undefined when it is not one; a sentence saying why it cannot be carried: fields
 *   other than `email` and `password` (create-auth's sign-in form posts those), options other
 *   than `credentials` and `authorize`, no `authorize` function, or an Auth.js import it uses
 *   beyond `CredentialsSignin`; else the provider
 */
export function readAuthjsCredentials(module: string | undefined, call: Node | undefined, ast: File, source: string): AuthjsCredentials | string | undefined {
	if (module !== 'credentials' || call?.type !== 'CallExpression') return undefined;
	const options = call.arguments[0];
	if (options?.type !== 'ObjectExpression') return "Credentials(…) is not given an object literal, so its authorize cannot be read.";
	const keys = options.properties.map((p) => (p.type === 'ObjectProperty' || p.type === 'ObjectMethod' ? propertyName(p) : undefined));
	if (keys.some((key) => key !== 'credentials' && key !== 'authorize')) return "Credentials(…) has options beyond credentials and authorize: the switch carries those two.";
	const fields = options.properties.find((p): p is ObjectProperty => p.type === 'ObjectProperty' && propertyName(p) === 'credentials');
	const fieldsValue = fields && unwrapExpression(fields.value as Expression);
	const names = fieldsValue?.type === 'ObjectExpression' ? fieldsValue.properties.map((p) => (p.type === 'ObjectProperty' ? propertyName(p) : undefined)) : undefined;
	if (!names || names.length !== 2 || !names.includes('email') || !names.includes('password')) {
		return "Credentials(…)'s fields are not email and password: create-auth's sign-in form posts those two.";
	}
	const property = options.properties.find((p): p is ObjectProperty | ObjectMethod => p.type !== 'SpreadElement' && propertyName(p) === 'authorize');
	const fn = property?.type === 'ObjectProperty' ? unwrapExpression(property.value as Expression) : property;
	if (!fn || (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'ObjectMethod')) return "Credentials(…)'s authorize is not a function written there.";
	const authorize = fn.type === 'ObjectMethod' ? `${fn.async ? 'async ' : ''}function ${source.slice(fn.key.end!, fn.end!)}` : source.slice(fn.start!, fn.end!);

	// The module-level names it reaches, through the declarations it uses in turn.
	const bindings = moduleBindings(ast);
	const used = new Set<string>();
	const pending = [...referencedNames(fn)];
	while (pending.length > 0) {
		const name = pending.pop()!;
		const binding = bindings.get(name);
		if (used.has(name) || !binding) continue;
		used.add(name);
		if (binding.type !== 'ImportDeclaration') pending.push(...referencedNames(binding));
	}
	const errors: string[] = [];
	const uses: string[] = [];
	const declarations = new Set<Node>();
	for (const statement of ast.program.body) {
		if (statement.type === 'ImportDeclaration') {
			const specifiers = statement.specifiers.filter((s) => used.has(s.local.name));
			if (specifiers.length === 0) continue;
			if (statement.source.value.startsWith('@auth/')) {
				const other = specifiers.filter((s) => s.type !== 'ImportSpecifier' || s.imported.type !== 'Identifier' || !ERRORS.has(s.imported.name) || s.local.name !== s.imported.name);
				if (other.length > 0 || !AUTHJS_MODULE.test(statement.source.value)) return `Credentials(…)'s authorize uses ${specifiers.map((s) => s.local.name).join(', ')} of ${statement.source.value}, which create-auth has no counterpart of.`;
				errors.push(...specifiers.map((s) => s.local.name));
				continue;
			}
			uses.push(importText(statement, specifiers));
			continue;
		}
		const declaration = declarationOf(statement);
		if (declaration && !declarations.has(declaration) && [...bindings].some(([name, node]) => node === declaration && used.has(name))) {
			declarations.add(declaration);
			uses.push(source.slice(declaration.start!, declaration.end!));
		}
	}
	return { authorize, uses, errors };
}

/**
 * The text of the module that holds Auth.js's `authorize` after the switch (`src/authjs-authorize.ts`
 * or `.js`, beside create-auth's `src/auth.ts`, so relative imports resolve as before): what it
 * uses, then the function, exported as `authorize`, typed by create-auth's `PreviousAuthorize`.
 * @param runtime the specifiers of create-auth's runtime index (`$lib/server/auth`) and passwords
 *   module (`$lib/server/auth/passwords`) in this app
 */
export function authjsAuthorizeModule(credentials: AuthjsCredentials, runtime: { index: string; passwords: string }, typescript: boolean): string {
	const header = [
		'/**',
		" * Auth.js's Credentials authorize, moved here by create-auth switch from src/auth.ts as it was: it",
		" * checks a password against the app's own users. create-auth asks it only for an address that has",
		' * no create-auth password yet, and keeps the user it signs in (with create-auth\'s hash of the',
		' * password), so each user goes through it once. When every user has signed in since the switch,',
		' * this module and the `previous` option in src/auth.ts can go.',
		' */'
	];
	const imports = [
		...(typescript ? [`import type { PreviousAuthorize } from '${runtime.passwords}';`] : []),
		...(credentials.errors.length > 0 ? [`import { ${credentials.errors.join(', ')} } from '${runtime.index}';`] : []),
		...credentials.uses.filter((text) => text.startsWith('import'))
	];
	const declarations = credentials.uses.filter((text) => !text.startsWith('import'));
	const exported = typescript
		? `export const ${EXPORTED}: PreviousAuthorize = ${credentials.authorize};`
		: `/** @type {import('${runtime.passwords}').PreviousAuthorize} */\nexport const ${EXPORTED} = ${credentials.authorize};`;
	return [...header, ...imports, '', ...declarations.flatMap((text) => [text, '']), exported, ''].join('\n');
}

/** Where {@link authjsAuthorizeModule} goes: beside `src/auth.ts`, in its language. */
export const authjsAuthorizePath = (typescript: boolean) => `src/authjs-authorize.${typescript ? 'ts' : 'js'}`;

/**
 * Points create-auth's credentials provider in `src/auth.ts` at the carried `authorize`: an
 * import of it (as `authjsAuthorize`, from `./authjs-authorize`) after the last import, and
 * `authorizeWithPassword(adapter, fields)` given `{ previous: authjsAuthorize, request }`, with
 * a comment saying so.
 * @returns the source unchanged when it has no such call (the plan rendered no credentials provider)
 * @throws {CliError} `E_SWITCH_BLOCKED` when `src/auth.ts` already binds `authjsAuthorize`
 */
export function carryAuthjsAuthorize(source: string, typescript: boolean): string {
	const ast = parseModule(source);
	if (!ast) return source;
	// The `authorize: (fields) => authorizeWithPassword(adapter, fields)` property of the credentials provider.
	let property: ObjectProperty | undefined;
	walk(ast.program, (node) => {
		if (property || node.type !== 'ObjectProperty' || node.value.type !== 'ArrowFunctionExpression' || node.value.params.length !== 1) return;
		const body = node.value.body;
		if (body.type === 'CallExpression' && body.callee.type === 'Identifier' && body.callee.name === 'authorizeWithPassword' && body.arguments.length === 2) property = node;
	});
	if (!property) return source;
	const arrow = property.value as ArrowFunctionExpression;
	if (topLevelNames(ast.program.body).has(LOCAL)) throw new CliError('E_SWITCH_BLOCKED', `src/auth.ts already declares ${LOCAL}, the name the switch imports Auth.js's authorize by.`, 'Rename it, then run npx create-auth switch again.');
	const edit = new MagicString(source);
	const imports = ast.program.body.filter((node): node is ImportDeclaration => node.type === 'ImportDeclaration');
	edit.appendLeft(imports.at(-1)?.end ?? 0, `\nimport { ${EXPORTED} as ${LOCAL} } from './authjs-authorize';`);
	edit.appendLeft(arrow.params[0]!.end!, ', request');
	edit.appendLeft(arrow.body.end! - 1, `, { previous: ${LOCAL}, request }`);
	const lineStart = source.lastIndexOf('\n', property.start!) + 1;
	const indent = /^[ \t]*/.exec(source.slice(lineStart))![0];
	edit.appendLeft(lineStart, `${indent}// An address create-auth has no password for yet is checked by Auth.js's authorize (${authjsAuthorizePath(typescript)}), once.\n`);
	return edit.toString();
}

/** Module-level names → the import or declaration binding each (exports looked through). */
function moduleBindings(ast: File): Map<string, Node> {
	const bindings = new Map<string, Node>();
	for (const statement of ast.program.body) {
		if (statement.type === 'ImportDeclaration') {
			for (const specifier of statement.specifiers) bindings.set(specifier.local.name, statement);
			continue;
		}
		const declaration = declarationOf(statement);
		if (!declaration) continue;
		if (declaration.type === 'VariableDeclaration') for (const declarator of declaration.declarations) for (const name of patternNames(declarator.id)) bindings.set(name, declaration);
		else if ('id' in declaration && declaration.id?.type === 'Identifier') bindings.set(declaration.id.name, declaration);
	}
	return bindings;
}

/** A statement's declaration (through `export`), when it declares module-level names. */
function declarationOf(statement: Statement): Node | undefined {
	const node = statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
	const declares = ['VariableDeclaration', 'FunctionDeclaration', 'ClassDeclaration', 'TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSEnumDeclaration'];
	return declares.includes(node.type) ? node : undefined;
}

/** The identifiers `node` reads (values and types), not the keys of its objects nor the properties it reads by name. */
function referencedNames(node: Node): Set<string> {
	const names = new Set<string>();
	const skipped = new Set<Node>();
	walk(node, (child) => {
		if ((child.type === 'MemberExpression' || child.type === 'OptionalMemberExpression') && !child.computed) skipped.add(child.property);
		if ((child.type === 'ObjectProperty' || child.type === 'ObjectMethod' || child.type === 'ClassMethod' || child.type === 'ClassProperty' || child.type === 'TSPropertySignature') && !child.computed) {
			if (child.type !== 'ObjectProperty' || !child.shorthand) skipped.add(child.key);
		}
		if (child.type === 'TSQualifiedName') skipped.add(child.right);
		if (child.type === 'Identifier' && !skipped.has(child)) names.add(child.name);
	});
	return names;
}

/** An import declaration reduced to `specifiers`. */
function importText(statement: ImportDeclaration, specifiers: ImportDeclaration['specifiers']): string {
	const from = `'${statement.source.value}'`;
	const kind = statement.importKind === 'type' ? 'type ' : '';
	const parts: string[] = [];
	const named: string[] = [];
	for (const specifier of specifiers) {
		if (specifier.type === 'ImportDefaultSpecifier') parts.push(specifier.local.name);
		else if (specifier.type === 'ImportNamespaceSpecifier') parts.push(`* as ${specifier.local.name}`);
		else {
			const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : `'${specifier.imported.value}'`;
			named.push(`${specifier.importKind === 'type' ? 'type ' : ''}${imported === specifier.local.name ? imported : `${imported} as ${specifier.local.name}`}`);
		}
	}
	if (named.length > 0) parts.push(`{ ${named.join(', ')} }`);
	return `import ${kind}${parts.join(', ')} from ${from};`;
}
