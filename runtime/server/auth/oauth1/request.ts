// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { customFetch, type EndpointConfig } from '../providers/types.js';
import type { Credentials, OAuth1Config } from './types.js';

/** A request to sign and send. */
export interface SignedRequest {
	method: 'GET' | 'POST';
	/** Its query is signed with the request (RFC 5849 §3.4.1.3.1). */
	url: URL;
	/** The temporary or token credentials; absent for the temporary credential request. */
	token?: Credentials;
	/** Protocol parameters besides the `oauth_*` signing ones (`oauth_callback`, `oauth_verifier`): signed, and sent in the header. */
	oauthParams?: Record<string, string>;
}

/**
 * The URL of an endpoint given as a string or as `{ url, params }`, with `params` in its query.
 * Spaces are written `%20`, not `+`: the signature base string encodes them so (§3.6).
 * @throws {TypeError} no URL, or not an absolute one.
 */
export function endpointRequestUrl(endpoint: string | EndpointConfig | undefined): URL {
	const { url, params } = typeof endpoint === 'string' ? { url: endpoint, params: undefined } : (endpoint ?? {});
	if (!url) throw new TypeError('An endpoint has no URL.');
	const target = new URL(url);
	for (const [name, value] of Object.entries(params ?? {})) if (value !== undefined) target.searchParams.set(name, value);
	target.search = target.search.replace(/\+/g, '%20');
	return target;
}

/**
 * Sends `request` through the provider's fetch, signed with HMAC-SHA1 (RFC 5849 §3.4.2) under
 * the client credentials (`clientId` / `clientSecret`) and `token`, the protocol parameters in
 * the `Authorization: OAuth …` header (§3.5.1). The signature is oauth-1.0a's; the nonce is 128
 * random bits from node:crypto, the timestamp the current epoch seconds.
 * @throws {TypeError} the provider has no `clientId` or no `clientSecret`.
 * @throws whatever the fetch throws (network).
 */
export async function signedRequest(provider: OAuth1Config, request: SignedRequest): Promise<Response> {
	if (!provider.clientId || !provider.clientSecret) {
		throw new TypeError(`Provider "${provider.id}" needs clientId and clientSecret (the OAuth 1.0a consumer key and secret).`);
	}
	const signer = new OAuth({
		consumer: { key: provider.clientId, secret: provider.clientSecret },
		signature_method: 'HMAC-SHA1',
		hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64')
	});
	signer.getNonce = () => randomBytes(16).toString('hex');
	const token = request.token && { key: request.token.oauth_token, secret: request.token.oauth_token_secret };
	// authorize() signs the URL's query and `data` with the protocol parameters it adds.
	const signed = signer.authorize({ method: request.method, url: request.url.href, data: { ...request.oauthParams } }, token);
	const { Authorization } = signer.toHeader({ ...signed, ...request.oauthParams });
	return (provider[customFetch] ?? fetch)(request.url, { method: request.method, headers: { authorization: Authorization } });
}

/**
 * Reads a credentials answer (RFC 5849 §2.1, §2.3): a 2xx whose
 * `application/x-www-form-urlencoded` body holds `oauth_token` and `oauth_token_secret`.
 * @returns the credentials and every parameter of the body (the provider's extras too).
 * @throws {Error} a non-2xx status (the message quotes the body's start, for the log).
 * @throws {TypeError} a body without `oauth_token` or `oauth_token_secret`.
 */
export async function processCredentialsResponse(response: Response): Promise<{ credentials: Credentials; params: URLSearchParams }> {
	const body = await response.text();
	const endpoint = response.url || 'The endpoint';
	if (!response.ok) throw new Error(`${endpoint} answered ${response.status}: ${body.slice(0, 200)}`);
	const params = new URLSearchParams(body);
	const oauth_token = params.get('oauth_token');
	const oauth_token_secret = params.get('oauth_token_secret');
	if (!oauth_token || !oauth_token_secret) throw new TypeError(`${endpoint} answered no oauth_token and oauth_token_secret.`);
	return { credentials: { oauth_token, oauth_token_secret }, params };
}
