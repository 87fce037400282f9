import { afterEach, describe, expect, it } from 'vitest';
import { CookieJar } from './cookie-jar.js';
import { signInAtDevIdp } from './login.js';
import { DEFAULT_CLIENT, startDevIdp, type DevIdp, type DevIdpOptions } from './server.js';

const REDIRECT_URI = DEFAULT_CLIENT.redirectUris[0]!;

const started: DevIdp[] = [];
afterEach(async () => {
	await Promise.all(started.splice(0).map((idp) => idp.stop()));
});

async function start(options: DevIdpOptions = {}): Promise<DevIdp> {
	const idp = await startDevIdp({ port: 0, ...options });
	started.push(idp);
	return idp;
}

function authorizationUrl(idp: DevIdp, params: Record<string, string> = {}): string {
	const url = new URL(`${idp.issuer}/oauth2/authorize`);
	url.search = new URLSearchParams({
		client_id: DEFAULT_CLIENT.clientId,
		redirect_uri: REDIRECT_URI,
		response_type: 'code',
		scope: 'openid email',
		state: 'the-state',
		...params
	}).toString();
	return url.href;
}

describe('the sign-in page', () => {
	/** Opens the sign-in page the authorization request redirects to, as a browser would. */
	async function openSignInPage(idp: DevIdp, params: Record<string, string> = {}) {
		const authorize = new URL(authorizationUrl(idp, params));
		const redirect = await fetch(authorize, { redirect: 'manual' });
		expect(redirect.status).toBe(303);
		const jar = new CookieJar();
		jar.store(redirect);
		const page = new URL(redirect.headers.get('location')!, authorize);
		expect(page.pathname).toMatch(/^\/interaction\/[\w-]+$/);
		const response = await fetch(page, { headers: { cookie: jar.header(page)! } });
		return { response, html: await response.text() };
	}

	it('is a plain form prefilled with the test user, naming itself as local development only', async () => {
		const idp = await start();
		const { response, html } = await openSignInPage(idp);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(html).toContain('<h1>create-auth dev IdP</h1>');
		expect(html).toContain('Local development only');
		expect(html).toContain('name="email" value="dev@example.com"');
		expect(html).toContain('name="password" value="password"');
		expect(html).toContain(`<code>${DEFAULT_CLIENT.clientId}</code>`);
		expect(html).not.toMatch(/<script|<link|src=/);
	});

	it('accepts the tenantId parameter and shows it, escaped', async () => {
		const idp = await start();
		const { response, html } = await openSignInPage(idp, { tenantId: '<acme>' });
		expect(response.status).toBe(200);
		expect(html).toContain('tenant <code>&lt;acme&gt;</code>');
	});
});

describe('a browser that is signed in at the IdP', () => {
	/** Follows redirects as a browser with `jar` would; returns the first page or off-IdP URL. */
	async function follow(idp: DevIdp, jar: CookieJar, start: string, init: RequestInit = {}) {
		let url = new URL(start);
		for (;;) {
			const response = await fetch(url, { ...init, headers: { cookie: jar.header(url) ?? '' }, redirect: 'manual' });
			jar.store(response);
			const location = response.headers.get('location');
			if (!location) return { url, response };
			url = new URL(location, url);
			if (url.origin !== idp.issuer) return { url, response };
			init = {};
		}
	}

	it('is sent straight back with a code; with prompt=consent too, through the interaction URL, no page', async () => {
		const idp = await start();
		const jar = new CookieJar();
		const page = await follow(idp, jar, authorizationUrl(idp));
		expect(page.response.status).toBe(200);
		const signedIn = await follow(idp, jar, page.url.href, {
			method: 'POST',
			body: new URLSearchParams({ email: idp.user.email, password: idp.password })
		});
		expect(signedIn.url.searchParams.get('code')).toEqual(expect.any(String));

		const again = await follow(idp, jar, authorizationUrl(idp));
		expect(again.url.searchParams.get('code')).toEqual(expect.any(String));
		const consent = await follow(idp, jar, authorizationUrl(idp, { prompt: 'consent', scope: 'openid offline_access' }));
		expect(`${consent.url.origin}${consent.url.pathname}`).toBe(REDIRECT_URI);
		expect(consent.url.searchParams.get('code')).toEqual(expect.any(String));
	});
});

describe('signInAtDevIdp', () => {
	it('stops at the redirect to the client: redirect_uri with code, state and iss', async () => {
		const idp = await start();
		const result = await signInAtDevIdp(authorizationUrl(idp));
		expect(result.method).toBe('GET');
		expect(result.form).toBeUndefined();
		expect(`${result.url.origin}${result.url.pathname}`).toBe(REDIRECT_URI);
		expect(result.url.searchParams.get('code')).toEqual(expect.any(String));
		expect(result.url.searchParams.get('state')).toBe('the-state');
		expect(result.url.searchParams.get('iss')).toBe(idp.issuer);
	});

	it('returns the form for response_mode=form_post', async () => {
		const idp = await start();
		const result = await signInAtDevIdp(authorizationUrl(idp, { response_mode: 'form_post' }));
		expect(result).toMatchObject({ method: 'POST', url: new URL(REDIRECT_URI) });
		expect(Object.fromEntries(result.form!)).toEqual({ code: expect.any(String), state: 'the-state', iss: idp.issuer });
	});

	it("signs in with the page's prefilled values: whatever user and password the IdP runs with", async () => {
		const idp = await start({ user: { sub: 'u-2', email: 'ada@example.com' }, password: 'correct horse' });
		const result = await signInAtDevIdp(authorizationUrl(idp));
		expect(result.url.searchParams.get('code')).toEqual(expect.any(String));
	});

	it.each([
		['a wrong password', { password: 'nope' }],
		['a wrong email', { email: 'someone@example.com' }]
	])('rejects %s with the page message, and no code is issued', async (_, credentials) => {
		const idp = await start();
		await expect(signInAtDevIdp(authorizationUrl(idp), credentials)).rejects.toThrow(
			/^Sign-in at the dev IdP failed at \/interaction\/[\w-]+: Wrong email or password\.$/
		);
	});

	it('takes the email in any case, with spaces around it', async () => {
		const idp = await start();
		const result = await signInAtDevIdp(authorizationUrl(idp), { email: ' Dev@Example.com ', password: 'password' });
		expect(result.url.searchParams.get('code')).toEqual(expect.any(String));
	});

	it('rejects with the error page for an unknown redirect_uri', async () => {
		const idp = await start();
		await expect(signInAtDevIdp(authorizationUrl(idp, { redirect_uri: 'http://localhost:9999/elsewhere' }))).rejects.toThrow(
			/failed at \/oauth2\/authorize: invalid_redirect_uri: /
		);
	});

	it('returns, not throws, an error the IdP sends back to the client (prompt=none with no session)', async () => {
		const idp = await start();
		const result = await signInAtDevIdp(authorizationUrl(idp, { prompt: 'none' }));
		expect(`${result.url.origin}${result.url.pathname}`).toBe(REDIRECT_URI);
		expect(result.url.searchParams.get('error')).toBe('login_required');
		expect(result.url.searchParams.get('state')).toBe('the-state');
	});
});
