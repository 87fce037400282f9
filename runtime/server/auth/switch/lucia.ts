// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { adapterMethod } from '../adapters/methods.js';
import { storedSessionKey } from '../session/stored-key.js';
import { previousSession } from './cookies.js';
import type { PreviousIdentity, PreviousSession, PreviousSessionContext, PreviousSessions } from './types.js';

/** Options of {@link luciaSessions}. */
export interface LuciaSessionsOptions {
	/** The app's session cookie name, when it changed `sessionCookieName`. Default `auth-session` (what `sv add lucia` writes). */
	cookieName?: string;
}

/** The session cookie `sv add lucia` names (`sessionCookieName` in its `src/lib/server/auth.ts`). */
const DEFAULT_COOKIE = 'auth-session';
/** The longest token looked up: `sv add lucia`'s are 24 characters (18 random bytes, base64url); Lucia's guide's base32 ones 32. */
const MAX_TOKEN_LENGTH = 255;

/**
 * Honours the sessions of an app's previous Lucia setup after its switch to create-auth, for
 * `SvelteKitAuthConfig.previousSessions`: `previousSessions: [luciaSessions()]`. The shape read
 * is the one Lucia's session guide describes and `sv add lucia` writes (over `@oslojs`): the
 * cookie holds a random token, the `session` table's `id` is the lowercase hex SHA-256 of it
 * (FIPS 180-4), with `user_id` and `expires_at`. The switch stores each such row in the
 * adapter's sessions table under the runtime's own key of the same token, `sha256.` + base64url
 * of those 32 bytes, which is {@link storedSessionKey} of the token; users keep their ids.
 *
 * A browser's `auth-session` cookie is read once, when the request carries no session cookie of
 * the runtime's: its row is looked up (`getSessionAndUser(storedSessionKey(token))`); unexpired,
 * its user continues as a session of the app's strategy (keeping the row's expiry with database
 * sessions), and the row is deleted once the runtime's own session is set, so a replayed Lucia
 * cookie finds nothing. The cookie is deleted whatever it held. There is no signature to check:
 * the token is the secret, and only its hash was ever stored. Bad values sign no one in and are
 * not logged. The deprecated `lucia` package (v2/v3, `auth_session`, ids stored as they are) is
 * not this shape and is not read.
 * @see create-auth docs/api.md#switching-from-better-auth-or-lucia-sessions
 */
export function luciaSessions(options: LuciaSessionsOptions = {}): PreviousSessions {
	const name = options.cookieName || DEFAULT_COOKIE;
	return {
		library: 'lucia',
		async read(context: PreviousSessionContext): Promise<PreviousSession | undefined> {
			const token = context.cookies.get(name);
			if (!token) return undefined;
			let found: PreviousIdentity | null = null;
			let row: string | undefined;
			const getSessionAndUser = adapterMethod(context.adapter, 'getSessionAndUser');
			if (getSessionAndUser && token.length <= MAX_TOKEN_LENGTH) {
				const key = storedSessionKey(token);
				const stored = await getSessionAndUser(key);
				if (stored) {
					row = key;
					if (stored.session.expires.getTime() > Date.now()) found = { kind: 'user', user: stored.user, expires: stored.session.expires };
				}
			}
			return previousSession(context, found, [name], row === undefined ? [] : [row]);
		}
	};
}
