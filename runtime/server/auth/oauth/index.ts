// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * OAuth 2 and OpenID Connect, over oauth4webapi: all the protocol work of the OAuth providers,
 * which are data (`providers/<id>.ts`). Only the OAuth flow (`signin/oauth.ts`) and OAuth
 * 1.0a's (`oauth1/`) import it, so apps without an OAuth provider do not load it.
 *
 * - `client.ts` — discovery (RFC 8414, OpenID Connect Discovery 1.0, cached an hour), the
 *   client and its authentication: `providerClient`, `isOpenIdConnect`.
 * - `authorize.ts` — the authorization request (RFC 6749 §4.1.1; PKCE RFC 7636, `state`,
 *   `nonce`): `authorizationUrl`, `redirectUriOf`, `callbackUriOf`, `checksOf`.
 * - `flow.ts` — the sealed flow cookie from start to callback: `saveFlow`, `takeFlowFor`.
 * - `callback.ts` — the callback (RFC 6749 §4.1.2, §4.1.3; RFC 9207; OpenID Connect Core
 *   §3.1.3.7): `finishAuthorization`, `callbackParams`, `step`.
 * - `profile.ts` — profile and token set to user and account: `toUserAndAccount`, defaults.
 * - `accounts.ts` — `userForAccount`: the user of an OAuth account, found, linked or created.
 * - `proxy.ts` — the redirect proxy (`redirectProxyUrl`): `proxyUrlOf`, `proxyState`,
 *   `forwardedCallbackUrl`.
 * - `refresh.ts` — the refresh-token grant (RFC 6749 §6), the OAuth flow's `refreshTokens`.
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#oauth-2-and-openid-connect
 */
export { userForAccount } from './accounts.js';
export { authorizationUrl, callbackUriOf, checksOf, redirectUriOf } from './authorize.js';
export { callbackParams, finishAuthorization, step, type CallbackResult, type Step } from './callback.js';
export { allowsInsecureRequests, isOpenIdConnect, providerClient, type ProviderClient } from './client.js';
export { FLOW_MAX_AGE, saveFlow, takeFlowFor, type FlowState } from './flow.js';
export { defaultAccount, defaultProfile, normalizeTokens, toUserAndAccount } from './profile.js';
export { forwardedCallbackUrl, proxyState, proxyUrlOf } from './proxy.js';
export { refreshTokenGrant } from './refresh.js';
