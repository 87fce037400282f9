// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { EndpointConfig, OAuth2Config, Profile } from '../providers/types.js';

/**
 * A provider that signs in over OAuth 1.0a (RFC 5849) instead of OAuth 2. It keeps the OAuth 2
 * config's fields, with these meanings:
 * - `requestToken`: the temporary credential request endpoint (§2.1), e.g. `oauth/request_token`;
 * - `authorization`: the resource owner authorization endpoint (§2.2), e.g. `oauth/authenticate`;
 *   its `params` are added to the URL the browser is sent to;
 * - `token`: the token request endpoint (§2.3), e.g. `oauth/access_token`;
 * - `userinfo`: the protected resource the profile comes from, requested with the token
 *   credentials; its `params` are the query;
 * - `clientId` / `clientSecret`: the client credentials (the consumer key and secret).
 *
 * `checks` are not used: the temporary credentials' `oauth_token`, kept in the flow cookie,
 * binds the callback to the browser that started the sign-in. Requests are signed with
 * HMAC-SHA1 (§3.4.2).
 */
export interface OAuth1Config<P extends Profile = Profile> extends OAuth2Config<P> {
	type: 'oauth';
	version: '1.0a';
	requestToken: string | EndpointConfig;
}

/**
 * A token and its shared secret (RFC 5849 §1.1): the temporary credentials (request token) of
 * a started sign-in, or the token credentials (access token) it ends with.
 */
export interface Credentials {
	oauth_token: string;
	oauth_token_secret: string;
}
