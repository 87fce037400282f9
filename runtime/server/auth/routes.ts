// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type RequestEvent } from '@sveltejs/kit';
import { userForAccount } from './accounts.js';
import type { ResolvedConfig } from './config.js';
import { OAuthCallbackError } from './errors.js';
import { finishAuthorization } from './oauth/callback.js';
import { finishOAuth1Authorization } from './oauth1/callback.js';
import { isOAuth1Provider } from './oauth1/types.js';
import { isOAuthProvider } from './providers/types.js';
import { readSession } from './session.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './signin.js';

/**
 * The OAuth provider whose callback `url` is (`<basePath>/callback/<id>`), or undefined for
 * any other path, including callbacks of unknown ids (they fall through to the app).
 */
export function callbackProvider(url: URL, config: ResolvedConfig) {
	const prefix = `${config.basePath}/callback/`;
	if (!url.pathname.startsWith(prefix)) return undefined;
	const id = decodeURIComponent(url.pathname.slice(prefix.length));
	return config.providers.filter(isOAuthProvider).find((provider) => provider.id === id);
}

/**
 * Answers an OAuth callback (GET, or POST for `response_mode=form_post`; OAuth 1.0a providers
 * through their own flow, see {@link finishOAuth1Authorization}) with a 303: to where
 * the sign-in was going on success, else to the sign-in page with `?error=<type>`. The user is
 * found or created through the adapter (see {@link userForAccount}); a signed-in user gets the
 * account linked. Every failure is logged in full through `logger.error`.
 * @returns never: always throws SvelteKit's redirect (which carries the cookies set here).
 */
export async function oauthCallback(event: RequestEvent, config: ResolvedConfig, providerId: string): Promise<never> {
	const provider = config.providers.filter(isOAuthProvider).find((candidate) => candidate.id === providerId)!;
	let next: string;
	try {
		const { user: profileUser, account, profile, flow } = isOAuth1Provider(provider)
			? await finishOAuth1Authorization(event, config, provider)
			: await finishAuthorization(event, config, provider);
		const current = config.adapter ? await readSession(event, config) : null;
		const user = await userForAccount(config, profileUser, account, {
			allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking,
			currentUserId: current?.user?.id
		});
		const chosen = await completeSignIn(event, config, user, { ...account, userId: user.id }, { profile });
		next = chosen ? await redirectTarget(event, config, chosen) : (flow.redirectTo ?? '/');
	} catch (err) {
		const type = errorType(err, 'OAuthCallbackError');
		config.logger.error(type === 'OAuthCallbackError' && !(err instanceof OAuthCallbackError) ? new OAuthCallbackError('Callback failed.', { provider: provider.id, err: err as Error }) : (err as Error));
		redirect(303, signInErrorUrl(event, config, type));
	}
	redirect(303, next);
}
