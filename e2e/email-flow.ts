/**
 * Email sign-in links in an app set up by `create-auth --providers …,email`, its
 * `EMAIL_SERVER` a local SMTP server of the test's (runtime/test/smtp.ts): the link is taken
 * from the mail that server received, as a person would click it in their inbox.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Inbox } from '../runtime/test/smtp.js';
import type { CredentialsApp } from './credentials-flow.js';
import { setEnv } from './harness/app.js';

/** Points the app's `.env` at the inbox; call before building. */
export async function useInbox(appDir: string, inbox: Inbox): Promise<void> {
	await setEnv(path.join(appDir, '.env'), { EMAIL_SERVER: inbox.url, EMAIL_FROM: 'Example <no-reply@example.com>' });
}

/** The sign-in page's email-link form: the one whose button says "Sign in with Email". */
const emailForm = (page: Page) => page.locator('form').filter({ has: page.getByRole('button', { name: 'Sign in with Email' }) });

/** Asks for a link on `/signin` (from `/account`, so it carries the callback) and returns it from the mail. */
async function requestLink(page: Page, url: string, inbox: Inbox, email: string): Promise<string> {
	await page.goto(`${url}/account`);
	const mail = inbox.next(email);
	await emailForm(page).getByLabel('Email').fill(email);
	await emailForm(page).getByRole('button', { name: 'Sign in with Email' }).click();
	await page.waitForURL((target) => target.pathname === '/signin/verify-request');
	await expect.poll(() => page.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
	return inbox.linkIn(await mail);
}

/** Registers the flows as tests of the enclosing `describe`. */
export function emailFlows(app: () => Pick<CredentialsApp, 'server' | 'browser'> & { inbox: Inbox }): void {
	it('signs in by the emailed link: opening it uses nothing (a mail scanner opens it first), the click signs in and returns to the page asked for', async () => {
		const { server, browser, inbox } = app();
		const context = await browser.newContext();
		const page = await context.newPage();
		const link = await requestLink(page, server.url, inbox, 'link@example.com');
		expect(new URL(link).origin).toBe(new URL(server.url).origin);
		expect(new URL(link).searchParams.get('callbackUrl')).toBe('/account');

		// A scanner's GETs: the page, twice, with no effect on the link.
		for (let i = 0; i < 2; i++) {
			const scanned = await fetch(link);
			expect(scanned.status).toBe(200);
			expect(scanned.headers.get('referrer-policy')).toBe('same-origin');
			expect(scanned.headers.get('set-cookie')).toBeNull();
		}
		await page.goto(link);
		expect(await page.getByText('You are signing in as link@example.com.').isVisible()).toBe(true);
		await page.getByRole('button', { name: 'Continue signing in' }).click();
		await page.waitForURL((target) => target.pathname === '/account');
		await expect.poll(() => page.getByText('Signed in as link@example.com').isVisible()).toBe(true);

		// The same link again, from a browser that is not signed in: refused, said so on the sign-in page.
		const other = await browser.newContext();
		const again = await other.newPage();
		await again.goto(link);
		await again.getByRole('button', { name: 'Continue signing in' }).click();
		await again.waitForURL((target) => target.pathname === '/signin' && target.searchParams.get('error') === 'Verification');
		expect(await again.getByRole('alert').textContent()).toBe('This sign-in link cannot be used: it was used already, or it expired. Ask for a new one below.');
		await other.close();
		await context.close();
	});

	it('works with JavaScript disabled, and refuses a malformed address on the page with its message', async () => {
		const { server, browser, inbox } = app();
		const context = await browser.newContext({ javaScriptEnabled: false });
		const page = await context.newPage();
		await page.goto(`${server.url}/signin`);
		// type="email" is a browser hint; without it the server still checks.
		await emailForm(page).getByLabel('Email').evaluate((input) => input.setAttribute('type', 'text'));
		await emailForm(page).getByLabel('Email').fill('not an address');
		await emailForm(page).getByRole('button', { name: 'Sign in with Email' }).click();
		await expect.poll(() => page.getByRole('alert').textContent()).toBe('Enter a valid email address.');

		const link = await requestLink(page, server.url, inbox, 'nojs@example.com');
		await page.goto(link);
		await page.getByRole('button', { name: 'Continue signing in' }).click();
		await page.waitForURL((target) => target.pathname === '/account');
		expect(await page.getByText('Signed in as nojs@example.com').isVisible()).toBe(true);
		await context.close();
	});
}
