// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Adapter, AdapterSession, AdapterUser } from '../adapters/types.js';

/** A database session as `getSessionAndUser` returns it. */
interface SessionAndUser {
	session: AdapterSession;
	user: AdapterUser;
}

/** Entries kept per cache; past this many the oldest is dropped. */
const CACHE_MAX = 4096;

/**
 * Database sessions read within the last `maxAge` seconds in this server process, by session
 * token (`session.cacheMaxAge`): a repeat visit within that window costs a map lookup instead of
 * a `getSessionAndUser` round trip. What this process ends (sign-out, a password change's
 * `deleteUserSessions`) leaves the cache at once; what another process or a direct database
 * edit ends stays readable here for up to `maxAge` seconds. Unknown tokens are not cached.
 */
export class SessionCache {
	readonly #entries = new Map<string, { found: SessionAndUser; until: number }>();
	/** Seconds an entry is served after it was read from the adapter. */
	readonly maxAge: number;

	constructor(maxAge: number) {
		this.maxAge = maxAge;
	}

	/**
	 * The entry for `sessionToken` read less than `maxAge` seconds before `now`, or undefined.
	 * A copy: callers may change it without changing the next read.
	 * @param now epoch milliseconds
	 */
	get(sessionToken: string, now: number): SessionAndUser | undefined {
		const entry = this.#entries.get(sessionToken);
		if (!entry) return undefined;
		if (entry.until <= now) {
			this.#entries.delete(sessionToken);
			return undefined;
		}
		return copy(entry.found);
	}

	/**
	 * Keeps `found` (a copy) for `maxAge` seconds from `now` (epoch milliseconds).
	 */
	set(sessionToken: string, found: SessionAndUser, now: number): void {
		this.#entries.delete(sessionToken);
		if (this.#entries.size >= CACHE_MAX) this.#entries.delete(this.#entries.keys().next().value!);
		this.#entries.set(sessionToken, { found: copy(found), until: now + this.maxAge * 1000 });
	}

	/** Records a new expiry (a `Date`) of a cached session, after `updateSession` extended it. */
	extend(sessionToken: string, expires: Date): void {
		const entry = this.#entries.get(sessionToken);
		if (entry) entry.found.session = { ...entry.found.session, expires };
	}

	/** Forgets one session: it was deleted. */
	delete(sessionToken: string): void {
		this.#entries.delete(sessionToken);
	}

	/** Forgets every session of the user `userId`: they were deleted. */
	deleteUser(userId: string): void {
		for (const [token, entry] of this.#entries) if (entry.found.user.id === userId) this.#entries.delete(token);
	}
}

const copy = ({ session, user }: SessionAndUser): SessionAndUser => ({ session: { ...session }, user: { ...user } });

/** One cache per adapter object, so that a config resolved per request still shares it. */
const caches = new WeakMap<Adapter, SessionCache>();

/**
 * The session cache of `adapter` for entries of `maxAge` seconds, or undefined when `maxAge` is
 * 0 (the default: every request reads the adapter) or not a positive number. Configs sharing an
 * adapter object share its cache; a new `maxAge` replaces it.
 */
export function sessionCacheFor(adapter: Adapter | undefined, maxAge: number): SessionCache | undefined {
	if (!adapter || !(maxAge > 0)) return undefined;
	let cache = caches.get(adapter);
	if (cache?.maxAge !== maxAge) caches.set(adapter, (cache = new SessionCache(maxAge)));
	return cache;
}
