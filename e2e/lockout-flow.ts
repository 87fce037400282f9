/**
 * Lockouts an attacker cannot aim (NIST SP 800-63B-4 §3.2.2 rate limiting, OWASP ASVS 5.0 V6.3),
 * over HTTP against a built credentials app on its default limits: wrong passwords lock an address
 * for the client that sent them, not for its owner on another network. Clients are told apart by
 * the address the server sees: every 127.0.0.0/8 address reaches a server on 127.0.0.1, so a
 * request sent from 127.0.0.7 has `getClientAddress()` 127.0.0.7 under `vite preview` (the
 * socket's address) and adapter-node alike, with no proxy header to trust.
 */
import http from 'node:http';
import { expect, it } from 'vitest';
import type { Server } from './harness/app.js';

/** The attacker's and the owner's client addresses. */
const ATTACKER = '127.0.0.7';
const OWNER = '127.0.0.9';

/** What a form POST got back: status, `Location`, `Retry-After`, `Set-Cookie` names and `name=value` pairs, body. */
export interface Answer {
	status: number;
	location?: string;
	retryAfter?: string;
	cookies: string[];
	/** Each `Set-Cookie`'s `name=value`, attributes left out. */
	cookiePairs: string[];
	body: string;
}

/** POSTs `fields` as a form to `url` (a page's default action) from the client address `from`; redirects are not followed. */
export function postForm(url: string, fields: Record<string, string>, from: string): Promise<Answer> {
	const body = new URLSearchParams(fields).toString();
	const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin, accept: 'text/html' };
	return new Promise((resolve, reject) => {
		const request = http.request(url, { method: 'POST', headers, localAddress: from }, (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => (text += chunk));
			response.on('end', () =>
				resolve({
					status: response.statusCode!,
					location: response.headers.location,
					retryAfter: response.headers['retry-after'] as string | undefined,
					cookies: (response.headers['set-cookie'] ?? []).map((cookie) => cookie.split('=')[0]!),
					cookiePairs: (response.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]!),
					body: text
				})
			);
		});
		request.on('error', reject);
		request.end(body);
	});
}

/** Registers the flow as a test of the enclosing `describe`; the app has the credentials provider (with others: `providerId` is posted) and no `rateLimit` in `src/auth.ts`. */
export function lockoutFlows(app: () => { server: Server }): void {
	it('20 wrong passwords from one client lock the address there (429, Retry-After), not for its owner on another client, nor its reset link (NIST SP 800-63B-4 §3.2.2)', async () => {
		const { url } = app().server;
		const email = `lockout-${Date.now()}@example.com`;
		const password = 'lighthouse quietly hums at dawn 7';
		expect((await postForm(`${url}/signup`, { email, password }, OWNER)).location).toBe('/account');

		const answers: Answer[] = [];
		for (let i = 0; i < 20; i++) answers.push(await postForm(`${url}/signin`, { providerId: 'credentials', email, password: `guess number ${i}` }, ATTACKER));
		for (const answer of answers.slice(0, 10)) expect(answer).toMatchObject({ status: 303, location: '/signin?error=CredentialsSignin&code=credentials' });
		for (const answer of answers.slice(10)) {
			expect(answer.status).toBe(429);
			expect(Number(answer.retryAfter)).toBeGreaterThan(800);
			expect(answer.body).toContain('Too many attempts. Try again in');
		}
		// The attacker's client stays locked, the right password included.
		expect((await postForm(`${url}/signin`, { providerId: 'credentials', email, password }, ATTACKER)).status).toBe(429);
		// The owner, from their own network, signs in.
		const owner = await postForm(`${url}/signin`, { providerId: 'credentials', email, password }, OWNER);
		expect(owner).toMatchObject({ status: 303, location: '/' });
		expect(owner.cookies).toContain('auth.session-token');
		// The way back in by email stays open, even from the locked client.
		const reset = await postForm(`${url}/signin/forgot-password`, { email }, ATTACKER);
		expect(reset.status).toBe(200);
		expect(reset.body).toContain('a link to choose a new one is on its way');
	});
}
