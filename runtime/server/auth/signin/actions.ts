// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { error, redirect, type Action } from '@sveltejs/kit';
import type { GetConfig, ProviderAction } from '../config.js';
import { CallbackRouteError, CredentialsSignin, InvalidProvider } from '../errors.js';
import { callbackUrlOf, formText, readForm, refusedAttempt } from '../http/form.js';
import { seeOther } from '../http/see-other.js';
import { endSession } from '../session/session.js';
import { errorType, redirectTarget, signInErrorUrl } from './finish.js';

/**
 * The `signIn` form action: the one place a sign-in is dispatched. Form fields: `providerId`
 * (optional with one provider), `redirectTo` (or `callbackUrl`, or `?callbackUrl=` on the page),
 * and the provider's own (credentials, a passkey's `action` and `response`, an `email`). The
 * provider's flow does the rest (`provider.flow.signIn`, see `ProviderFlow`): an OAuth provider
 * answers with its authorization endpoint, credentials and passkeys with the validated target,
 * email with the verify-request page once the link is sent (or a 400 `form` =
 * `{ error: 'InvalidEmail', message, email }` for a malformed address). Ends in a 303 there; on
 * failure to the sign-in page with `?error=<ErrorType>` (plus `code` for CredentialsSignin, and
 * the `callbackUrl`). Every failure is logged in full; only its type and code leave the server.
 * An attempt refused by a rate limit is not redirected: the page is answered with 429,
 * `Retry-After` and `form` = `{ error: 'RateLimited', message: 'Too many attempts. Try again in
 * N minutes.', email }` (503 and `RateLimitStoreError` when the rate-limit store is down).
 * @see create-auth docs/api.md#routes-and-form-actions, #errors (CredentialsSignin)
 */
export function signInAction(getConfig: GetConfig): Action {
	return async (event) => {
		const config = await getConfig(event);
		const form = await readForm(event.request);
		const callbackUrl = callbackUrlOf(event, form);
		const only = config.providers.length === 1 ? config.providers[0]?.id : undefined;
		const providerId = formText(form.get('providerId')) ?? only;
		const provider = config.providers.find((candidate) => candidate.id === providerId);
		let next: string | undefined;
		try {
			if (!provider?.flow) throw new InvalidProvider(`Sign-in with unknown provider "${providerId ?? ''}".`);
			const outcome = await provider.flow.signIn(event, config, provider, form, callbackUrl);
			if (typeof outcome !== 'string') return outcome;
			next = outcome;
		} catch (err) {
			const refused = refusedAttempt(event, config, err, formText(form.get('email')) ?? '', 'Sign-in');
			if (refused) return refused;
			const known = errorType(err, 'CallbackRouteError');
			config.logger.error(
				known === 'CallbackRouteError' ? new CallbackRouteError('Sign-in failed.', { provider: providerId, err: err as Error }) : (err as Error)
			);
			const code = err instanceof CredentialsSignin ? err.code : undefined;
			redirect(303, signInErrorUrl(event, config, known, { code, callbackUrl }));
		}
		seeOther(next);
	};
}

/**
 * The `signOut` form action: deletes the session cookie (and the database session), then
 * 303 to the validated `redirectTo` field, or `/`.
 */
export function signOutAction(getConfig: GetConfig): Action {
	return async (event) => {
		const config = await getConfig(event);
		const form = await readForm(event.request);
		await endSession(event, config);
		redirect(303, await redirectTarget(event, config, formText(form.get('redirectTo'))));
	};
}

/**
 * A form action a provider's flow offers (`flow.actions[name]`, see `ProviderFlow`): the
 * password pages' (`signUp`, `requestPasswordReset`, `resetPassword`, `changePassword`,
 * `verifyEmail`: the credentials provider's) and the emailed link's (`emailLink`: the email
 * provider's). The first configured provider that offers it answers. With none, the page gets
 * a 404 and an `InvalidProvider` is logged (the app mounts an action for a provider it does
 * not configure).
 */
export function providerAction(getConfig: GetConfig, name: ProviderAction): Action {
	return async (event) => {
		const config = await getConfig(event);
		const provider = config.providers.find((candidate) => candidate.flow?.actions?.[name]);
		if (!provider) {
			config.logger.error(new InvalidProvider(`The ${name} action was posted, but no configured provider offers it.`));
			error(404, 'Not Found');
		}
		return (await provider.flow.actions![name]!(event, config, provider)) as Awaited<ReturnType<Action>>;
	};
}
