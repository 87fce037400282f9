// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { fail, redirect, type Action } from '@sveltejs/kit';
import type { AdapterUser } from './adapters/types.js';
import type { Account, GetConfig } from './config.js';
import { CallbackRouteError, MissingAdapter } from './errors.js';
import { callbackUrlOf, clientAddress, formText, readForm, refusedAttempt } from './form.js';
import { PASSWORD_PROVIDER, registerWithPassword, type RegisterAdapter } from './passwords.js';
import { countAttempt } from './rate-limit.js';
import { seeOther } from './see-other.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './signin.js';

/**
 * The `signUp` form action of the `/signup` page: creates a user with an email and a password
 * ({@link registerWithPassword}), signs them in at once and sends them on with a 303 to the
 * validated `redirectTo` / `callbackUrl` (or `/`), as a sign-in would.
 *
 * Form fields: `email`, `password`, `redirectTo` (or `?callbackUrl=` on the page). Refusals
 * answer the page with `form` = `{ email, message }` (the message is safe to show): 400 for the
 * visitor's input (`code`: InvalidEmail, PasswordTooShort, PasswordTooLong, EmailInUse), 503
 * when the adapter or the rate-limit store is down, 429 with `Retry-After` over the sign-up
 * limit per client address or when the password-hashing queue is full. If the `signIn` callback
 * refuses the new user, the account stays and the visitor lands on the sign-in page with its
 * `?error=`.
 * @throws {MissingAdapter} the adapter lacks `getUserByEmail`, `createUser` or `linkAccount`.
 */
export function signUpAction(getConfig: GetConfig): Action {
	return async (event) => {
		const config = await getConfig(event);
		const adapter = config.adapter;
		if (!adapter?.getUserByEmail || !adapter.createUser || !adapter.linkAccount) {
			throw new MissingAdapter('Sign-up needs an adapter with getUserByEmail(), createUser() and linkAccount().');
		}
		const form = await readForm(event.request);
		const email = formText(form.get('email')) ?? '';
		const callbackUrl = callbackUrlOf(event, form);
		let user: AdapterUser;
		try {
			const limits = config.rateLimits;
			if (limits) await countAttempt(limits, [[limits.signUpPerClient, clientAddress(event)]]);
			const result = await registerWithPassword(adapter as RegisterAdapter, { email: form.get('email'), password: form.get('password') });
			if (!result.ok) return fail(result.code === 'Unavailable' ? 503 : 400, { email, code: result.code, message: result.message });
			user = result.user;
		} catch (err) {
			const refused = refusedAttempt(event, config, err, email, 'Sign-up');
			if (refused) return refused;
			throw err;
		}
		const account: Account = { type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: user.id, userId: user.id };
		let next: string;
		try {
			const chosen = await completeSignIn(event, config, { id: user.id, email: user.email, name: user.name ?? null, image: user.image ?? null }, account);
			next = await redirectTarget(event, config, chosen ?? callbackUrl);
		} catch (err) {
			const known = errorType(err, 'CallbackRouteError');
			config.logger.error(known === 'CallbackRouteError' ? new CallbackRouteError('Signing in after sign-up failed.', { provider: PASSWORD_PROVIDER, err: err as Error }) : (err as Error));
			redirect(303, signInErrorUrl(event, config, known, { callbackUrl }));
		}
		seeOther(next);
	};
}
