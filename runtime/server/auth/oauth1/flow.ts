// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { ProviderFlow } from '../config.js';
import { answerOAuthCallback, missingSettings, reportMissingSettings, startOAuthSignIn } from '../signin/oauth.js';
import { oauth1AuthorizationUrl } from './authorize.js';
import { finishOAuth1Authorization } from './callback.js';
import { linkedAccounts } from '../oauth/linked.js';
import type { OAuth1Config } from './types.js';

/**
 * The OAuth 1.0a flow (RFC 5849), which `Social({ version: '1.0a' })` puts on its provider; no
 * other module imports it, so only such an app loads it and the `oauth-1.0a` package.
 * - `signIn`: temporary credentials, kept in the flow cookie; 303 to the authorization URL (§2.1–2.2);
 * - `routes.callback`: the token request with `oauth_verifier`, the profile, then the same
 *   finish as OAuth 2 (account linking, `signIn` callback, session; `signin/oauth.ts`);
 * - `check`: as OAuth 2's. No redirect proxy (no `state` to carry the origin), no refresh.
 * @see create-auth docs/api.md#oauth-10a
 */
export const oauth1Flow: ProviderFlow<OAuth1Config> = {
	signIn: (event, config, provider, _form, callbackUrl) => startOAuthSignIn(event, config, provider, callbackUrl, oauth1AuthorizationUrl),
	routes: {
		callback: (event, config, provider) => answerOAuthCallback(event, config, provider, () => finishOAuth1Authorization(event, config, provider))
	},
	check: reportMissingSettings,
	missingSettings,
	account: linkedAccounts
};
