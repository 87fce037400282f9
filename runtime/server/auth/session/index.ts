// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Sessions: reading, starting and ending them, and what they are made of.
 *
 * - `session.ts` — `readSession` (for `locals.auth()`: the cookie decrypted or the database
 *   session loaded, callbacks run, re-issued when due; without one, a previous library's
 *   session through `config.previousSessions`, see `../switch/`), `startSession`, `endSession`,
 *   `endUserSessions` (sign every device out after a password change), `endOtherSessions` (every
 *   device but this one), `raiseSessionVersion` (ends `jwt` sessions at their next revalidation),
 *   `currentSession` (this request's sign-in time and row key), `toUser`.
 * - `jwt.ts` — the JWE (`dir` + A256GCM, HKDF-SHA256 keys) of session cookies (`encodeToken`,
 *   `decodeToken`) and of the runtime's other sealed cookies (`seal`, `unseal`).
 * - `cookies.ts` — cookie names (`__Host-` / `__Secure-` prefixes; the old name read once), attributes, chunking of large values.
 * - `stored-key.ts` — what a database session row holds instead of the token: its SHA-256
 *   (`storedSessionKey`), which cookie values may be tokens stored raw before 0.2.0, and which
 *   have a stored key's shape (`isStoredSessionKey`).
 * - `cache.ts` — the per-process cache of database sessions (`session.cacheMaxAge`).
 * - `revalidation.ts` — when this process last revalidated a JWT session against its user's
 *   record, by cookie value, so a client that ignores the re-issued cookie is not checked on
 *   every request.
 * - `refresh.ts` — `refreshAccessToken` / `refreshTokenGrant` for a JWT session's access
 *   token, through the provider's flow (no OAuth code here).
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#session-strategies
 */
export { SessionCache, sessionCacheFor } from './cache.js';
export { authCookie, deleteChunkedCookie, getChunkedCookie, setChunkedCookie, type CookieOptions } from './cookies.js';
export { cachedToken, decodeToken, encodeToken, seal, unseal } from './jwt.js';
export { refreshAccessToken, refreshTokenGrant, type TokenFields } from './refresh.js';
export {
	currentSession,
	deleteSessionCookie,
	endOtherSessions,
	endSession,
	endUserSessions,
	raiseSessionVersion,
	readSession,
	startSession,
	STORE_UNAVAILABLE,
	toUser,
	type CurrentSession,
	type SessionContext
} from './session.js';
export { isLegacySessionToken, isStoredSessionKey, storedSessionKey } from './stored-key.js';
