/**
 * The `idp` flows an app made with `create-auth --providers credentials,idp` must pass against a
 * real OpenID provider (the dev IdP, in this test process): the button, the provider's login
 * page, the session (chunked above 4 KB) across reloads, the token refresh of the recommended
 * configuration, sign-out, and a broken callback ending on the sign-in page. A test file starts
 * the dev IdP with {@link startIdpFor} before the app, then calls {@link idpFlows}.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_USER, startDevIdp, type DevIdp } from '../src/dev-idp/index.js';
import { credentialsForm } from './credentials-flow.js';
import { freePort, setEnv, type Server } from './harness/app.js';
import { closePage, type Browser } from './harness/browser.js';
import { pause } from './harness/ledger.js';
import { FRESH_AGE, sessionsOf } from './sessions-flow.js';

/** Access tokens live this long, in seconds, so that a test sees one refreshed. */
const ACCESS_TOKEN_TTL = 4;

/**
 * The test user, with a picture URL long enough that the session (ID token, access and refresh
 * tokens, profile) no longer fits in one 4 KB cookie.
 */
const USER = { ...DEFAULT_USER, picture: `https://images.example/avatar.png?v=${'a'.repeat(1500)}` };

/** The dev IdP for one app, and the port that app must listen on (its callback URL is registered). */
export interface AppIdp {
	idp: DevIdp;
	port: number;
}

/**
 * Starts a dev IdP whose one client is the app to be served on a port chosen now, and fills the
 * app's `.env` with that client (the `AUTH_IDP_*` keys create-auth left empty) and `AUTH_URL`,
 * so that the redirect URI is the one registered whether the browser opens 127.0.0.1 or localhost.
 * @param base the app's `paths.base` (`''` or `/base`): the one callback URL registered is under it
 */
export async function startIdpFor(appDir: string, base = ''): Promise<AppIdp> {
	const port = await freePort();
	const client = { clientId: 'e2e-app', clientSecret: 'e2e-app-secret', redirectUris: [`http://127.0.0.1:${port}${base}/auth/callback/idp`] };
	const idp = await startDevIdp({ port: 0, clients: [client], user: USER, accessTokenTtl: ACCESS_TOKEN_TTL });
	await setEnv(path.join(appDir, '.env'), {
		AUTH_IDP_ISSUER: idp.issuer,
		AUTH_IDP_ID: client.clientId,
		AUTH_IDP_SECRET: client.clientSecret,
		AUTH_IDP_TENANT_ID: 'e2e',
		AUTH_URL: `http://127.0.0.1:${port}`
	});
	return { idp, port };
}

/** An app with `credentials,idp`, served on {@link AppIdp.port}, and a browser. */
export interface IdpApp {
	server: Server;
	browser: Browser;
	idp: DevIdp;
}

/** The session cookie's chunks (or the whole cookie), as the browser holds them. */
async function sessionCookies(page: import('playwright-core').Page) {
	return (await page.context().cookies()).filter((cookie) => cookie.name.startsWith('auth.session-token'));
}

/**
 * A field of the session in a `__data.json` answer: SvelteKit's devalue format, where each
 * node's `data` is a flat array and an object holds the indexes of its values.
 */
function sessionField(answer: string, key: string): unknown {
	for (const node of JSON.parse(answer).nodes as Array<{ data?: unknown[] } | null>) {
		const values = node?.data ?? [];
		const holder = values.find((value): value is Record<string, number> => !!value && typeof value === 'object' && key in value);
		if (holder) return values[holder[key]!];
	}
	return undefined;
}

/** Signs in from the sign-in page through the dev IdP's login page, and lands on `/account`. */
async function signInThroughIdp(page: import('playwright-core').Page, url: string, idp: DevIdp): Promise<void> {
	await page.goto(`${url}/signin?callbackUrl=/account`);
	await page.getByRole('button', { name: 'Sign in with Identity Provider' }).click();
	await page.waitForURL((target) => target.origin === idp.issuer);
	await page.getByLabel('Password').fill(idp.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL(`${url}/account`);
}

/**
 * Registers the flows as tests of the enclosing `describe`.
 * @param app the app under test; called inside each test, after `beforeAll` has set it up
 * @param options `reauthentication`: the app's `session.freshAge` is {@link FRESH_AGE} (see
 *   `shortSessionTimes`), so the re-authentication through the provider is tested
 */
export function idpFlows(app: () => IdpApp, { reauthentication = false }: { reauthentication?: boolean } = {}): void {
	it('shows a "Sign in with Identity Provider" button beside the credentials form', async () => {
		const page = await app().browser.newPage();
		await page.goto(`${app().server.url}/signin`);
		expect(await page.getByRole('button', { name: 'Sign in with Identity Provider' }).isVisible()).toBe(true);
		expect(await credentialsForm(page).getByLabel('Email').isVisible()).toBe(true);
		await closePage(page);
	});

	it("signs in on the provider's login page, comes back to the page asked for, keeps a chunked session across a reload, and signs out", async () => {
		const { server, browser, idp } = app();
		const context = await browser.newContext(); // signed out, whatever other tests left
		const page = await context.newPage();
		await page.goto(`${server.url}/account`);
		await page.getByRole('button', { name: 'Sign in with Identity Provider' }).click();
		await page.waitForURL((url) => url.origin === idp.issuer);
		expect(new URL(page.url()).pathname).toMatch(/^\/interaction\//);
		expect(await page.getByText('e2e').first().isVisible()).toBe(true); // the tenantId reached the provider
		await page.getByLabel('Password').fill(idp.password);
		await page.getByRole('button', { name: 'Sign in' }).click();

		await page.waitForURL(`${server.url}/account`);
		expect(await page.getByText(`Signed in as ${USER.email}`).isVisible()).toBe(true);
		const chunks = await sessionCookies(page);
		expect(chunks.map((cookie) => cookie.name)).toEqual(chunks.map((_, i) => `auth.session-token.${i}`));
		expect(chunks.length).toBeGreaterThan(1);
		for (const cookie of chunks) {
			expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
			expect(cookie.name.length + cookie.value.length).toBeLessThan(4096);
		}
		expect((await page.context().cookies()).some((cookie) => cookie.name === 'auth.oauth-flow')).toBe(false);

		await page.reload();
		expect(new URL(page.url()).pathname).toBe('/account');
		expect(await page.getByText(`Signed in as ${USER.email}`).isVisible()).toBe(true);

		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((url) => url.pathname === '/');
		expect(await sessionCookies(page)).toEqual([]);
		await page.goto(`${server.url}/account`);
		expect(new URL(page.url()).pathname).toBe('/signin');
		await context.close();
	});

	it('refreshes the access token once it has expired, and only then (the jwt callback of src/auth.ts or .js)', async () => {
		const { server, browser, idp } = app();
		const context = await browser.newContext();
		const page = await context.newPage();
		await signInThroughIdp(page, server.url, idp);

		// The page data carries the session the generated session callback returns.
		const pageData = async () => (await context.request.get(`${server.url}/account/__data.json`)).text();
		const issued = await pageData();
		expect(issued).toContain('access_token');
		expect(issued).not.toContain('refresh_token'); // it stays in the cookie, on the server side
		const before = sessionField(issued, 'access_token');
		expect(before).toEqual(expect.any(String));
		const expiresAt = sessionField(issued, 'expires_at') as number;
		expect(expiresAt).toBeGreaterThan(server.now() / 1000);
		expect(expiresAt).toBeLessThanOrEqual(server.now() / 1000 + ACCESS_TOKEN_TTL + 1);

		// Until a second after it expired (expires_at is in seconds) on the app's clock, which decides
		// to refresh: what is left of the TTL after the sign-in. The provider's clock, which accepts
		// the refresh token, does not move. workerd (mode wrangler) keeps the real clock: the whole
		// TTL and a second are waited out there.
		if (server.advanceClock) await server.advanceClock((Math.max(0, expiresAt * 1000 - server.now()) + 1000) / 1000);
		else await pause((ACCESS_TOKEN_TTL + 1) * 1000);
		const refreshed = await pageData();
		expect(refreshed).not.toContain('RefreshTokenError');
		const after = sessionField(refreshed, 'access_token');
		expect(after).toEqual(expect.any(String));
		expect(after).not.toBe(before);
		expect(sessionField(refreshed, 'expires_at')).toBeGreaterThan(server.now() / 1000);
		await page.reload();
		expect(await page.getByText(`Signed in as ${USER.email}`).isVisible()).toBe(true);
		await context.close();
	});

	// OWASP ASVS 5.0 7.5.1 through an OpenID provider: the provider's own session is live, so
	// without prompt=login and max_age (OpenID Connect Core 1.0 §3.1.2.1) it would send the user
	// straight back, and a stolen session cookie would pass the check by one click.
	if (reauthentication) it("past freshAge, an account change sends the user to sign in again; the provider asks for the password again, though its session is live; then the change completes", async () => {
		const { server, browser, idp } = app();
		const context = await browser.newContext();
		const page = await context.newPage();
		await signInThroughIdp(page, server.url, idp);
		// Past freshAge on the app's clock alone: to the app, the auth_time of the provider's new
		// sign-in below is as old as the app's clock is ahead (FRESH_AGE + 1 s and what the tests
		// before moved it), over max_age, which ID token validation's 30 s of clock tolerance
		// (oauth4webapi's) covers as it covers a real skew between the two.
		await server.advanceClock!(FRESH_AGE + 1);

		await sessionsOf(page).getByRole('button', { name: 'End all other sessions' }).click();
		await sessionsOf(page).getByRole('alert').getByRole('link', { name: 'Sign in again' }).click();
		await page.waitForURL((url) => url.pathname === '/signin');
		const authorization = page.waitForRequest((request) => request.url().startsWith(`${idp.issuer}/oauth2/authorize`));
		await page.getByRole('button', { name: 'Sign in with Identity Provider' }).click();
		const asked = new URL((await authorization).url()).searchParams;
		expect([asked.get('prompt'), asked.get('max_age')]).toEqual(['login', String(FRESH_AGE)]);
		await page.waitForURL((url) => url.origin === idp.issuer && url.pathname.startsWith('/interaction/'));
		await page.getByLabel('Password').fill(idp.password);
		await page.getByRole('button', { name: 'Sign in' }).click();

		await page.waitForURL((url) => url.pathname === '/account' && url.searchParams.get('resume') === 'revokeOtherSessions');
		await sessionsOf(page).locator('form.resume').getByRole('button', { name: 'End all other sessions' }).click();
		await expect.poll(() => sessionsOf(page).getByRole('status').textContent()).toBe('Your other devices are signed out.');
		await context.close();
	});

	it('ends a callback that no sign-in started on the sign-in page with a readable error, not a 500', async () => {
		const page = await app().browser.newPage();
		const response = await page.goto(`${app().server.url}/auth/callback/idp?code=forged&state=forged&iss=${encodeURIComponent(app().idp.issuer)}`);
		expect(response?.status()).toBe(200);
		const url = new URL(page.url());
		expect(url.pathname).toBe('/signin');
		expect(url.searchParams.get('error')).toBe('InvalidCheck');
		expect(await page.getByRole('alert').textContent()).toBe('Sign-in failed. Please try again.');
		await closePage(page);
	});
}
