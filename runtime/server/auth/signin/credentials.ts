// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { Account, ProviderFlow, ResolvedConfig } from '../config.js';
import { requireEmailVerificationAdapter, requireVerifiedEmail, verifyEmailAction } from '../email/verification.js';
import { normalizeEmail } from '../email/address.js';
import { CredentialsSignin, RateLimitStoreError } from '../errors.js';
import { clientAddress } from '../http/form.js';
import { countAttempt, type RateLimits } from '../limits/rate-limit.js';
import { changePasswordAction, requestPasswordResetAction, resetPasswordAction } from '../passwords/change.js';
import { PASSWORD_PROVIDER } from '../passwords/accounts.js';
import { signUpAction } from '../passwords/signup.js';
import type { CredentialsConfig } from '../providers/types.js';
import { completeSignIn, redirectTarget } from './finish.js';

/**
 * The credentials flow, which `Credentials()` puts on its provider:
 * - `signIn`: the posted fields to `authorize()` ({@link credentialsSignIn}), then the validated target;
 * - `actions`: the password accounts' pages (`signUp`, `requestPasswordReset`, `resetPassword`,
 *   `changePassword`, `verifyEmail`; `passwords/`, `email/verification.ts`), accounts being
 *   `credentials` accounts with a `password_hash` (see `authorizeWithPassword`);
 * - `check`: with `passwords.requireEmailVerification`, the adapter must have what confirming
 *   an address needs.
 * @see create-auth docs/api.md#credentials, #passwords
 */
export const credentialsFlow: ProviderFlow<CredentialsConfig> = {
	signIn: async (event, config, provider, form, callbackUrl) =>
		redirectTarget(event, config, (await credentialsSignIn(event, config, provider, form, callbackUrl)) ?? callbackUrl),
	actions: {
		signUp: signUpAction,
		requestPasswordReset: requestPasswordResetAction,
		resetPassword: resetPasswordAction,
		changePassword: changePasswordAction,
		verifyEmail: verifyEmailAction
	},
	check: (_provider, config) => {
		if (config.passwords.requireEmailVerification) requireEmailVerificationAdapter(config.adapter);
	}
};

/** Form fields that steer the flow and are not credentials. */
const CONTROL_FIELDS = new Set(['providerId', 'redirectTo', 'callbackUrl']);

/**
 * Credentials sign-in: the attempt is counted against the rate limits (per client address, then
 * per email: the `email` field, else `username`), then `authorize()`, then
 * {@link completeSignIn}. A success gives the client's attempt back and clears the email's
 * count. A password account must have confirmed its address when the config requires it
 * ({@link requireVerifiedEmail}). Returns where to go (a callback-chosen URL, or undefined for
 * the default).
 * @throws {RateLimited} over a limit, or the password-hashing queue is full.
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
	if (limits) await countAttempt(limits, [[limits.signInPerClient, client], [limits.signInPerEmail, email]]);
	const user = await provider.authorize(credentials, event.request);
	if (!user) throw new CredentialsSignin('authorize() returned null.', { provider: provider.id });
	if (limits) await forgiveAttempt(config, limits, client, email);
	if (provider.id === PASSWORD_PROVIDER && user.id) await requireVerifiedEmail(event, config, user.id, callbackUrl);
	const account: Account = { type: provider.type, provider: provider.id, providerAccountId: user.id ?? '' };
	return completeSignIn(event, config, user, account, { credentials });
}

/** After a successful sign-in: the client's attempt back, the email's count cleared. A store failure here is only logged. */
async function forgiveAttempt(config: ResolvedConfig, limits: RateLimits, client: string | undefined, email: string | undefined) {
	try {
		await Promise.all([client && limits.signInPerClient?.refund(client), email && limits.signInPerEmail?.reset(email)]);
	} catch (err) {
		config.logger.error(new RateLimitStoreError(`Clearing a signed-in user's attempts in the ${limits.store} rate-limit store failed.`, { err: err as Error }));
	}
}
