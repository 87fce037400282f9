// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import { appBase } from '../http/app-paths.js';
import type { ResolvedConfig } from '../config.js';
import { InvalidCheck } from '../errors.js';
import { seal, unseal } from '../session/jwt.js';
import type { OAuthConfig } from '../providers/types.js';
import { FLOW_MAX_AGE } from './flow.js';

/*
 * The redirect proxy: deployments on their own origins (previews) sign in through providers that
 * accept one registered redirect URI, the stable deployment's. Every authorization request names
 * that URI; the `state` carries, sealed with the secret, the origin the sign-in started on; the
 * stable deployment forwards each callback there, where it is checked as any other.
 */

/** HKDF salt of the proxy `state`'s key: no flow cookie or session token opens as a state. */
const STATE_SALT = 'auth.oauth-proxy-state';

/** The claims of a proxy `state` (plus `iat`, `exp`, `jti` from {@link seal}). */
interface ProxyState extends Record<string, unknown> {
	/** The origin that started the sign-in, e.g. `https://pr-42.preview.example`. */
	origin: string;
}

const isHttp = (url: URL) => url.protocol === 'https:' || url.protocol === 'http:';

/**
 * The redirect proxy a provider's sign-ins go through: the provider's `redirectProxyUrl`, else
 * the config's, as `<origin><path>` without a trailing slash (no query, no fragment); undefined
 * when neither is set. Only the OAuth 2 flow calls it: an OAuth 1.0a callback has no `state` to
 * carry the origin, so those providers keep this deployment's own callback.
 * @throws {TypeError} the URL is not an absolute http(s) URL.
 * @see create-auth docs/api.md#redirect-proxy
 */
export function proxyUrlOf(config: ResolvedConfig, provider: OAuthConfig): string | undefined {
	const configured = provider.redirectProxyUrl || config.redirectProxyUrl;
	if (!configured) return undefined;
	const url = URL.canParse(configured) ? new URL(configured) : undefined;
	if (!url || !isHttp(url)) throw new TypeError(`redirectProxyUrl of "${provider.id}" is not an absolute http(s) URL: ${JSON.stringify(configured)}.`);
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The `state` of a sign-in through a redirect proxy: `{ origin }` sealed as a JWE (`dir` +
 * A256GCM, key derived from the first secret with this use's own salt; see {@link seal}), with
 * `iat` and `exp` (now + 15 minutes, epoch seconds, as the flow cookie) and a random `jti` (a
 * UUID v4), under a random IV. So it is unpredictable (RFC 6749 §10.12), and only a holder of
 * the secret can make one that names an origin. About 250 URL-safe characters.
 * @param origin the origin that starts the sign-in (`AUTH_URL`'s, else the trusted request's).
 * @see RFC 6749 §4.1.1 (`state`), RFC 7516
 */
export function proxyState(origin: string, config: ResolvedConfig): Promise<string> {
	const claims: ProxyState = { origin };
	return seal(claims, config.secrets[0]!, STATE_SALT, FLOW_MAX_AGE, Math.floor(Date.now() / 1000));
}

/**
 * Where a callback that reached this deployment must go instead, or undefined to finish it here.
 * It is forwarded only when all hold: the provider signs in through a redirect proxy (this
 * deployment has one configured), the callback's `state` opens with one of our secrets (so one
 * of our deployments put the origin there, unexpired), and that origin is not this
 * deployment's own (`AUTH_URL`'s, else the request's). A `state` that does not open takes the
 * normal path, whose checks reject it; nothing here touches the flow cookie.
 * @param params the callback's parameters (query, or form body for `form_post`).
 * @returns `<origin><base><basePath>/callback/<id>?<query>` (`<base>`: SvelteKit's `paths.base`,
 *   the same in every deployment of the app): the query string as received for GET;
 *   for a `form_post` POST, the posted fields encoded as the query (a 303 turns it into a GET).
 * @throws {InvalidCheck} a state sealed with our secret whose `origin` is not an http(s) origin.
 * @throws {TypeError} the configured proxy URL is invalid (see {@link proxyUrlOf}).
 */
export async function forwardedCallbackUrl(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: OAuthConfig,
	params: URLSearchParams
): Promise<string | undefined> {
	const state = params.get('state');
	if (!state || !proxyUrlOf(config, provider)) return undefined;
	const claims = await unseal<ProxyState>(state, config.secrets, STATE_SALT);
	if (!claims) return undefined;
	const { origin } = claims;
	const url = typeof origin === 'string' && URL.canParse(origin) ? new URL(origin) : undefined;
	if (!url || !isHttp(url) || url.origin !== origin) {
		throw new InvalidCheck(`The redirect proxy state names no http(s) origin: ${JSON.stringify(origin)}.`, { provider: provider.id });
	}
	if (origin === (config.origin ?? event.url.origin)) return undefined;
	const query = event.request.method === 'POST' ? params.toString() : event.url.search.slice(1);
	return `${origin}${appBase(event.url, config)}${config.basePath}/callback/${encodeURIComponent(provider.id)}?${query}`;
}
