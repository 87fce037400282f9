// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { oauthFlow } from '../signin/oauth.js';
import { withOptions } from './merge.js';
import type { OAuthUserConfig, OIDCConfig } from './types.js';

/**
 * The claims the identity provider puts in its ID token and userinfo answer.
 * @see create-auth docs/api.md#idp
 */
export interface IdentityProviderProfile {
	at_hash: string;
	aud: string;
	authenticationType: string;
	c_hash: string;
	email: string;
	email_verified: boolean;
	exp: number;
	iat: number;
	iss: string;
	jti: string;
	scope: string;
	sid: string;
	sub: string;
	family_name?: string;
	given_name?: string;
	middle_name?: string;
	name?: string;
	picture?: string;
	preferred_username?: string;
	/** The spec gives the profile an index signature of `any`. */
	[claim: string]: any;
}

/**
 * Options of {@link Idp}: any provider option, with `issuer` and `tenantId` required keys.
 * Their values may be undefined while SvelteKit builds the app (environment variables are read
 * at run time); a sign-in through a provider still missing them fails with a logged error.
 */
export type IdpOptions<P extends IdentityProviderProfile> = OAuthUserConfig<P> & {
	issuer: string | undefined;
	tenantId: string | undefined;
};

/**
 * The identity provider's token endpoint answers errors with a `WWW-Authenticate` header that
 * oauth4webapi reads as a challenge to the client's own credentials; a `token.conform` hook that
 * removes it. A 401 answer is returned unchanged (there the header is meaningful); any other is
 * rebuilt with the same body, status, status text and headers, less `www-authenticate` (header
 * names are case-insensitive).
 * @see create-auth docs/api.md#idp (`token.conform`)
 */
export function withoutWwwAuthenticate(response: Response): Response {
	if (response.status === 401 || !response.headers.has('www-authenticate')) return response;
	const headers = new Headers(response.headers);
	headers.delete('www-authenticate');
	return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The `idp` identity provider: OpenID Connect with discovery at `issuer`, the authorization
 * code flow with PKCE, `state` and `nonce`, ID tokens signed with RS256 only, scope
 * `openid offline_access email profile` (a refresh token) and the `tenantId` parameter.
 * The callback URL to register is `<origin>/auth/callback/idp`.
 * @see create-auth docs/api.md#idp
 */
export default function Idp<P extends IdentityProviderProfile>(options: IdpOptions<P>): OIDCConfig<P> {
	const issuer = options.issuer?.replace(/\/+$/, '');
	return withOptions<P, OIDCConfig<P>>(
		{
			id: 'idp',
			name: 'Identity Provider',
			type: 'oidc',
			flow: oauthFlow,
			issuer,
			authorization: { params: { scope: 'openid offline_access email profile', tenantId: options.tenantId } },
			checks: ['pkce', 'state', 'nonce'],
			client: { id_token_signed_response_alg: 'RS256' },
			profile: (profile) => ({
				id: profile.sub,
				name: profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(' ') || profile.preferred_username || null),
				email: profile.email ?? null,
				image: profile.picture ?? null
			}),
			style: { brandColor: '#0f766e' }
		},
		{ ...options, issuer }
	);
}
