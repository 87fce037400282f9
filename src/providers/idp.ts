import { addTokenTypes } from '../edits/token-types.js';
import { oauthProvider } from './oauth.js';

/**
 * The `idp` identity provider (OpenID Connect) in its recommended configuration: tokens kept in
 * the JWT session and refreshed by the `jwt` callback (its section `auth/callbacks` of
 * `src/auth.ts`, which imports `refreshAccessToken`), their fields typed on `Session` and `JWT`
 * in `src/app.d.ts`.
 */
export const idp = oauthProvider({
	id: 'idp',
	label: 'Identity provider (OpenID Connect)',
	hint: 'your organisation\'s sign-in; try it locally with npx create-auth dev-idp',
	imports: [{ names: 'Idp, { withoutWwwAuthenticate }', module: 'server/auth/providers/idp' }],
	env: [
		{ key: 'AUTH_IDP_ISSUER', description: 'The identity provider\'s issuer URL, without a trailing slash.' },
		{ key: 'AUTH_IDP_ID', description: 'The client id this app has at the identity provider.' },
		{ key: 'AUTH_IDP_SECRET', description: 'The client secret this app has at the identity provider. Keep it secret.' },
		{ key: 'AUTH_IDP_TENANT_ID', description: 'The identity provider tenant users sign in to.' }
	],
	tryLocally: 'To try it with nothing registered, run npx create-auth dev-idp and paste the values it prints into .env.',
	authImports: ['refreshAccessToken'],
	entries: ['auth/types', 'server/auth/config'],
	sections: ['auth/callbacks'],
	appTypes: [
		{
			records: ['Session: idp token fields', 'JWT: idp token fields'],
			apply: (content, lib) => addTokenTypes(content, { session: lib('auth/types'), jwt: lib('server/auth/config') })
		}
	]
});
