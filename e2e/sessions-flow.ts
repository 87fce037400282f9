/**
 * The account page's sessions (issue 31), in an app set up by `create-auth --providers
 * credentials,…`: two or three browser contexts signed in as one user, one of them ending the
 * others from "Where you're signed in". With `jwt` sessions the other browser is signed out at its
 * next revalidation, so the app's `session.revalidateAge` is set short by {@link shortSessionTimes},
 * as its owner would in src/auth; `session.freshAge` too, for the re-authentication flow. The flows
 * move the server's clock past those ages (`Server.advanceClock`) rather than wait them out, but
 * for one wait on the real clock (see {@link expectSignedOut}).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Inbox } from '../runtime/test/smtp.js';
import { freshPage, navigate, PASSWORD, signedInAs, signInResponse, submitCredentials, type CredentialsApp } from './credentials-flow.js';
import type { Server } from './harness/app.js';
import { count } from './harness/ledger.js';
import { postForm } from './lockout-flow.js';

/** Seconds between a `jwt` session's checks against its user in apps {@link shortSessionTimes} edited. */
export const REVALIDATE_AGE = 2;
/**
 * Seconds a sign-in counts as recent in apps {@link shortSessionTimes} edited: long enough for a
 * flow's sign-in and its action on a loaded CI machine (two e2e files and app builds on 2 cores);
 * the re-authentication flows move the server's clock past it.
 */
export const FRESH_AGE = 20;

/** What the flows need: the app, and the inbox its mail goes to (see `useInbox`). */
export interface SessionsApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	inbox: Inbox;
}

export const IPHONE_SAFARI =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/**
 * Sets `session.revalidateAge` to {@link REVALIDATE_AGE} and `session.freshAge` to
 * {@link FRESH_AGE} in the app's src/auth, as its owner would.
 * @throws {Error} src/auth has no `session: { strategy: … }` entry to add them to
 */
export async function shortSessionTimes(appDir: string, ext: 'ts' | 'js'): Promise<void> {
	const file = path.join(appDir, `src/auth.${ext}`);
	const text = await fs.readFile(file, 'utf8');
	const entry = /session: \{ strategy: '(jwt|database)'/;
	if (!entry.test(text)) throw new Error(`src/auth.${ext} has no session: { strategy } entry`);
	await fs.writeFile(file, text.replace(entry, (found) => `${found}, revalidateAge: ${REVALIDATE_AGE}, freshAge: ${FRESH_AGE}`));
}

/** A page in a fresh browser context that says it is `userAgent`. */
async function deviceWith(app: SessionsApp, userAgent: string): Promise<Page> {
	return (await app.browser.newContext({ userAgent })).newPage();
}

/** Signs `email` in on `page` from the sign-in page (it lands on `/`, or on its `callbackUrl`). */
async function signIn(page: Page, url: string, email: string): Promise<void> {
	await page.goto(`${url}/signin`);
	await submitCredentials(page, 'Sign in', email, PASSWORD);
	await page.waitForURL((target) => target.pathname !== '/signin');
}

/**
 * Where these flows sign their users up from: a loopback address of their own, so they do not use
 * up the sign-up limit of the browser's 127.0.0.1 (10 an hour per client), which the app's other
 * flows share (see ./lockout-flow.ts).
 */
const SIGN_UP_CLIENT = '127.0.0.70';

/**
 * A new user, signed up over HTTP (from {@link SIGN_UP_CLIENT}; that session signed out), then
 * signed in on an iPhone (Safari) and on a Windows laptop (Firefox), each a browser context of its
 * own; the address starts with `prefix`.
 */
async function twoDevices(app: SessionsApp, prefix: string): Promise<{ email: string; laptop: Page; phone: Page }> {
	const email = `${prefix}-${Date.now()}@example.com`;
	const signedUp = await postForm(`${app.server.url}/signup`, { email, password: PASSWORD }, SIGN_UP_CLIENT);
	expect(signedUp.location).toBe('/account');
	// The sign-up's own session (an HTTP client's, no device of the user's) ends: the page lists the two browsers.
	const signOut = await fetch(`${app.server.url}/signout`, {
		method: 'POST',
		redirect: 'manual',
		headers: { cookie: signedUp.cookiePairs.join('; '), origin: app.server.url, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: ''
	});
	expect(signOut.status).toBe(303);
	// The laptop, where the flows act, signs in last: its sign-in is the more recent (session.freshAge).
	const phone = await deviceWith(app, IPHONE_SAFARI);
	await signIn(phone, app.server.url, email);
	const laptop = await deviceWith(app, WINDOWS_FIREFOX);
	await signIn(laptop, app.server.url, email);
	return { email, laptop, phone };
}

/**
 * Asserts that `page`'s browser is signed out: at its next request with `database` sessions; with
 * `jwt` ones at the next request after a revalidation is due, the server's clock moved past
 * {@link REVALIDATE_AGE} seconds, or with `realClock` within that many seconds of real time (and a
 * second of slack per side).
 */
export async function expectSignedOut(page: Page, server: Server, email: string, strategy: 'jwt' | 'database', { realClock = false } = {}): Promise<void> {
	const waited = strategy === 'jwt' && realClock;
	if (strategy === 'jwt' && !realClock) await server.advanceClock!(REVALIDATE_AGE + 1);
	const started = Date.now();
	const within = waited ? (REVALIDATE_AGE + 2) * 1000 : 0;
	count('waitSeconds', within / 1000);
	while (await signedInAs(page, server.url, email)) {
		if (Date.now() - started > within) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	expect(await signedInAs(page, server.url, email), waited ? `signed out within ${within} ms` : 'signed out at its next request').toBe(false);
}

/** The account page's sessions section. */
export const sessionsOf = (page: Page) => page.getByRole('region', { name: "Where you're signed in" });

/**
 * Registers the flows as tests of the enclosing `describe`, for an app of session strategy
 * `strategy`; `reauthentication` (default true) adds the one that goes past `freshAge`, which
 * one app per strategy is enough for.
 */
export function sessionsFlows(app: () => SessionsApp, { strategy, reauthentication = true }: { strategy: 'jwt' | 'database'; reauthentication?: boolean }): void {
	it('lists where the user is signed in; "End all other sessions" signs the other browser out (OWASP ASVS 5.0 7.5.2), this one stays', async () => {
		const { server } = app();
		const { email, laptop, phone } = await twoDevices(app(), 'devices');

		await laptop.goto(`${server.url}/account`);
		const sessions = sessionsOf(laptop);
		const rows = sessions.getByRole('listitem');
		if (strategy === 'database') {
			await expect.poll(() => rows.count()).toBe(2);
			expect(await rows.filter({ hasText: 'This device' }).textContent()).toContain('Firefox on Windows');
			expect(await rows.filter({ hasText: 'Safari on iOS' }).getByRole('button', { name: 'End the session on Safari on iOS' }).isVisible()).toBe(true);
		} else {
			// A JWT session is a cookie the server keeps no list of: this browser, and the button.
			expect(await rows.count()).toBe(1);
			expect(await rows.first().textContent()).toMatch(/Firefox on Windows\s*This device/);
			expect(await sessions.getByText('Other devices are not listed here.').isVisible()).toBe(true);
		}
		await sessions.getByRole('button', { name: 'End all other sessions' }).click();
		await expect.poll(() => sessions.getByRole('status').textContent()).toBe('Your other devices are signed out.');
		// On the real clock on purpose (elsewhere the flows move the server's clock): a JWT session
		// ended from another browser signs that browser out within revalidateAge of real time.
		await expectSignedOut(phone, server, email, strategy, { realClock: true });
		expect(await signedInAs(laptop, server.url, email)).toBe(true);
		for (const page of [laptop, phone]) await page.context().close();
	});

	if (strategy === 'database') it('"End" on one row signs that browser out, and only it', async () => {
		const { server } = app();
		const { email, laptop, phone } = await twoDevices(app(), 'one-device');
		const tablet = await freshPage(app().browser);
		await signIn(tablet, server.url, email);

		await laptop.goto(`${server.url}/account`);
		const sessions = sessionsOf(laptop);
		await sessions.getByRole('button', { name: 'End the session on Safari on iOS' }).click();
		await expect.poll(() => sessions.getByRole('status').textContent()).toBe('That device is signed out.');
		expect(await sessions.getByText('Safari on iOS').count()).toBe(0);
		expect([await signedInAs(phone, server.url, email), await signedInAs(tablet, server.url, email), await signedInAs(laptop, server.url, email)]).toEqual([false, true, true]);
		for (const page of [laptop, phone, tablet]) await page.context().close();
	});

	it('deletes the account once its address is typed: both browsers signed out, the password signs no one in', async () => {
		const { server } = app();
		const { email, laptop, phone } = await twoDevices(app(), 'deleted');

		await laptop.goto(`${server.url}/account`);
		const section = laptop.getByRole('region', { name: 'Delete your account' });
		await section.getByLabel('to confirm').fill('not my address');
		await section.getByRole('button', { name: 'Delete my account' }).click();
		await expect.poll(() => section.getByRole('alert').textContent()).toContain(`Type ${email} to confirm.`);
		expect(await signedInAs(phone, server.url, email)).toBe(true);

		await section.getByLabel('to confirm').fill(email);
		await section.getByRole('button', { name: 'Delete my account' }).click();
		await laptop.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(laptop, server.url, email)).toBe(false);
		await expectSignedOut(phone, server, email, strategy);
		const again = await freshPage(app().browser);
		await again.goto(`${server.url}/signin`);
		await submitCredentials(again, 'Sign in', email, PASSWORD);
		await again.waitForURL((target) => target.searchParams.get('error') === 'CredentialsSignin');
		for (const page of [laptop, phone, again]) await page.context().close();
	});

	it('changes the email address only once the link mailed to the new one is confirmed; the old one is told, the other browser signed out', async () => {
		const { server, inbox } = app();
		const { email, laptop, phone } = await twoDevices(app(), 'change');
		const changed = `changed-${Date.now()}@example.com`;
		await laptop.goto(`${server.url}/account`);
		const section = laptop.getByRole('region', { name: 'Email address' });
		const mail = inbox.next(changed);
		await section.getByLabel('New email address').fill(changed);
		await section.getByRole('button', { name: 'Send a confirmation link' }).click();
		await expect.poll(() => section.getByRole('status').textContent()).toBe(`A link to confirm is on its way to ${changed}. Your address changes when you open it.`);
		const link = inbox.linkIn(await mail);
		// Not changed before the link is used; a mail scanner's GET (no session) changes nothing.
		expect(await navigate(link)).toMatchObject({ status: 303, location: expect.stringMatching(/^\/signin\?callbackUrl=/) });
		expect(await signedInAs(laptop, server.url, email)).toBe(true);

		const notice = inbox.next(email);
		await laptop.goto(link);
		await section.getByRole('button', { name: 'Confirm new address' }).click();
		await laptop.waitForURL((target) => target.searchParams.get('changed') === 'address');
		expect(await section.getByRole('status').textContent()).toBe('Your email address is changed. Your other devices are signed out.');
		expect(await signedInAs(laptop, server.url, changed)).toBe(true);
		expect((await notice).subject).toMatch(/^Your email address was changed on /);
		await expectSignedOut(phone, server, email, strategy);
		// The password moved with the address.
		const other = await freshPage(app().browser);
		expect((await signInResponse(other, server.url, email, PASSWORD)).headers().location).toMatch(/error=CredentialsSignin/);
		expect((await signInResponse(other, server.url, changed, PASSWORD)).headers().location).toBe('/');
		for (const page of [laptop, phone, other]) await page.context().close();
	});

	if (reauthentication) it('OWASP ASVS 5.0 7.5.1: past freshAge, ending sessions asks to sign in again and ends nothing; after it the page offers the action, which completes', async () => {
		const { server } = app();
		const { email, laptop, phone } = await twoDevices(app(), 'reauth');
		await server.advanceClock!(FRESH_AGE + 1);

		await laptop.goto(`${server.url}/account`);
		await sessionsOf(laptop).getByRole('button', { name: 'End all other sessions' }).click();
		const alert = sessionsOf(laptop).getByRole('alert');
		await expect.poll(() => alert.textContent()).toContain(`For your security, sign in again to continue: your last sign-in was more than ${FRESH_AGE} seconds ago.`);
		// Refused: nothing ended (for jwt, after a revalidation is due too).
		if (strategy === 'jwt') await server.advanceClock!(REVALIDATE_AGE + 1);
		expect(await signedInAs(phone, server.url, email)).toBe(true);

		await laptop.goto(`${server.url}/account`);
		await sessionsOf(laptop).getByRole('button', { name: 'End all other sessions' }).click();
		await alert.getByRole('link', { name: 'Sign in again' }).click();
		await laptop.waitForURL((target) => target.pathname === '/signin');
		await submitCredentials(laptop, 'Sign in', email, PASSWORD);
		await laptop.waitForURL((target) => target.pathname === '/account' && target.searchParams.get('resume') === 'revokeOtherSessions');
		const resume = sessionsOf(laptop).locator('form.resume');
		expect(await resume.textContent()).toContain('You signed in again. End every other session now?');
		await resume.getByRole('button', { name: 'End all other sessions' }).click();
		await expect.poll(() => sessionsOf(laptop).getByRole('status').textContent()).toBe('Your other devices are signed out.');
		await expectSignedOut(phone, server, email, strategy);
		expect(await signedInAs(laptop, server.url, email)).toBe(true);
		for (const page of [laptop, phone]) await page.context().close();
	});
}
