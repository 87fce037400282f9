// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The second step of a sign-in (`/signin/two-factor`): the pending sign-in (./pending.ts) and a
 * code, then the session.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { need } from '../adapters/methods.js';
import type { ResolvedConfig } from '../config.js';
import { AccessDenied } from '../errors.js';
import { appBase } from '../http/app-paths.js';
import { formText, readForm, refusedAttempt } from '../http/form.js';
import { requestConfig } from '../http/guards.js';
import { seeOther } from '../http/see-other.js';
import { countAttempt } from '../limits/rate-limit.js';
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
 * in 15 minutes by default; past it the pending sign-in ends, and the user starts again) and per
 * user (100 consecutive in 24 hours; a right code clears it). A right code ({@link checkSecondFactor})
 * ends the pending sign-in and starts the session with the first factor's account (through the
 * `jwt` callback, `trigger: 'signIn'`), then a 303 to where the sign-in was going.
 * @returns the refusal: 400 `InvalidCode`; 429 `RateLimited` with `Retry-After`; 503 while the
 *   rate-limit store is down.
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
	try {
		if (limits) await countAttempt(limits, [[limits.twoFactorPerSignIn, pending.id], [limits.twoFactorPerAccount, pending.userId]]);
	} catch (err) {
		const refused = refusedAttempt(event, config, err, '', 'Two-factor sign-in');
		if (!refused) throw err;
		if (refused.status === 429) endPendingSignIn(event, config);
		return fail(refused.status, { error: refused.data.error, message: refused.data.message });
	}
	if (!(await checkSecondFactor(config, pending.userId, code))) {
		return fail(400, { error: 'InvalidCode', message: 'That code is not right, or was used already. Enter the one your app shows now, or a recovery code.' });
	}
	await limits?.twoFactorPerAccount?.reset(pending.userId);
	endPendingSignIn(event, config);
	seeOther(await signInWithSecondFactor(event, config, pending));
}

/** The session of a pending sign-in whose second factor passed; where to go next. */
async function signInWithSecondFactor(event: RequestEvent, config: ResolvedConfig, pending: PendingSignIn): Promise<string> {
	const user = await need(config, 'getUser')(pending.userId);
	if (!user) redirect(303, signInPage(event, config));
	if (!(await startSession(event, config, toUser(user), { ...pending.account, userId: user.id }))) {
		config.logger.error(new AccessDenied('The jwt callback returned null.', { provider: pending.account.provider }));
		redirect(303, `${signInPage(event, config)}?error=AccessDenied`);
	}
	return redirectTarget(event, config, pending.redirectTo);
}
