// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import type { AdapterUser } from '../adapters/types.js';
import type { ResolvedConfig } from '../config.js';
import { normalizeEmail } from '../email/address.js';
import { sendEmailVerification } from '../email/verification.js';
import { MissingAdapter } from '../errors.js';
import { appBase } from '../http/app-paths.js';
import { callbackUrlOf, clientAddress, formText, readForm, refusedAttempt } from '../http/form.js';
import { passwordAccount, registerWithPassword, type RegisterAdapter } from './accounts.js';
import { countAttempt } from '../limits/rate-limit.js';
import { toUser } from '../session/session.js';
import { finishSignIn } from '../signin/finish.js';

/** What the sign-up page shows when the new account must confirm its address first (`passwords.requireEmailVerification`). */
export type VerificationSent = { verificationSent: true; email: string };

/**
 * The `signUp` form action of the `/signup` page: creates a user with an email and a password
 * ({@link registerWithPassword}), signs them in at once and sends them on with a 303 to the
 * validated `redirectTo` / `callbackUrl`, as a sign-in would; without one, to the account page
 * (`pages.account` under the base), which shows who is signed in.
 *
 * Form fields: `email`, `password`, `redirectTo` (or `?callbackUrl=` on the page). Refusals
 * answer the page with `form` = `{ email, message }` (the message is safe to show): 400 for the
 * visitor's input (`code`: InvalidEmail, EmailInUse, or a password's: `PasswordErrorCode`), 503
 * when the adapter or the rate-limit store is down, 429 with `Retry-After` over the sign-up
 * limit per client address or when the password-hashing queue is full. If the `signIn` callback
 * refuses the new user, the account stays and the visitor lands on the sign-in page with its
 * `?error=`.
 *
 * With `passwords.requireEmailVerification`, the new user is not signed in: a link to confirm
 * the address is mailed ({@link sendEmailVerification}) and the page gets `{ verificationSent:
 * true, email }`; if the mail cannot be sent, 503 with `EmailSignInError` (the account stays,
 * and signing in mails a new link).
 * @throws {MissingAdapter} the adapter lacks `getUserByEmail`, `createUser` or `linkAccount`.
 */
export async function signUpAction(event: RequestEvent, config: ResolvedConfig): Promise<VerificationSent | ActionFailure<{ email: string; code?: string; error?: string; message: string }>> {
	const adapter = config.adapter;
	if (!adapter?.getUserByEmail || !adapter.createUser || !adapter.linkAccount) {
		throw new MissingAdapter('Sign-up needs an adapter with getUserByEmail(), createUser() and linkAccount().');
	}
	const form = await readForm(event.request);
	const email = formText(form.get('email')) ?? '';
	const callbackUrl = callbackUrlOf(event, form) ?? `${appBase(event.url, config)}${config.pages.account}`;
	let user: AdapterUser;
	try {
		const limits = config.rateLimits;
		if (limits) await countAttempt(limits, [[limits.signUpPerClient, clientAddress(event)]]);
		const result = await registerWithPassword(adapter as RegisterAdapter, { email: form.get('email'), password: form.get('password') }, config, event.url);
		if (!result.ok) return fail(result.code === 'Unavailable' ? 503 : 400, { email, code: result.code, message: result.message });
		user = result.user;
	} catch (err) {
		const refused = refusedAttempt(event, config, err, email, 'Sign-up');
		if (refused) return refused;
		throw err;
	}
	if (!config.passwords.requireEmailVerification) return finishSignIn(event, config, toUser(user), passwordAccount(user.id), callbackUrl);
	// registerWithPassword stored the address normalized, as the link must carry it.
	const address = normalizeEmail(email);
	try {
		await sendEmailVerification(event, config, address, callbackUrl);
	} catch (err) {
		config.logger.error(err as Error);
		const message = 'Your account is created, but the email to confirm it could not be sent. Sign in to get a new one.';
		return fail(503, { email, error: 'EmailSignInError', message });
	}
	return { verificationSent: true, email: address };
}
