// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type Action, type RequestEvent } from '@sveltejs/kit';
import { isEmailProvider, isOAuthProvider, isWebAuthnProvider, type Account, type GetConfig, type ResolvedConfig } from '../config.js';
import { sendSignInLink } from './email.js';
import { normalizeEmail } from '../email/address.js';
import { requireVerifiedEmail } from '../email/verification.js';
import {
	CallbackRouteError,
	CredentialsSignin,
	InvalidProvider,
	OAuthSignInError,
	RateLimitStoreError,
	UntrustedHost
} from '../errors.js';
import { callbackUrlOf, clientAddress, formText, readForm, refusedAttempt } from '../http/form.js';
import { authorizationUrl } from '../oauth/authorize.js';
import { oauth1AuthorizationUrl } from '../oauth1/authorize.js';
import { isOAuth1Provider } from '../oauth1/types.js';
import { PASSWORD_PROVIDER } from '../passwords/passwords.js';
import type { CredentialsConfig, OAuthConfig } from '../providers/types.js';
import { countAttempt, type RateLimits } from '../limits/rate-limit.js';
import { seeOther } from '../http/see-other.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './finish.js';
import { endSession } from '../session/session.js';

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
async function credentialsSignIn(event: RequestEvent, config: ResolvedConfig, provider: CredentialsConfig, form: FormData, callbackUrl: string | undefined) {
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

/**
 * OAuth sign-in start: the authorization request URL (the flow cookie is set). For OAuth 1.0a,
 * the temporary credentials are requested first.
 * @throws {UntrustedHost} no trusted origin for the redirect URI.
 * @throws {OAuthSignInError} discovery or the temporary credential request failed, or the
 *   provider is misconfigured.
 */
async function oauthSignIn(event: RequestEvent, config: ResolvedConfig, provider: OAuthConfig, callbackUrl: string | undefined) {
	try {
		const redirectTo = callbackUrl && (await redirectTarget(event, config, callbackUrl));
		return isOAuth1Provider(provider)
			? await oauth1AuthorizationUrl(event, config, provider, redirectTo)
			: await authorizationUrl(event, config, provider, redirectTo);
	} catch (err) {
		if (err instanceof UntrustedHost) throw err;
		throw new OAuthSignInError(`Starting the ${provider.id} sign-in failed.`, { provider: provider.id, err: err as Error });
	}
}

/**
 * The `signIn` form action. Form fields: `providerId` (optional with one provider),
 * `redirectTo` (or `callbackUrl`, or `?callbackUrl=` on the page), and the credentials.
 * Ends in a 303: for an OAuth provider to its authorization endpoint; for credentials to
 * the validated target; for a passkey (its `ceremonies.signIn`, `webauthn.ts`: fields `action` and `response`) to
 * the validated target as well; for an email provider to the verify-request page, once the link is sent
 * (see {@link sendSignInLink}: a malformed address answers the page with 400 and `form` =
 * `{ error: 'InvalidEmail', message, email }`); on failure to the sign-in page with `?error=<ErrorType>` (plus `code`
 * for CredentialsSignin, and the `callbackUrl`). Every failure is logged in full; only its type
 * and code leave the server. A credentials attempt refused by a rate limit is not redirected:
 * the page is answered with 429, `Retry-After` and `form` = `{ error: 'RateLimited', message:
 * 'Too many attempts. Try again in N minutes.', email }` (503 and `RateLimitStoreError` when the
 * rate-limit store is down); so is an email link over the `emailLink` limits.
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
			if (!provider) throw new InvalidProvider(`Sign-in with unknown provider "${providerId ?? ''}".`);
			if (isEmailProvider(provider)) {
				const sent = await sendSignInLink(event, config, provider, form);
				if (typeof sent !== 'string') return sent;
				next = sent;
			} else if (isOAuthProvider(provider)) next = await oauthSignIn(event, config, provider, callbackUrl);
			else if (isWebAuthnProvider(provider)) next = await redirectTarget(event, config, (await provider.ceremonies.signIn(event, config, provider, form)) ?? callbackUrl);
			else next = await redirectTarget(event, config, (await credentialsSignIn(event, config, provider, form, callbackUrl)) ?? callbackUrl);
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
