/**
 * The account page's sign-in methods (issue 31) for a user who came through the identity
 * provider, in an app set up by `create-auth --providers credentials,idp`: they never had a
 * password, so the page offers to set one (not to change it with a "Current password" they never
 * had); their only way in cannot be removed; once they have a password, the provider's link can go.
 * Run after the idp flows: it gives the IdP's user a password and unlinks the IdP.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DEFAULT_USER } from '../src/dev-idp/index.js';
import { signedInAs, signInResponse } from './credentials-flow.js';
import type { IdpApp } from './idp-flow.js';

/** Signs the IdP's user in on `page` through the provider's login page, back to `/account`. */
async function signInWithIdp(page: Page, app: IdpApp): Promise<void> {
	await page.goto(`${app.server.url}/signin?callbackUrl=/account`);
	await page.getByRole('button', { name: 'Sign in with Identity Provider' }).click();
	await page.waitForURL((url) => url.origin === app.idp.issuer);
	await page.getByLabel('Password').fill(app.idp.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL(`${app.server.url}/account`);
}

/** Registers the flows as tests of the enclosing `describe`. */
export function signInMethodsFlows(app: () => IdpApp): void {
	it('an identity-provider user sets a password on /account (no "Current password" they never had); the only way in cannot be removed, then the link can', async () => {
		const { server, browser } = app();
		const email = DEFAULT_USER.email;
		const page = await (await browser.newContext()).newPage();
		await signInWithIdp(page, app());
		const methods = page.getByRole('region', { name: 'How you sign in' });
		await expect.poll(() => methods.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Identity Provider')]);
		expect(await page.getByRole('heading', { name: 'Change password' }).count()).toBe(0);
		expect(await page.getByLabel('Current password').count()).toBe(0);
		// The only way in has no Remove button, and a removal posted anyway is refused (409).
		expect(await methods.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
		const providerAccountId = (await methods.getByRole('listitem').textContent())!.match(/Account (\S+)/)![1]!;
		const refused = await page.request.post(`${server.url}/account?/removeSignInMethod`, {
			form: { provider: 'idp', method: providerAccountId },
			headers: { origin: server.url, accept: 'text/html' }
		});
		expect(refused.status()).toBe(409);
		expect(await refused.text()).toContain('This is your only way to sign in.');

		const set = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Set a password' }) });
		await set.getByLabel('New password').fill('my first real password');
		await set.getByRole('button', { name: 'Set password' }).click();
		await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Your password is set: sign in with it next time, or as before.');
		expect(await page.getByRole('heading', { name: 'Change password' }).isVisible()).toBe(true);
		expect(await methods.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Password'), expect.stringContaining('Identity Provider')]);

		await methods.getByRole('button', { name: 'Remove Identity Provider' }).click();
		await expect.poll(() => methods.getByRole('status').textContent()).toBe('Identity Provider is removed.');
		expect(await methods.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Password')]);
		await page.context().close();

		const other = await (await browser.newContext()).newPage();
		expect((await signInResponse(other, server.url, email, 'my first real password')).headers().location).toBe('/');
		expect(await signedInAs(other, server.url, email)).toBe(true);
		await other.context().close();
	});
}
