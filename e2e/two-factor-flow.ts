/**
 * Two-factor authentication (issue 32) in an app set up with `create-auth --two-factor`: a user
 * turns it on from /account with the first code of the authenticator app (computed here with
 * `otpauth`, the library the runtime uses), then signs in with a password and a code, or a
 * recovery code; between the two steps no page is open to them. With an inbox (see `useInbox`) a
 * password reset is shown to still ask; with passkeys, a passkey sign-in to skip it.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Inbox } from '../runtime/test/smtp.js';
import { freshPage, PASSWORD, signedInAs, submitCredentials, type CredentialsApp } from './credentials-flow.js';
import type { Server } from './harness/app.js';
import { addVirtualAuthenticator } from './harness/browser.js';
import { postForm } from './lockout-flow.js';
import { onLocalhost, open, signOut, visitTakenByAutofill } from './passkey-flow.js';
import { requestResetLink } from './password-flow.js';
import { expectSignedOut, REVALIDATE_AGE } from './sessions-flow.js';

/** What the flows need: the app, and its inbox where it has one (the password reset's mail). */
export interface TwoFactorApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	inbox?: Inbox;
}

/**
 * Where the flows sign their users up from: a loopback address of their own, so that the app's
 * sign-up limit per client (10 an hour) is left to its other flows.
 */
const SIGN_UP_CLIENT = '127.0.0.72';

/**
 * The code an authenticator app shows for `key` (base32) `offset` steps from now on `server`'s
 * clock, which the flows may have moved ahead of ours (`Server.advanceClock`).
 */
const codeOf = (key: string, server: Server, offset = 0) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: server.now() + offset * 30_000 });

/** The account page's two-factor section. */
const sectionOf = (page: Page) => page.getByRole('region', { name: 'Two-factor authentication' });

/**
 * A new user (signed up over HTTP from {@link SIGN_UP_CLIENT}) who signs in on `page` at `url` and
 * turns two-factor authentication on: the key the page showed and the recovery codes. The app's
 * code for the current step is used up by it.
 */
async function enrolled(app: TwoFactorApp, page: Page, url: string, prefix: string): Promise<{ email: string; key: string; recoveryCodes: string[] }> {
	const email = `${prefix}-${Date.now()}@example.com`;
	expect((await postForm(`${app.server.url}/signup`, { email, password: PASSWORD }, SIGN_UP_CLIENT)).location).toBe('/account');
	await page.goto(`${url}/signin?callbackUrl=/account`);
	await submitCredentials(page, 'Sign in', email, PASSWORD);
	await page.waitForURL((target) => target.pathname === '/account');
	const section = sectionOf(page);
	expect(await section.textContent()).toContain('Off.');
	await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
	const key = (await section.locator('.key code').textContent())!.trim();
	expect(key).toMatch(/^[A-Z2-7]{32}$/);
	expect(await section.getByRole('img', { name: 'QR code of your two-factor key' }).locator('svg').count()).toBe(1);
	await section.getByLabel('6-digit code').fill(codeOf(key, app.server));
	await section.getByRole('button', { name: 'Turn on' }).click();
	const codes = section.locator('.codes code');
	await expect.poll(() => codes.count()).toBe(10);
	// OWASP ASVS 5.0 7.4.3: a new factor ends the other sessions (JWTs at their next revalidation).
	expect(await section.getByRole('status').textContent()).toContain('Two-factor authentication is on. Your other devices are signed out within a minute.');
	return { email, key, recoveryCodes: await codes.allTextContents() };
}

/** Signs in with the password at `url`, where the second step stops it. */
async function firstStep(page: Page, url: string, email: string, password = PASSWORD): Promise<void> {
	await page.goto(`${url}/signin`);
	await submitCredentials(page, 'Sign in', email, password);
	await page.waitForURL((target) => target.pathname === '/signin/two-factor');
}

/**
 * Enters `code` in the second step's form (a recovery code in its own) and waits for the server's
 * answer, so that the next attempt is not sent over this one.
 */
async function secondStep(page: Page, code: string, recovery = false): Promise<void> {
	const answered = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/signin/two-factor');
	if (recovery) {
		await page.getByText('Use a recovery code').click();
		await page.getByLabel('Recovery code').fill(code);
		await page.getByRole('button', { name: 'Sign in' }).last().click();
	} else {
		await page.getByLabel('Code', { exact: true }).fill(code);
		await page.getByRole('button', { name: 'Sign in' }).first().click();
	}
	await answered;
}

/**
 * Registers the flows as tests of the enclosing `describe`; `passkeys`: the app has them (and its
 * relying party is `localhost`), so the passkey sign-in is tried too; `quickRevalidation`: its JWT
 * sessions are revalidated every {@link REVALIDATE_AGE} seconds (`shortSessionTimes`), so turning
 * the factor off is shown to sign another device out once the server's clock is moved past that
 * (with the default minute, only the page says so).
 */
export function twoFactorFlows(app: () => TwoFactorApp, { passkeys = false, quickRevalidation = false }: { passkeys?: boolean; quickRevalidation?: boolean } = {}): void {
	it("turns on with the app's first code (ten recovery codes shown once); the next sign-in stops after the password, no guarded page opens meanwhile, and the app's code signs in", async () => {
		const { server, browser } = app();
		const page = await freshPage(browser);
		const { email, key, recoveryCodes } = await enrolled(app(), page, server.url, 'two-factor-on');
		expect(new Set(recoveryCodes).size).toBe(10);
		await page.reload();
		expect(await sectionOf(page).textContent()).toContain('Recovery codes left: 10.');
		expect(await sectionOf(page).locator('.codes').count()).toBe(0);

		await signOut(page, server.url);
		await firstStep(page, server.url, email);
		expect((await page.context().cookies()).some((cookie) => cookie.name.includes('session-token'))).toBe(false);
		// The first factor alone opens nothing: the guard sends the visitor to sign in.
		await page.goto(`${server.url}/account`);
		expect(new URL(page.url()).pathname).toBe('/signin');
		await page.goto(`${server.url}/signin/two-factor`);
		await secondStep(page, codeOf(key, server, 1));
		await page.waitForURL((target) => target.pathname !== '/signin/two-factor');
		expect(await signedInAs(page, server.url, email)).toBe(true);
		await page.context().close();
	});

	it('signs in with a recovery code once (OWASP ASVS 5.0 6.5.1); after five wrong codes a pending sign-in takes no more', async () => {
		const { server, browser } = app();
		const page = await freshPage(browser);
		const { email, recoveryCodes } = await enrolled(app(), page, server.url, 'two-factor-recovery');
		await signOut(page, server.url);
		await firstStep(page, server.url, email);
		await secondStep(page, recoveryCodes[0]!.toUpperCase(), true);
		await page.waitForURL((target) => target.pathname !== '/signin/two-factor');
		expect(await signedInAs(page, server.url, email)).toBe(true);

		await signOut(page, server.url);
		await firstStep(page, server.url, email);
		await secondStep(page, recoveryCodes[0]!, true);
		await expect.poll(() => page.getByRole('alert').textContent()).toContain('That code is not right, or was used already.');
		for (let attempt = 2; attempt <= 5; attempt++) {
			await secondStep(page, '000000');
			await expect.poll(() => page.getByRole('alert').textContent()).toContain('That code is not right');
		}
		await secondStep(page, recoveryCodes[1]!, true);
		await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many wrong codes. Sign in again to try once more.');
		await page.getByRole('link', { name: 'Sign in again' }).click();
		await page.waitForURL((target) => target.pathname === '/signin');
		expect(await signedInAs(page, server.url, email)).toBe(false);
		// A new sign-in gets new tries; the refused recovery code was not spent.
		await firstStep(page, server.url, email);
		await secondStep(page, recoveryCodes[1]!, true);
		await page.waitForURL((target) => target.pathname !== '/signin/two-factor');
		expect(await signedInAs(page, server.url, email)).toBe(true);
		await page.context().close();
	});

	it('still asks after a password reset, then turns off with a current code: the next sign-in asks for nothing more', async () => {
		const { server, browser, inbox } = app();
		const page = await freshPage(browser);
		const { email, recoveryCodes } = await enrolled(app(), page, server.url, 'two-factor-reset');
		await signOut(page, server.url);
		let password = PASSWORD;
		if (inbox) {
			await page.goto(await requestResetLink(page, server.url, inbox, email));
			password = 'a brand new password';
			await page.getByLabel('New password').fill(password);
			await page.getByRole('button', { name: 'Set password and sign in' }).click();
			await page.waitForURL((target) => target.pathname === '/signin/two-factor');
			expect(await signedInAs(page, server.url, email)).toBe(false);
			await page.goto(`${server.url}/signin/two-factor`);
		} else {
			await firstStep(page, server.url, email);
		}
		await secondStep(page, recoveryCodes[2]!, true);
		await page.waitForURL((target) => target.pathname !== '/signin/two-factor');
		const other = quickRevalidation ? await freshPage(browser) : undefined;
		if (other) {
			await firstStep(other, server.url, email, password);
			await secondStep(other, recoveryCodes[4]!, true);
			await other.waitForURL((target) => target.pathname !== '/signin/two-factor');
			expect(await signedInAs(other, server.url, email)).toBe(true);
		}

		await page.goto(`${server.url}/account`);
		const section = sectionOf(page);
		await section.getByLabel('Code from your app, or a recovery code').fill(recoveryCodes[3]!);
		await section.getByRole('button', { name: 'Turn off' }).click();
		await expect.poll(() => section.getByRole('status').textContent()).toBe('Two-factor authentication is off. Your other devices are signed out within a minute.');
		// OWASP ASVS 5.0 7.4.3: removing a factor ends the user's other sessions; this one goes on.
		if (other) {
			await expectSignedOut(other, server, email, 'jwt');
			expect(await signedInAs(page, server.url, email)).toBe(true);
			await other.context().close();
		}
		await signOut(page, server.url);
		await page.goto(`${server.url}/signin`);
		await submitCredentials(page, 'Sign in', email, password);
		await page.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(page, server.url, email)).toBe(true);
		await page.context().close();
	});

	if (passkeys) it('is not asked after a passkey sign-in: a passkey with user verification is two factors', async () => {
		const { browser } = app();
		const url = onLocalhost(app().server.url);
		const page = await freshPage(browser);
		await addVirtualAuthenticator(page);
		const { email } = await enrolled(app(), page, url, 'two-factor-passkey');
		await open(page, `${url}/account`);
		await page.getByRole('button', { name: 'Add a passkey' }).click();
		await page.waitForURL((target) => target.searchParams.get('passkey') === 'added');
		await signOut(page, url);
		// The sign-in page offers the passkey in the email field's autofill; the virtual authenticator takes it at once.
		await visitTakenByAutofill(page, `${url}/signin?callbackUrl=/account`);
		await page.waitForURL((target) => target.pathname === '/account');
		expect(await signedInAs(page, url, email)).toBe(true);
		await page.context().close();
	});
}
