import type { ProviderScaffold } from './types.js';

/**
 * The `idp` identity provider (OpenID Connect) in the spec's recommended configuration: tokens
 * kept in the JWT session and refreshed by the `jwt` callback.
 */
export const idp: ProviderScaffold = {
	id: 'idp',
	label: 'Identity provider (OpenID Connect)',
	hint: 'your organisation\'s sign-in; try it locally with npx create-auth dev-idp',
	type: 'oauth',
	imports: [{ names: 'Idp, { withoutWwwAuthenticate }', module: 'server/auth/providers/idp' }],
	env: [
		{ key: 'AUTH_IDP_ISSUER', description: 'The identity provider\'s issuer URL, without a trailing slash.' },
		{ key: 'AUTH_IDP_ID', description: 'The client id this app has at the identity provider.' },
		{ key: 'AUTH_IDP_SECRET', description: 'The client secret this app has at the identity provider. Keep it secret.' },
		{ key: 'AUTH_IDP_TENANT_ID', description: 'The identity provider tenant users sign in to.' }
	],
	tryLocally: 'To try it with nothing registered, run npx create-auth dev-idp and paste the values it prints into .env.',
	routes: []
};
