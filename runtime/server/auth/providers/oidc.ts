// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { oauthFlow } from '../signin/oauth.js';
import { withOptions } from './merge.js';
import type { OIDCConfig, OIDCUserConfig, Profile } from './types.js';

/**
 * Any OpenID Connect provider, found by discovery at `issuer` (or `wellKnown`): authorization
 * code flow with PKCE, `state` and `nonce`, scope `openid profile email`, the profile from the
 * validated ID token. Defaults: id `oidc`, name `OpenID Connect`; give each instance its own `id`
 * when there are several. The callback URL to register is `<origin>/auth/callback/<id>`.
 * `issuer` is a required key whose value may be undefined while SvelteKit builds the app; a
 * sign-in through a provider still missing it fails with a logged error.
 * @see OpenID Connect Core 1.0 §3.1, OpenID Connect Discovery 1.0
 */
export default function OIDC<P extends Profile = Profile>(options: OIDCUserConfig<P> & { issuer: string | undefined }): OIDCConfig<P> {
	return withOptions<P, OIDCConfig<P>>({ id: 'oidc', name: 'OpenID Connect', type: 'oidc', flow: oauthFlow, checks: ['pkce', 'state', 'nonce'] }, options);
}
