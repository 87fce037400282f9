import { describe, expect, it, vi } from 'vitest';
import { Jar, requestEvent, reroutedShapes } from '../../../test/event.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import Credentials from '../providers/credentials.js';
import { authPathOf } from './auth-pages.js';
import { resolveConfig } from '../config.js';

const secret = 's'.repeat(32);
const config = (extra: Partial<SvelteKitAuthConfig> = {}): SvelteKitAuthConfig => ({
	secret,
	logger: { error: vi.fn() },
	providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: async () => null })],
	...extra
});

/** GET `path` through the real handle; `page` is what SvelteKit's `resolve` answers. */
async function get(path: string, page: () => Response = () => new Response('<html>'), extra: Partial<SvelteKitAuthConfig> = {}, app = {}) {
	const auth = SvelteKitAuth(config(extra), app);
	const event = requestEvent(`https://app.example${path}`, new Jar());
	return auth.handle({ event, resolve: async () => page() });
}

const FRAMED = ['/signin', '/signup', '/account'];
const NOT_FRAMED = ['/signout', '/signin/email', '/signin/verify-email', '/signin/verify-request', '/signin/forgot-password', '/signin/reset-password'];

// Attacks: a shared or back-button cache showing a signed-in page to the next user (OWASP ASVS
// 5.0 V14.3, Cache-Control: no-store), and clickjacking: another site frames the sign-in, sign-up
// or account page under a decoy and steers the victim's clicks (ASVS 5.0 V3.4, frame-ancestors /
// X-Frame-Options).
describe('headers on auth pages', () => {
	it.each(FRAMED)('%s: no-store, and refused in any frame', async (path) => {
		const response = await get(path);
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(response.headers.get('x-frame-options')).toBe('DENY');
		expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
	});

	it.each(NOT_FRAMED)('%s: no-store', async (path) => {
		const response = await get(path);
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(response.headers.get('x-frame-options')).toBeNull();
	});

	it('sets no-store on the runtime\'s routes (an OAuth callback, passkey options)', async () => {
		const response = await get('/auth/webauthn-options/nope', () => new Response('not found', { status: 404 }));
		expect(response.headers.get('cache-control')).toBe('no-store');
	});

	it('leaves every other page alone', async () => {
		for (const path of ['/', '/about', '/signinx', '/accounts', '/signin/other']) {
			const response = await get(path, () => new Response('<html>', { headers: { 'cache-control': 'max-age=60' } }));
			expect([...response.headers]).toEqual([['cache-control', 'max-age=60'], ['content-type', 'text/plain;charset=UTF-8']]);
		}
	});

	it("appends frame-ancestors to the policy SvelteKit set from kit.csp, keeping its nonces", async () => {
		const policy = "default-src 'self'; script-src 'self' 'nonce-abc'";
		const response = await get('/signin', () => new Response('<html>', { headers: { 'content-security-policy': policy } }));
		expect(response.headers.get('content-security-policy')).toBe(`${policy}; frame-ancestors 'none'`);
	});

	it("keeps an app's own frame-ancestors choice", async () => {
		const policy = "default-src 'self'; frame-ancestors 'self'";
		const response = await get('/account', () => new Response('<html>', { headers: { 'content-security-policy': policy } }));
		expect(response.headers.get('content-security-policy')).toBe(policy);
		expect(response.headers.get('x-frame-options')).toBeNull();
		expect(response.headers.get('cache-control')).toBe('no-store');
	});

	it('sets them on a response whose headers are immutable (Response.redirect)', async () => {
		const response = await get('/signin', () => Response.redirect('https://app.example/', 303));
		expect(response.status).toBe(303);
		expect(response.headers.get('location')).toBe('https://app.example/');
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(response.headers.get('x-frame-options')).toBe('DENY');
	});

	it('finds the pages under paths.base and at custom config.pages', async () => {
		const app = { resolve: () => '/base/' };
		expect((await get('/base/signup', undefined, {}, app)).headers.get('x-frame-options')).toBe('DENY');
		expect((await get('/signup', undefined, {}, app)).headers.get('cache-control')).toBeNull();
		expect((await get('/login', undefined, { pages: { signIn: '/login' } })).headers.get('x-frame-options')).toBe('DENY');
	});

	it('adds nothing, and does not fail the request, when the config cannot be resolved', async () => {
		const auth = SvelteKitAuth(() => config({ secret: 'short' }));
		const response = await auth.handle({ event: requestEvent('https://app.example/signin', new Jar()), resolve: async () => new Response('page') });
		expect(response.headers.get('cache-control')).toBeNull();
	});

	it('resolves a function config once per request, however many parts of the runtime need it', async () => {
		const make = vi.fn(() => config());
		const auth = SvelteKitAuth(make);
		const event = requestEvent('https://app.example/signin', new Jar(), { headers: { 'sec-fetch-site': 'same-origin' }, form: {} });
		await auth.handle({ event, resolve: async () => ((await (event.locals as { auth: () => Promise<unknown> }).auth()), new Response('page')) });
		expect(make).toHaveBeenCalledTimes(1);
	});
});

// Attack: a URL shape that the app's `reroute` hook maps onto an auth page but the URL path does
// not name (a locale prefix, Paraglide's `deLocalizeUrl`, a translated path, a layout group, an
// optional locale parameter): the page is served without no-store or the anti-framing headers
// (ASVS 5.0 V3.4, V14.3), and a cross-site POST reaches its action (V3.5.3, login CSRF).
describe('auth pages by the route SvelteKit serves, whatever the URL says', () => {
	it.each(FRAMED.flatMap(reroutedShapes))('%s: %s served by %s gets no-store and refuses frames', async (_, path, route) => {
		const auth = SvelteKitAuth(config());
		const event = requestEvent(`https://app.example${path}`, new Jar(), { route });
		const response = await auth.handle({ event, resolve: async () => new Response('<html>') });
		expect(response.headers.get('cache-control')).toBe('no-store');
		expect(response.headers.get('x-frame-options')).toBe('DENY');
		expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
	});

	it.each([
		['/de/signin', '/signin'],
		['/de/signout', '/signout'],
		['/de/signin/reset-password', '/(auth)/signin/reset-password']
	])('refuses a cross-site POST to %s, served by %s, with 403 before the app', async (path, route) => {
		const auth = SvelteKitAuth(config());
		const event = requestEvent(`https://app.example${path}`, new Jar(), { form: {}, headers: { 'sec-fetch-site': 'cross-site' }, route });
		const resolve = vi.fn(async () => new Response('page'));
		const response = await auth.handle({ event, resolve });
		expect(response.status).toBe(403);
		expect(resolve).not.toHaveBeenCalled();
	});

	it("leaves the app's other routes alone under any prefix", async () => {
		const auth = SvelteKitAuth(config());
		for (const [path, route] of [['/de/about', '/about'], ['/de/account/orders', '/account/orders'], ['/de', '/[[lang]]']]) {
			const event = requestEvent(`https://app.example${path}`, new Jar(), { route });
			const response = await auth.handle({ event, resolve: async () => new Response('<html>') });
			expect(response.headers.get('cache-control'), path).toBeNull();
		}
	});
});

describe('authPathOf', () => {
	const resolved = resolveConfig(config());
	const of = (path: string) => authPathOf({ url: new URL(`https://app.example${path}`), route: { id: null } }, resolved);
	it('names the pages, the framed ones, and the callback', () => {
		expect(of('/signin')).toEqual({ framed: true, callback: false });
		expect(of('/signout/')).toEqual({ framed: false, callback: false });
		expect(of('/auth/callback/github')).toEqual({ framed: false, callback: true });
		expect(of('/auth/webauthn-options/passkey')).toEqual({ framed: false, callback: false });
		expect(of('/auth/other/x')).toBeUndefined();
		expect(of('/auth')).toBeUndefined();
	});

	it('still finds the pages when basePath is / (the routes then sit at the root)', () => {
		const atRoot = resolveConfig(config({ basePath: '/' }));
		const at = (path: string) => authPathOf({ url: new URL(`https://app.example${path}`), route: { id: null } }, atRoot);
		expect(at('/signin')).toEqual({ framed: true, callback: false });
		expect(at('/callback/github')).toEqual({ framed: false, callback: true });
		expect(at('/about')).toBeUndefined();
	});

	it('follows pages.account: the account page moved is framed there, and its old path is no auth page', () => {
		const moved = resolveConfig(config({ pages: { account: '/me' } }));
		const at = (path: string) => authPathOf({ url: new URL(`https://app.example${path}`), route: { id: null } }, moved);
		expect(at('/me')).toEqual({ framed: true, callback: false });
		expect(at('/account')).toBeUndefined();
		expect(at('/me')).toBe(at('/me/'));
	});
});
