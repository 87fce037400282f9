// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { adapterMethod } from '../adapters/methods.js';
import { storedSessionKey } from '../session/stored-key.js';
import { previousSession } from './cookies.js';
import type { PreviousIdentity, PreviousSession, PreviousSessionContext, PreviousSessions } from './types.js';

/** Options of {@link betterAuthSessions}. */
export interface BetterAuthSessionsOptions {
	/**
	 * The secret Better Auth signed its cookies with: its `secret` option, else its
	 * `BETTER_AUTH_SECRET` (or `AUTH_SECRET`) variable; with `secrets`/`BETTER_AUTH_SECRETS`
	 * (versioned), the value of the first (current) entry. Undefined or empty: no Better Auth
	 * session can be verified, so every browser signed in with Better Auth is signed out (its
	 * cookies deleted); that is said once per process on the console. Better Auth's built-in
	 * development secret (used when none was set; public) counts as none.
	 */
	secret: string | undefined;
	/** Better Auth's `advanced.cookiePrefix`, when the app set one. Default `better-auth`. */
	cookiePrefix?: string;
}

/** Better Auth's cookie prefix when `advanced.cookiePrefix` is unset (better-auth cookies/index.ts, `createCookieGetter`). */
const DEFAULT_PREFIX = 'better-auth';
/**
 * The secret Better Auth signs with when none is configured outside production (better-auth
 * context/create-context.ts). It is published, so a signature made with it proves nothing.
 */
const BETTER_AUTH_DEFAULT_SECRET = 'better-auth-secret-12345678901234567890';
/** Bytes of an HMAC-SHA256 (RFC 2104, FIPS 180-4). */
const HMAC_BYTES = 32;
/**
 * A signature as better-call writes it (`signCookieValue`, crypto.ts): the 32-byte HMAC in
 * standard base64 (RFC 4648 §4) with padding, 44 characters; better-call's `getSignedCookie`
 * refuses any other length or a missing `=`.
 */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;
/** The longest token looked up: Better Auth's are 32 characters (`generateId(32)`). */
const MAX_TOKEN_LENGTH = 255;

/**
 * Better Auth's cookies a browser may hold, by their name without the `__Secure-` prefix (which
 * Better Auth adds to all of them over https): the signed session token, its cookie cache
 * (`session_data`) and account cache (`account_data`), each possibly split into chunks `.0`,
 * `.1`, … (better-auth cookies/session-store.ts), and the signed "don't remember me" flag.
 */
const cookieNames = (prefix: string) => ({
	session: `${prefix}.session_token`,
	whole: [`${prefix}.session_token`, `${prefix}.dont_remember`],
	chunked: [`${prefix}.session_data`, `${prefix}.account_data`]
});

/** Whether `name` is `base` or one of its chunks `base.<n>`. */
const isOrChunkOf = (name: string, base: string) => name === base || (name.startsWith(`${base}.`) && /^\d+$/.test(name.slice(base.length + 1)));

/**
 * The token of a signed cookie value as better-call writes it (`<token>.<signature>`, the whole
 * URI-encoded), when its signature is the HMAC-SHA256 of the token keyed by the secret's UTF-8
 * bytes; compared in constant time. Null for anything else: no dot, an empty token, a signature
 * of another shape, length or secret, a token longer than {@link MAX_TOKEN_LENGTH}.
 */
function verifiedToken(value: string, secret: string): string | null {
	let decoded = value;
	// SvelteKit's `cookies` decode values already; a value still holding `%` is decoded once more.
	if (decoded.includes('%')) {
		try {
			decoded = decodeURIComponent(decoded);
		} catch {
			return null;
		}
	}
	const dot = decoded.lastIndexOf('.');
	if (dot < 1) return null;
	const token = decoded.slice(0, dot);
	const signature = decoded.slice(dot + 1);
	if (token.length > MAX_TOKEN_LENGTH || !SIGNATURE.test(signature)) return null;
	const given = Buffer.from(signature, 'base64');
	const expected = createHmac('sha256', secret).update(token, 'utf8').digest();
	if (given.length !== HMAC_BYTES || !timingSafeEqual(given, expected)) return null;
	return token;
}

/**
 * Honours the sessions of an app's previous Better Auth setup after its switch to create-auth,
 * for `SvelteKitAuthConfig.previousSessions`:
 * `previousSessions: [betterAuthSessions({ secret: env.BETTER_AUTH_SECRET })]`.
 * `create-auth switch` has copied Better Auth's unexpired session rows into the adapter's
 * sessions table, each under {@link storedSessionKey} of its token, with its user (users keep
 * their ids). A browser's `better-auth.session_token` cookie (`<cookiePrefix>.session_token` with
 * Better Auth's `advanced.cookiePrefix`; over https only `__Secure-better-auth.session_token`, the
 * name Better Auth uses there) is read once, when the request carries no session cookie of the
 * runtime's:
 * - its signature (`<token>.<HMAC-SHA256 of the token, base64>`) is verified with `secret` in
 *   constant time; a bad one signs no one in;
 * - the token's row is looked up (`getSessionAndUser(storedSessionKey(token))`); unexpired, its
 *   user continues as a session of the app's strategy, keeping the row's expiry with database
 *   sessions; the copied row is deleted once the runtime's own session is set, so a replayed
 *   Better Auth cookie finds nothing.
 * Better Auth's cookies (the session token, `session_data` and `account_data` with their chunks,
 * `dont_remember`, under either name) are deleted whatever the token held. Bad values sign no one
 * in and are not logged.
 * @see create-auth docs/api.md#switching-from-better-auth-or-lucia-sessions
 */
export function betterAuthSessions(options: BetterAuthSessionsOptions): PreviousSessions {
	const prefix = options.cookiePrefix || DEFAULT_PREFIX;
	const names = cookieNames(prefix);
	const secureName = `__Secure-${names.session}`;
	const secret = options.secret && options.secret !== BETTER_AUTH_DEFAULT_SECRET ? options.secret : undefined;
	let warned = false;
	const isBetterAuthCookie = (name: string) => {
		const bare = name.startsWith('__Secure-') ? name.slice('__Secure-'.length) : name;
		return names.whole.includes(bare) || names.chunked.some((base) => isOrChunkOf(bare, base));
	};
	return {
		library: 'better-auth',
		async read(context: PreviousSessionContext): Promise<PreviousSession | undefined> {
			const all = context.cookies.getAll();
			const present = [secureName, names.session].map((name) => all.find((c) => c.name === name && c.value !== '')).filter((c) => c !== undefined);
			if (present.length === 0) return undefined;
			// Over https only the `__Secure-` cookie is read: a plain-named one may have been planted
			// (cookie tossing: RFC 6265bis §8.6, weak integrity) with the planter's own session.
			// It is deleted all the same.
			const readable = context.url.protocol === 'https:' ? present.filter((c) => c.name === secureName) : present;
			if (!secret && !warned) {
				warned = true;
				console.warn(`create-auth: betterAuthSessions() has no secret (BETTER_AUTH_SECRET unset, or Better Auth's public development secret): browsers signed in with Better Auth are signed out.`);
			}
			const getSessionAndUser = adapterMethod(context.adapter, 'getSessionAndUser');
			let found: PreviousIdentity | null = null;
			const rows: string[] = [];
			for (const cookie of readable) {
				const token = secret ? verifiedToken(cookie.value, secret) : null;
				if (token === null || !getSessionAndUser) continue;
				const key = storedSessionKey(token);
				const stored = await getSessionAndUser(key);
				if (!stored) continue;
				rows.push(key);
				if (stored.session.expires.getTime() <= Date.now()) continue;
				found = { kind: 'user', user: stored.user, expires: stored.session.expires };
				break;
			}
			const retired = all.filter((c) => isBetterAuthCookie(c.name)).map((c) => c.name);
			return previousSession(context, found, retired, rows);
		}
	};
}
