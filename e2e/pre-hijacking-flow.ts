/**
 * Account pre-hijacking (Sudhodanan & Paverd, "Pre-hijacked accounts: An Empirical Study of
 * Security Failures in User Account Creation on the Web", USENIX Security 2022) in a built app:
 * an attacker registers the owner's address first, keeps a session open and adds ways in; the
 * owner then proves the address (an emailed password-reset link, or an email sign-in link), and
 * what the attacker set up stops opening the account. The owner lands on /account, which says what
 * was removed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { DevIdp } from '../src/dev-idp/index.js';
import type { Inbox } from '../runtime/test/smtp.js';
import { freshPage, PASSWORD, signedInAs, signInResponse, type CredentialsApp } from './credentials-flow.js';
import { addVirtualAuthenticator, explained } from './harness/browser.js';
import { postForm } from './lockout-flow.js';

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

/**
 * Milliseconds the reset form's POST is given to answer: it hashes the new password (one hash at
 * a time: the runtime's passwords/queue.ts) and ends what the attacker set up, which on a loaded
 * 2-core machine, with scrypt at production cost, took longer than an action's 15 s.
 */
const RESET_ANSWER_BUDGET = 60_000;

/** The app's URL on `localhost`: a valid WebAuthn relying party, unlike 127.0.0.1. */
const onLocalhost = (url: string) => url.replace('//127.0.0.1:', '//localhost:');

/**
 * Where the attacker and the owner send the forms that the app limits per client (sign-up, asking
 * for a link) from: loopback addresses of their own, so these flows do not use up the limits of
 * the browser's 127.0.0.1, which the app's other flows share (see ./lockout-flow.ts).
 */
const ATTACKER_CLIENT = '127.0.0.66';
const OWNER_CLIENT = '127.0.0.67';

/**
 * The attacker signs the owner's address up with a password of theirs, over HTTP from their own
 * client address, and their browser (`page`, on `url`) keeps the session it got.
 */
async function attackerSignsUp(page: Page, server: string, url: string, email: string): Promise<void> {
	const answer = await postForm(`${server}/signup`, { email, password: ATTACKER_PASSWORD }, ATTACKER_CLIENT);
	expect(answer.location).toBe('/account');
	const session = answer.cookiePairs.filter((pair) => pair.startsWith('auth.session-token'));
	expect(session).not.toEqual([]);
	await page.context().addCookies(session.map((pair) => ({ name: pair.split('=')[0]!, value: pair.slice(pair.indexOf('=') + 1), url })));
	expect(await signedInAs(page, url, email)).toBe(true);
}

/** Asks for a mail to `email` by posting `form` to `path` from the owner's client address; returns the link in it. */
async function ownerAsksForLink(inbox: Inbox, server: string, path: string, form: Record<string, string>, email: string): Promise<string> {
	const mail = inbox.next(email);
	expect((await postForm(`${server}${path}`, form, OWNER_CLIENT)).status).toBeLessThan(400);
	return inbox.linkIn(await mail);
}

/** Registers the flows as tests of the enclosing `describe`. */
export function preHijackingFlows(app: () => PreHijackingApp): void {
	it('a password reset by the owner ends what an attacker who registered the address first set up: their session and passkey; /account says so', async () => {
		const { server, browser, inbox, strategy, passkeys, authenticators } = app();
		const url = onLocalhost(server.url);
		const email = `prehijack-reset-${Date.now()}@example.com`;
		const attacker = await freshPage(browser);
		const device = passkeys ? await addVirtualAuthenticator(attacker) : undefined;
		await attackerSignsUp(attacker, server.url, url, email);
		const stored = await authenticators?.();
		if (passkeys) {
			// The trojan: a passkey of the attacker's on the account.
			await attacker.goto(`${url}/account`);
			await attacker.waitForLoadState('networkidle');
			const notice = inbox.next(email);
			await attacker.getByRole('button', { name: 'Add a passkey' }).click();
			await expect.poll(async () => (await device!.credentials()).length).toBe(1);
			if (stored !== undefined) await expect.poll(() => authenticators!()).toBe(stored + 1);
			// The address is told, and the notice is in before the owner's link is waited for: sent
			// after the answer, it can arrive later than the owner's request, and be taken for the link.
			expect((await notice).subject).toMatch(/^A passkey was added to your account/);
		}

		// The owner, who never signed up, resets the password through the mailed link.
		const owner = await freshPage(browser);
		const link = await ownerAsksForLink(inbox, server.url, '/signin/forgot-password', { email }, email);
		await explained(owner, server.output, async () => {
			await owner.goto(onLocalhost(link));
			await owner.getByLabel('New password').fill(PASSWORD);
		});
		const answered = owner.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/signin/reset-password', { timeout: RESET_ANSWER_BUDGET });
		// The click waits for the navigation it starts, which commits only once the POST is answered.
		await owner.getByRole('button', { name: 'Set password and sign in' }).click({ timeout: RESET_ANSWER_BUDGET });
		expect((await answered).status()).toBe(303);
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
		await attackerSignsUp(attacker, server.url, server.url, email);

		const owner = await freshPage(browser);
		await owner.goto(await ownerAsksForLink(inbox, server.url, '/signin', { providerId: 'email', email }, email));
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

/**
 * Turns on `allowDangerousEmailAccountLinking` for the `idp` provider in the app's `src/auth.<ext>`,
 * as a user would (the dev IdP vouches for its user's address); the app must be built after.
 * @throws {Error} the file has no `Idp({` call.
 */
export async function allowEmailLinking(appDir: string, ext: 'ts' | 'js'): Promise<void> {
	const file = path.join(appDir, `src/auth.${ext}`);
	const text = await fs.readFile(file, 'utf8');
	if (!text.includes('= Idp({')) throw new Error(`src/auth.${ext} has no Idp({ call`);
	await fs.writeFile(file, text.replace('= Idp({', '= Idp({\n\tallowDangerousEmailAccountLinking: true,'));
}

/**
 * The classic-federated merge: the attacker registers the address of the dev IdP's user with a
 * password first; the owner signs in with the IdP, which vouches for the address, and the
 * accounts are linked by email. The link proves the address. Register it before the idp flows,
 * which sign that user in first otherwise.
 */
export function federatedMergeFlows(app: () => Pick<CredentialsApp, 'server' | 'browser'> & { idp: DevIdp }): void {
	it('an OAuth sign-in that links by a vouched address removes the password an attacker registered it with first', async () => {
		const { server, browser, idp } = app();
		const email = idp.user.email;
		const attacker = await freshPage(browser);
		await attackerSignsUp(attacker, server.url, server.url, email);

		const owner = await freshPage(browser);
		await owner.goto(`${server.url}/signin`);
		await owner.getByRole('button', { name: 'Sign in with Identity Provider' }).click();
		await owner.waitForURL((url) => url.origin === idp.issuer);
		await owner.getByLabel('Password').fill(idp.password);
		await owner.getByRole('button', { name: 'Sign in' }).click();
		await owner.waitForURL((url) => url.pathname === '/account');
		await expect.poll(() => owner.getByRole('status').textContent()).toContain('A password had been set up on this account before it was');
		expect(await owner.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
		expect((await signInResponse(await freshPage(browser), server.url, email, ATTACKER_PASSWORD)).headers().location).toMatch(/error=CredentialsSignin/);
		for (const used of [attacker, owner]) await used.context().close();
	});
}
