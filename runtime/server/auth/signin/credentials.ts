// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import type { Account, ProviderFlow, ResolvedConfig } from '../config.js';
import { requireEmailVerificationAdapter, requireVerifiedEmail, verifyEmailAction } from '../email/verification.js';
import { normalizeEmail } from '../email/address.js';
import { AccountLocked, CredentialsSignin, RateLimitStoreError } from '../errors.js';
import { clientAddress, formText } from '../http/form.js';
import { accountLockedMessage, countPasswordAttempt, forgetPasswordAttempts, type RateLimits } from '../limits/rate-limit.js';
import { changePasswordAction, movePasswordAccount, passwordAccountOf, requestPasswordResetAction, resetPasswordAction, setPasswordAction } from '../passwords/change.js';
import { PASSWORD_PROVIDER } from '../passwords/accounts.js';
import { signUpAction } from '../passwords/signup.js';
import type { CredentialsConfig } from '../providers/types.js';
import { completeSignIn, redirectTarget } from './finish.js';

/**
 * The credentials flow, which `Credentials()` puts on its provider:
 * - `signIn`: the posted fields to `authorize()` ({@link credentialsSignIn}), then the validated
 *   target; an attempt over the account-wide cap is answered here ({@link accountLockedAnswer});
 * - `actions`: the password accounts' pages (`signUp`, `requestPasswordReset`, `resetPassword`,
 *   `changePassword`, `verifyEmail`; `passwords/`, `email/verification.ts`), accounts being
 *   `credentials` accounts with a `password_hash` (see `authorizeWithPassword`);
 * - `check`: with `passwords.requireEmailVerification`, the adapter must have what confirming
 *   an address needs;
 * - `account`: the user's password, if they have one (changed or set by the actions above),
 *   whose account moves to the new address when the user's address changes.
 * @see create-auth docs/api.md#credentials, #passwords
 */
export const credentialsFlow: ProviderFlow<CredentialsConfig> = {
	signIn: async (event, config, provider, form, callbackUrl) => {
		try {
			return await redirectTarget(event, config, (await credentialsSignIn(event, config, provider, form, callbackUrl)) ?? callbackUrl);
		} catch (err) {
			if (err instanceof AccountLocked) return accountLockedAnswer(event, err, formText(form.get('email')) ?? '');
			throw err;
		}
	},
	actions: {
		signUp: signUpAction,
		requestPasswordReset: requestPasswordResetAction,
		resetPassword: resetPasswordAction,
		changePassword: changePasswordAction,
		setPassword: setPasswordAction,
		verifyEmail: verifyEmailAction
	},
	check: (_provider, config) => {
		if (config.passwords.requireEmailVerification) requireEmailVerificationAdapter(config.adapter);
	},
	account: {
		addressChanged: movePasswordAccount,
		list: async (user, config, provider) =>
			(await passwordAccountOf(config, user)) ? [{ provider: provider.id, kind: 'password', id: 'password', label: 'Password', detail: 'With your email address', removable: false, renamable: false }] : []
	}
};

/** Form fields that steer the flow and are not credentials. */
const CONTROL_FIELDS = new Set(['providerId', 'redirectTo', 'callbackUrl']);

/**
 * Credentials sign-in: the attempt is counted against the rate limits ({@link countPasswordAttempt}:
 * per client address, per email from this client, then per email from all clients; the email is
 * the `email` field, else `username`), then `authorize()`, then {@link completeSignIn}. A
 * success gives the client's attempt back and clears the email's counts from this client and
 * account-wide (NIST SP 800-63B-4 §3.2.2 counts consecutive failures), not other clients'
 * ({@link forgetPasswordAttempts}). A password account must have confirmed its address when the config requires it
 * ({@link requireVerifiedEmail}). Returns where to go (a callback-chosen URL, or undefined for
 * the default).
 * @throws {RateLimited} over a limit, or the password-hashing queue is full; {@link AccountLocked}, its
 *   subclass, over the account-wide cap.
 * @throws {RateLimitStoreError} the rate-limit store could not count the attempt.
 * @throws {CredentialsSignin} `authorize()` returned null or threw it; {@link EmailNotVerified}, its subclass.
 * @throws {AccessDenied} refused by the `signIn` / `jwt` callback.
 */
export async function credentialsSignIn(event: RequestEvent, config: ResolvedConfig, provider: CredentialsConfig, form: FormData, callbackUrl: string | undefined) {
	const credentials: Record<string, string> = {};
	for (const [name, value] of form) if (!CONTROL_FIELDS.has(name) && typeof value === 'string') credentials[name] = value;
	const limits = config.rateLimits;
	const client = clientAddress(event);
	const identifier = credentials.email ?? credentials.username;
	const email = identifier === undefined ? undefined : normalizeEmail(identifier) || undefined;
	if (limits) await countPasswordAttempt(limits, email, client);
	const user = await provider.authorize(credentials, event.request);
	if (!user) throw new CredentialsSignin('authorize() returned null.', { provider: provider.id });
	if (limits) await forgiveAttempt(config, limits, client, email);
	if (provider.id === PASSWORD_PROVIDER && user.id) await requireVerifiedEmail(event, config, user.id, callbackUrl);
	const account: Account = { type: provider.type, provider: provider.id, providerAccountId: user.id ?? '' };
	return completeSignIn(event, config, user, account, { credentials, redirectTo: callbackUrl });
}

/** After a successful sign-in: the client's attempt back, the email's counts forgotten ({@link forgetPasswordAttempts}). A store failure here is only logged. */
async function forgiveAttempt(config: ResolvedConfig, limits: RateLimits, client: string | undefined, email: string | undefined) {
	try {
		await Promise.all([client && limits.signInPerClient?.refund(client), email && forgetPasswordAttempts(limits, email, client)]);
	} catch (err) {
		config.logger.error(new RateLimitStoreError(`Clearing a signed-in user's attempts in the ${limits.store} rate-limit store failed.`, { err: err as Error }));
	}
}

/**
 * The sign-in page's answer to an attempt over the account-wide cap: 429 with `Retry-After`
 * (RFC 6585 §4) and `form` = `{ error: 'RateLimited', code: 'AccountLocked', message, email }`,
 * the message saying that a password reset gets in meanwhile ({@link accountLockedMessage}).
 */
function accountLockedAnswer(event: RequestEvent, err: AccountLocked, email: string): ActionFailure<Record<string, unknown>> {
	event.setHeaders({ 'retry-after': String(err.retryAfter) });
	return fail(429, { error: err.type, code: err.code, message: accountLockedMessage(err.retryAfter), email });
}
