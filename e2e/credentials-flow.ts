/**
 * The credentials flows every fixture app must pass once `create-auth` has run in it, whatever
 * its SvelteKit major or language: svelte-check, the guards, sign-up, sign-in, sign-out, the
 * errors, no-JavaScript forms, malformed cookies and an idempotent re-run. A test file sets an
 * app up in `beforeAll` and calls {@link credentialsFlows} inside its `describe`.
 */
import http from 'node:http';
import type { Page, Response } from 'playwright-core';
import { expect, it } from 'vitest';
import type { CheckResult, RunResult, Server } from './harness/app.js';
import { closePage, type Browser } from './harness/browser.js';

export const EMAIL = 'ada@example.com';
export const PASSWORD = 'correct horse battery staple';

/** An app with auth, served, and what the flows need to drive it. */
export interface CredentialsApp {
	server: Server;
	browser: Browser;
	/** svelte-check in the app, with its own tsconfig.json or jsconfig.json. */
	check(): Promise<CheckResult>;
	/** create-auth again, with the answers of the first run. */
	runCliAgain(): Promise<RunResult>;
}

/** The page's email + password form (a sign-in page may have an email-link form too). */
export const credentialsForm = (page: Page) => page.locator('form').filter({ has: page.getByLabel('Password') });

/** Fills the Email and Password fields of the page's credentials form and presses `button`. */
export async function submitCredentials(page: Page, button: string, email = EMAIL, password = PASSWORD): Promise<void> {
	const form = credentialsForm(page);
	await form.getByLabel('Email').fill(email);
	await form.getByLabel('Password').fill(password);
	await form.getByRole('button', { name: button, exact: true }).click();
}

/** Creates an account for `email` on the `/signup` page of the app at `url`; returns once the page is signed in on `/account`, where a sign-up with no page to go back to lands. */
export async function signUpAt(page: Page, url: string, email: string): Promise<void> {
	await page.goto(`${url}/signup`);
	await submitCredentials(page, 'Create account', email);
	await page.waitForURL((target) => target.pathname === '/account');
}

/** A page in a fresh browser context (no cookies); closed with the context. */
export async function freshPage(browser: Browser): Promise<Page> {
	return (await browser.newContext()).newPage();
}

/** Whether the page's browser is signed in as `email`: its `/account` page says so. */
export async function signedInAs(page: Page, url: string, email: string): Promise<boolean> {
	await page.goto(`${url}/account`);
	return new URL(page.url()).pathname === '/account' && (await page.getByText(`Signed in as ${email}`).isVisible());
}

/**
 * Opens the `/signin` page of the app at `url` and signs in there with `email` and `password`.
 * @returns the response to the form's POST (303 after an attempt that was made, 429 or 503 when refused)
 */
export async function signInResponse(page: Page, url: string, email: string, password: string): Promise<Response> {
	await page.goto(`${url}/signin`);
	const answer = page.waitForResponse((response) => response.request().method() === 'POST');
	await submitCredentials(page, 'Sign in', email, password);
	return answer;
}

/**
 * A GET as a browser's address bar sends it (`Accept: text/html`, `Sec-Fetch-Mode: navigate`),
 * which Node's fetch cannot: it always says `cors`. Redirects are not followed.
 */
export function navigate(url: string, cookie?: string): Promise<{ status: number; location?: string }> {
	return new Promise((resolve, reject) => {
		const headers = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate', ...(cookie === undefined ? {} : { cookie }) };
		http.get(url, { headers }, (response) => {
			response.resume();
			resolve({ status: response.statusCode!, location: response.headers.location });
		}).on('error', reject);
	});
}

/**
 * Registers the flows as tests of the enclosing `describe`.
 * @param app the app under test; called inside each test, after `beforeAll` has set it up
 * @param options `pages: false` registers only what differs with the generated code and needs no
 *   browser (svelte-check, the signed-out guards over HTTP, malformed cookies, the re-run), for an
 *   app whose pages another app of the same kind already drives (the stores of
 *   ./database-sessions.test.ts); default `true`, everything
 */
export function credentialsFlows(app: () => CredentialsApp, { pages = true }: { pages?: boolean } = {}): void {
	it('generates code that passes svelte-check with 0 errors and 0 warnings', async () => {
		const result = await app().check();
		expect(result.diagnostics).toEqual([]);
		expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors: 0, warnings: 0 });
	});

	it('redirects a signed-out page navigation to /account with 303 to /signin, keeping where it came from', async () => {
		const response = await navigate(`${app().server.url}/account/settings?tab=2`);
		expect(response).toEqual({ status: 303, location: `/signin?callbackUrl=${encodeURIComponent('/account/settings?tab=2')}` });
	});

	it('answers a signed-out fetch under /account with 401 JSON, not a redirect to an HTML page', async () => {
		for (const init of [{}, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }]) {
			const response = await fetch(`${app().server.url}/account/data`, { redirect: 'manual', ...init });
			expect(response.status).toBe(401);
			expect(await response.json()).toMatchObject({ message: 'Sign in to continue.' });
		}
	});

	it('treats a malformed session cookie as signed out, without an error page', async () => {
		for (const value of ['garbage', 'a.b.c.d.e', '']) {
			const response = await navigate(`${app().server.url}/account`, `auth.session-token=${value}`);
			expect(response.status).toBe(303);
			expect(response.location).toMatch(/^\/signin\?/);
		}
		const home = await fetch(`${app().server.url}/`, { headers: { cookie: 'auth.session-token=garbage' } });
		expect(home.status).toBe(200);
	});

	if (pages) {
		it('signs a new user up and in at once, back to the page first asked for; signs out and in again', async () => {
			const page = await app().browser.newPage();
			await page.goto(`${app().server.url}/account`);
			expect(new URL(page.url()).pathname).toBe('/signin');

			await page.getByRole('link', { name: 'Create one' }).click();
			await page.waitForURL('**/signup?callbackUrl=%2Faccount');
			await submitCredentials(page, 'Create account');
			await page.waitForURL('**/account');
			await expect.poll(() => page.getByText(`Signed in as ${EMAIL}`).isVisible()).toBe(true);

			await page.getByRole('button', { name: 'Sign out' }).click();
			await page.waitForURL((url) => url.pathname === '/');
			await page.goto(`${app().server.url}/signin`);
			await submitCredentials(page, 'Sign in');
			await page.waitForURL('**/');
			await page.goto(`${app().server.url}/account`);
			await expect.poll(() => page.getByText(`Signed in as ${EMAIL}`).isVisible()).toBe(true);

			await page.reload();
			expect(new URL(page.url()).pathname).toBe('/account');
			expect(await page.getByText(`Signed in as ${EMAIL}`).isVisible()).toBe(true);

			const cookies = await page.context().cookies();
			const session = cookies.find((c) => c.name === 'auth.session-token');
			expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

			await page.getByRole('button', { name: 'Sign out' }).click();
			await page.waitForURL((url) => url.pathname === '/');
			await page.goto(`${app().server.url}/account`);
			expect(new URL(page.url()).pathname).toBe('/signin');
			await closePage(page);
		});

		it('comes back to the protected page the user first asked for after signing in', async () => {
			const page = await app().browser.newPage();
			await page.goto(`${app().server.url}/account`);
			await submitCredentials(page, 'Sign in');
			await page.waitForURL('**/account');
			expect(await page.getByText(`Signed in as ${EMAIL}`).isVisible()).toBe(true);
			await closePage(page);
		});

		it.each([
			['a wrong password', EMAIL, 'not the password'],
			['an unknown email', 'nobody@example.com', PASSWORD]
		])('answers %s with the same generic error, and error=CredentialsSignin in the URL', async (_, email, password) => {
			const page = await app().browser.newPage();
			await page.goto(`${app().server.url}/signin`);
			await submitCredentials(page, 'Sign in', email, password);
			await page.waitForURL('**/signin?*');
			const url = new URL(page.url());
			expect(url.searchParams.get('error')).toBe('CredentialsSignin');
			expect(url.searchParams.get('code')).toBe('credentials');
			expect(await page.getByRole('alert').textContent()).toBe('Invalid email or password.');
			await closePage(page);
		});

		it('works with JavaScript disabled: the forms post and redirect on their own', async () => {
			const context = await app().browser.newContext({ javaScriptEnabled: false });
			const page = await context.newPage();
			await page.goto(`${app().server.url}/account`);
			await submitCredentials(page, 'Sign in');
			await page.waitForURL('**/account');
			expect(await page.getByText(`Signed in as ${EMAIL}`).isVisible()).toBe(true);
			await page.getByRole('button', { name: 'Sign out' }).click();
			await page.waitForURL((url) => url.pathname === '/');
			await context.close();
		});

		it('refuses a sign-up with a short or a blocklisted password with a clear message and keeps the email (NIST SP 800-63B-4 §3.1.1.2)', async () => {
			const context = await app().browser.newContext({ javaScriptEnabled: false });
			const page = await context.newPage();
			await page.goto(`${app().server.url}/signup`);
			// The page's minimum and hint follow the config's passwords.minLength (15 for a password used alone).
			expect(await page.getByLabel('Password').getAttribute('minlength')).toBe('15');
			expect(await page.locator('#password-hint').textContent()).toContain('At least 15 characters');
			await page.getByLabel('Email').fill('short@example.com');
			// minlength is a browser hint; without JS validation still happens on the server.
			await page.getByLabel('Password').evaluate((input) => input.removeAttribute('minlength'));
			await page.getByLabel('Password').fill('short');
			await page.getByRole('button', { name: 'Create account' }).click();
			await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/at least 15/);
			expect(await page.getByLabel('Email').inputValue()).toBe('short@example.com');
			// Attack: a 16-character keyboard walk on the blocklist of common and breached passwords (OWASP ASVS 5.0 V6.2).
			await page.getByLabel('Password').fill('qwertyuiopasdfgh');
			await page.getByRole('button', { name: 'Create account' }).click();
			await expect.poll(() => page.getByRole('alert').textContent()).toContain('This password is too common');
			expect(await page.getByLabel('Email').inputValue()).toBe('short@example.com');
			await context.close();
		});
	}

	it('writes nothing when run again on the same app', async () => {
		const again = await app().runCliAgain();
		expect(again.exitCode).toBe(0);
		expect(again.stdout).toContain('Nothing to write');
	});
}
