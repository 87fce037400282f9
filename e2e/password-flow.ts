/**
 * Password reset and change in an app set up by `create-auth --providers credentials,…`, its
 * `EMAIL_SERVER` a local SMTP server of the test's (see `useInbox` in email-flow.ts): the reset
 * link is taken from the mail that server received.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Inbox } from '../runtime/test/smtp.js';
import { freshPage, PASSWORD, signedInAs, signInResponse, signUpAt, type CredentialsApp } from './credentials-flow.js';
import type { Browser } from './harness/browser.js';
import { expectSignedOut } from './sessions-flow.js';

/** What the flows need: the app, its inbox, and its session strategy (database sessions end on other devices). */
export interface PasswordApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	inbox: Inbox;
	strategy: 'jwt' | 'database';
}

/** Asks for a reset link from `/signin` → "Forgot password?" and returns it from the mail. */
export async function requestResetLink(page: Page, url: string, inbox: Inbox, email: string): Promise<string> {
	await page.goto(`${url}/signin`);
	await page.getByRole('link', { name: 'Forgot password?' }).click();
	await page.waitForURL((target) => target.pathname === '/signin/forgot-password');
	const mail = inbox.next(email);
	await page.getByLabel('Email').fill(email);
	await page.getByRole('button', { name: 'Send reset link' }).click();
	await expect.poll(() => page.getByRole('status').textContent()).toContain(`If ${email} has an account with a password, a link to choose a new one is on its way.`);
	return inbox.linkIn(await mail);
}

/** Registers the flows as tests of the enclosing `describe`. */
export function passwordFlows(app: () => PasswordApp): void {
	it('resets a forgotten password from the emailed link: signed in at once, the old password refused, the link works once', async () => {
		const { server, browser, inbox, strategy } = app();
		const email = `forgot-${Date.now()}@example.com`;
		const signedUp = await freshPage(browser);
		await signUpAt(signedUp, server.url, email);

		const page = await freshPage(browser);
		const link = await requestResetLink(page, server.url, inbox, email);
		expect(`${new URL(link).origin}${new URL(link).pathname}`).toBe(`${server.url}/signin/reset-password`);
		// A mail scanner's GET changes nothing.
		expect((await fetch(link)).status).toBe(200);
		await page.goto(link);
		expect(await page.getByText(`For ${email}.`).isVisible()).toBe(true);
		// The minimum follows the config's passwords.minLength (NIST SP 800-63B-4 §3.1.1.2: 15 alone);
		// a blocklisted password (common, breached; OWASP ASVS 5.0 V6.2) is refused with the reason shown, the link still unused.
		expect(await page.getByLabel('New password').getAttribute('minlength')).toBe('15');
		await page.getByLabel('New password').fill('passwordpassword');
		await page.getByRole('button', { name: 'Set password and sign in' }).click();
		await expect.poll(() => page.getByRole('alert').textContent()).toContain('This password is too common');
		await page.getByLabel('New password').fill('a brand new password');
		await page.getByRole('button', { name: 'Set password and sign in' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(page, server.url, email)).toBe(true);
		// The browser that signed up is signed out by the reset (OWASP ASVS 5.0 7.4.3): a database
		// session at once, a jwt one at its next revalidation.
		await expectSignedOut(signedUp, server, email, strategy);

		const other = await freshPage(browser);
		expect((await signInResponse(other, server.url, email, PASSWORD)).headers().location).toMatch(/^\/signin\?error=CredentialsSignin/);
		expect((await signInResponse(other, server.url, email, 'a brand new password')).headers().location).toBe('/');

		// The link again, in another browser: refused on its page, with the way to a new one.
		const again = await freshPage(browser);
		await again.goto(link);
		await again.getByLabel('New password').fill('yet another password');
		await again.getByRole('button', { name: 'Set password and sign in' }).click();
		await expect.poll(() => again.getByRole('alert').textContent()).toContain('This reset link is invalid, used or expired. Ask for a new one.');
		// Where the link leads, as the browser resolves it: a page the server rendered (no JS yet)
		// writes resolve()'s path relative to itself (../signin/forgot-password), a hydrated one the absolute path.
		const askAgain = await again.getByRole('link', { name: 'Ask for a new link' }).evaluate((a) => (a as HTMLAnchorElement).href);
		expect(new URL(askAgain).pathname).toBe('/signin/forgot-password');
		expect(await signedInAs(again, server.url, email)).toBe(false);
		for (const used of [signedUp, page, other, again]) await used.context().close();
	});

	it('answers an address without an account as it answers one with, and mails it nothing', async () => {
		const { server, browser, inbox } = app();
		const page = await freshPage(browser);
		await page.goto(`${server.url}/signin/forgot-password`);
		const before = inbox.messages.length;
		await page.getByLabel('Email').fill('nobody-here@example.com');
		await page.getByRole('button', { name: 'Send reset link' }).click();
		await expect.poll(() => page.getByRole('status').textContent()).toContain('If nobody-here@example.com has an account with a password');
		// Another address's mail, sent after, is the first one to arrive.
		const email = `known-${Date.now()}@example.com`;
		await signUpAt(await freshPage(browser), server.url, email);
		await requestResetLink(page, server.url, inbox, email);
		expect(inbox.messages.slice(before).flatMap((mail) => [mail.to ?? []].flat().map((to) => to.text))).toEqual([email]);
		await page.context().close();
	});

	it('changes the password on /account with the current one; other devices are signed out (OWASP ASVS 5.0 7.4.3)', async () => {
		const { server, browser, strategy } = app();
		const email = `change-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		await signUpAt(page, server.url, email);
		const otherDevice = await freshPage(browser);
		expect((await signInResponse(otherDevice, server.url, email, PASSWORD)).headers().location).toBe('/');

		await page.goto(`${server.url}/account`);
		const form = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Change password' }) });
		// The minimum follows the config's passwords.minLength, as on the sign-up and reset pages.
		expect(await form.getByLabel('New password').getAttribute('minlength')).toBe('15');
		await form.getByLabel('Current password').fill('not my password');
		await form.getByLabel('New password').fill('my changed password');
		await form.getByRole('button', { name: 'Change password' }).click();
		await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your current password is not right.');

		await form.getByLabel('Current password').fill(PASSWORD);
		await form.getByLabel('New password').fill('my changed password');
		await form.getByRole('button', { name: 'Change password' }).click();
		const changed = `Your password is changed. Your other devices are signed out${strategy === 'jwt' ? ' within a minute' : ''}.`;
		await expect.poll(() => page.getByRole('status').textContent()).toBe(changed);
		expect(await signedInAs(page, server.url, email)).toBe(true);
		await expectSignedOut(otherDevice, server, email, strategy);

		const fresh = await freshPage(browser);
		expect((await signInResponse(fresh, server.url, email, PASSWORD)).headers().location).toMatch(/^\/signin\?error=CredentialsSignin/);
		expect((await signInResponse(fresh, server.url, email, 'my changed password')).headers().location).toBe('/');
		for (const used of [page, otherDevice, fresh]) await used.context().close();
	});
}
