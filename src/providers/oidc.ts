import { oauthProvider } from './oauth.js';

/** Any OpenID Connect provider, by discovery at its issuer. */
export const oidc = oauthProvider({
	id: 'oidc',
	label: 'Other OpenID Connect provider',
	hint: 'any issuer with discovery (Keycloak, Okta, Entra ID, …)',
	imports: [{ names: 'OIDC', module: 'server/auth/providers/oidc' }],
	env: [
		{ key: 'AUTH_OIDC_ISSUER', description: 'The OpenID provider\'s issuer URL (discovery at /.well-known/openid-configuration).' },
		{ key: 'AUTH_OIDC_ID', description: 'The client id this app has at the OpenID provider.' },
		{ key: 'AUTH_OIDC_SECRET', description: 'The client secret this app has at the OpenID provider. Keep it secret.' }
	]
});
