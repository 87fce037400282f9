// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type RequestEvent } from '@sveltejs/kit';
import type { User } from '../../../auth/types.js';
import { appBase } from '../http/app-paths.js';
import type { Account, ResolvedConfig } from '../config.js';
import { AccessDenied, AuthError, CallbackRouteError, type ErrorType } from '../errors.js';
import type { Profile } from '../providers/types.js';
import { safeRedirectTarget } from '../http/redirects.js';
import { seeOther } from '../http/see-other.js';
import { startSession } from '../session/session.js';

/**
 * Where to go next: the `redirect` callback's choice, or the validated target (default: the
 * app's home, `<base>/` with SvelteKit's `paths.base`; a target outside the base gets it too, see
 * {@link safeRedirectTarget}). The app's origin is `url`'s (AUTH_URL) when configured, else the request's.
 */
export async function redirectTarget(event: RequestEvent, config: ResolvedConfig, url: string | undefined): Promise<string> {
	const baseUrl = config.origin ?? event.url.origin;
	const base = appBase(event.url, config);
	const { redirect: callback } = config.callbacks;
	if (callback) return callback({ url: url ?? `${base}/`, baseUrl });
	return safeRedirectTarget(url, baseUrl, config.trustHost, base);
}

/**
 * The last steps of every sign-in, once a provider has vouched for the user: the `signIn`
 * callback, the second factor's challenge (`config.twoFactor`: a user who turned it on goes to
 * its step, with no session yet), then the session (with `user.twoFactor` in an app that has it). Returns the URL the `signIn` callback chose,
 * or the second step's, if either applies. `extra.redirectTo`: where the sign-in goes once done
 * (kept for after the second step).
 * @throws {AccessDenied} the `signIn` callback returned false, or the `jwt` callback null.
 * @throws whatever the callbacks or the adapter throw.
 */
export async function completeSignIn(
	event: RequestEvent,
	config: ResolvedConfig,
	user: User,
	account: Account,
	{ redirectTo, ...extra }: { profile?: Profile; credentials?: Record<string, string>; redirectTo?: string } = {}
): Promise<string | undefined> {
	const allowed = (await config.callbacks.signIn?.({ user, account, ...extra })) ?? true;
	if (allowed === false) throw new AccessDenied('The signIn callback refused the sign-in.', { provider: account.provider });
	const chosen = typeof allowed === 'string' ? allowed : undefined;
	const second = await config.twoFactor?.challenge(event, config, user, account, { profile: extra.profile, redirectTo: chosen ?? redirectTo });
	if (second?.secondStep !== undefined) return second.secondStep;
	const signedIn = second ? { ...user, twoFactor: second.enabled } : user;
	if (!(await startSession(event, config, signedIn, account, extra.profile))) throw new AccessDenied('The jwt callback returned null.');
	return chosen;
}

/**
 * Signs in a user our own flow vouched for (a sign-up, a password reset, a confirmed address):
 * {@link completeSignIn}, then a 303 to the URL the `signIn` callback chose, else to the
 * validated `callbackUrl` (default `/`). A failure there (the `signIn` callback refused, the
 * adapter failed) is logged, wrapped in {@link CallbackRouteError} unless it is an
 * {@link AuthError}, and ends with a 303 to the sign-in page with its `?error=`.
 * @returns never: throws SvelteKit's redirect either way.
 */
export async function finishSignIn(event: RequestEvent, config: ResolvedConfig, user: User, account: Account, callbackUrl: string | undefined): Promise<never> {
	let next: string;
	try {
		next = await redirectTarget(event, config, (await completeSignIn(event, config, user, account, { redirectTo: callbackUrl })) ?? callbackUrl);
	} catch (err) {
		const known = errorType(err, 'CallbackRouteError');
		config.logger.error(
			known === 'CallbackRouteError' ? new CallbackRouteError(`Signing in with ${account.provider} failed.`, { provider: account.provider, err: err as Error }) : (err as Error)
		);
		redirect(303, signInErrorUrl(event, config, known, { callbackUrl }));
	}
	seeOther(next);
}

/**
 * The sign-in page (under SvelteKit's `paths.base`) with `?error=<type>` (plus `code`, and the
 * `callbackUrl` to keep when it is a same-origin path inside the base other than its home):
 * where every failed sign-in ends.
 */
export function signInErrorUrl(event: RequestEvent, config: ResolvedConfig, error: ErrorType, options: { code?: string; callbackUrl?: string } = {}): string {
	const base = appBase(event.url, config);
	const query = new URLSearchParams({ error });
	if (options.code) query.set('code', options.code);
	const safeCallback = safeRedirectTarget(options.callbackUrl, event.url.origin, false, base);
	if (options.callbackUrl && safeCallback !== `${base}/`) query.set('callbackUrl', safeCallback);
	return `${base}${config.pages.signIn}?${query}`;
}

/** The stable type of a failure, `fallback` for anything that is not an {@link AuthError}. */
export const errorType = (err: unknown, fallback: ErrorType): ErrorType => (err instanceof AuthError ? err.type : fallback);
