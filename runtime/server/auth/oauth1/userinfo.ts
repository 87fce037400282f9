// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Profile, TokenSet } from '../providers/types.js';
import { endpointRequestUrl, signedRequest } from './request.js';
import type { OAuth1Config } from './types.js';

/**
 * The profile as the provider's `userinfo` resource answers it: a GET signed with the token
 * credentials (`oauth_token` / `oauth_token_secret` of `tokens`), its `params` in the query.
 * @throws {TypeError} `tokens` hold no token credentials, or the answer is not a JSON object.
 * @throws {Error} a non-2xx answer.
 * @see RFC 5849 §3 (authenticated requests)
 */
export async function userinfoRequest(provider: OAuth1Config, tokens: TokenSet): Promise<Profile> {
	const { oauth_token, oauth_token_secret } = tokens;
	if (typeof oauth_token !== 'string' || typeof oauth_token_secret !== 'string') throw new TypeError('No OAuth 1.0a token credentials.');
	const url = endpointRequestUrl(provider.userinfo);
	const response = await signedRequest(provider, { method: 'GET', url, token: { oauth_token, oauth_token_secret } });
	if (!response.ok) throw new Error(`${url.origin}${url.pathname} answered ${response.status}.`);
	const profile: unknown = await response.json();
	if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) throw new TypeError(`${url.pathname} answered no JSON object.`);
	return profile as Profile;
}
