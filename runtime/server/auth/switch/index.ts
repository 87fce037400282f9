// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Switching an app to create-auth from another auth library: readers of that library's session
 * cookies, for `SvelteKitAuthConfig.previousSessions`, so that its signed-in users stay signed in.
 *
 * - `types.ts` — the contract: `PreviousSessions` (a reader: `read(context)` → undefined, or a
 *   `PreviousSession` with `found` and `retire()`), `PreviousSessionContext`, `PreviousIdentity`
 *   (JWT claims, or an adapter user and an expiry). `config.ts` imports these types only.
 * - `authjs.ts` — `authjsSessions(options?)`: `@auth/sveltekit`'s `authjs.session-token`
 *   (JWT: a JWE keyed by HKDF with the cookie name as salt; database: a raw token in the
 *   adapter's sessions table).
 * - `better-auth.ts` — `betterAuthSessions({ secret, cookiePrefix? })`: Better Auth's
 *   `better-auth.session_token` (`<token>.<HMAC-SHA256 signature>`, checked with its secret),
 *   whose row `create-auth switch` copied under `storedSessionKey(token)`.
 * - `lucia.ts` — `luciaSessions(options?)`: the `auth-session` token of `sv add lucia`'s session
 *   code, its row (hex SHA-256 id) copied under the same key.
 * - `cookies.ts` — `deletePreviousCookies`: a previous library's cookies deleted with the
 *   attributes it set them with (used by the two above).
 *
 * The session code calls a reader through the contract and never imports a reader's module: an
 * app's `src/auth.ts` imports the factory it uses, so only that app is vendored it. Runtime
 * modules import the module they need, never this index; this index is the folder's table of
 * contents.
 * @see create-auth docs/api.md#switching-from-authjs-sessions
 * @see create-auth docs/api.md#switching-from-better-auth-or-lucia-sessions
 */
export { authjsSessions, type AuthjsSessionsOptions } from './authjs.js';
export { betterAuthSessions, type BetterAuthSessionsOptions } from './better-auth.js';
export { luciaSessions, type LuciaSessionsOptions } from './lucia.js';
export type { PreviousIdentity, PreviousSession, PreviousSessionContext, PreviousSessions } from './types.js';
