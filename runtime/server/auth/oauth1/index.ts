// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * OAuth 1.0a (RFC 5849), for `Social({ version: '1.0a' })` only: `providers/social.ts` is the
 * one module outside this folder that imports it (and so the `oauth-1.0a` package).
 *
 * - `flow.ts` — `oauth1Flow`, the provider's flow (start, `callback` route), finishing as
 *   OAuth 2 does (`signin/oauth.ts`).
 * - `authorize.ts` — temporary credentials and the authorization URL (§2.1–2.2).
 * - `callback.ts` — the token request (§2.3) and the profile.
 * - `request.ts` — HMAC-SHA1 signed requests (§3.4.2, §3.5.1), `endpointRequestUrl`.
 * - `userinfo.ts` — the profile resource, signed with the token credentials.
 * - `types.ts` — `OAuth1Config`, `Credentials`.
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#oauth-10a
 */
export { oauth1AuthorizationUrl, resourceOwnerAuthorizationUrl, temporaryCredentialsRequest } from './authorize.js';
export { finishOAuth1Authorization, tokenCredentialsAccount, tokenCredentialsRequest } from './callback.js';
export { oauth1Flow } from './flow.js';
export { endpointRequestUrl, processCredentialsResponse, signedRequest, type SignedRequest } from './request.js';
export type { Credentials, OAuth1Config } from './types.js';
export { userinfoRequest } from './userinfo.js';
