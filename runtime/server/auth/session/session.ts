// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomBytes } from 'node:crypto';
import { error, type Cookies } from '@sveltejs/kit';
import type { Session, User } from '../../../auth/types.js';
import type { AdapterSession, AdapterUser } from '../adapters/types.js';
import type { Account, Callbacks, JWT, ResolvedConfig } from '../config.js';
import { authCookie, deleteChunkedCookie, getRenamedChunkedCookie, setChunkedCookie } from './cookies.js';
import { AdapterError, CallbackRouteError, DriverUnavailable, JWTSessionError, MissingAdapter } from '../errors.js';
import { adapterMethod, need } from '../adapters/methods.js';
import { forgetRevalidation, lastRevalidation, rememberRevalidation } from './revalidation.js';
import { cachedToken, decodeToken, encodeToken } from './jwt.js';
import { isLegacySessionToken, storedSessionKey } from './stored-key.js';
import type { Profile } from '../providers/types.js';
import type { PreviousIdentity, PreviousSessionContext } from '../switch/types.js';

/** The user as sessions and callbacks see it: `id`, `name`, `email`, `image` of the adapter's record (its extra fields left out). */
export const toUser = (user: AdapterUser): User => ({ id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null });

/**
 * The request facts the session code needs: cookies and whether it came over https; a sign-in's
 * `request` and `getClientAddress` (a `RequestEvent` has both) for the details a database
 * session records.
 */
export interface SessionContext {
	cookies: Cookies;
	url: URL;
	request?: Request;
	getClientAddress?(): string;
}

const epochSeconds = () => Math.floor(Date.now() / 1000);

/** A database session with its user, as `getSessionAndUser` returns it. */
type SessionAndUser = { session: AdapterSession; user: AdapterUser };

/** Cookie name and attributes (see {@link authCookie}). */
const sessionCookie = ({ url }: SessionContext, config: ResolvedConfig) => authCookie(url, config.useSecureCookies, 'session-token');

/** Sets the session cookie, split into chunks when a big token does not fit in one. */
function setCookie(context: SessionContext, config: ResolvedConfig, value: string, maxAge: number): void {
	const { name, options } = sessionCookie(context, config);
	setChunkedCookie(context.cookies, name, value, { ...options, maxAge });
}

/**
 * The session cookie's value, if any; one a runtime before 0.2.0 set under the `__Secure-` name
 * is moved under the `__Host-` one (`getRenamedChunkedCookie`), so users stay signed in through
 * the upgrade.
 */
function getCookie(context: SessionContext, config: ResolvedConfig): string | undefined {
	const { name, options } = sessionCookie(context, config);
	return getRenamedChunkedCookie(context.cookies, name, { ...options, maxAge: config.maxAge });
}

/** Deletes the session cookie (and its chunks, and any under its old name) and returns the value it had, if any. */
export function deleteSessionCookie(context: SessionContext, config: ResolvedConfig): string | undefined {
	const { name, options } = sessionCookie(context, config);
	const value = getCookie(context, config);
	deleteChunkedCookie(context.cookies, name, options);
	return value;
}

/** The session's user of claims `token`; `twoFactor` only in an app with two-factor authentication. */
function toSessionUser(token: JWT): User {
	const user: User = { id: token.sub, name: token.name, email: token.email, image: token.picture };
	if (typeof token.two_factor === 'boolean') user.twoFactor = token.two_factor;
	return user;
}

/** What a visitor reads while the session store is unreachable (the cause goes to the log). */
export const STORE_UNAVAILABLE = 'Sign-in is unavailable for a moment. Please try again shortly.';

/** What a visitor reads when the adapter's driver cannot load on this server ({@link DriverUnavailable}; the log says why). */
export const STORE_MISCONFIGURED = 'Sign-in is not available: the server is misconfigured. Its log says what to fix.';

/**
 * Reads the session for `locals.auth()`. Returns null for no cookie and for a bad one
 * (malformed, tampered, expired, unknown secret, unknown database session), deleting the bad
 * cookie. Re-issues the cookie only when due: issued over `updateAge` ago, or a `jwt`
 * callback returned a new object. Errors thrown by callbacks are logged; the result is null.
 * Without a cookie of ours, the `previousSessions` readers are asked (see {@link readPreviousSession}).
 * Reads without a promise of its own when it can: no cookie (and no `previousSessions`), or a
 * JWT cookie this process decrypted before with nothing due and no callbacks ({@link jwtSessionAtOnce}).
 * @throws SvelteKit's `error(503)` when the adapter fails while reading a database session (the
 *   store is down): logged as {@link AdapterError}; the cookie is kept, so the session is back
 *   once the store is. Its driver cannot load ({@link DriverUnavailable}): the same, saying the
 *   server is misconfigured ({@link STORE_MISCONFIGURED}).
 * @see create-auth docs/api.md#session-strategies (rules 1-4)
 */
export function readSession(context: SessionContext, config: ResolvedConfig): Promise<Session | null> {
	let value: string | undefined;
	let atOnce: Session | undefined;
	try {
		value = getCookie(context, config);
		atOnce = value && config.strategy === 'jwt' ? jwtSessionAtOnce(config, value) : undefined;
	} catch (err) {
		return Promise.reject(err);
	}
	// No cookie of ours: only an app that lists previousSessions looks further (rule 7).
	if (!value && !config.previousSessions) return NO_SESSION;
	return atOnce ? Promise.resolve(atOnce) : readSessionFrom(context, config, value);
}

/** Every request without a session shares this settled promise. */
const NO_SESSION: Promise<null> = Promise.resolve(null);

async function readSessionFrom(context: SessionContext, config: ResolvedConfig, value: string | undefined): Promise<Session | null> {
	try {
		const session = !value
			? await readPreviousSession(context, config)
			: config.strategy === 'jwt'
				? await readJwtSession(context, config, value)
				: await readDatabaseSession(context, config, value);
		if (!session && value) deleteSessionCookie(context, config);
		return session;
	} catch (err) {
		if (err instanceof AdapterError || err instanceof DriverUnavailable) {
			config.logger.error(err);
			error(503, err instanceof DriverUnavailable ? STORE_MISCONFIGURED : STORE_UNAVAILABLE);
		}
		config.logger.error(new JWTSessionError('Reading the session failed.', { err: err as Error }));
		return null;
	}
}

/**
 * Whether the JWT session in cookie `value` is due to be revalidated at `now` (epoch seconds):
 * the app has an adapter that reads users, and neither the cookie's issue nor this process's last
 * revalidation of it ({@link lastRevalidation}) is `revalidateAge` seconds recent.
 */
function revalidationDue(config: ResolvedConfig, token: JWT, value: string, now: number): boolean {
	if (typeof token.sub !== 'string' || !config.adapter?.getUser) return false;
	return now - Math.max(token.iat ?? 0, lastRevalidation(value)) >= config.revalidateAge;
}

/**
 * Whether the adapter's record of a JWT session's user still holds the session
 * (docs/api.md#ending-sessions): the user exists, its `sessionVersion` is the one the session was
 * issued with (ending every other session raises it), and an address that was unproven when the
 * session started (`email_verified: false`) has not been proven since: then the session may be
 * someone else's who registered the owner's address (docs/api.md#pre-hijacked-accounts).
 * A session of a user the adapter never kept (an `authorize` with users of its own: the session
 * carries neither claim) has nothing to be checked against, and holds.
 * @throws {AdapterError} the adapter failed.
 */
async function stillHeld(config: ResolvedConfig, token: JWT): Promise<boolean> {
	const user = await need(config, 'getUser')(token.sub as string);
	if (!user) return token.session_version === undefined && token.email_verified === undefined;
	if ((user.sessionVersion ?? 0) !== (token.session_version ?? 0)) return false;
	return !(token.email_verified === false && user.emailVerified);
}

/**
 * The runtime's own claims (`auth_time`, `session_version`, `email_verified: false`, `two_factor`) of `from`
 * that a `jwt` callback's token `to` lacks, put back: a callback that builds a new token rather
 * than changing the one it is given keeps the session's revalidation and freshness.
 */
function withRuntimeClaims(to: JWT, from: JWT): JWT {
	if (to === from) return to;
	const kept: JWT = { ...to };
	for (const claim of ['auth_time', 'session_version', 'email_verified', 'two_factor'] as const) {
		if (from[claim] !== undefined && kept[claim] === undefined) (kept as Record<string, unknown>)[claim] = from[claim];
	}
	return kept;
}

/** The session of claims `token`, which expires at `exp` (epoch seconds). */
const jwtSession = (token: JWT, exp: number): Session => ({ user: toSessionUser(token), expires: new Date(exp * 1000).toISOString() });

/**
 * {@link readJwtSession}'s answer when it needs no promise: the cookie was decrypted before by
 * this process and has not expired, neither an address check nor a re-issue is due, and the app
 * has no `jwt` or `session` callback. Undefined otherwise (then `readJwtSession` decides).
 */
function jwtSessionAtOnce(config: ResolvedConfig, value: string): Session | undefined {
	if (config.callbacks.jwt || config.callbacks.session) return undefined;
	const token = cachedToken(value, config.secrets);
	if (!token) return undefined;
	const now = epochSeconds();
	if (revalidationDue(config, token, value, now) || now - (token.iat ?? 0) > config.updateAge) return undefined;
	return jwtSession(token, token.exp ?? now);
}

async function readJwtSession(context: SessionContext, config: ResolvedConfig, value: string): Promise<Session | null> {
	const token = await decodeToken(value, config.secrets);
	if (!token) return null;
	const now = epochSeconds();
	const check = revalidationDue(config, token, value, now);
	if (check) {
		if (!(await stillHeld(config, token))) return null;
		rememberRevalidation(value, now);
	}
	const returned = config.callbacks.jwt ? await config.callbacks.jwt({ token }) : token;
	if (!returned) return null;
	const next = withRuntimeClaims(returned, token);
	let exp = token.exp ?? now;
	// Re-issued after a revalidation too (unless every request revalidates): the new iat dates it.
	if (next !== token || (check && config.revalidateAge > 0) || now - (token.iat ?? 0) > config.updateAge) {
		setCookie(context, config, await encodeToken(next, config.secrets[0]!, config.maxAge, now), config.maxAge);
		exp = now + config.maxAge;
	}
	const session = jwtSession(next, exp);
	return config.callbacks.session ? config.callbacks.session({ session, token: next }) : session;
}

async function readDatabaseSession(context: SessionContext, config: ResolvedConfig, sessionToken: string): Promise<Session | null> {
	const cache = config.sessionCache;
	const now = Date.now();
	// The row's key, hashed only when the adapter is asked: a cache hit costs no SHA-256.
	const key = () => storedSessionKey(sessionToken);
	let found = cache?.get(sessionToken, now);
	if (!found) {
		const stored = key();
		found = (await need(config, 'getSessionAndUser')(stored)) ?? (await moveLegacySession(config, sessionToken, stored));
		if (!found) return null;
		cache?.set(sessionToken, found, now);
	}
	let expires = found.session.expires.getTime();
	if (expires <= now) {
		cache?.delete(sessionToken);
		await need(config, 'deleteSession')(key());
		return null;
	}
	// Extend at most once per updateAge: the session was last extended at expires - maxAge.
	if (expires - config.maxAge * 1000 + config.updateAge * 1000 <= now) {
		expires = now + config.maxAge * 1000;
		await need(config, 'updateSession')({ sessionToken: key(), expires: new Date(expires) });
		cache?.extend(sessionToken, new Date(expires));
		setCookie(context, config, sessionToken, config.maxAge);
	}
	const { user } = found;
	const session: Session = {
		user: toUser(user),
		expires: new Date(expires).toISOString()
	};
	const { twoFactor } = sessionTokenFacts(sessionToken);
	if (twoFactor !== undefined) session.user!.twoFactor = twoFactor;
	return config.callbacks.session ? config.callbacks.session({ session, user }) : session;
}

/**
 * A session row a runtime before 0.2.0 wrote under the token itself: found by the raw token once,
 * then stored again under its hash (`key`) and the raw row deleted, so the user stays signed in
 * through the upgrade and the table ends up holding no cookie. Undefined when there is none, or
 * when the value cannot be such a token (a stored key must never find its own row).
 * @throws {AdapterError} the adapter failed
 */
async function moveLegacySession(config: ResolvedConfig, sessionToken: string, key: string): Promise<SessionAndUser | undefined> {
	if (!isLegacySessionToken(sessionToken)) return undefined;
	const found = await need(config, 'getSessionAndUser')(sessionToken);
	if (!found) return undefined;
	const session = await need(config, 'createSession')({ ...found.session, sessionToken: key });
	await need(config, 'deleteSession')(sessionToken);
	return { session, user: found.user };
}

/** What a `previousSessions` reader is given of the request and the config. */
const previousContext = (context: SessionContext, config: ResolvedConfig): PreviousSessionContext => ({
	cookies: context.cookies,
	url: context.url,
	adapter: config.adapter,
	secrets: config.secrets
});

/**
 * Rule 7 of docs/api.md#session-strategies: the request carries no session cookie of ours, and
 * the app lists `previousSessions` (a switch from another library). Each reader in turn looks
 * for its cookie; the first whose cookie signs someone in decides: that user continues as a
 * session of our strategy ({@link continuePreviousSession}), read at once as ours is, then the
 * previous cookie (and its stored session) is retired. A cookie that signs no one in is retired
 * at once (so a bad cookie is read once) and the next reader asked. Null when none signs anyone in.
 * @throws {AdapterError} a store failed: the previous cookie is kept for the next request, unless
 *   the failure came after our session was set (deleting the previous row).
 */
async function readPreviousSession(context: SessionContext, config: ResolvedConfig): Promise<Session | null> {
	for (const reader of config.previousSessions!) {
		const previous = await reader.read(previousContext(context, config));
		if (!previous) continue;
		const value = previous.found ? await continuePreviousSession(context, config, previous.found) : undefined;
		await previous.retire();
		if (value === undefined) continue;
		const session = config.strategy === 'jwt' ? await readJwtSession(context, config, value) : await readDatabaseSession(context, config, value);
		if (!session) deleteSessionCookie(context, config);
		return session;
	}
	return null;
}

/**
 * Starts our session for whom a previous library's session signed in, and returns our cookie's
 * value (undefined: no one to continue), across strategies:
 * - JWT claims, `jwt` strategy: the same claims (custom ones included) with our own `iat`/`exp`
 *   (now, now + `maxAge`); `email_verified: false` added when the adapter's record of `sub`
 *   says the address is unproven, as at a sign-in.
 * - JWT claims, `database` strategy: a new session row for `sub` when the adapter knows that
 *   user, until now + `maxAge`; an unknown or missing `sub` signs no one in.
 * - an adapter user, `database` strategy: a new row under a fresh token's hash, keeping the
 *   previous session's `expires` (the reader retires the previous row: the old token, which sat
 *   raw in the table, is not carried into our cookie).
 * - an adapter user, `jwt` strategy: the claims a sign-in gives (`sub`, `name`, `email`,
 *   `picture`), through the `jwt` callback with `{ token, user }` (no `account`, no `trigger`),
 *   so a callback that copies fields of `user` into the token still does; null from it signs
 *   no one in.
 */
async function continuePreviousSession(context: SessionContext, config: ResolvedConfig, found: PreviousIdentity): Promise<string | undefined> {
	const now = epochSeconds();
	if (found.kind === 'claims') {
		const sub = typeof found.claims.sub === 'string' ? found.claims.sub : undefined;
		if (config.strategy === 'database') {
			const user = sub ? await need(config, 'getUser')(sub) : null;
			return user ? startDatabaseSession(context, config, user.id, new Date((now + config.maxAge) * 1000), false) : undefined;
		}
		const email = typeof found.claims.email === 'string' ? found.claims.email : null;
		const token: JWT = { ...found.claims, ...runtimeClaims(await storedUser(config, sub), email) };
		const value = await encodeToken(token, config.secrets[0]!, config.maxAge, now);
		setCookie(context, config, value, config.maxAge);
		return value;
	}
	const { user } = found;
	if (config.strategy === 'database') return startDatabaseSession(context, config, user.id, found.expires, false);
	// `sub` is a string (RFC 7519 §4.1.2) even from an adapter with numeric ids (@auth/pg-adapter's SERIAL).
	const defaults: JWT = { sub: String(user.id), name: user.name ?? null, email: user.email, picture: user.image ?? null, ...runtimeClaims(user, user.email) };
	return startJwtSession(context, config, defaults, { user });
}

/**
 * Starts a session for a signed-in user: an encrypted JWT cookie (after the `jwt` callback
 * with `trigger: 'signIn'`, the account and, for OAuth, the profile; `auth_time` now, the
 * user's `session_version`, and `two_factor` when `user.twoFactor` is set), or a database session
 * row stored under the hash of the token the cookie carries ({@link storedSessionKey}), with the
 * sign-in's details (the token carries the sign-in time and `user.twoFactor`). Every sign-in is a new
 * session (OWASP ASVS 5.0 7.2.4): a database session the browser had before is deleted.
 * @throws {MissingAdapter} database strategy and the adapter lacks `createSession`.
 * @throws whatever the `jwt` callback throws; returns false when it returns null.
 */
export async function startSession(
	context: SessionContext,
	config: ResolvedConfig,
	user: User,
	account: Account,
	profile?: Profile
): Promise<boolean> {
	if (config.strategy === 'database') {
		if (!user.id) throw new CallbackRouteError('The database strategy needs authorize() to return a user id.');
		await endDatabaseSession(context, config);
		await startDatabaseSession(context, config, user.id, new Date(Date.now() + config.maxAge * 1000), true, user.twoFactor);
		return true;
	}
	const defaults: JWT = { sub: user.id, name: user.name, email: user.email, picture: user.image, auth_time: epochSeconds() };
	if (user.twoFactor !== undefined) defaults.two_factor = user.twoFactor;
	Object.assign(defaults, runtimeClaims(await storedUser(config, user.id), user.email));
	return (await startJwtSession(context, config, defaults, { user, account, profile, trigger: 'signIn' })) !== undefined;
}

/**
 * Starts a `jwt` session from the claims a sign-in gives (`defaults`), through the `jwt` callback
 * with `params` beside them when the app has one: sets the cookie (issued now, `maxAge` seconds)
 * and returns its value; undefined, with no cookie, when the callback returns null.
 * @throws whatever the `jwt` callback throws
 */
async function startJwtSession(context: SessionContext, config: ResolvedConfig, defaults: JWT, params: Omit<Parameters<NonNullable<Callbacks['jwt']>>[0], 'token'>): Promise<string | undefined> {
	const returned = config.callbacks.jwt ? await config.callbacks.jwt({ token: defaults, ...params }) : defaults;
	if (!returned) return undefined;
	const value = await encodeToken(withRuntimeClaims(returned, defaults), config.secrets[0]!, config.maxAge, epochSeconds());
	setCookie(context, config, value, config.maxAge);
	return value;
}

/** The adapter's record of the user; null without an adapter that reads users, or a record. */
async function storedUser(config: ResolvedConfig, userId: string | undefined): Promise<AdapterUser | null> {
	const getUser = adapterMethod(config.adapter, 'getUser');
	return userId && getUser ? getUser(userId) : null;
}

/**
 * The claims a JWT session of the adapter's record `stored` starts with: the user's
 * `session_version` (0 included: it says the adapter keeps this user, so a session whose user is
 * gone ends), and `email_verified: false` when the session has an address (`email`) and the record
 * says it is unproven, so that the revalidation ends the session once it is proven. None for a
 * user the adapter does not keep.
 */
function runtimeClaims(stored: AdapterUser | null, email: string | null | undefined): JWT {
	const claims: JWT = {};
	if (!stored) return claims;
	claims.session_version = stored.sessionVersion ?? 0;
	if (email && !stored.emailVerified) claims.email_verified = false;
	return claims;
}

/**
 * Stores a new database session of `userId` until `expires` under the hash of a fresh token
 * ({@link storedSessionKey}) and sets the cookie to the token, which it returns. With an adapter
 * that lists sessions (create-auth's, whose tables have the columns), the row records the
 * request's `User-Agent` (512 characters at most) and client address, and, when `signedIn` (a
 * sign-in now, not a session continued from another library), `createdAt`; the token then carries
 * the sign-in time and `twoFactor` ({@link randomSessionToken}).
 * @throws {AdapterError} / {@link MissingAdapter} from `createSession`
 */
async function startDatabaseSession(
	context: SessionContext,
	config: ResolvedConfig,
	userId: string,
	expires: Date,
	signedIn: boolean,
	twoFactor?: boolean
): Promise<string> {
	const sessionToken = randomSessionToken(signedIn ? { signInTime: epochSeconds(), twoFactor } : {});
	const session: AdapterSession = { sessionToken: storedSessionKey(sessionToken), userId, expires };
	if (config.adapter?.listSessionsByUserId) {
		if (signedIn) session.createdAt = new Date();
		session.userAgent = context.request?.headers.get('user-agent')?.slice(0, 512) || null;
		session.ipAddress = requestAddress(context) ?? null;
	}
	await need(config, 'createSession')(session);
	setCookie(context, config, sessionToken, config.maxAge);
	return sessionToken;
}

/** The client address of the request, where the platform has one. */
function requestAddress(context: SessionContext): string | undefined {
	try {
		return context.getClientAddress?.();
	} catch {
		return undefined;
	}
}

/** What a database session's token carries besides its random part ({@link randomSessionToken}). */
interface SessionTokenFacts {
	/** When the user signed in: epoch seconds. */
	signInTime?: number;
	/** In an app with two-factor authentication: whether the user had it on (`user.twoFactor`). */
	twoFactor?: boolean;
}

/**
 * A database session's token: 32 bytes from the CSPRNG (256 bits), base64url; for a sign-in,
 * followed by `.` and its time (epoch seconds), then, when `twoFactor` is set, by `.1` (on) or
 * `.0` (off). {@link sessionTokenFacts} reads them back.
 */
function randomSessionToken({ signInTime, twoFactor }: SessionTokenFacts): string {
	const random = randomBytes(32).toString('base64url');
	if (signInTime === undefined) return random;
	return twoFactor === undefined ? `${random}.${signInTime}` : `${random}.${signInTime}.${twoFactor ? 1 : 0}`;
}

/**
 * What a database session's token carries (see {@link randomSessionToken}). It cannot be edited:
 * its row is found by the token's hash, so a changed time or flag finds no session. The sign-in
 * time serves adapters whose sessions have no `createdAt` (Auth.js's), for the re-authentication
 * check; the flag spares a second-factor lookup on every request.
 */
function sessionTokenFacts(sessionToken: string): SessionTokenFacts {
	const match = /\.(\d{1,12})(?:\.([01]))?$/.exec(sessionToken);
	if (!match) return {};
	return { signInTime: Number(match[1]), twoFactor: match[2] === undefined ? undefined : match[2] === '1' };
}

/**
 * Ends the session: deletes the cookie and, with the database strategy, the session row; and
 * the session cookie (and stored session) of a previous library (`previousSessions`) the
 * browser still holds.
 */
export async function endSession(context: SessionContext, config: ResolvedConfig): Promise<void> {
	// A previous library's session not read yet (no page asked for the session) ends too.
	for (const reader of config.previousSessions ?? []) await (await reader.read(previousContext(context, config)))?.retire();
	const value = deleteSessionCookie(context, config);
	if (value && config.strategy === 'jwt') forgetRevalidation(value);
	if (!value || config.strategy !== 'database') return;
	config.sessionCache?.delete(value);
	await need(config, 'deleteSession')(storedSessionKey(value));
}

/** Deletes the database session row of the browser's cookie, if it has one (before a new sign-in replaces it); the cookie is overwritten by the caller. */
async function endDatabaseSession(context: SessionContext, config: ResolvedConfig): Promise<void> {
	const value = getCookie(context, config);
	if (!value) return;
	config.sessionCache?.delete(value);
	await need(config, 'deleteSession')(storedSessionKey(value));
}

/**
 * Ends every session of the user but this request's (the account page's "sign out other
 * devices"; docs/api.md#ending-sessions). `database` strategy: the user's other session rows are
 * deleted (`listSessionsByUserId`, `deleteSession`). `jwt` strategy: the user's `sessionVersion`
 * is raised and this browser's cookie re-issued with it (its `auth_time` kept), so the others end
 * within `session.revalidateAge` seconds. Returns how many database sessions it ended (0 for `jwt`).
 * @throws {MissingAdapter} the adapter lacks a method it needs, or stores no `sessionVersion`.
 * @throws {AdapterError} the adapter failed.
 */
export async function endOtherSessions(context: SessionContext, config: ResolvedConfig, userId: string): Promise<number> {
	const value = getCookie(context, config);
	if (config.strategy === 'database') {
		const current = value && storedSessionKey(value);
		const others = (await need(config, 'listSessionsByUserId')(userId)).filter((session) => session.sessionToken !== current);
		for (const session of others) await need(config, 'deleteSession')(session.sessionToken);
		config.sessionCache?.deleteUser(userId);
		return others.length;
	}
	const version = await raiseSessionVersion(config, userId);
	const token = value ? await decodeToken(value, config.secrets) : null;
	if (token?.sub === userId) {
		const next = await encodeToken({ ...token, session_version: version }, config.secrets[0]!, config.maxAge, epochSeconds());
		setCookie(context, config, next, config.maxAge);
		if (value) forgetRevalidation(value);
	}
	return 0;
}

/**
 * After the user turned two-factor authentication on or off in this browser: with `endOthers`,
 * every other session of the user ends first ({@link endOtherSessions}); then this browser's
 * session carries the new `user.twoFactor`. A JWT is re-issued with `two_factor` (its other
 * claims kept); a database session moves to a new token that carries it (the row's details and
 * expiry kept, the old row deleted). Nothing happens to a session that is not `userId`'s.
 * @throws {MissingAdapter} the adapter lacks a method it needs.
 * @throws {AdapterError} the adapter failed.
 */
export async function changeSessionTwoFactor(context: SessionContext, config: ResolvedConfig, userId: string, twoFactor: boolean, endOthers: boolean): Promise<void> {
	if (endOthers) await endOtherSessions(context, config, userId);
	const value = getCookie(context, config);
	if (!value) return;
	if (config.strategy === 'jwt') {
		const token = await decodeToken(value, config.secrets);
		if (token?.sub !== userId) return;
		setCookie(context, config, await encodeToken({ ...token, two_factor: twoFactor }, config.secrets[0]!, config.maxAge, epochSeconds()), config.maxAge);
		forgetRevalidation(value);
		return;
	}
	const stored = storedSessionKey(value);
	const found = await need(config, 'getSessionAndUser')(stored);
	if (found?.user.id !== userId) return;
	const { createdAt } = found.session;
	const signInTime = sessionTokenFacts(value).signInTime ?? (createdAt ? Math.floor(createdAt.getTime() / 1000) : undefined);
	const next = randomSessionToken({ signInTime, twoFactor });
	await need(config, 'createSession')({ ...found.session, sessionToken: storedSessionKey(next) });
	await need(config, 'deleteSession')(stored);
	config.sessionCache?.delete(value);
	setCookie(context, config, next, config.maxAge);
}

/**
 * Raises the user's `sessionVersion` by one and returns the new value: every `jwt` session issued
 * with a lower one ends at its next revalidation.
 * @throws {MissingAdapter} the adapter lacks `getUser` / `updateUser`, has no such user, or did not
 *   store the field (an adapter whose users have no `sessionVersion` column).
 * @throws {AdapterError} the adapter failed.
 */
export async function raiseSessionVersion(config: ResolvedConfig, userId: string): Promise<number> {
	const user = await need(config, 'getUser')(userId);
	if (!user) throw new MissingAdapter(`The adapter has no user ${userId}.`);
	const version = (user.sessionVersion ?? 0) + 1;
	const updated = await need(config, 'updateUser')({ id: userId, sessionVersion: version });
	if (updated?.sessionVersion !== version) throw new MissingAdapter("The adapter's users have no sessionVersion, so JWT sessions cannot be ended before they expire.");
	return version;
}

/** What the runtime knows of the request's own session, for the account page. */
export interface CurrentSession {
	/** When the user signed in: epoch seconds; undefined when unknown (a session from before the upgrade, or continued from another library). */
	authTime?: number;
	/** `database` strategy: the session row's key ({@link storedSessionKey} of the cookie). */
	storedKey?: string;
}

/**
 * The request's own session as the runtime stored it: the JWT's `auth_time`, or the database
 * row's key and `createdAt` (else the time its token carries). Null without a valid session cookie of ours.
 * @throws {AdapterError} the adapter failed.
 */
export function currentSession(context: SessionContext, config: ResolvedConfig): Promise<CurrentSession | null> {
	const value = getCookie(context, config);
	if (!value) return Promise.resolve(null);
	const known = currentSessions.get(context.cookies);
	if (known?.value === value) return known.found;
	const found = readCurrentSession(value, config);
	currentSessions.set(context.cookies, { value, found });
	return found;
}

/**
 * Each request's {@link currentSession} (by its `cookies`), for the cookie value it was read for:
 * the account page's load asks three times, and a database session is one query. A sign-in or
 * sign-out in the same request changes the value, so it is read again.
 */
const currentSessions = new WeakMap<SessionContext['cookies'], { value: string; found: Promise<CurrentSession | null> }>();

async function readCurrentSession(value: string, config: ResolvedConfig): Promise<CurrentSession | null> {
	if (config.strategy === 'jwt') {
		const token = await decodeToken(value, config.secrets);
		return token ? { authTime: typeof token.auth_time === 'number' ? token.auth_time : undefined } : null;
	}
	const storedKey = storedSessionKey(value);
	const found = await need(config, 'getSessionAndUser')(storedKey);
	if (!found) return null;
	const createdAt = found.session.createdAt;
	return { storedKey, authTime: createdAt ? Math.floor(createdAt.getTime() / 1000) : sessionTokenFacts(value).signInTime };
}

/**
 * Ends every `jwt` session of the user at its next revalidation ({@link raiseSessionVersion}); an
 * app without an adapter has nothing to raise. An adapter that cannot is logged as {@link MissingAdapter}.
 * @throws {AdapterError} the adapter failed.
 */
async function endJwtSessions(config: ResolvedConfig, userId: string): Promise<void> {
	if (!config.adapter) return;
	try {
		await raiseSessionVersion(config, userId);
	} catch (err) {
		if (!(err instanceof MissingAdapter)) throw err;
		config.logger.error(new MissingAdapter(`${err.message} The other sessions of user ${userId} stay until they expire.`));
	}
}

/**
 * Ends this request's session and every other session of the user, as after a password reset or
 * change: the user's other devices are signed out. `database` strategy: every session row of the
 * user (`deleteUserSessions`). `jwt` strategy: the user's `sessionVersion` is raised
 * ({@link endJwtSessions}), so the other cookies end at their next revalidation, within
 * `session.revalidateAge` seconds. An adapter that cannot (no `deleteUserSessions`, or no stored
 * `sessionVersion`) leaves them until they expire, and that is logged as {@link MissingAdapter}.
 * The caller starts this browser's new session.
 * @throws {AdapterError} the adapter failed.
 */
export async function endUserSessions(context: SessionContext, config: ResolvedConfig, userId: string): Promise<void> {
	await endSession(context, config);
	if (config.strategy !== 'database') return endJwtSessions(config, userId);
	config.sessionCache?.deleteUser(userId);
	const deleteUserSessions = adapterMethod(config.adapter, 'deleteUserSessions');
	if (deleteUserSessions) await deleteUserSessions(userId);
	else config.logger.error(new MissingAdapter(`The adapter has no deleteUserSessions() method: the other sessions of user ${userId} stay until they expire.`));
}
