import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT, DEFAULT_USER, startDevIdp, type DevIdp, type DevIdpOptions } from './server.js';

const started: DevIdp[] = [];
afterEach(async () => {
	await Promise.all(started.splice(0).map((idp) => idp.stop()));
});

async function start(options: DevIdpOptions = {}): Promise<DevIdp> {
	const idp = await startDevIdp({ port: 0, ...options });
	started.push(idp);
	return idp;
}

async function json(url: string): Promise<Record<string, unknown>> {
	const response = await fetch(url);
	expect(response.status).toBe(200);
	return (await response.json()) as Record<string, unknown>;
}

describe('startDevIdp', () => {
	it('listens on 127.0.0.1 and says so in its issuer, with no trailing slash', async () => {
		const idp = await start();
		expect(idp.port).toBeGreaterThan(0);
		expect(idp.issuer).toBe(`http://127.0.0.1:${idp.port}`);
	});

	it('runs with the default client, user and password unless given others', async () => {
		const idp = await start();
		expect(idp.clients).toEqual([DEFAULT_CLIENT]);
		expect(DEFAULT_CLIENT.redirectUris).toEqual([
			'http://localhost:5173/auth/callback/idp',
			'http://127.0.0.1:5173/auth/callback/idp',
			'http://localhost:4173/auth/callback/idp',
			'http://127.0.0.1:4173/auth/callback/idp'
		]);
		expect(idp.user).toEqual(DEFAULT_USER);
		expect(idp.password).toBe('password');
	});

	it('publishes a discovery document: endpoints under /oauth2, RS256 only, S256, RFC 9207 iss', async () => {
		const idp = await start();
		const metadata = await json(`${idp.issuer}/.well-known/openid-configuration`);
		expect(metadata).toMatchObject({
			issuer: idp.issuer,
			authorization_endpoint: `${idp.issuer}/oauth2/authorize`,
			token_endpoint: `${idp.issuer}/oauth2/token`,
			userinfo_endpoint: `${idp.issuer}/oauth2/userinfo`,
			jwks_uri: `${idp.issuer}/oauth2/jwks`,
			revocation_endpoint: `${idp.issuer}/oauth2/revoke`,
			end_session_endpoint: `${idp.issuer}/oauth2/logout`,
			authorization_response_iss_parameter_supported: true,
			response_types_supported: ['code'],
			token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
			scopes_supported: ['openid', 'email', 'profile', 'offline_access']
		});
		expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256']);
		expect(metadata.code_challenge_methods_supported).toContain('S256');
		expect(metadata.response_modes_supported).toEqual(expect.arrayContaining(['query', 'form_post']));
		expect(metadata.claims_supported).toEqual(
			expect.arrayContaining(['email', 'email_verified', 'name', 'given_name', 'family_name', 'preferred_username', 'picture'])
		);
		const endpoints = Object.entries(metadata).filter(([key]) => key.endsWith('_endpoint') || key === 'jwks_uri');
		for (const [, url] of endpoints) expect(url).toMatch(new RegExp(`^${idp.issuer}/oauth2/`));
	});

	it('makes one RSA signing key at start and publishes only its public part', async () => {
		const idp = await start();
		const { keys } = (await json(`${idp.issuer}/oauth2/jwks`)) as { keys: Record<string, unknown>[] };
		expect(keys).toHaveLength(1);
		expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
		expect(keys[0]).not.toHaveProperty('d');
	});

	it('signs with the keys it is given', async () => {
		const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
		const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'given-key', alg: 'RS256', use: 'sig' };
		const idp = await start({ keys: { keys: [jwk] } });
		const { keys } = (await json(`${idp.issuer}/oauth2/jwks`)) as { keys: Record<string, unknown>[] };
		expect(keys).toEqual([expect.objectContaining({ kid: 'given-key', n: jwk.n })]);
	});

	it('refuses a redirect_uri the client did not register with an error page, not a redirect', async () => {
		const idp = await start();
		const url = new URL(`${idp.issuer}/oauth2/authorize`);
		url.search = new URLSearchParams({
			client_id: DEFAULT_CLIENT.clientId,
			redirect_uri: 'http://evil.example/callback',
			response_type: 'code',
			scope: 'openid'
		}).toString();
		const response = await fetch(url, { redirect: 'manual' });
		expect(response.status).toBe(400);
		expect(response.headers.get('location')).toBeNull();
		const html = await response.text();
		expect(html).toContain('<h1>create-auth dev IdP</h1>');
		expect(html).toContain('role="alert">invalid_redirect_uri:');
	});

	it('answers an interaction URL without its cookie with an error page', async () => {
		const idp = await start();
		const response = await fetch(`${idp.issuer}/interaction/unknown`);
		expect(response.status).toBe(400);
		expect(await response.text()).toContain('role="alert">invalid_request:');
	});

	it('rejects with EADDRINUSE when the port is taken', async () => {
		const idp = await start();
		await expect(startDevIdp({ port: idp.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
	});

	it('stop() closes kept-alive connections at once and frees the port; a second stop() is harmless', async () => {
		const idp = await startDevIdp({ port: 0 });
		await json(`${idp.issuer}/.well-known/openid-configuration`);
		const before = performance.now();
		await idp.stop();
		expect(performance.now() - before).toBeLessThan(1000);
		await idp.stop();
		await expect(fetch(`${idp.issuer}/.well-known/openid-configuration`)).rejects.toThrow();
		const again = await start({ port: idp.port });
		expect(again.port).toBe(idp.port);
	});
});
