import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtDevIdp } from './login.js';
import { DEFAULT_CLIENT, DEFAULT_USER, startDevIdp, type DevIdp } from './server.js';

// Full flows against a real dev IdP, with the client library the apps use.

const REDIRECT_URI = 'http://localhost:5173/auth/callback/idp';
const insecure = { [oauth.allowInsecureRequests]: true };
const client: oauth.Client = { client_id: DEFAULT_CLIENT.clientId };
const basic = oauth.ClientSecretBasic(DEFAULT_CLIENT.clientSecret);

let idp: DevIdp;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
	idp = await startDevIdp({ port: 0, accessTokenTtl: 600, idTokenTtl: 300 });
	const issuer = new URL(idp.issuer);
	as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
});
afterAll(() => idp.stop());

/** An authorization request URL for the default client; `params` are added or replace defaults. */
function authorizationUrl(params: Record<string, string>): string {
	const url = new URL(as.authorization_endpoint!);
	url.search = new URLSearchParams({
		client_id: client.client_id,
		redirect_uri: REDIRECT_URI,
		response_type: 'code',
		scope: 'openid email profile',
		...params
	}).toString();
	return url.href;
}

/** Signs in with PKCE and exchanges the code: what every test below starts from. */
async function signInWithPkce(params: Record<string, string> = {}) {
	const codeVerifier = oauth.generateRandomCodeVerifier();
	const state = oauth.generateRandomState();
	const signedIn = await signInAtDevIdp(
		authorizationUrl({
			code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
			code_challenge_method: 'S256',
			state,
			...params
		})
	);
	const callback = oauth.validateAuthResponse(as, client, signedIn.url, state);
	const response = await oauth.authorizationCodeGrantRequest(as, client, basic, callback, REDIRECT_URI, codeVerifier, insecure);
	return { signedIn, tokens: await oauth.processAuthorizationCodeResponse(as, client, response) };
}

describe('the dev IdP (oidc-provider configuration)', () => {
	it('runs the authorization code flow with PKCE: code with iss, RS256 ID token carrying the profile, userinfo', async () => {
		const { signedIn, tokens } = await signInWithPkce();
		expect(signedIn.method).toBe('GET');
		expect(signedIn.url.origin + signedIn.url.pathname).toBe(REDIRECT_URI);
		expect(signedIn.url.searchParams.get('iss')).toBe(idp.issuer);

		expect(tokens.token_type).toBe('bearer');
		expect(tokens.expires_in).toBe(600);
		expect(tokens.refresh_token).toBeUndefined();
		const claims = oauth.getValidatedIdTokenClaims(tokens)!;
		expect(claims).toMatchObject({ iss: idp.issuer, aud: client.client_id, ...DEFAULT_USER });
		expect(claims.exp - claims.iat).toBe(300);

		expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
		const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
		await expect(jwtVerify(tokens.id_token!, jwks, { issuer: idp.issuer, audience: client.client_id })).resolves.toBeDefined();

		const userinfo = await oauth.processUserInfoResponse(
			as,
			client,
			claims.sub,
			await oauth.userInfoRequest(as, client, tokens.access_token, insecure)
		);
		expect(userinfo).toEqual(DEFAULT_USER);
	});

	it('releases only the claims of the scopes asked for', async () => {
		const { tokens } = await signInWithPkce({ scope: 'openid email' });
		const claims = oauth.getValidatedIdTokenClaims(tokens)!;
		expect(claims.email).toBe('dev@example.com');
		expect(claims.name).toBeUndefined();
	});

	it('issues a refresh token for offline_access, without a consent screen, and rotates it on use', async () => {
		const { tokens } = await signInWithPkce({ scope: 'openid email offline_access' });
		expect(tokens.scope?.split(' ')).toContain('offline_access');
		const first = tokens.refresh_token!;
		expect(first).toEqual(expect.any(String));

		const refreshed = await oauth.processRefreshTokenResponse(
			as,
			client,
			await oauth.refreshTokenGrantRequest(as, client, basic, first, insecure)
		);
		expect(refreshed.access_token).not.toBe(tokens.access_token);
		expect(refreshed.refresh_token).toEqual(expect.any(String));
		expect(refreshed.refresh_token).not.toBe(first);

		// The spent one is refused, and that revokes the whole grant: the new one goes too.
		for (const spent of [first, refreshed.refresh_token!]) {
			const response = await oauth.refreshTokenGrantRequest(as, client, basic, spent, insecure);
			await expect(oauth.processRefreshTokenResponse(as, client, response)).rejects.toMatchObject({ error: 'invalid_grant' });
		}
	});

	it('goes straight back to the client when the client asks for prompt=consent', async () => {
		const { tokens } = await signInWithPkce({ scope: 'openid offline_access', prompt: 'consent' });
		expect(tokens.refresh_token).toEqual(expect.any(String));
	});

	it('follows OIDC Core when the client sets another prompt: prompt=login drops offline_access', async () => {
		const { tokens } = await signInWithPkce({ scope: 'openid offline_access', prompt: 'login' });
		expect(tokens.scope).toBe('openid');
		expect(tokens.refresh_token).toBeUndefined();
	});

	it('accepts a client using only state + nonce (no PKCE), with client_secret_post', async () => {
		const state = oauth.generateRandomState();
		const nonce = oauth.generateRandomNonce();
		const signedIn = await signInAtDevIdp(authorizationUrl({ state, nonce }));
		const callback = oauth.validateAuthResponse(as, client, signedIn.url, state);
		const response = await oauth.authorizationCodeGrantRequest(
			as,
			client,
			oauth.ClientSecretPost(DEFAULT_CLIENT.clientSecret),
			callback,
			REDIRECT_URI,
			oauth.nopkce,
			insecure
		);
		const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce });
		expect(oauth.getValidatedIdTokenClaims(tokens)?.nonce).toBe(nonce);
	});

	it('answers with response_mode=form_post: a form for the redirect_uri with code, state and iss', async () => {
		const state = oauth.generateRandomState();
		const signedIn = await signInAtDevIdp(authorizationUrl({ state, response_mode: 'form_post' }));
		expect(signedIn.method).toBe('POST');
		expect(signedIn.url.href).toBe(REDIRECT_URI);
		const callback = oauth.validateAuthResponse(as, client, signedIn.form!, state);
		expect(callback.get('code')).toEqual(expect.any(String));
		expect(callback.get('iss')).toBe(idp.issuer);
	});

	it('accepts the tenantId parameter', async () => {
		const { tokens } = await signInWithPkce({ tenantId: 'dev' });
		expect(tokens.access_token).toEqual(expect.any(String));
	});

	it('refuses a wrong client secret', async () => {
		const state = oauth.generateRandomState();
		const signedIn = await signInAtDevIdp(authorizationUrl({ state }));
		const callback = oauth.validateAuthResponse(as, client, signedIn.url, state);
		const wrong = oauth.ClientSecretBasic('not-the-secret');
		const response = await oauth.authorizationCodeGrantRequest(as, client, wrong, callback, REDIRECT_URI, oauth.nopkce, insecure);
		await expect(oauth.processAuthorizationCodeResponse(as, client, response)).rejects.toMatchObject({
			status: 401,
			cause: [{ parameters: { error: 'invalid_client' } }]
		});
	});
});
