// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type RequestEvent } from '@sveltejs/kit';
import type { ProviderFlow, ResolvedConfig } from '../config.js';
import { AccessDenied, OAuthCallbackError, OAuthSignInError, UntrustedHost } from '../errors.js';
import { appBase } from '../http/app-paths.js';
import { seeOther } from '../http/see-other.js';
import { userForAccount } from '../oauth/accounts.js';
import { afterProof } from '../email/proof.js';
import { authorizationUrl } from '../oauth/authorize.js';
import { callbackParams, finishAuthorization, type CallbackResult } from '../oauth/callback.js';
import { linkedAccounts } from '../oauth/linked.js';
import { proxyUrlOf, forwardedCallbackUrl } from '../oauth/proxy.js';
import { refreshTokenGrant } from '../oauth/refresh.js';
import { endpointUrl, type OAuthConfig } from '../providers/types.js';
import { currentSession, readSession } from '../session/session.js';
import { signedInRecently } from '../account/recent-sign-in.js';
import { sendNotice } from '../email/notices.js';
import { need } from '../adapters/methods.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './finish.js';

/**
 * The OAuth 2 / OpenID Connect flow, which every built-in OAuth provider's factory puts on the
 * provider (`Social({ version: '1.0a' })` puts OAuth 1.0a's, `oauth1/flow.ts`, which shares
 * {@link startOAuthSignIn} and {@link answerOAuthCallback}):
 * - `signIn`: discovery, the check values in the flow cookie, 303 to the authorization endpoint;
 * - `routes.callback`: `<base><basePath>/callback/<id>` (GET, or POST for `form_post`), a 303;
 * - `check`: warns of a provider without `clientId` or a way to find its endpoints (`missingSettings`);
 * - `callbackBase`: the redirect proxy's URL, when one applies;
 * - `refreshTokens`: the refresh-token grant (RFC 6749 §6), for `refreshAccessToken`.
 * @see create-auth docs/api.md#oauth-2-and-openid-connect
 */
export const oauthFlow: ProviderFlow<OAuthConfig> = {
	signIn: (event, config, provider, _form, callbackUrl) =>
		startOAuthSignIn(event, config, provider, callbackUrl, async (...args) => authorizationUrl(...args, { reauthenticate: await signedInLongAgo(event, config) })),
	routes: {
		callback: (event, config, provider) =>
			answerOAuthCallback(event, config, provider, async () => {
				const params = await callbackParams(event);
				return (await forwardedCallbackUrl(event, config, provider, params)) ?? finishAuthorization(event, config, provider, params);
			})
	},
	check: reportMissingSettings,
	missingSettings,
	callbackBase: (provider, config) => {
		try {
			return proxyUrlOf(config, provider);
		} catch {
			return undefined; // an invalid proxy URL: sign-in reports it, not the page
		}
	},
	refreshTokens: refreshTokenGrant,
	account: linkedAccounts
};

/**
 * The start of an OAuth sign-in (either protocol): the validated target kept for after the
 * callback, and the authorization URL `authorize` builds (setting the flow cookie).
 * @throws {UntrustedHost} no trusted origin for the redirect URI.
 * @throws {OAuthSignInError} discovery or the temporary credential request failed, or the
 *   provider is misconfigured (the original as `cause.err`).
 */
export async function startOAuthSignIn<P extends OAuthConfig>(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: P,
	callbackUrl: string | undefined,
	authorize: (event: RequestEvent, config: ResolvedConfig, provider: P, redirectTo: string | undefined) => Promise<string>
): Promise<string> {
	try {
		const redirectTo = callbackUrl && (await redirectTarget(event, config, callbackUrl));
		return await authorize(event, config, provider, redirectTo);
	} catch (err) {
		if (err instanceof UntrustedHost) throw err;
		throw new OAuthSignInError(`Starting the ${provider.id} sign-in failed.`, { provider: provider.id, err: err as Error });
	}
}

/**
 * Answers an OAuth callback with a 303: to where the sign-in was going on success, else to the
 * sign-in page with `?error=<type>`. `finish` runs the protocol's part (checks, token request,
 * profile) and returns its result, or a URL to forward the callback to (a redirect proxy: the
 * deployment that started the sign-in runs every check; no cookie is read or set here). The
 * user is then found or created through the adapter ({@link userForAccount}; a signed-in user
 * gets the account linked), the `signIn` callback runs and the session starts. Every failure is
 * logged in full through `logger.error`.
 * @returns never: always throws SvelteKit's redirect (which carries the cookies set here).
 * @see create-auth docs/api.md#routes-and-form-actions (`<base><basePath>/callback/<id>`)
 */
export async function answerOAuthCallback(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: OAuthConfig,
	finish: () => Promise<CallbackResult | string>
): Promise<never> {
	let next: string;
	try {
		const result = await finish();
		next = typeof result === 'string' ? result : await signInFromCallback(event, config, provider, result);
	} catch (err) {
		const type = errorType(err, 'OAuthCallbackError');
		config.logger.error(type === 'OAuthCallbackError' && !(err instanceof OAuthCallbackError) ? new OAuthCallbackError('Callback failed.', { provider: provider.id, err: err as Error }) : (err as Error));
		redirect(303, signInErrorUrl(event, config, type));
	}
	// A forwarded callback goes to another origin; seeOther allows that, and paths too.
	seeOther(next);
}

/**
 * Whether the request is signed in, with a sign-in older than `session.freshAge`: its user is
 * re-authenticating (docs/api.md#re-authentication), so the provider is asked to authenticate them again.
 * @throws {AdapterError} the adapter failed (database sessions).
 */
async function signedInLongAgo(event: RequestEvent, config: ResolvedConfig): Promise<boolean> {
	const current = await currentSession(event, config);
	return current !== null && !signedInRecently(current, config);
}

/**
 * Whether this callback links an account of `provider` to the signed-in user `userId` (it is not
 * theirs yet). Linking adds a way into their account, so, like the account page's other changes
 * of sign-in methods, it needs a sign-in within `session.freshAge` (OWASP ASVS 5.0 7.5.1): else
 * whoever holds a stolen session cookie could link their own account and keep access after the
 * session ends. An account linked to that user already signs in as before.
 * @throws {AccessDenied} it would link, and the sign-in is older.
 */
async function linksNewAccount(event: RequestEvent, config: ResolvedConfig, provider: OAuthConfig, account: CallbackResult['account'], userId: string): Promise<boolean> {
	const linked = await need(config, 'getUserByAccount')({ provider: account.provider, providerAccountId: account.providerAccountId });
	if (linked?.id === userId) return false;
	if (signedInRecently(await currentSession(event, config), config)) return true;
	throw new AccessDenied(`Linking a ${provider.name} account to user ${userId} needs a sign-in within session.freshAge; theirs is older.`, { provider: provider.id });
}

/**
 * The user of a finished callback signed in: found, created or linked, then the `signIn`
 * callback and the session. Returns the `signIn` callback's choice, or the sign-in's target.
 * @throws what the adapter and the callbacks throw.
 */
async function signInFromCallback(event: RequestEvent, config: ResolvedConfig, provider: OAuthConfig, result: CallbackResult): Promise<string> {
	const { user: profileUser, account, profile, flow } = result;
	const current = config.adapter ? await readSession(event, config) : null;
	const currentUserId = current?.user?.id;
	const linking = currentUserId ? await linksNewAccount(event, config, provider, account, currentUserId) : false;
	const { user, removed } = await userForAccount(event, config, profileUser, account, {
		allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking,
		emailVerified: profile?.email_verified === true,
		currentUserId
	});
	if (linking) sendNotice(event, config, user.email, 'account-linked', provider.name);
	// A link that proved the address and removed something goes to the account page, which says what.
	const target = afterProof(event, config, removed, flow.redirectTo);
	const chosen = await completeSignIn(event, config, user, { ...account, userId: user.id }, { profile, redirectTo: target });
	if (chosen) return redirectTarget(event, config, chosen);
	return target ?? `${appBase(event.url, config)}/`;
}

/** The settings an OAuth provider lacks to sign anyone in: `clientId`, and an `issuer` (or `wellKnown`, or its authorization and token endpoints). */
export function missingSettings(provider: OAuthConfig): string[] {
	const located = provider.issuer || provider.wellKnown || (endpointUrl(provider.authorization) && endpointUrl(provider.token));
	return [...(provider.clientId ? [] : ['clientId']), ...(located ? [] : ['issuer'])];
}

/**
 * An OAuth provider's `check`: a provider without a client id, or without an issuer or its
 * endpoints, cannot sign anyone in. It does not stop the app (the generated `src/auth.ts` reads
 * them from `.env`, which a fresh checkout may lack): one `InvalidProvider` line is warned, once
 * per process, and `getProviders()` leaves the provider out until they are set.
 */
export function reportMissingSettings(provider: OAuthConfig, config: ResolvedConfig): void {
	const missing = missingSettings(provider);
	if (missing.length === 0) return;
	config.logger.warn(
		`InvalidProvider: Provider "${provider.id}" has no ${missing.join(' and no ')}: its sign-in button is hidden until ${missing.length === 1 ? 'it is' : 'they are'} set (the generated src/auth.ts reads them from .env).`
	);
}
