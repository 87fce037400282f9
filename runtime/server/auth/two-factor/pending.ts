// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The sign-in between its two steps: the first factor passed, no session yet. It lives in one
 * encrypted cookie (A256GCM, a key derived from the auth secret for this use only), for
 * {@link PENDING_MAX_AGE} seconds, scoped to the sign-in pages.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import type { Cookies } from '@sveltejs/kit';
import type { Account, ResolvedConfig } from '../config.js';
import { appBase } from '../http/app-paths.js';
import type { Profile } from '../providers/types.js';
import { authCookie, deleteChunkedCookie, getChunkedCookie, setChunkedCookie } from '../session/cookies.js';
import { seal, unseal } from '../session/jwt.js';

/** Seconds a first factor waits for its second. */
export const PENDING_MAX_AGE = 5 * 60;
const SALT = 'auth.two-factor-pending';

/** A sign-in whose first factor passed, waiting for the second. */
export interface PendingSignIn extends Record<string, unknown> {
	/** Its id, random: the key of the limit on wrong codes per sign-in. */
	id: string;
	/** The user the first factor signed in. */
	userId: string;
	/**
	 * The first factor's account, with an OAuth provider's tokens, and the profile it gave: the
	 * `jwt` callback gets both when the session starts after the second step.
	 */
	account: Account;
	profile?: Profile;
	/** Where the sign-in goes once it is done (validated when it started). */
	redirectTo?: string;
}

/** The cookie: `auth.two-factor`, under the sign-in page's path (`<base><pages.signIn>`). */
const pendingCookie = (url: URL, config: ResolvedConfig) =>
	authCookie(url, config.useSecureCookies, 'two-factor', { path: `${appBase(url, config)}${config.pages.signIn}` });

/**
 * Stores `pending` for {@link PENDING_MAX_AGE} seconds (in chunks when an OAuth provider's tokens
 * make it bigger than one cookie); a sign-in started since replaces it.
 */
export async function savePendingSignIn(context: { cookies: Cookies; url: URL }, config: ResolvedConfig, pending: PendingSignIn): Promise<void> {
	const value = await seal(pending, config.secrets[0]!, SALT, PENDING_MAX_AGE, Math.floor(Date.now() / 1000));
	const { name, options } = pendingCookie(context.url, config);
	setChunkedCookie(context.cookies, name, value, { ...options, maxAge: PENDING_MAX_AGE });
}

/**
 * The pending sign-in of the request, or null: no cookie, expired, tampered, sealed with an
 * unknown secret, or not of this shape.
 */
export async function readPendingSignIn(context: { cookies: Cookies; url: URL }, config: ResolvedConfig): Promise<PendingSignIn | null> {
	const value = getChunkedCookie(context.cookies, pendingCookie(context.url, config).name);
	const pending = value ? await unseal<PendingSignIn>(value, config.secrets, SALT) : null;
	const valid = pending && typeof pending.id === 'string' && typeof pending.userId === 'string' && typeof pending.account?.provider === 'string';
	return valid ? pending : null;
}

/** Deletes the pending sign-in's cookie (it is done, or given up). */
export function endPendingSignIn(context: { cookies: Cookies; url: URL }, config: ResolvedConfig): void {
	const { name, options } = pendingCookie(context.url, config);
	deleteChunkedCookie(context.cookies, name, options);
}
