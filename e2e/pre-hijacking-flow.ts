/**
 * Account pre-hijacking (Sudhodanan & Paverd, "Pre-hijacked accounts: An Empirical Study of
 * Security Failures in User Account Creation on the Web", USENIX Security 2022) in a built app:
 * an attacker registers the owner's address first, keeps a session open and adds ways in; the
 * owner then proves the address (an emailed password-reset link, or an email sign-in link), and
 * what the attacker set up stops opening the account. The owner lands on /account, which says what
 * was removed.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Inbox } from '../runtime/test/smtp.js';
import { PASSWORD, signInResponse, submitCredentials, type CredentialsApp } from './credentials-flow.js';
import { addVirtualAuthenticator } from './harness/browser.js';
import { freshPage, signedInAs } from './password-flow.js';

/** What the flows need: the app, its inbox, its session strategy, and which proofs it offers. */
export interface PreHijackingApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	inbox: Inbox;
	strategy: 'jwt' | 'database';
	/** The app has passkeys: the attacker adds one. */
	passkeys?: boolean;
	/** The authenticator rows of the app's store, where the test can read them. */
	authenticators?(): Promise<number>;
	/** The app has email sign-in links: the owner proves the address with one. */
	emailLinks?: boolean;
}

const ATTACKER_PASSWORD = `${PASSWORD}, the attacker's`;

/** The app's URL on `localhost`: a valid WebAuthn relying party, unlike 127.0.0.1. */
const onLocalhost = (url: string) => url.replace('//127.0.0.1:', '//localhost:');

/** The attacker signs the owner's address up with a password of theirs, and stays signed in. */
async function attackerSignsUp(page: Page, url: string, email: string): Promise<void> {
	await page.goto(`${url}/signup`);
	await submitCredentials(page, 'Create account', email, ATTACKER_PASSWORD);
	await page.waitForURL((target) => target.pathname === '/');
}

/** Registers the flows as tests of the enclosing `describe`. */
export function preHijackingFlows(app: () => PreHijackingApp): void {
	it('a password reset by the owner ends what an attacker who registered the address first set up: their session and passkey; /account says so', async () => {
		const { server, browser, inbox, strategy, passkeys, authenticators } = app();
		const url = onLocalhost(server.url);
		const email = `prehijack-reset-${Date.now()}@example.com`;
		const attacker = await freshPage(browser);
		const device = passkeys ? await addVirtualAuthenticator(attacker) : undefined;
		await attackerSignsUp(attacker, url, email);
		const stored = await authenticators?.();
		if (passkeys) {
			// The trojan: a passkey of the attacker's on the account.
			await attacker.goto(`${url}/account`);
			await attacker.waitForLoadState('networkidle');
			await attacker.getByRole('button', { name: 'Add a passkey' }).click();
			await expect.poll(async () => (await device!.credentials()).length).toBe(1);
			if (stored !== undefined) await expect.poll(() => authenticators!()).toBe(stored + 1);
		}

		// The owner, who never signed up, resets the password through the mailed link.
		const owner = await freshPage(browser);
		await owner.goto(`${url}/signin/forgot-password`);
		const mail = inbox.next(email);
		await owner.getByLabel('Email').fill(email);
		await owner.getByRole('button', { name: 'Send reset link' }).click();
		await owner.goto(onLocalhost(inbox.linkIn(await mail)));
		await owner.getByLabel('New password').fill(PASSWORD);
		await owner.getByRole('button', { name: 'Set password and sign in' }).click();
		if (passkeys) {
			await owner.waitForURL((target) => target.pathname === '/account');
			await expect.poll(() => owner.getByRole('status').textContent()).toContain('Your email address is confirmed. A passkey had been set up on this account before it was');
		} else {
			await owner.waitForURL((target) => target.pathname === '/');
		}
		expect(await signedInAs(owner, url, email)).toBe(true);

		// Unexpired session (the paper's class): the attacker's browser is signed out. A JWT session
		// asks the adapter once a minute (the runtime's unit tests cover that); a database one ends now.
		if (strategy === 'database') expect(await signedInAs(attacker, url, email)).toBe(false);
		expect((await signInResponse(await freshPage(browser), url, email, ATTACKER_PASSWORD)).headers().location).toMatch(/error=CredentialsSignin/);
		if (passkeys) {
			// The attacker's passkey is gone from the store, and no longer signs in: their page (where
			// the virtual authenticator is), its cookies cleared, offers it and is refused.
			if (stored !== undefined) expect(await authenticators!()).toBe(stored);
			await attacker.context().clearCookies();
			await attacker.goto(`${url}/signin`);
			await attacker.waitForLoadState('networkidle');
			await attacker.getByRole('button', { name: 'Sign in with a passkey' }).click();
			await attacker.waitForURL((target) => target.searchParams.get('error') === 'WebAuthnVerificationError');
			await attacker.waitForLoadState('networkidle');
			// Looked at from another page of the attacker's browser, so the sign-in page's own requests cannot race it.
			expect(await signedInAs(await attacker.context().newPage(), url, email)).toBe(false);
		}
		for (const used of [attacker, owner]) await used.context().close();
	});

	it('an email sign-in link removes the password an attacker set before the owner proved the address', async (context) => {
		const { server, browser, inbox, emailLinks } = app();
		if (!emailLinks) context.skip();
		const email = `prehijack-link-${Date.now()}@example.com`;
		const attacker = await freshPage(browser);
		await attackerSignsUp(attacker, server.url, email);

		const owner = await freshPage(browser);
		await owner.goto(`${server.url}/signin`);
		const mail = inbox.next(email);
		const emailForm = owner.locator('form').filter({ has: owner.getByRole('button', { name: 'Sign in with Email' }) });
		await emailForm.getByLabel('Email').fill(email);
		await emailForm.getByRole('button', { name: 'Sign in with Email' }).click();
		await owner.waitForURL((target) => target.pathname === '/signin/verify-request');
		await owner.goto(inbox.linkIn(await mail));
		await owner.getByRole('button', { name: 'Continue signing in' }).click();
		await owner.waitForURL((target) => target.pathname === '/account');
		await expect.poll(() => owner.getByRole('status').textContent()).toContain('A password had been set up on this account before it was, possibly by someone else, and was removed');
		expect((await signInResponse(await freshPage(browser), server.url, email, ATTACKER_PASSWORD)).headers().location).toMatch(/error=CredentialsSignin/);
		// Said once: the next visit of /account has no notice.
		await owner.reload();
		expect(await owner.getByRole('status').count()).toBe(0);
		for (const used of [attacker, owner]) await used.context().close();
	});
}
