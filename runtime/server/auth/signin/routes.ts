// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type RequestEvent } from '@sveltejs/kit';
import { userForAccount } from '../oauth/accounts.js';
import { appBase } from '../http/app-paths.js';
import { isOAuthProvider, isWebAuthnProvider, type ProviderConfig, type ResolvedConfig, type WebAuthnConfig } from '../config.js';
import { OAuthCallbackError } from '../errors.js';
import { callbackParams, finishAuthorization, type CallbackResult } from '../oauth/callback.js';
import { forwardedCallbackUrl } from '../oauth/proxy.js';
import { finishOAuth1Authorization } from '../oauth1/callback.js';
import { isOAuth1Provider } from '../oauth1/types.js';
import type { OAuthConfig } from '../providers/types.js';
import { seeOther } from '../http/see-other.js';
import { readSession } from '../session/session.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './finish.js';

/**
 * The OAuth provider whose callback `url` is (`<base><basePath>/callback/<id>`, `<base>` being
 * SvelteKit's `paths.base`), or undefined for any other path, including callbacks of unknown ids
 * (they fall through to the app).
 */
export function callbackProvider(url: URL, config: ResolvedConfig): OAuthConfig | undefined {
	return providerAt(url, config, 'callback', isOAuthProvider);
}

/** The passkey provider an options request `url` is for (`<base><basePath>/webauthn-options/<id>`), or undefined. */
export function webauthnOptionsProvider(url: URL, config: ResolvedConfig): WebAuthnConfig | undefined {
	return providerAt(url, config, 'webauthn-options', isWebAuthnProvider);
}

/** The provider of kind `is` whose id ends `<base><basePath>/<route>/<id>`, or undefined. */
function providerAt<T extends ProviderConfig>(url: URL, config: ResolvedConfig, route: string, is: (provider: ProviderConfig) => provider is T): T | undefined {
	const prefix = `${appBase(url, config)}${config.basePath}/${route}/`;
	if (!url.pathname.startsWith(prefix)) return undefined;
	const id = decodeURIComponent(url.pathname.slice(prefix.length));
	return config.providers.filter(is).find((provider) => provider.id === id);
}

/**
 * Answers an OAuth callback (GET, or POST for `response_mode=form_post`; OAuth 1.0a providers
 * through their own flow, see {@link finishOAuth1Authorization}) with a 303: to where
 * the sign-in was going on success, else to the sign-in page with `?error=<type>`. The user is
 * found or created through the adapter (see {@link userForAccount}); a signed-in user gets the
 * account linked. Every failure is logged in full through `logger.error`.
 * On a redirect proxy, a callback of a sign-in another deployment started is only forwarded
 * there (a 303 to its callback, same parameters; see {@link forwardedCallbackUrl}): no cookie
 * is read or set here, and that deployment runs every check.
 * @returns never: always throws SvelteKit's redirect (which carries the cookies set here).
 * @see create-auth docs/api.md#routes-and-form-actions (`<base><basePath>/callback/<id>`)
 */
export async function oauthCallback(event: RequestEvent, config: ResolvedConfig, providerId: string): Promise<never> {
	const provider = config.providers.filter(isOAuthProvider).find((candidate) => candidate.id === providerId)!;
	let next: string;
	try {
		next = await finishCallback(event, config, provider);
	} catch (err) {
		const type = errorType(err, 'OAuthCallbackError');
		config.logger.error(type === 'OAuthCallbackError' && !(err instanceof OAuthCallbackError) ? new OAuthCallbackError('Callback failed.', { provider: provider.id, err: err as Error }) : (err as Error));
		redirect(303, signInErrorUrl(event, config, type));
	}
	// A forwarded callback goes to another origin; seeOther allows that, and paths too.
	seeOther(next);
}

/**
 * Where a callback goes: forwarded to the deployment that started the sign-in (an absolute URL
 * on another origin, from a state sealed with our secret), else, once finished here and the user signed in, the `signIn` callback's
 * choice or the sign-in's target.
 * @throws what the flows, the adapter and the callbacks throw (see {@link oauthCallback}).
 */
async function finishCallback(event: RequestEvent, config: ResolvedConfig, provider: OAuthConfig): Promise<string> {
	let result: CallbackResult;
	if (isOAuth1Provider(provider)) {
		result = await finishOAuth1Authorization(event, config, provider);
	} else {
		const params = await callbackParams(event);
		const forward = await forwardedCallbackUrl(event, config, provider, params);
		if (forward) return forward;
		result = await finishAuthorization(event, config, provider, params);
	}
	const { user: profileUser, account, profile, flow } = result;
	const current = config.adapter ? await readSession(event, config) : null;
	const user = await userForAccount(config, profileUser, account, {
		allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking,
		currentUserId: current?.user?.id
	});
	const chosen = await completeSignIn(event, config, user, { ...account, userId: user.id }, { profile });
	return chosen ? await redirectTarget(event, config, chosen) : (flow.redirectTo ?? `${appBase(event.url, config)}/`);
}
