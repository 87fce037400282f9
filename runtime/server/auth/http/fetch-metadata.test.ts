import type { RequestEvent } from '@sveltejs/kit';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Jar, redirectOf, requestEvent } from '../../../test/event.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { CrossSiteRequest } from '../errors.js';
import { SvelteKitAuth } from '../kit.js';
import Credentials from '../providers/credentials.js';
import GitHub from '../providers/github.js';
import { isCrossSiteWrite } from './fetch-metadata.js';

const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
const ada = { id: 'u1', name: 'Ada', email: 'ada@example.com', image: null };
const authorize = vi.fn(async () => ada);
const config = (extra: Partial<SvelteKitAuthConfig> = {}): SvelteKitAuthConfig => ({
	secret,
	logger,
	providers: [Credentials({ credentials: { email: {}, password: {} }, authorize }), GitHub({ clientId: 'id', clientSecret: 'secret' })],
	...extra
});

/**
 * A request through the real handle to a SvelteKit whose `resolve` runs the page's form action
 * (as SvelteKit does for a POST to a page): what came back, whether the app was reached, the jar.
 */
async function post(path: string, site: string | undefined, extra: Partial<SvelteKitAuthConfig> = {}, app = {}) {
	const auth = SvelteKitAuth(config(extra), app);
	const jar = new Jar();
	const headers: Record<string, string> = site === undefined ? {} : { 'sec-fetch-site': site };
	const event = requestEvent(`https://app.example${path}`, jar, { form: { providerId: 'credentials', email: 'ada@example.com', password: 'pw' }, headers });
	const resolve = vi.fn(async (reached: RequestEvent) => {
		await Promise.resolve(auth.signIn(reached)).catch(() => undefined); // its redirect
		return new Response('page');
	});
	const response = await auth.handle({ event, resolve });
	return { response, reached: resolve.mock.calls.length > 0, jar };
}

beforeEach(() => {
	logger.error.mockClear();
	authorize.mockClear();
});

// Attack: cross-site request forgery / login CSRF against the auth forms (OWASP ASVS 5.0 V3.5.1,
// V3.5.3 Sec-Fetch-* validation; https://web.dev/articles/fetch-metadata): a page on another
// site posts the victim's browser to /signin (logging them in as the attacker), /signout, /account…
describe('Fetch Metadata on auth POSTs', () => {
	it.each([
		'/signin',
		'/signin?/credentials',
		'/signout',
		'/signup',
		'/account',
		'/signin/email',
		'/signin/verify-email',
		'/signin/verify-request',
		'/signin/forgot-password',
		'/signin/reset-password',
		'/signin/',
		'/auth/webauthn-options/passkey'
	])('refuses a cross-site POST to %s with 403 before any work, logged once', async (path) => {
		const { response, reached, jar } = await post(path, 'cross-site');
		expect(response.status).toBe(403);
		expect(await response.text()).toMatch(/Cross-site/);
		expect(reached).toBe(false);
		expect(authorize).not.toHaveBeenCalled();
		expect(jar.writes).toEqual([]);
		expect(logger.error).toHaveBeenCalledTimes(1);
		expect(logger.error.mock.calls[0]![0]).toBeInstanceOf(CrossSiteRequest);
	});

	it('refuses same-site too: a sibling subdomain is another party that SameSite=Lax lets through', async () => {
		const { response, reached } = await post('/signin', 'same-site');
		expect(response.status).toBe(403);
		expect(reached).toBe(false);
	});

	it.each([['same-origin'], ['none'], [undefined]])('lets a POST with Sec-Fetch-Site %s through: it signs in', async (site) => {
		const { response, reached, jar } = await post('/signin', site);
		expect(response.status).toBe(200);
		expect(reached).toBe(true);
		expect(jar.setSince(0)).toEqual(['__Host-auth.session-token']);
		expect(logger.error).not.toHaveBeenCalled();
	});

	/** A cross-site form POST to the OAuth callback, as a `response_mode=form_post` provider sends it. */
	const formPostCallback = (path: string, app = {}) => {
		const auth = SvelteKitAuth(config(), app);
		const headers = { 'sec-fetch-site': 'cross-site' };
		const event = requestEvent(`https://app.example${path}`, new Jar(), { form: { code: 'c', state: 's' }, headers });
		return redirectOf(() => auth.handle({ event, resolve: async () => new Response('page') }));
	};

	it('exempts the OAuth callback, which a form_post provider posts from its own site: the flow answers it', async () => {
		// No flow cookie in this jar: the flow itself refuses the state (InvalidCheck), not Fetch Metadata.
		expect(await formPostCallback('/auth/callback/github')).toEqual({ status: 303, location: '/signin?error=InvalidCheck' });
		expect(await formPostCallback('/base/auth/callback/github', { resolve: () => '/base/' })).toMatchObject({ location: '/base/signin?error=InvalidCheck' });
		expect(logger.error.mock.calls.some(([err]) => err instanceof CrossSiteRequest)).toBe(false);
	});

	it('leaves the app\'s own routes and cross-site GETs (links, navigations) alone', async () => {
		expect((await post('/api/comments', 'cross-site')).reached).toBe(true);
		const auth = SvelteKitAuth(config());
		const event = requestEvent('https://app.example/signin', new Jar(), { headers: { 'sec-fetch-site': 'cross-site' } });
		const response = await auth.handle({ event, resolve: async () => new Response('page') });
		expect(response.status).toBe(200);
	});

	it('finds the pages under paths.base and a custom pages.signIn', async () => {
		const app = { resolve: () => '/base/' };
		expect((await post('/base/signin', 'cross-site', {}, app)).response.status).toBe(403);
		expect((await post('/login', 'cross-site', { pages: { signIn: '/login' } })).response.status).toBe(403);
		expect((await post('/signin', 'cross-site', {}, app)).reached).toBe(true); // outside the base: not the app's sign-in
	});

	it('judges only unsafe methods with cross-site or same-site', () => {
		const request = (method: string, site?: string) =>
			new Request('https://app.example/signin', { method, headers: site ? { 'sec-fetch-site': site } : {} });
		expect(isCrossSiteWrite(request('POST', 'cross-site'))).toBe(true);
		expect(isCrossSiteWrite(request('DELETE', 'same-site'))).toBe(true);
		expect(isCrossSiteWrite(request('GET', 'cross-site'))).toBe(false);
		expect(isCrossSiteWrite(request('OPTIONS', 'cross-site'))).toBe(false);
		expect(isCrossSiteWrite(request('POST', 'same-origin'))).toBe(false);
		expect(isCrossSiteWrite(request('POST', 'garbage'))).toBe(false);
		expect(isCrossSiteWrite(request('POST'))).toBe(false);
	});
});
