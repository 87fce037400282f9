// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { ResolvedConfig } from '../config.js';
import { callbackUriOf } from '../oauth/authorize.js';
import { saveFlow } from '../oauth/flow.js';
import { endpointRequestUrl, processCredentialsResponse, signedRequest } from './request.js';
import type { Credentials, OAuth1Config } from './types.js';

/**
 * Temporary credential request: a signed POST to the `requestToken` endpoint (its `params` in
 * the query) with `oauth_callback` = `callbackUri`.
 * @throws {Error} a non-2xx answer, or one that does not confirm the callback
 *   (`oauth_callback_confirmed=true`, required by OAuth 1.0a).
 * @throws {TypeError} no client credentials, no endpoint URL, no credentials in the answer.
 * @see RFC 5849 §2.1
 */
export async function temporaryCredentialsRequest(provider: OAuth1Config, callbackUri: string): Promise<Credentials> {
	const response = await signedRequest(provider, {
		method: 'POST',
		url: endpointRequestUrl(provider.requestToken),
		oauthParams: { oauth_callback: callbackUri }
	});
	const { credentials, params } = await processCredentialsResponse(response);
	if (params.get('oauth_callback_confirmed') !== 'true') throw new Error(`${response.url || 'The request token endpoint'} did not confirm oauth_callback.`);
	return credentials;
}

/**
 * The resource owner authorization URL the browser is sent to: the `authorization` endpoint
 * with its `params` and the temporary `oauth_token`.
 * @throws {TypeError} no endpoint URL.
 * @see RFC 5849 §2.2
 */
export function resourceOwnerAuthorizationUrl(provider: OAuth1Config, temporary: Credentials): string {
	const url = endpointRequestUrl(provider.authorization);
	url.searchParams.set('oauth_token', temporary.oauth_token);
	return url.href;
}

/**
 * Starts an OAuth 1.0a sign-in: temporary credentials whose callback is the redirect URI
 * (`<origin><base><basePath>/callback/<id>`, `<base>` being SvelteKit's `paths.base`; see
 * {@link callbackUriOf}), kept with their secret in the encrypted flow cookie bound to the
 * provider, and the authorization URL to redirect to.
 * @throws {UntrustedHost} no trusted origin for the callback URI.
 * @throws what {@link temporaryCredentialsRequest} throws (the caller reports OAuthSignInError).
 * @see RFC 5849 §2.1–2.2
 */
export async function oauth1AuthorizationUrl(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: OAuth1Config,
	redirectTo: string | undefined
): Promise<string> {
	const redirectUri = callbackUriOf(event.url, config, provider);
	const temporaryCredentials = await temporaryCredentialsRequest(provider, redirectUri);
	await saveFlow(event.cookies, event.url, config, { provider: provider.id, redirectUri, redirectTo, temporaryCredentials }, false);
	return resourceOwnerAuthorizationUrl(provider, temporaryCredentials);
}
