// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { ResolvedConfig } from '../config.js';
import { AccessDenied, InvalidCheck, OAuthCallbackError } from '../errors.js';
import { step, type CallbackResult } from '../oauth/callback.js';
import { takeFlowFor } from '../oauth/flow.js';
import { toUserAndAccount } from '../oauth/profile.js';
import type { AccountTokens, TokenSet } from '../providers/types.js';
import { endpointRequestUrl, processCredentialsResponse, signedRequest } from './request.js';
import type { Credentials, OAuth1Config } from './types.js';
import { userinfoRequest } from './userinfo.js';

/**
 * Token request: a POST to the `token` endpoint signed with the temporary credentials, with the
 * `oauth_verifier` the callback brought.
 * @returns every parameter of the answer: `oauth_token`, `oauth_token_secret` (the token
 *   credentials) and the provider's extras (e.g. `user_id`, `screen_name`).
 * @throws {Error} a non-2xx answer (a wrong verifier, reused temporary credentials).
 * @throws {TypeError} no credentials in the answer.
 * @see RFC 5849 §2.3
 */
export async function tokenCredentialsRequest(provider: OAuth1Config, temporary: Credentials, verifier: string): Promise<TokenSet> {
	const response = await signedRequest(provider, {
		method: 'POST',
		url: endpointRequestUrl(provider.token),
		token: temporary,
		oauthParams: { oauth_verifier: verifier }
	});
	const { params } = await processCredentialsResponse(response);
	return Object.fromEntries(params);
}

/**
 * The default `account()` of an OAuth 1.0a provider: the token credentials, `oauth_token` and
 * `oauth_token_secret`, in place of OAuth 2's `access_token` and `refresh_token`.
 * @see create-auth docs/api.md#oauth-10a, #social
 */
export function tokenCredentialsAccount(tokens: TokenSet): AccountTokens {
	return { oauth_token: tokens.oauth_token as string, oauth_token_secret: tokens.oauth_token_secret as string };
}

/**
 * Answers `<basePath>/callback/<id>` of an OAuth 1.0a provider: takes the flow cookie (one use,
 * this provider, started over OAuth 1.0a), checks the callback's `oauth_token` is the flow's
 * temporary one, exchanges `oauth_verifier` for token credentials, reads the profile (the
 * provider's `userinfo.request`, else {@link userinfoRequest}) and maps it to the user and the
 * account (default: {@link tokenCredentialsAccount}).
 * @throws {InvalidCheck} no flow cookie, another provider's or protocol's flow, an `oauth_token`
 *   that is not the flow's.
 * @throws {AccessDenied} the user declined at the provider (`denied=<oauth_token>`).
 * @throws {OAuthCallbackError} no `oauth_verifier`, a failed token request or profile request.
 * @see RFC 5849 §2.2–2.3, §3
 */
export async function finishOAuth1Authorization(event: RequestEvent, config: ResolvedConfig, provider: OAuth1Config): Promise<CallbackResult> {
	const params = event.url.searchParams;
	const flow = await takeFlowFor(event.cookies, event.url, config, provider.id, 'oauth1');
	const temporary = flow.temporaryCredentials!;
	if (params.has('denied')) throw new AccessDenied(`${provider.id} denied the authorization.`, { provider: provider.id });
	if (params.get('oauth_token') !== temporary.oauth_token) {
		throw new InvalidCheck('Authorization response: oauth_token is not the one this sign-in requested.', { provider: provider.id });
	}
	const verifier = params.get('oauth_verifier');
	if (!verifier) throw new OAuthCallbackError('Authorization response: no oauth_verifier.', { provider: provider.id });

	const tokens = await step(provider.id, 'Token request', () => tokenCredentialsRequest(provider, temporary, verifier));
	const userinfo = typeof provider.userinfo === 'object' ? provider.userinfo : undefined;
	const profile = await step(provider.id, 'Profile', async () =>
		userinfo?.request ? userinfo.request({ tokens, provider }) : userinfoRequest(provider, tokens)
	);
	const { user, account } = await step(provider.id, 'Profile mapping', () =>
		toUserAndAccount(provider, profile, tokens, tokenCredentialsAccount)
	);
	return { user, account, profile, flow };
}
