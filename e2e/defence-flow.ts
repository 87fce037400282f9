/**
 * Defence in depth on the auth pages of a built app (issue 28), over HTTP: a cross-site POST to
 * the sign-in and sign-out actions is refused with 403 (Fetch Metadata), the same POST without
 * the header is not, and the auth pages carry `Cache-Control: no-store` and anti-framing
 * headers.
 */
import { expect, it } from 'vitest';
import type { CredentialsApp } from './credentials-flow.js';

/** A form POST to `path` as a browser sends it from the app's own page (`Origin`, for SvelteKit's CSRF check), plus `headers`. */
function postForm(url: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
	return fetch(`${url}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
		body: new URLSearchParams(fields)
	});
}

/**
 * Registers the flows as tests of the enclosing `describe`.
 * @param app the app under test
 */
export function defenceFlows(app: () => Pick<CredentialsApp, 'server' | 'browser'>): void {
	// Login CSRF and forced sign-out from another site (OWASP ASVS 5.0 V3.5.1, V3.5.3: Sec-Fetch-*).
	it('refuses a cross-site POST to the sign-in and sign-out actions with 403, and takes the same POST without the header', async () => {
		const { url } = app().server;
		const signIn = { providerId: 'credentials', email: 'nobody@example.com', password: 'not the password' };
		for (const [target, fields] of [['/signin', signIn], ['/signin?/default', signIn], ['/signout', {}]] as const) {
			for (const site of ['cross-site', 'same-site']) {
				const refused = await postForm(url, target, fields, { 'sec-fetch-site': site });
				expect([target, site, refused.status]).toEqual([target, site, 403]);
				expect(await refused.text()).toBe('Cross-site requests to sign-in pages are refused.');
				expect(refused.headers.getSetCookie()).toEqual([]);
			}
		}
		// The same posts from the app's own page (or a client without Fetch Metadata) reach the actions.
		const wrongPassword = await postForm(url, '/signin', signIn, { 'sec-fetch-site': 'same-origin' });
		expect(wrongPassword.status).toBe(303);
		expect(wrongPassword.headers.get('location')).toMatch(/^\/signin\?error=CredentialsSignin/);
		const signOut = await postForm(url, '/signout', {});
		expect([signOut.status, signOut.headers.get('location')]).toEqual([303, '/']);
	});

	// Cached personal pages and clickjacking (ASVS 5.0 V14.3, V3.4).
	it('sends Cache-Control: no-store on the auth pages, and refuses frames on sign-in and sign-up', async () => {
		const { url } = app().server;
		for (const target of ['/signin', '/signup']) {
			const response = await fetch(`${url}${target}`);
			expect([target, response.status]).toEqual([target, 200]);
			expect(response.headers.get('cache-control')).toBe('no-store');
			expect(response.headers.get('x-frame-options')).toBe('DENY');
			const policy = response.headers.get('content-security-policy') ?? '';
			expect(policy).toMatch(/(^|; )frame-ancestors 'none'$/);
		}
		const signOut = await fetch(`${url}/signout`);
		expect(signOut.headers.get('cache-control')).toBe('no-store');
		expect(signOut.headers.get('x-frame-options')).toBeNull();
		expect((await fetch(`${url}/`)).headers.get('x-frame-options')).toBeNull();
	});
}
