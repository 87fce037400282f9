// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The second step of a sign-in (`/signin/two-factor`): the pending sign-in (./pending.ts) and a
 * code, then the session.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { need } from '../adapters/methods.js';
import type { ResolvedConfig } from '../config.js';
import { AccessDenied, RateLimited } from '../errors.js';
import { appBase } from '../http/app-paths.js';
import { formText, readForm, refusedAttempt } from '../http/form.js';
import { requestConfig } from '../http/guards.js';
import { seeOther } from '../http/see-other.js';
import { countAttempt, type RateLimits } from '../limits/rate-limit.js';
import { startSession, toUser } from '../session/session.js';
import { redirectTarget } from '../signin/finish.js';
import { checkSecondFactor } from './factor.js';
import { endPendingSignIn, readPendingSignIn, type PendingSignIn } from './pending.js';

/** The sign-in page, where a visitor without a pending sign-in (expired, or never started) goes. */
const signInPage = (event: RequestEvent, config: ResolvedConfig) => `${appBase(event.url, config)}${config.pages.signIn}`;

/**
 * The second step page's `load`: the pending sign-in's expiry, for the page to say how long it
 * has. A visitor without one is sent to the sign-in page (a 303).
 * @throws SvelteKit's redirect, without a pending sign-in.
 */
export async function twoFactorStep(event: RequestEvent): Promise<{ pending: true }> {
	const config = await requestConfig(event);
	if (!(await readPendingSignIn(event, config))) redirect(303, signInPage(event, config));
	return { pending: true };
}

/** A refused code: `error` a stable code, `message` safe to show. */
export type TwoFactorFailure = ActionFailure<{ error: string; message: string }>;

/**
 * The second step's form action, field `code`: a 6-digit code from the authenticator app, or a
 * recovery code. Each attempt counts against `rateLimit.twoFactor` first: per pending sign-in (5
 * in 15 minutes by default; past it that sign-in takes no more codes, and the user starts again) and per
 * user (100 consecutive in 24 hours; a right code clears it). A right code ({@link checkSecondFactor})
 * ends the pending sign-in and starts the session with the first factor's account (through the
 * `jwt` callback, `trigger: 'signIn'`), then a 303 to where the sign-in was going.
 * @returns the refusal: 400 `InvalidCode`; 429 `RateLimited` (past the pending sign-in's limit;
 *   past the user's, with `Retry-After`); 503 while the rate-limit store is down.
 * @throws SvelteKit's redirect: to the sign-in page without a pending sign-in (or when the user is
 *   gone, or the `jwt` callback refused), else to the sign-in's target.
 * @throws {AdapterError} the adapter failed.
 */
export async function verifyTwoFactor(event: RequestEvent): Promise<TwoFactorFailure> {
	const config = await requestConfig(event);
	const pending = await readPendingSignIn(event, config);
	if (!pending) redirect(303, signInPage(event, config));
	const code = formText((await readForm(event.request)).get('code')) ?? '';
	const limits = config.rateLimits;
	const refused = limits && (await refusedCode(event, config, limits, pending));
	if (refused) return refused;
	if (!(await checkSecondFactor(config, pending.userId, code))) {
		return fail(400, { error: 'InvalidCode', message: 'That code is not right, or was used already. Enter the one your app shows now, or a recovery code.' });
	}
	await limits?.twoFactorPerAccount?.reset(pending.userId);
	endPendingSignIn(event, config);
	seeOther(await signInWithSecondFactor(event, config, pending));
}

/**
 * Counts a code against `rateLimit.twoFactor` (per pending sign-in, then per user) and, when it is
 * refused, answers it: past the pending sign-in's limit, which then takes no more codes, the user
 * is told to sign in again (a new one gets new tries); past the user's, 429 with `Retry-After`;
 * 503 while the store is down. Undefined when the code may be checked.
 * @throws what counting threw that is no refusal.
 */
async function refusedCode(event: RequestEvent, config: ResolvedConfig, limits: RateLimits, pending: PendingSignIn): Promise<TwoFactorFailure | undefined> {
	try {
		await countAttempt(limits, [[limits.twoFactorPerSignIn, pending.id]]);
	} catch (err) {
		// The pending sign-in stays (the page's load would otherwise send the visitor away before
		// this message shows); it takes no more codes, and a new sign-in gets a new one.
		if (!(err instanceof RateLimited)) return answered(event, config, err);
		return fail(429, { error: err.type, message: 'Too many wrong codes. Sign in again to try once more.' });
	}
	try {
		await countAttempt(limits, [[limits.twoFactorPerAccount, pending.userId]]);
		return undefined;
	} catch (err) {
		return answered(event, config, err);
	}
}

/** {@link refusedAttempt}'s answer to `err`, without the address field. @throws `err` when it is no refusal. */
function answered(event: RequestEvent, config: ResolvedConfig, err: unknown): TwoFactorFailure {
	const refused = refusedAttempt(event, config, err, '', 'Two-factor sign-in');
	if (!refused) throw err;
	return fail(refused.status, { error: refused.data.error, message: refused.data.message });
}

/**
 * The session of a pending sign-in whose second factor passed, with the first factor's account
 * and profile (an OAuth provider's tokens reach the `jwt` callback); where to go next.
 */
async function signInWithSecondFactor(event: RequestEvent, config: ResolvedConfig, pending: PendingSignIn): Promise<string> {
	const user = await need(config, 'getUser')(pending.userId);
	if (!user) redirect(303, signInPage(event, config));
	if (!(await startSession(event, config, { ...toUser(user), twoFactor: true }, { ...pending.account, userId: user.id }, pending.profile))) {
		config.logger.error(new AccessDenied('The jwt callback returned null.', { provider: pending.account.provider }));
		redirect(303, `${signInPage(event, config)}?error=AccessDenied`);
	}
	return redirectTarget(event, config, pending.redirectTo);
}
