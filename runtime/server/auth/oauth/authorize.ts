// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import * as oauth from 'oauth4webapi';
import { appBase } from '../http/app-paths.js';
import type { ResolvedConfig } from '../config.js';
import type { OAuthConfig } from '../providers/types.js';
import { appOriginOf } from '../http/redirects.js';
import { isOpenIdConnect, providerClient } from './client.js';
import { saveFlow, type FlowState } from './flow.js';
import { proxyState, proxyUrlOf } from './proxy.js';

/** The checks a provider's flow runs: its `checks` (default `['pkce']`), plus `state` with a redirect proxy. */
export function checksOf(provider: OAuthConfig, proxied: boolean): Set<'state' | 'pkce' | 'nonce'> {
	const listed = provider.checks ?? ['pkce'];
	const checks = new Set(listed.filter((check) => check !== 'none'));
	if (listed.includes('none')) checks.clear();
	if (proxied) checks.add('state');
	return checks as Set<'state' | 'pkce' | 'nonce'>;
}

/**
 * The `redirect_uri` registered at the provider: `<origin><base><basePath>/callback/<id>` (origin:
 * see {@link appOriginOf}; `<base>`: SvelteKit's `paths.base`, see {@link appBase}); with a
 * redirect proxy (see {@link proxyUrlOf}), the proxy's URL replaces `<origin><base><basePath>`.
 * The origin must be trusted either way: with a proxy it goes in the `state`.
 * @throws {UntrustedHost} neither `url` nor `trustHost`.
 * @throws {TypeError} an invalid `redirectProxyUrl`.
 */
export function redirectUriOf(url: URL, config: ResolvedConfig, provider: OAuthConfig): string {
	const proxy = proxyUrlOf(config, provider);
	return proxy ? `${proxy}/callback/${provider.id}` : callbackUriOf(url, config, provider);
}

/**
 * This deployment's own callback URL for `provider`, `<origin><base><basePath>/callback/<id>`
 * (no redirect proxy: OAuth 1.0a's `oauth_callback`).
 * @throws {UntrustedHost} neither `url` nor `trustHost`.
 */
export function callbackUriOf(url: URL, config: ResolvedConfig, provider: OAuthConfig): string {
	return `${appOriginOf(url, config)}${appBase(url, config)}${config.basePath}/callback/${provider.id}`;
}

/**
 * What `provider` is asked when it re-authenticates a signed-in user: its `reauthenticate`, by
 * default `'max_age'` for OpenID Connect and nothing for OAuth 2.
 */
export function reauthenticationOf(provider: OAuthConfig): 'max_age' | 'prompt' | false {
	return provider.reauthenticate ?? (isOpenIdConnect(provider) ? 'max_age' : false);
}

/**
 * Starts an authorization-code sign-in: resolves the provider (discovery), creates the check
 * values its `checks` ask for (PKCE S256 verifier, `state`, `nonce`), stores them in the flow
 * cookie, and returns the authorization request URL to redirect to. Default scope for `oidc`:
 * `openid profile email`; `authorization.params` override any parameter. With a redirect proxy
 * the `redirect_uri` is the proxy's callback and the `state` (always checked then) names this
 * deployment's origin, sealed (see {@link proxyState}); the flow cookie keeps both. With
 * `reauthenticate` (a signed-in user whose sign-in is older than `session.freshAge`), the request
 * asks the provider to authenticate the user again, as its `reauthenticate` says
 * ({@link reauthenticationOf}: `prompt=login`, and `max_age`, kept in the flow cookie for the
 * callback to check `auth_time` against), over any `authorization.params`.
 * @throws {UntrustedHost} no trusted origin for the redirect URI.
 * @throws whatever discovery throws (network, invalid metadata) and TypeError for a misconfigured provider.
 * @see RFC 6749 §4.1.1, RFC 7636 §4.1–4.3, OpenID Connect Core 1.0 §3.1.2.1; create-auth docs/api.md#oauth-2-and-openid-connect (`checks`), #re-authentication
 */
export async function authorizationUrl(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: OAuthConfig,
	redirectTo: string | undefined,
	{ reauthenticate = false }: { reauthenticate?: boolean } = {}
): Promise<string> {
	const redirectUri = redirectUriOf(event.url, config, provider);
	const { as, client } = await providerClient(provider);
	const url = new URL(as.authorization_endpoint!);
	const params = url.searchParams;
	params.set('response_type', 'code');
	params.set('client_id', client.client_id);
	params.set('redirect_uri', redirectUri);
	if (isOpenIdConnect(provider)) params.set('scope', 'openid profile email');

	const proxied = proxyUrlOf(config, provider) !== undefined;
	const checks = checksOf(provider, proxied);
	const flow: FlowState = { provider: provider.id, redirectUri, redirectTo };
	if (checks.has('pkce')) {
		flow.codeVerifier = oauth.generateRandomCodeVerifier();
		params.set('code_challenge', await oauth.calculatePKCECodeChallenge(flow.codeVerifier));
		params.set('code_challenge_method', 'S256');
	}
	if (checks.has('state')) {
		flow.state = proxied ? await proxyState(appOriginOf(event.url, config), config) : oauth.generateRandomState();
		params.set('state', flow.state);
	}
	if (checks.has('nonce')) params.set('nonce', (flow.nonce = oauth.generateRandomNonce()));

	const extra = typeof provider.authorization === 'object' ? provider.authorization.params : undefined;
	for (const [name, value] of Object.entries(extra ?? {})) if (value !== undefined) params.set(name, value);
	const asked = reauthenticate && reauthenticationOf(provider);
	if (asked) params.set('prompt', 'login');
	if (asked === 'max_age') params.set('max_age', String((flow.maxAge = config.freshAge)));

	await saveFlow(event.cookies, event.url, config, flow, params.get('response_mode') === 'form_post');
	return url.href;
}
