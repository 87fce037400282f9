/**
 * Passkeys in an app set up by `create-auth --providers credentials,passkey,…`, in Chromium with
 * a virtual authenticator (CDP `WebAuthn.addVirtualAuthenticator`: internal, resident keys, user
 * verified). WebAuthn takes no IP address as relying party id, so the pages are opened at
 * `localhost` (the server listens on 127.0.0.1).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { freshPage, PASSWORD, signedInAs, submitCredentials, type CredentialsApp } from './credentials-flow.js';
import { addVirtualAuthenticator } from './harness/browser.js';
import { postForm } from './lockout-flow.js';

/** What the flows need: the app, and the authenticator rows of its store where the test can read them. */
export interface PasskeyApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	authenticators?(): Promise<number>;
}

/** The app's URL on `localhost`: a valid relying party, unlike 127.0.0.1. */
export const onLocalhost = (url: string) => url.replace('//127.0.0.1:', '//localhost:');

/**
 * Makes `http://localhost:<port>` the relying party of the app's passkeys, as the owner of an app
 * whose `AUTH_URL` is an IP address must (here the dev IdP's redirect URI needs 127.0.0.1): the
 * `Passkey()` call in its `src/auth.<ext>` gets `relyingParty`.
 * @throws {Error} the file has no `Passkey()` call.
 */
export async function passkeysOnLocalhost(appDir: string, ext: 'ts' | 'js', port: number): Promise<void> {
	const file = path.join(appDir, `src/auth.${ext}`);
	const text = await fs.readFile(file, 'utf8');
	if (!text.includes('Passkey()')) throw new Error(`src/auth.${ext} has no Passkey() call`);
	await fs.writeFile(file, text.replace('Passkey()', `Passkey({ relyingParty: { id: 'localhost', origin: 'http://localhost:${port}' } })`));
}

/** Opens `path` and waits until its scripts run (a click before hydration does nothing). */
export async function open(page: Page, url: string): Promise<void> {
	await page.goto(url);
	await page.waitForLoadState('networkidle');
}

/** Signs out with the account page's "Sign out" button. */
export async function signOut(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/account`);
	await page.getByRole('button', { name: 'Sign out' }).click();
	await page.waitForURL((target) => target.pathname === '/');
}

/**
 * Visits `target`, a page whose passkey autofill (conditional mediation) the virtual authenticator
 * takes at once, and resolves once the visit is committed: the sign-in can navigate on before the
 * page's load event. On a loaded machine Playwright may see the commit only after that navigation
 * began, which then interrupts the visit: that is the sign-in going on, not a failure. The caller
 * waits next for where it must lead (`page.waitForURL`).
 * @throws any other failure of the visit
 */
export async function visitTakenByAutofill(page: Page, target: string): Promise<void> {
	await page.goto(target, { waitUntil: 'commit' }).catch((error: Error) => {
		if (!error.message.includes('is interrupted by another navigation to')) throw error;
	});
}

/**
 * Runs `act` while capturing the passkey sign-in form's POST to `/signin`, as an attacker with
 * a log, a proxy or a copy of the browser profile would have it: the urlencoded body and the
 * ceremony cookie the browser sends with it (read from the context: CDP's intercepted request
 * carries no cookies yet).
 */
async function capturingCeremonyPost(page: Page, url: string, act: () => Promise<void>): Promise<{ body: string; cookie: string }> {
	let captured: { body: string; cookie: string } | undefined;
	const signInPost = (target: URL) => target.pathname === '/signin';
	await page.route(signInPost, async (route) => {
		const request = route.request();
		if (request.method() === 'POST' && request.postData()?.includes('providerId=passkey')) {
			const challenge = (await page.context().cookies(url)).find((cookie) => cookie.name.endsWith('auth.webauthn-challenge'));
			if (challenge) captured = { body: request.postData()!, cookie: `${challenge.name}=${challenge.value}` };
		}
		await route.continue();
	});
	await act();
	await expect.poll(() => captured).toBeDefined();
	await page.unroute(signInPost);
	return captured!;
}

/** Signs up at `/signup` with a passkey made by the page's virtual authenticator. */
async function signUpWithPasskey(page: Page, url: string, email: string): Promise<void> {
	await open(page, `${url}/signup`);
	await page.getByLabel('Email').fill(email);
	await page.getByRole('button', { name: 'Sign up with a passkey' }).click();
	await page.waitForURL((target) => target.pathname === '/account');
}

/** Registers the flows as tests of the enclosing `describe`. */
export function passkeyFlows(app: () => PasskeyApp): void {
	it('signs up with a passkey, then signs in with it from the email field’s autofill and from the button, its counter rising each time, and signs out', async () => {
		const { server, browser, authenticators } = app();
		const url = onLocalhost(server.url);
		const email = `passkey-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		const device = await addVirtualAuthenticator(page);
		const stored = await authenticators?.();
		const logged = server.output().length;

		await signUpWithPasskey(page, url, email);
		expect(await signedInAs(page, url, email)).toBe(true);
		// Nothing logged: no UntrustedHost, no stack trace. database-sessions.test.ts serves its app
		// as `npm run build && npm run preview` does, without AUTH_URL: the loopback origin is trusted.
		expect(server.output().slice(logged)).not.toMatch(/UntrustedHost|\n\s+at /);
		const [credential] = await device.credentials();
		expect(credential).toMatchObject({ rpId: 'localhost', isResidentCredential: true, userName: email });
		if (stored !== undefined) expect(await authenticators!()).toBe(stored + 1);
		const counters = [credential!.signCount];
		await signOut(page, url);
		expect(await signedInAs(page, url, email)).toBe(false);

		// Conditional mediation: the page offers the passkey in the autofill at once; the virtual
		// authenticator, present and verified, takes it.
		await visitTakenByAutofill(page, `${url}/signin?callbackUrl=/account`);
		await page.waitForURL((target) => target.pathname === '/account');
		expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
		counters.push((await device.credentials())[0]!.signCount);
		await signOut(page, url);

		// The button: the autofill waits (no presence), the click's own prompt is answered. Its
		// POST is captured on the way (body and challenge cookie), as a log or a proxy would.
		const presence = (enabled: boolean) => device.cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: device.authenticatorId, enabled });
		await presence(false);
		await open(page, `${url}/signin?callbackUrl=/account`);
		await presence(true);
		const captured = await capturingCeremonyPost(page, url, () => page.getByRole('button', { name: 'Sign in with a passkey' }).click());
		await page.waitForURL((target) => target.pathname === '/account');
		counters.push((await device.credentials())[0]!.signCount);
		expect(counters[1]).toBeGreaterThan(counters[0]!);
		expect(counters[2]).toBeGreaterThan(counters[1]!);

		// W3C WebAuthn Level 3 §13.4.3, OWASP ASVS 5.0 V6.7.2: the captured sign-in posted again
		// over plain HTTP within the 5 minutes, after the browser used it, signs no one in.
		const replay = await fetch(`${url}/signin?callbackUrl=/account`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: url, cookie: captured.cookie },
			body: captured.body
		});
		expect(replay.status).toBe(303);
		expect(new URL(replay.headers.get('location')!, url).searchParams.get('error')).toBe('WebAuthnVerificationError');
		expect(replay.headers.getSetCookie().filter((cookie) => /session-token[^=]*=[^;]/.test(cookie))).toEqual([]);
		// The server logs the refusal after its answer; wrangler passes workerd's lines on seconds later on a loaded machine.
		await expect.poll(() => server.output(), { timeout: 15_000 }).toMatch(/passkey challenge was used already/);

		await signOut(page, url);
		expect(await signedInAs(page, url, email)).toBe(false);
		await page.context().close();
	});

	it('tells a visitor when the address has an account, and a signed-in user when this device already holds their passkey', async () => {
		const { server, browser } = app();
		const url = onLocalhost(server.url);
		const email = `passkey-twice-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		await addVirtualAuthenticator(page);
		await signUpWithPasskey(page, url, email);
		await open(page, `${url}/account`);
		await page.getByRole('button', { name: 'Add a passkey' }).click();
		await expect.poll(() => page.getByRole('alert').textContent()).toBe('This device already has a passkey for your account.');

		const stranger = await freshPage(browser);
		await addVirtualAuthenticator(stranger);
		await open(stranger, `${url}/signup`);
		await stranger.getByLabel('Email').fill(email);
		await stranger.getByRole('button', { name: 'Sign up with a passkey' }).click();
		await expect.poll(() => stranger.getByRole('alert').textContent()).toBe('An account with this email exists. Sign in, then add a passkey to it.');
		expect(new URL(stranger.url()).pathname).toBe('/signup');
		await page.context().close();
		await stranger.context().close();
	});

	it('refuses a response that does not verify: WebAuthnVerificationError on /signin, no session, and no autofill loop', async () => {
		const { server, browser } = app();
		const url = onLocalhost(server.url);
		const page = await freshPage(browser);
		await addVirtualAuthenticator(page);
		await open(page, `${url}/signin`);
		// A forged assertion posted the way the page posts a real one.
		await page.evaluate(() => {
			const form = Object.assign(document.createElement('form'), { method: 'POST', action: '/signin' });
			const fields = { providerId: 'passkey', action: 'authenticate', response: JSON.stringify({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: {} }) };
			for (const [name, value] of Object.entries(fields)) form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
			document.body.append(form);
			form.submit();
		});
		await page.waitForURL((target) => target.searchParams.get('error') === 'WebAuthnVerificationError');
		await page.waitForLoadState('networkidle');
		expect(await page.getByRole('alert').textContent()).toBe('That passkey could not be verified. Try again, or choose another way to sign in.');
		expect((await page.context().cookies()).some((cookie) => cookie.name === 'auth.session-token')).toBe(false);
		await page.context().close();
	});

	it('removes a passkey on /account: the password manager is told (WebAuthn Signal API), and the passkey no longer signs in', async () => {
		const { server, browser } = app();
		const url = onLocalhost(server.url);
		const email = `passkey-removed-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		const device = await addVirtualAuthenticator(page);
		// Each document records the Signal API calls the account page makes (where Chromium has the
		// API, this stands in for the password manager; where it does not, the page would skip them).
		await page.addInitScript(() => {
			const calls: unknown[] = [];
			Object.assign(window, { signals: calls });
			for (const name of ['signalAllAcceptedCredentials', 'signalCurrentUserDetails', 'signalUnknownCredential']) {
				Object.defineProperty(PublicKeyCredential, name, { configurable: true, value: async (options: unknown) => void calls.push([name, options]) });
			}
		});
		const signals = () => page.evaluate(() => (window as unknown as { signals: unknown[] }).signals);
		// Signed up over HTTP from a loopback address of its own: the browser's 127.0.0.1 keeps its sign-up limit for the other flows.
		expect((await postForm(`${server.url}/signup`, { email, password: PASSWORD }, '127.0.0.71')).location).toBe('/account');
		await page.goto(`${url}/signin`);
		await submitCredentials(page, 'Sign in', email, PASSWORD);
		await page.waitForURL((target) => target.pathname === '/');
		await open(page, `${url}/account`);
		await page.getByRole('button', { name: 'Add a passkey' }).click();
		await page.waitForURL((target) => target.searchParams.get('passkey') === 'added');
		const credentialId = Buffer.from((await device.credentials())[0]!.credentialId, 'base64').toString('base64url');
		const methods = page.getByRole('region', { name: 'How you sign in' });
		expect(await methods.getByRole('listitem').filter({ hasText: 'Passkey on one device' }).count()).toBe(1);
		await expect.poll(signals).toContainEqual(['signalAllAcceptedCredentials', { rpId: 'localhost', userId: expect.any(String), allAcceptedCredentialIds: [credentialId] }]);

		// A sign-in just now, so the removal needs no other (session.freshAge): with the passkey, which
		// the page offers in the email field's autofill and the virtual authenticator takes at once.
		await visitTakenByAutofill(page, `${url}/signin?callbackUrl=/account`);
		await page.waitForURL((target) => target.pathname === '/account');
		await page.waitForLoadState('networkidle');
		await methods.getByRole('button', { name: 'Remove Passkey' }).click();
		await expect.poll(() => methods.getByRole('status').textContent()).toBe('Passkey is removed.');
		// The page tells the password manager once it has hydrated (an $effect), which can be after
		// the server-rendered status shows.
		await expect.poll(signals).toContainEqual(['signalUnknownCredential', { rpId: 'localhost', credentialId }]);
		const listed = await methods.getByRole('listitem').allTextContents();
		expect(listed.filter((text) => text.includes('Passkey')), JSON.stringify(listed)).toEqual([]);

		// The device still holds it; the server no longer takes it.
		await signOut(page, url);
		await visitTakenByAutofill(page, `${url}/signin`);
		await page.waitForURL((target) => target.searchParams.get('error') === 'WebAuthnVerificationError');
		expect(await signedInAs(page, url, email)).toBe(false);
		await page.context().close();
	});
}
