/**
 * `passwords.requireEmailVerification`, turned on in the `src/auth.ts` that `create-auth
 * --providers credentials,…` wrote (as a user would, by editing the `false` it writes), its
 * mail going to a local SMTP server of the test's (see `useInbox` in email-flow.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Inbox } from '../runtime/test/smtp.js';
import { freshPage, PASSWORD, signedInAs, signInResponse, submitCredentials, type CredentialsApp } from './credentials-flow.js';

/** What the flows need: the app (restarted with the option on), its inbox, and an address that signed up before the option was on. */
export interface VerifyingApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	inbox: Inbox;
	earlierEmail: string;
}

/** Turns the option on in the app's `src/auth.ts` (or `.js`); the app must be built again after. */
export async function requireEmailVerification(appDir: string, ext: 'ts' | 'js'): Promise<void> {
	const file = path.join(appDir, `src/auth.${ext}`);
	const text = await fs.readFile(file, 'utf8');
	const off = 'requireEmailVerification: false';
	if (!text.includes(off)) throw new Error(`src/auth.${ext} does not say "${off}"`);
	await fs.writeFile(file, text.replace(off, 'requireEmailVerification: true'));
}

/** Signs in on `/signin` with the right password, expects the "confirm first" message, and returns the link of the mail it sent. */
async function refusedUntilConfirmed(page: Page, url: string, inbox: Inbox, email: string): Promise<string> {
	const mail = inbox.next(email);
	const response = await signInResponse(page, url, email, PASSWORD);
	expect(response.headers().location).toMatch(/^\/signin\?error=CredentialsSignin&code=EmailNotVerified/);
	await expect.poll(() => page.getByRole('alert').textContent()).toContain('Confirm your email address first: we sent you a new link.');
	return inbox.linkIn(await mail);
}

/** Confirms on the page a confirmation link opened, with the account's password. */
async function confirmWith(page: Page, password: string): Promise<void> {
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Confirm and sign in' }).click();
}

/** Registers the flows as tests of the enclosing `describe`. */
export function emailVerificationFlows(app: () => VerifyingApp): void {
	it('signs a new account up without signing it in; signing in is refused until the mailed link is followed, which signs in', async () => {
		const { server, browser, inbox } = app();
		const email = `confirm-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		await page.goto(`${server.url}/signup`);
		const mail = inbox.next(email);
		await submitCredentials(page, 'Create account', email);
		await expect.poll(() => page.getByRole('status').textContent()).toContain(`Almost done: we sent a link to ${email}.`);
		const first = inbox.linkIn(await mail);
		expect(`${new URL(first).origin}${new URL(first).pathname}`).toBe(`${server.url}/signin/verify-email`);
		expect(await signedInAs(page, server.url, email)).toBe(false);

		const link = await refusedUntilConfirmed(page, server.url, inbox, email);
		// A mail scanner's GET changes nothing.
		expect((await fetch(link)).status).toBe(200);
		await page.goto(link);
		expect(await page.getByText(`Confirm that ${email} is your email address`).isVisible()).toBe(true);
		await confirmWith(page, PASSWORD);
		await page.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(page, server.url, email)).toBe(true);

		const other = await freshPage(browser);
		expect((await signInResponse(other, server.url, email, PASSWORD)).headers().location).toBe('/');
		// The link works once.
		const again = await freshPage(browser);
		await again.goto(link);
		await confirmWith(again, PASSWORD);
		await expect.poll(() => again.getByRole('alert').textContent()).toContain('This link is invalid, used or expired.');
		expect(await signedInAs(again, server.url, email)).toBe(false);
		for (const used of [page, other, again]) await used.context().close();
	});

	it('has an account made before the option was on confirm its address at its next sign-in', async () => {
		const { server, browser, inbox, earlierEmail } = app();
		const page = await freshPage(browser);
		const link = await refusedUntilConfirmed(page, server.url, inbox, earlierEmail);
		await page.goto(link);
		await confirmWith(page, PASSWORD);
		await page.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(page, server.url, earlierEmail)).toBe(true);
		await page.context().close();
	});

	// Account pre-hijacking (Sudhodanan & Paverd, USENIX Security 2022): someone registers another
	// person's address with a password of theirs and waits for its owner to confirm it.
	it('does not confirm an address for someone who does not know the account’s password: the owner resets it and the registrant’s password stops working', async () => {
		const { server, browser, inbox } = app();
		const email = `owner-${Date.now()}@example.com`;
		const attackerPassword = `${PASSWORD} of the attacker`;
		const attacker = await freshPage(browser);
		await attacker.goto(`${server.url}/signup`);
		const mail = inbox.next(email);
		await submitCredentials(attacker, 'Create account', email, attackerPassword);
		const link = inbox.linkIn(await mail);

		// The owner follows the link they did not ask for, and cannot confirm without the password.
		const owner = await freshPage(browser);
		await owner.goto(link);
		await confirmWith(owner, PASSWORD);
		await expect.poll(() => owner.getByRole('alert').textContent()).toContain('That is not the password of this account.');
		expect(await signedInAs(owner, server.url, email)).toBe(false);
		expect((await signInResponse(attacker, server.url, email, attackerPassword)).headers().location).toMatch(/code=EmailNotVerified/);

		// The page sends them to reset the password: that proves the address, and the account is theirs alone.
		await owner.goto(link);
		await owner.getByRole('link', { name: 'reset its password' }).click();
		const reset = inbox.next(email);
		await owner.getByLabel('Email').fill(email);
		await owner.getByRole('button', { name: /send/i }).click();
		await owner.goto(inbox.linkIn(await reset));
		await owner.getByLabel('New password').fill(PASSWORD);
		await owner.getByRole('button', { name: 'Set password and sign in' }).click();
		await owner.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(owner, server.url, email)).toBe(true);
		expect((await signInResponse(attacker, server.url, email, attackerPassword)).headers().location).toMatch(/error=CredentialsSignin/);
		for (const used of [attacker, owner]) await used.context().close();
	});
}
