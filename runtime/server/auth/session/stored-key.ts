// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { hash } from 'node:crypto';

/**
 * What a database session row holds instead of its token: `sha256.` and the SHA-256 of the
 * token (the cookie's value), base64url. Whoever reads the sessions table (a leaked backup, an
 * SQL injection, a support tool) learns no cookie that signs anyone in: the token is 256 random
 * bits, so its hash cannot be reversed, and a stored key presented as a cookie is hashed again
 * and found nowhere. Lucia's session guide recommends this; Better Auth and Auth.js store the
 * token as it is. The adapter contract is unchanged (`sessionToken` is whatever the runtime
 * passes), so Auth.js adapters keep working.
 * @see create-auth docs/api.md#database-sessions
 */
export function storedSessionKey(sessionToken: string): string {
	// crypto.hash (Node 20.12+): one call, no Hash object per request.
	return `${STORED_KEY_PREFIX}${hash('sha256', sessionToken, 'base64url')}`;
}

const STORED_KEY_PREFIX = 'sha256.';

/**
 * Whether a cookie's value may be a session token stored as it is, by a runtime before 0.2.0
 * (32 random bytes, base64url: 43 characters), to be looked up raw once and moved under its
 * hash. A stored key (`sha256.…`) is not: presenting one must never match its own row.
 */
export function isLegacySessionToken(value: string): boolean {
	return /^[\w-]{43}$/.test(value);
}

/**
 * Whether a value has the shape of a stored key ({@link storedSessionKey}). A reader of another
 * library's raw session tokens (`switch/authjs.ts`) refuses such a value, so that a row's key
 * read from the table never signs anyone in when presented as a cookie.
 */
export function isStoredSessionKey(value: string): boolean {
	return value.startsWith(STORED_KEY_PREFIX);
}
