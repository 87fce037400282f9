// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import * as oauth from 'oauth4webapi';
import { isLoopbackHost } from '../http/redirects.js';
import { customFetch, endpointUrl, type FetchLike, type OAuthConfig, type OIDCConfig } from '../providers/types.js';

/**
 * Everything oauth4webapi needs to talk to one provider: the authorization server metadata
 * (discovered or configured), the client, how it authenticates at the token endpoint, and the
 * options every request gets (the provider's fetch, with its `conform` hooks applied).
 */
export interface ProviderClient {
	as: oauth.AuthorizationServer;
	client: oauth.Client;
	clientAuth: oauth.ClientAuth;
	http: { [oauth.customFetch]: FetchLike; [oauth.allowInsecureRequests]: boolean };
}

/**
 * Whether the provider speaks OpenID Connect (`type: 'oidc'`) rather than plain OAuth 2: its
 * discovery is OpenID's, it is asked for `openid profile email`, an ID token is required and
 * validated (and is the profile unless `idToken: false`). The one place the OAuth code tells
 * the two apart.
 * @see create-auth docs/api.md#oauth-2-and-openid-connect
 */
export function isOpenIdConnect(provider: OAuthConfig): provider is OIDCConfig {
	return provider.type === 'oidc';
}

/** How long discovered metadata is reused, in milliseconds. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const discovered = new Map<string, { at: number; metadata: Promise<oauth.AuthorizationServer> }>();

/**
 * Plain http is accepted only when every http URL of the provider is on this machine (a local
 * development provider such as `create-auth dev-idp`; {@link isLoopbackHost}); anything else must be https, which
 * oauth4webapi enforces.
 */
export function allowsInsecureRequests(urls: (string | undefined)[]): boolean {
	const http = urls.filter((url): url is string => !!url && url.startsWith('http:'));
	return http.length > 0 && http.every((url) => isLoopbackHost(new URL(url).hostname));
}

/**
 * The provider's fetch (its `customFetch`, else the global one), with the `conform` hook of
 * the endpoint a request goes to applied to the response.
 */
function providerFetch(provider: OAuthConfig, as: () => oauth.AuthorizationServer | undefined): FetchLike {
	const base: FetchLike = provider[customFetch] ?? fetch;
	return async (input, init) => {
		const response = await base(input, init);
		const url = String(input instanceof Request ? input.url : input).split('?')[0];
		const metadata = as();
		for (const [endpoint, configured] of [
			[metadata?.token_endpoint, provider.token],
			[metadata?.userinfo_endpoint, provider.userinfo]
		] as const) {
			if (endpoint && url === endpoint && typeof configured === 'object' && configured.conform) {
				return (await configured.conform(response)) ?? response;
			}
		}
		return response;
	};
}

/** Discovery (RFC 8414 / OpenID Connect Discovery 1.0), cached per URL for an hour; failures are not. */
function discover(provider: OAuthConfig, http: ProviderClient['http']): Promise<oauth.AuthorizationServer> {
	const key = `${provider.id} ${provider.wellKnown ?? ''} ${provider.issuer ?? ''}`;
	const hit = discovered.get(key);
	if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.metadata;
	const metadata = (async () => {
		if (provider.wellKnown) {
			const response = await http[oauth.customFetch](provider.wellKnown, { headers: { accept: 'application/json' } });
			const issuer = provider.issuer ?? (await response.clone().json().catch(() => ({})))?.issuer;
			if (typeof issuer !== 'string') throw new TypeError(`${provider.wellKnown} names no issuer.`);
			return oauth.processDiscoveryResponse(new URL(issuer), response);
		}
		const issuer = new URL(provider.issuer!);
		const algorithm = isOpenIdConnect(provider) ? 'oidc' : 'oauth2';
		return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...http, algorithm }));
	})();
	discovered.set(key, { at: Date.now(), metadata });
	metadata.catch(() => discovered.delete(key));
	return metadata;
}

/** Whether the provider's endpoints must come from discovery. */
const needsDiscovery = (provider: OAuthConfig) =>
	!!provider.wellKnown ||
	(!!provider.issuer && (isOpenIdConnect(provider) || !endpointUrl(provider.authorization) || !endpointUrl(provider.token)));

/**
 * Resolves the provider's authorization server and client. Endpoints configured on the provider
 * override discovered ones.
 * @throws {TypeError} no client id, no issuer nor endpoints, or discovery failing (network,
 *   HTTP status, invalid or mismatched metadata: oauth4webapi's errors, passed through).
 */
export async function providerClient(provider: OAuthConfig): Promise<ProviderClient> {
	if (!provider.clientId) throw new TypeError(`Provider "${provider.id}" has no clientId.`);
	let as: oauth.AuthorizationServer | undefined;
	const configured = [provider.wellKnown, provider.issuer, endpointUrl(provider.authorization), endpointUrl(provider.token), endpointUrl(provider.userinfo)];
	const http: ProviderClient['http'] = {
		[oauth.customFetch]: providerFetch(provider, () => as),
		[oauth.allowInsecureRequests]: allowsInsecureRequests(configured)
	};
	const base = needsDiscovery(provider) ? await discover(provider, http) : { issuer: provider.issuer ?? new URL(endpointUrl(provider.authorization)!).origin };
	as = {
		...base,
		authorization_endpoint: endpointUrl(provider.authorization) ?? base.authorization_endpoint,
		token_endpoint: endpointUrl(provider.token) ?? base.token_endpoint,
		userinfo_endpoint: endpointUrl(provider.userinfo) ?? base.userinfo_endpoint
	};
	if (!as.authorization_endpoint || !as.token_endpoint) {
		throw new TypeError(`Provider "${provider.id}" has no authorization or token endpoint.`);
	}
	http[oauth.allowInsecureRequests] = allowsInsecureRequests([
		...configured,
		as.issuer,
		as.authorization_endpoint,
		as.token_endpoint,
		as.userinfo_endpoint,
		as.jwks_uri
	]);
	const { token_endpoint_auth_method: method, ...clientOptions } = provider.client ?? {};
	const client: oauth.Client = { ...clientOptions, client_id: provider.clientId };
	const secret = provider.clientSecret;
	const clientAuth =
		method === 'none' || !secret
			? oauth.None()
			: method === 'client_secret_post'
				? oauth.ClientSecretPost(secret)
				: oauth.ClientSecretBasic(secret);
	return { as, client, clientAuth, http };
}
