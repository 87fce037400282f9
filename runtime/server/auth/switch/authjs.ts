// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { hkdfSync } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtDecrypt } from 'jose';
import { adapterMethod } from '../adapters/methods.js';
import type { Adapter } from '../adapters/types.js';
import { isStoredSessionKey, storedSessionKey } from '../session/stored-key.js';
import { previousSession } from './cookies.js';
import type { PreviousIdentity, PreviousSession, PreviousSessionContext, PreviousSessions } from './types.js';

/** Options of {@link authjsSessions}. */
export interface AuthjsSessionsOptions {
	/**
	 * The Auth.js app's `AUTH_SECRET`: a string, or several, newest first (Auth.js's rotation
	 * order); undefined or empty entries are ignored. Default: the app's own `secret`, which is
	 * right when `AUTH_SECRET` was kept through the switch (the generated `src/auth.ts` reads it).
	 */
	secret?: string | Array<string | undefined>;
	/**
	 * The Auth.js app's session cookie name, when it set `cookies.sessionToken.name`; it is also
	 * the salt of the JWT's key, as in Auth.js. Default: both `__Secure-authjs.session-token`
	 * (Auth.js over https) and `authjs.session-token`.
	 */
	cookieName?: string;
}

/** Auth.js's session cookie names (`defaultCookies` in @auth/core's lib/utils/cookie.ts, since 0.19). */
const AUTHJS_COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

/**
 * The content encryptions Auth.js's `decode` accepts (@auth/core jwt.ts), with the key length
 * its HKDF derives for each, bytes: `A256CBC-HS512` (what `encode` writes since 0.23) and
 * `A256GCM` (what 0.19 to 0.22 wrote). Key management is `dir` only.
 */
const KEY_BYTES: Record<string, number> = { 'A256CBC-HS512': 64, A256GCM: 32 };
/** Seconds of clock skew tolerated on `exp`: Auth.js's own tolerance. */
const CLOCK_TOLERANCE = 15;
/**
 * The longest cookie value tried as a database session token: Auth.js makes UUIDs (36
 * characters), and @auth/pg-adapter's documented column is VARCHAR(255). Longer values are not
 * sent to the adapter.
 */
const MAX_TOKEN_LENGTH = 255;

/** Derived keys by encryption, salt and secret: HKDF runs once per triple per process. */
const keys = new Map<string, Uint8Array>();

/**
 * Auth.js's JWT key: HKDF-SHA256 (RFC 5869) of the secret, salt = the cookie name, info =
 * `Auth.js Generated Encryption Key (<salt>)`, as long as `enc` needs (@auth/core jwt.ts,
 * `getDerivedEncryptionKey`).
 */
function keyFor(enc: string, secret: string, salt: string): Uint8Array {
	const id = `${enc}\0${salt}\0${secret}`;
	let key = keys.get(id);
	if (!key) keys.set(id, (key = new Uint8Array(hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, KEY_BYTES[enc]!))));
	return key;
}

/**
 * The claims of an Auth.js JWT session cookie (a JWE, RFC 7516: `alg: dir`, `enc` one of
 * {@link KEY_BYTES}), trying each secret; null, never a throw, for anything malformed, tampered,
 * expired (`exp` is required), made with another secret or for another cookie name (salt), or
 * not a JWE at all (an unsecured `alg: none` JWT, a JWS).
 */
async function decodeAuthjsJwt(value: string, secrets: readonly string[], salt: string): Promise<Record<string, unknown> | null> {
	let enc: string | undefined;
	try {
		const header = decodeProtectedHeader(value);
		if (header.alg !== 'dir' || typeof header.enc !== 'string' || !(header.enc in KEY_BYTES)) return null;
		enc = header.enc;
	} catch {
		return null;
	}
	for (const secret of secrets) {
		try {
			const { payload } = await jwtDecrypt(value, keyFor(enc, secret, salt), {
				clockTolerance: CLOCK_TOLERANCE,
				keyManagementAlgorithms: ['dir'],
				contentEncryptionAlgorithms: [enc],
				requiredClaims: ['exp']
			});
			const { iat: _iat, exp: _exp, jti: _jti, nbf: _nbf, ...claims } = payload;
			return claims;
		} catch (err) {
			// It decrypted, but has expired or lacks `exp`: another secret will not help.
			if (err instanceof errors.JWTExpired || err instanceof errors.JWTClaimValidationFailed) return null;
		}
	}
	return null;
}

/** A JWE compact serialization has five parts; a database session token (a UUID) has none of its dots. */
const looksLikeJwe = (value: string) => value.split('.').length === 5;

/** The request's cookies that are `name` or one of its chunks `name.<n>`, with a value. */
function cookiesNamed(all: { name: string; value: string }[], name: string): { name: string; value: string }[] {
	return all.filter((c) => c.value !== '' && (c.name === name || (c.name.startsWith(`${name}.`) && /^\d+$/.test(c.name.slice(name.length + 1)))));
}

/**
 * The value of an Auth.js session cookie: the whole cookie, else its chunks `.0`, `.1`, … joined
 * in order (Auth.js's `SessionStore` splits values above about 3.9 KB). Undefined when a chunk
 * is missing (`.0` and `.2` without `.1`): a broken value signs no one in.
 */
function valueOf(found: { name: string; value: string }[], name: string): string | undefined {
	const whole = found.find((c) => c.name === name);
	if (whole) return whole.value;
	const parts = new Map(found.map((c) => [Number(c.name.slice(name.length + 1)), c.value]));
	const values: string[] = [];
	for (let i = 0; i < parts.size; i++) {
		const part = parts.get(i);
		if (part === undefined) return undefined;
		values.push(part);
	}
	return values.join('');
}

/**
 * The user of an Auth.js database session: its cookie holds the session token, which Auth.js
 * stored as it is (`sessionToken`). It is looked up under {@link storedSessionKey} of the token,
 * where `create-auth switch` copied Auth.js's rows into create-auth's tables, else as it is, for
 * an app whose `@auth/*` adapter still serves Auth.js's table. Null for a token in neither place
 * or expired, and for values that cannot be Auth.js tokens: a stored key of ours (`sha256.…`:
 * whoever read the table must not sign in by presenting a row's key as an Auth.js cookie) or a
 * value longer than {@link MAX_TOKEN_LENGTH}. `row`: the key a row was found under (expired or
 * not), to delete it on retire.
 * @throws {AdapterError} the adapter failed
 */
async function databaseUser(adapter: Adapter | undefined, token: string): Promise<{ found: PreviousIdentity | null; row?: string }> {
	const getSessionAndUser = adapterMethod(adapter, 'getSessionAndUser');
	if (!getSessionAndUser || token.length > MAX_TOKEN_LENGTH || isStoredSessionKey(token)) return { found: null };
	for (const key of [storedSessionKey(token), token]) {
		const stored = await getSessionAndUser(key);
		if (!stored) continue;
		const { session, user } = stored;
		if (session.expires.getTime() <= Date.now()) return { found: null, row: key };
		return { found: { kind: 'user', user, expires: session.expires }, row: key };
	}
	return { found: null };
}

/**
 * Honours the sessions of an app's previous Auth.js setup (`@auth/sveltekit`) after its switch to
 * create-auth, for `SvelteKitAuthConfig.previousSessions`: `previousSessions: [authjsSessions()]`.
 * A browser's `authjs.session-token` cookie (or `__Secure-authjs.session-token`, or its chunks
 * `.0`, `.1`, …) is read once, when the request carries no session cookie of the runtime's:
 * - a JWE (JWT strategy): decrypted with Auth.js's key derivation (see {@link keyFor}) and each
 *   secret, `exp` checked; its claims continue as a session of the app's strategy;
 * - any other value (database strategy): looked up through the app's adapter
 *   (`getSessionAndUser`) under the key the switch copied it to, else raw (see
 *   {@link databaseUser}); its user continues, and the row is deleted once the runtime's own
 *   session is set, so a replayed Auth.js cookie finds nothing.
 * The Auth.js cookie is deleted (every chunk) whatever it held. Bad values sign no one in and are
 * not logged. NextAuth's older `next-auth.session-token` (@auth/core up to 0.18, a key with an
 * empty salt) is not read: Auth.js itself stopped reading it when it renamed the cookie.
 * @see create-auth docs/api.md#switching-from-authjs-sessions
 */
export function authjsSessions(options: AuthjsSessionsOptions = {}): PreviousSessions {
	const names = options.cookieName ? [options.cookieName] : AUTHJS_COOKIES;
	const given = (Array.isArray(options.secret) ? options.secret : [options.secret]).filter((s): s is string => !!s);
	return {
		library: 'authjs',
		async read(context: PreviousSessionContext): Promise<PreviousSession | undefined> {
			const all = context.cookies.getAll();
			const present = names.map((name) => ({ name, cookies: cookiesNamed(all, name) })).filter((p) => p.cookies.length > 0);
			if (present.length === 0) return undefined;
			const secrets = given.length > 0 ? given : context.secrets;
			let found: PreviousIdentity | null = null;
			const rows: string[] = [];
			for (const { name, cookies } of present) {
				const value = valueOf(cookies, name);
				if (value === undefined) continue;
				if (looksLikeJwe(value)) {
					const claims = await decodeAuthjsJwt(value, secrets, name);
					found = claims && { kind: 'claims', claims };
				} else {
					const stored = await databaseUser(context.adapter, value);
					found = stored.found;
					if (stored.row !== undefined) rows.push(stored.row);
				}
				if (found) break;
			}
			const retired = present.flatMap((p) => p.cookies.map((c) => c.name));
			return previousSession(context, found, retired, rows);
		}
	};
}
