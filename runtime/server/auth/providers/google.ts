// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { oauthFlow } from '../signin/oauth.js';
import { withOptions } from './merge.js';
import type { OIDCConfig, OIDCUserConfig, Profile } from './types.js';

/** Google's ID token claims (OpenID Connect standard claims plus `hd`, the Workspace domain). */
export interface GoogleProfile extends Profile {
	sub: string;
	email: string;
	email_verified: boolean;
	name: string;
	picture: string;
	given_name?: string;
	family_name?: string;
	hd?: string;
}

/**
 * Google sign-in: OpenID Connect at `https://accounts.google.com` with PKCE, `state` and `nonce`.
 * Create the client in the Google Cloud console (OAuth client, type "Web application") and
 * register `<origin>/auth/callback/google` as an authorized redirect URI. Google verifies email
 * addresses, so `allowDangerousEmailAccountLinking` is reasonable here when you want it.
 */
export default function Google<P extends GoogleProfile = GoogleProfile>(options: OIDCUserConfig<P>): OIDCConfig<P> {
	return withOptions<P, OIDCConfig<P>>(
		{
			id: 'google',
			name: 'Google',
			type: 'oidc',
			flow: oauthFlow,
			issuer: 'https://accounts.google.com',
			checks: ['pkce', 'state', 'nonce'],
			style: { brandColor: '#ffffff', text: '#1f1f1f' }
		},
		options
	);
}
