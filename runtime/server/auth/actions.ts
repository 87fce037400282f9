// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type Action, type RequestEvent } from '@sveltejs/kit';
import type { Account, ResolvedConfig } from './config.js';
import { CallbackRouteError, CredentialsSignin, InvalidProvider, OAuthSignInError, UntrustedHost } from './errors.js';
import { authorizationUrl } from './oauth/authorize.js';
import { oauth1AuthorizationUrl } from './oauth1/authorize.js';
import { isOAuth1Provider } from './oauth1/types.js';
import { isOAuthProvider, type CredentialsConfig, type OAuthConfig } from './providers/types.js';
import { seeOther } from './see-other.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './signin.js';
import { endSession } from './session.js';

/** Resolves the config for a request (object form: once; function form: per request). */
export type GetConfig = (event: RequestEvent) => Promise<ResolvedConfig>;

/** Form fields that steer the flow and are not credentials. */
const CONTROL_FIELDS = new Set(['providerId', 'redirectTo', 'callbackUrl']);

async function readForm(request: Request): Promise<FormData> {
	try {
		return await request.formData();
	} catch {
		return new FormData();
	}
}

const formText = (value: FormDataEntryValue | null) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Credentials sign-in: `authorize()`, then {@link completeSignIn}. Returns where to go (a
 * callback-chosen URL, or undefined for the default).
 * @throws {CredentialsSignin} `authorize()` returned null or threw it.
 * @throws {AccessDenied} refused by the `signIn` / `jwt` callback.
 */
async function credentialsSignIn(event: RequestEvent, config: ResolvedConfig, provider: CredentialsConfig, form: FormData) {
	const credentials: Record<string, string> = {};
	for (const [name, value] of form) if (!CONTROL_FIELDS.has(name) && typeof value === 'string') credentials[name] = value;
	const user = await provider.authorize(credentials, event.request);
	if (!user) throw new CredentialsSignin('authorize() returned null.', { provider: provider.id });
	const account: Account = { type: provider.type, provider: provider.id, providerAccountId: user.id ?? '' };
	return completeSignIn(event, config, user, account, { credentials });
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
 * Always ends in a 303: for an OAuth provider to its authorization endpoint; for credentials to
 * the validated target; on failure to the sign-in page with `?error=<ErrorType>` (plus `code`
 * for CredentialsSignin, and the `callbackUrl`). Every failure is logged in full; only its type
 * and code leave the server.
 * @see spec/interface.md "Errors" (CredentialsSignin), "Authentication" rule 6
 */
export function signInAction(getConfig: GetConfig): Action {
	return async (event) => {
		const config = await getConfig(event);
		const form = await readForm(event.request);
		const callbackUrl =
			formText(form.get('redirectTo')) ?? formText(form.get('callbackUrl')) ?? formText(event.url.searchParams.get('callbackUrl'));
		const only = config.providers.length === 1 ? config.providers[0]?.id : undefined;
		const providerId = formText(form.get('providerId')) ?? only;
		const provider = config.providers.find((candidate) => candidate.id === providerId);
		let next: string | undefined;
		try {
			if (!provider) throw new InvalidProvider(`Sign-in with unknown provider "${providerId ?? ''}".`);
			next = isOAuthProvider(provider)
				? await oauthSignIn(event, config, provider, callbackUrl)
				: await redirectTarget(event, config, (await credentialsSignIn(event, config, provider, form)) ?? callbackUrl);
		} catch (err) {
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
