/**
 * An app whose `reroute` hook takes a locale prefix off the URL (`/de/dashboard` is served by the
 * `/dashboard` route), as Paraglide's `deLocalizeUrl` does, over HTTP: no prefixed URL of a
 * protected route answers its page to a signed-out visitor, and the auth pages keep their
 * headers and their refusal of cross-site POSTs under the prefix. The guards and the auth-page
 * defences decide on the route SvelteKit serves, not on the URL as typed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { navigate, type CredentialsApp } from './credentials-flow.js';

/** The prefixes the app's `reroute` takes off: two locales besides the unprefixed default. */
const LOCALES = ['de', 'fr'];

/** The route only `src/authorization.ts` protects (`--protect`): its page checks nothing itself. */
export const GUARDED_ROUTE = '/dashboard';

/**
 * Gives the app, before create-auth runs, what an app with locale prefixes has: a universal
 * `src/hooks.ts` whose `reroute` serves `/<locale>/<path>` with the `/<path>` route, and a plain
 * page at {@link GUARDED_ROUTE} that shows who is signed in without checking it.
 * @throws {Error} the app has a `src/hooks.ts` already
 */
export async function useLocalePrefixes(appDir: string): Promise<void> {
	const hooks = path.join(appDir, 'src', 'hooks.ts');
	await fs.writeFile(
		hooks,
		[
			"import type { Reroute } from '@sveltejs/kit';",
			'',
			`const PREFIX = /^\\/(${LOCALES.join('|')})(?=\\/|$)/;`,
			'',
			"export const reroute: Reroute = ({ url }) => url.pathname.replace(PREFIX, '') || '/';",
			''
		].join('\n'),
		{ flag: 'wx' }
	);
	const page = path.join(appDir, 'src', 'routes', GUARDED_ROUTE.slice(1), '+page.svelte');
	await fs.mkdir(path.dirname(page), { recursive: true });
	await fs.writeFile(page, '<h1>Dashboard</h1>\n');
}

/**
 * A form POST to `target` marked `Sec-Fetch-Site: cross-site`, with the app's own `Origin` so that
 * SvelteKit's CSRF check (`kit.csrf`) lets it through and the runtime's Fetch Metadata check is the
 * one that answers.
 */
function crossSitePost(url: string, target: string) {
	return fetch(`${url}${target}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'sec-fetch-site': 'cross-site' },
		body: new URLSearchParams({ providerId: 'credentials', email: 'nobody@example.com', password: 'not the password' })
	});
}

/**
 * Registers the flows as tests of the enclosing `describe`, for an app set up with
 * {@link useLocalePrefixes} and `--protect` naming {@link GUARDED_ROUTE}.
 */
export function reroutedFlows(app: () => Pick<CredentialsApp, 'server'>): void {
	// Forced browsing past the guard (OWASP ASVS 5.0 V8.2.1, Broken Access Control): a URL shape
	// the app's reroute maps onto the protected route, which a test of the URL path does not see.
	it('sends a signed-out visitor of a protected route to sign in under every locale prefix the app serves it at', async () => {
		const { url } = app().server;
		for (const prefix of ['', ...LOCALES.map((locale) => `/${locale}`)]) {
			const target = `${prefix}${GUARDED_ROUTE}`;
			expect([target, await navigate(`${url}${target}`)]).toEqual([target, { status: 303, location: `/signin?callbackUrl=${encodeURIComponent(target)}` }]);
		}
		// The prefix is the app's: a route the guard does not cover stays open under it.
		expect((await navigate(`${url}/de`)).status).toBe(200);
	});

	// Login CSRF and clickjacking on the auth pages under a prefix (ASVS 5.0 V3.5.3, V3.4, V14.3).
	it('keeps the auth pages\' headers and their refusal of cross-site POSTs under a locale prefix', async () => {
		const { url } = app().server;
		for (const target of ['/de/signin', '/de/signup', '/fr/signin']) {
			const response = await fetch(`${url}${target}`);
			expect([target, response.status]).toEqual([target, 200]);
			expect([target, response.headers.get('cache-control'), response.headers.get('x-frame-options')]).toEqual([target, 'no-store', 'DENY']);
			expect(response.headers.get('content-security-policy')).toMatch(/(^|; )frame-ancestors 'none'$/);
		}
		for (const target of ['/de/signin', '/de/signout']) {
			const refused = await crossSitePost(url, target);
			expect([target, refused.status]).toEqual([target, 403]);
			expect(await refused.text()).toBe('Cross-site requests to sign-in pages are refused.');
			expect(refused.headers.getSetCookie()).toEqual([]);
		}
	});
}
