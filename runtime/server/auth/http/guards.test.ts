import { isHttpError, isRedirect, type RequestEvent } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { Jar, requestEvent, reroutedShapes } from '../../../test/event.js';
import { isNavigation, matchesRequestPath, requireSession, requireUser } from './guards.js';
import { encodeToken } from '../session/jwt.js';
import { SvelteKitAuth } from '../kit.js';
import Credentials from '../providers/credentials.js';

const secret = 's'.repeat(32);
const providers = [Credentials({ credentials: {}, authorize: () => null })];

/** A request that went through the auth handle, signed in as Ada or not. */
async function handled(url: string, options: Parameters<typeof requestEvent>[2] & { signedIn?: boolean } = {}, signInPage?: string) {
	const auth = SvelteKitAuth({ secret, providers, ...(signInPage ? { pages: { signIn: signInPage } } : {}) });
	const jar = new Jar();
	if (options.signedIn) jar.values.set('auth.session-token', await encodeToken({ sub: 'u1', email: 'ada@example.com' }, secret, 3600, Math.floor(Date.now() / 1000)));
	const event = requestEvent(url, jar, options);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	return event;
}

/** What a guard call ended in: the session, a redirect, or an HTTP error. */
async function outcome(guard: () => Promise<unknown>) {
	try {
		return { passed: await guard() };
	} catch (err) {
		if (isRedirect(err)) return { redirect: err.status, location: err.location };
		if (isHttpError(err)) return { status: err.status, body: err.body };
		throw err;
	}
}

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('requireSession / requireUser', () => {
	it('returns the session, and requireUser its user, when signed in', async () => {
		const event = await handled('http://localhost/account', { signedIn: true });
		expect(await requireSession(event)).toMatchObject({ user: { id: 'u1', email: 'ada@example.com' } });
		expect(await requireUser(event)).toMatchObject({ id: 'u1', email: 'ada@example.com' });
	});

	it('sends a signed-out page navigation to the sign-in page with the path and query to come back to', async () => {
		const event = await handled('http://localhost/account/settings?tab=2', { headers: HTML });
		expect(await outcome(() => requireSession(event))).toEqual({ redirect: 303, location: '/signin?callbackUrl=%2Faccount%2Fsettings%3Ftab%3D2' });
	});

	it("uses the config's sign-in page", async () => {
		const event = await handled('http://localhost/account', { headers: HTML }, '/login');
		expect(await outcome(() => requireUser(event))).toEqual({ redirect: 303, location: '/login?callbackUrl=%2Faccount' });
	});

	it.each([
		['a fetch with no Accept', {}],
		['a fetch asking for JSON', { headers: { accept: 'application/json' } }],
		['a JSON POST to an endpoint', { body: '{}', headers: { accept: '*/*', 'content-type': 'application/json' } }],
		['a cors fetch that asks for HTML', { headers: { ...HTML, 'sec-fetch-mode': 'cors' } }],
		['a remote function call', { isRemoteRequest: true, headers: HTML }]
	])('answers %s with 401 and a JSON-able message', async (_, options) => {
		const event = await handled('http://localhost/account/data', options);
		expect(await outcome(() => requireSession(event))).toEqual({ status: 401, body: { message: 'Sign in to continue.' } });
	});

	it('works without an event inside a request, through the getRequestEvent handed to SvelteKitAuth', async () => {
		let current: RequestEvent | undefined;
		const auth = SvelteKitAuth({ secret, providers }, { getRequestEvent: () => current! });
		current = requestEvent('http://localhost/account', new Jar(), { headers: HTML });
		await auth.handle({ event: current, resolve: async () => new Response('ok') });
		expect(await outcome(() => requireSession())).toEqual({ redirect: 303, location: '/signin?callbackUrl=%2Faccount' });
	});

	it('throws a clear error for a request that did not pass through the auth handle', async () => {
		const event = requestEvent('http://localhost/account', new Jar());
		await expect(requireSession(event)).rejects.toThrow('did not pass through the auth handle');
	});
});

// Attack: forced browsing past a guard (OWASP ASVS 5.0 V8.2.1; OWASP Top 10 A01 Broken Access
// Control) with a URL shape the app's `reroute` hook maps onto a protected route but the prefix
// test on the URL path does not see: `/de/dashboard` of a Paraglide app, a translated path.
describe('matchesRequestPath by the route SvelteKit serves', () => {
	it.each([...reroutedShapes('/account'), ...reroutedShapes('/account/orders/[id]')])('%s: %s served by %s is protected, and a navigation there is sent to sign in', async (_, path, route) => {
		const event = await handled(`http://localhost${path}`, { route, headers: HTML });
		expect(matchesRequestPath(event, ['/account'])).toBe(true);
		expect(await outcome(() => requireSession(event))).toEqual({ redirect: 303, location: `/signin?callbackUrl=${encodeURIComponent(new URL(path, 'http://localhost').pathname)}` });
	});

	it('leaves the other routes open under any prefix, and still matches the URL when no route matched', async () => {
		expect(matchesRequestPath(await handled('http://localhost/de/about', { route: '/about' }), ['/account'])).toBe(false);
		expect(matchesRequestPath(await handled('http://localhost/de/accounts', { route: '/accounts' }), ['/account'])).toBe(false);
		expect(matchesRequestPath(await handled('http://localhost/account/missing', { route: null }), ['/account'])).toBe(true);
	});
});

describe('isNavigation', () => {
	it.each([
		['a document request', { headers: { ...HTML, 'sec-fetch-mode': 'navigate' } }, true],
		['a native form post', { form: { a: '1' }, headers: { ...HTML, 'sec-fetch-mode': 'navigate' } }, true],
		['an Accept: text/html request without Sec-Fetch headers', { headers: HTML }, true],
		["a client-side navigation's data request", { isDataRequest: true }, true],
		['a use:enhance form action', { form: { a: '1' }, headers: { accept: 'application/json', 'x-sveltekit-action': 'true', 'sec-fetch-mode': 'cors' } }, true],
		['a fetch', { headers: { accept: '*/*', 'sec-fetch-mode': 'cors' } }, false],
		['a remote function call', { isRemoteRequest: true }, false]
	])('%s: %s', (_, options, expected) => {
		expect(isNavigation(requestEvent('http://localhost/account', new Jar(), options))).toBe(expected);
	});
});
