import { describe, expect, it } from 'vitest';
import GitHub from './github.js';
import Google from './google.js';
import Idp, { withoutWwwAuthenticate } from './idp.js';
import OIDC from './oidc.js';
import { isDate } from './types.js';

describe('built-in OAuth providers', () => {
	it('idp: OIDC with PKCE, state and nonce, RS256, the recommended scope and the tenantId parameter', () => {
		const idp = Idp({ issuer: 'https://idp.example/', clientId: 'c', clientSecret: 's', tenantId: 't-1' });
		expect(idp).toMatchObject({
			id: 'idp',
			type: 'oidc',
			issuer: 'https://idp.example',
			checks: ['pkce', 'state', 'nonce'],
			client: { id_token_signed_response_alg: 'RS256' },
			authorization: { params: { scope: 'openid offline_access email profile', tenantId: 't-1' } }
		});
	});

	it('merges the user options over the built-in config: endpoint params key by key, style field by field', () => {
		const idp = Idp({
			issuer: 'https://idp.example',
			tenantId: 't',
			name: 'Acme login',
			authorization: { params: { prompt: 'login' } },
			userinfo: 'https://idp.example/oauth2/userinfo',
			style: { logo: '/acme.svg' }
		});
		expect(idp.name).toBe('Acme login');
		expect(idp.authorization).toEqual({ params: { scope: 'openid offline_access email profile', tenantId: 't', prompt: 'login' } });
		expect(idp.userinfo).toBe('https://idp.example/oauth2/userinfo');
		expect(idp.style).toEqual({ brandColor: '#0f766e', logo: '/acme.svg' });
		expect(idp.options).toMatchObject({ name: 'Acme login' });
		expect(idp.type).toBe('oidc');
	});

	it('merges `client` key by key: a token_endpoint_auth_method keeps the RS256 requirement', () => {
		const idp = Idp({ issuer: 'https://idp.example', tenantId: 't', client: { token_endpoint_auth_method: 'client_secret_post' } });
		expect(idp.client).toEqual({ id_token_signed_response_alg: 'RS256', token_endpoint_auth_method: 'client_secret_post' });
	});

	it('idp: settings still undefined (a build without .env) give a config instead of a crash', () => {
		const idp = Idp({ issuer: undefined, clientId: undefined, clientSecret: undefined, tenantId: undefined });
		expect(idp.issuer).toBeUndefined();
		expect(idp.id).toBe('idp');
	});

	it('withoutWwwAuthenticate: drops the header (any case) from non-401 answers, keeping body, status and other headers', async () => {
		const answer = new Response('{"error":"invalid_grant"}', {
			status: 400,
			statusText: 'Bad Request',
			headers: { 'WWW-Authenticate': 'Bearer error="invalid_grant"', 'content-type': 'application/json' }
		});
		const conformed = withoutWwwAuthenticate(answer);
		expect(conformed.headers.has('www-authenticate')).toBe(false);
		expect(conformed.headers.get('content-type')).toBe('application/json');
		expect([conformed.status, conformed.statusText]).toEqual([400, 'Bad Request']);
		expect(await conformed.json()).toEqual({ error: 'invalid_grant' });

		const unauthorized = new Response(null, { status: 401, headers: { 'www-authenticate': 'Basic' } });
		expect(withoutWwwAuthenticate(unauthorized)).toBe(unauthorized);
	});

	it('idp profile: the name from given and family names when there is no name', async () => {
		const idp = Idp({ issuer: 'https://idp.example', tenantId: 't' });
		const user = await idp.profile!({ sub: 'u1', email: 'a@b.c', given_name: 'Ada', family_name: 'Lovelace' } as never, {});
		expect(user).toEqual({ id: 'u1', name: 'Ada Lovelace', email: 'a@b.c', image: null });
	});

	it('github: OAuth 2 endpoints, PKCE and state; the profile id is a string', async () => {
		const github = GitHub({ clientId: 'c', clientSecret: 's' });
		expect(github).toMatchObject({ id: 'github', type: 'oauth', checks: ['pkce', 'state'], token: 'https://github.com/login/oauth/access_token' });
		const user = await github.profile!({ id: 42 as never, login: 'octo', name: null, email: null, avatar_url: 'https://a/1.png' }, {});
		expect(user).toEqual({ id: '42', name: 'octo', email: null, image: 'https://a/1.png' });
	});

	it('google and oidc: discovery from the issuer, with all three checks', () => {
		expect(Google({ clientId: 'c' })).toMatchObject({ id: 'google', type: 'oidc', issuer: 'https://accounts.google.com', checks: ['pkce', 'state', 'nonce'] });
		expect(OIDC({ issuer: 'https://sso.example', id: 'corp' })).toMatchObject({ id: 'corp', type: 'oidc', issuer: 'https://sso.example' });
	});
});

describe('isDate', () => {
	it.each([
		[new Date('2025-01-01'), true],
		['2025-01-01T00:00:00Z', true],
		[1_700_000_000_000, true],
		[new Date('nope'), false],
		['not a date', false],
		[null, false],
		[{}, false]
	])('%s → %s', (value, expected) => {
		expect(isDate(value)).toBe(expected);
	});
});
