import MagicString from 'magic-string';
import { parseModule } from './ast.js';
import type { EditResult } from './hooks.js';

/**
 * The fields the `idp` recommended configuration keeps in the JWT; the session gets them all
 * but the refresh token, which the generated `session` callback keeps on the server.
 */
const JWT_FIELDS = `		access_token?: string;
		expires_in?: number;
		id_token?: string;
		expires_at?: number;
		refresh_token?: string;
		refresh_token_id?: string;
		error?: 'RefreshTokenError';
		scope?: string;
		token_type?: string;
		userId?: string;
		provider?: string;
		type?: string;
		providerAccountId?: string;`;

/** Where the `Session` and `JWT` interfaces are declared, as the app imports those modules. */
export interface TokenTypeModules {
	/** `$lib/auth/types` or `#lib/auth/types.js`. */
	session: string;
	/** `$lib/server/auth/config` or `#lib/server/auth/config.js`. */
	jwt: string;
}

/**
 * Extends the runtime's `Session` and `JWT` interfaces in `src/app.d.ts` with the token fields
 * the `idp` provider's `jwt` and `session` callbacks keep (module augmentation of the vendored
 * modules that declare them). The fields are optional: a session signed in through another
 * provider has none of them; `Session` lacks `refresh_token`, which stays on the server. Inserted before the file's `export {};` (or appended), once: a
 * file that already augments either module is left as it is. Other lines stay byte-identical.
 * @see docs/api.md#token-refresh (the token fields)
 */
export function addTokenTypes(source: string, modules: TokenTypeModules): EditResult {
	const ast = parseModule(source);
	if (!ast) {
		return { content: source, pending: `Declare the idp token fields on Session (${modules.session}) and JWT (${modules.jwt}) in src/app.d.ts.` };
	}
	const augmented = ast.program.body.some(
		(node) => node.type === 'TSModuleDeclaration' && node.id.type === 'StringLiteral' && Object.values(modules).includes(node.id.value)
	);
	if (augmented) return { content: source };
	const block = [
		'// The idp tokens that the jwt and session callbacks in src/auth.ts keep; absent for other sign-ins.',
		`declare module '${modules.session}' {`,
		'\tinterface Session {',
		JWT_FIELDS.replace(/\n.*refresh_token\?: string;/, ''),
		'\t}',
		'}',
		'',
		`declare module '${modules.jwt}' {`,
		'\tinterface JWT {',
		JWT_FIELDS,
		'\t}',
		'}',
		''
	].join('\n');
	const exportEmpty = ast.program.body.find(
		(node) => node.type === 'ExportNamedDeclaration' && !node.declaration && node.specifiers.length === 0 && !node.source
	);
	const edit = new MagicString(source);
	if (exportEmpty) edit.appendLeft(exportEmpty.start!, `${block}\n`);
	else edit.append(`${source.endsWith('\n') ? '' : '\n'}\n${block}`);
	return { content: edit.toString() };
}
