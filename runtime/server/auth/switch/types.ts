// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Cookies } from '@sveltejs/kit';
import type { Adapter, AdapterUser } from '../adapters/types.js';

/**
 * What a previous library's session reader is given: the request's cookies and URL, and the
 * parts of the app's resolved config a reader may need. Nothing else of the config, so that
 * this module imports no runtime module but the adapter contract (`config.ts` imports it).
 */
export interface PreviousSessionContext {
	/** The request's cookies: read the previous library's, delete them in `retire`. */
	cookies: Cookies;
	/** The request's URL (`protocol` says whether `Secure` cookies can be deleted over it). */
	url: URL;
	/** The app's adapter, when it has one (Auth.js database sessions are rows of its `sessions` table). */
	adapter?: Adapter;
	/** The app's own secrets (`config.secret`), newest first, empty entries left out. */
	secrets: readonly string[];
}

/**
 * Who a previous library's session cookie signs in:
 * - `claims`: the payload of its JWT session (`sub`, `name`, `email`, `picture` and whatever
 *   its `jwt` callback added), already decrypted and checked unexpired. Its `iat`, `exp`, `jti`
 *   are ignored: the session it continues gets the runtime's own.
 * - `user`: a user of the app's adapter, signed in until `expires` (a `Date`, in the future),
 *   e.g. the user of a database session row.
 */
export type PreviousIdentity = { kind: 'claims'; claims: Record<string, unknown> } | { kind: 'user'; user: AdapterUser; expires: Date };

/** A previous library's session cookie found in the request. */
export interface PreviousSession {
	/** Who it signs in; null when nobody: malformed, tampered, expired, another secret, an unknown row. */
	found: PreviousIdentity | null;
	/**
	 * Forgets the previous session for good: deletes its cookies (every chunk) and, where it has
	 * one, its stored record (an Auth.js database row), so the same value never signs anyone in
	 * again. The runtime calls it exactly once per `read` that returned this object: after its own
	 * session is set (so a store failure before that keeps the cookie for the next request), at
	 * once when `found` is null, and at sign-out.
	 * @throws {AdapterError} the adapter failed deleting the record (the cookies are deleted first).
	 */
	retire(): Promise<void>;
}

/**
 * A reader of the session cookie of the library an app used before create-auth, handed to
 * `SvelteKitAuth` in `previousSessions` (`SvelteKitAuthConfig`), made by a factory in
 * `switch/<library>.ts` (`authjsSessions`). The runtime asks it only when the request carries
 * no session cookie of its own, and at sign-out; its result becomes a session of the runtime's
 * strategy and the previous cookie is retired, so each browser's previous session is read once.
 * @see create-auth docs/api.md#switching-from-authjs-sessions
 */
export interface PreviousSessions {
	/** The library it reads, for messages: `authjs`. */
	readonly library: string;
	/**
	 * Looks for the library's session cookie. Undefined when the request has none: this must cost
	 * no more than looking cookie names up (every request without a session of ours asks).
	 * Otherwise a {@link PreviousSession}. Never throws for bad input (that is `found: null`),
	 * and logs nothing for it.
	 * @throws {AdapterError} the adapter failed looking a stored session up (the cookie is kept).
	 */
	read(context: PreviousSessionContext): Promise<PreviousSession | undefined>;
}
