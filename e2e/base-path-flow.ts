/**
 * An app served under a base path (SvelteKit's `paths.base`, e.g. `/base`, as for a subpath
 * deployment) after `create-auth --providers credentials,email,…,idp`: every redirect the auth
 * makes and every link its pages render stays under the base (guard, sign-up, sign-in, sign-out,
 * password reset, emailed sign-in link, the OAuth callback URL through the dev IdP, which knows
 * only `<base>/auth/callback/idp`), and a callbackUrl outside the base never leaves it. A test
 * file sets the base with {@link useBasePath} before building, then calls {@link basePathFlows}.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { DevIdp } from '../src/dev-idp/index.js';
import type { Inbox } from '../runtime/test/smtp.js';
import { credentialsForm, freshPage, submitCredentials, type CredentialsApp } from './credentials-flow.js';

/**
 * Serves the app under `base`: `paths: { base }` in the options of `sveltekit()` in its
 * `vite.config.ts` or `.js` (where SvelteKit 3 apps, and the fixtures of either major, keep the config).
 * @throws {Error} the config has no `adapter: adapter()` line to put it after (another fixture)
 */
export async function useBasePath(appDir: string, base: string): Promise<void> {
	const file = (await fs.readdir(appDir)).find((name) => /^vite\.config\.[jt]s$/.test(name));
	if (!file) throw new Error(`no vite.config in ${appDir}`);
	const source = await fs.readFile(path.join(appDir, file), 'utf8');
	if (!source.includes('adapter: adapter()')) throw new Error(`${file} has no adapter: adapter() line to add paths after`);
	await fs.writeFile(path.join(appDir, file), source.replace('adapter: adapter()', `adapter: adapter(),\n\t\t\tpaths: { base: '${base}' }`));
}

/** An app served under {@link BasePathApp.base}, its inbox and dev IdP. */
export interface BasePathApp extends Pick<CredentialsApp, 'server' | 'browser'> {
	base: string;
	inbox: Inbox;
	idp: DevIdp;
}

/** The page's path, query and hash, without the origin. */
const where = (page: Page) => {
	const url = new URL(page.url());
	return url.pathname + url.search;
};

/** A link's target as the browser resolves it (SvelteKit renders relative hrefs on the server). */
const linkTarget = (page: Page, name: string) =>
	page.getByRole('link', { name, exact: true }).evaluate((link) => {
		const url = new URL((link as HTMLAnchorElement).href);
		return url.pathname + url.search;
	});

/** Registers the flows as tests of the enclosing `describe`. */
export function basePathFlows(app: () => BasePathApp): void {
	const url = () => `${app().server.url}${app().base}`;
	/** Whether the page's browser is signed in as `email`: `<base>/account` opens and says so. */
	const signedInAs = async (page: Page, email: string) => {
		await page.goto(`${url()}/account`);
		return new URL(page.url()).pathname === `${app().base}/account` && (await page.getByText(`Signed in as ${email}`).isVisible());
	};

	it('sends a signed-out visit to <base>/account to <base>/signin, whose links stay under the base', async () => {
		const { browser, base } = app();
		const page = await freshPage(browser);
		await page.goto(`${url()}/account`);
		expect(where(page)).toBe(`${base}/signin?callbackUrl=${encodeURIComponent(`${base}/account`)}`);
		expect(await linkTarget(page, 'Forgot password?')).toBe(`${base}/signin/forgot-password`);
		expect(await linkTarget(page, 'Create one')).toBe(`${base}/signup?callbackUrl=${encodeURIComponent(`${base}/account`)}`);
		expect(await credentialsForm(page).evaluate((form) => new URL((form as HTMLFormElement).action).pathname)).toBe(`${base}/signin`);
		await page.context().close();
	});

	it('signs up from the sign-in page back to <base>/account, signs out to <base>/, and signs in to <base>/', async () => {
		const { browser, base } = app();
		const email = `base-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		await page.goto(`${url()}/account`);
		await page.getByRole('link', { name: 'Create one', exact: true }).click();
		await page.waitForURL((target) => target.pathname === `${base}/signup`);
		expect(await linkTarget(page, 'Sign in')).toBe(`${base}/signin?callbackUrl=${encodeURIComponent(`${base}/account`)}`);
		await submitCredentials(page, 'Create account', email);
		await page.waitForURL((target) => target.pathname === `${base}/account`);
		await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);

		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === `${base}/`);
		expect(await signedInAs(page, email)).toBe(false);

		await page.goto(`${url()}/signin`);
		await submitCredentials(page, 'Sign in', email);
		await page.waitForURL((target) => target.pathname === `${base}/`);
		expect(await signedInAs(page, email)).toBe(true);
		await page.context().close();
	});

	it.each([
		['a path outside the base', '/account'],
		['a protocol-relative URL', '//evil.example/base/'],
		['dot segments out of the base', '/base/../elsewhere'],
		['another origin', 'https://evil.example/']
	])('ends a sign-in asked to go to %s on <base>/ instead', async (_, callbackUrl) => {
		const { browser, base } = app();
		const email = `attack-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
		const page = await freshPage(browser);
		await page.goto(`${url()}/signup`);
		await submitCredentials(page, 'Create account', email);
		await page.waitForURL((target) => target.pathname === `${base}/account`);
		await page.context().clearCookies();
		await page.goto(`${url()}/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
		await submitCredentials(page, 'Sign in', email);
		await page.waitForURL((target) => target.origin === new URL(url()).origin && target.pathname === `${base}/`);
		await page.context().close();
	});

	it('resets a password from <base>/signin: the mailed link opens <base>/signin/reset-password and signs in under the base', async () => {
		const { browser, inbox, base } = app();
		const email = `base-reset-${Date.now()}@example.com`;
		const signedUp = await freshPage(browser);
		await signedUp.goto(`${url()}/signup`);
		await submitCredentials(signedUp, 'Create account', email);
		await signedUp.waitForURL((target) => target.pathname === `${base}/account`);

		const page = await freshPage(browser);
		await page.goto(`${url()}/signin`);
		await page.getByRole('link', { name: 'Forgot password?' }).click();
		await page.waitForURL((target) => target.pathname === `${base}/signin/forgot-password`);
		const mail = inbox.next(email);
		await page.getByLabel('Email').fill(email);
		await page.getByRole('button', { name: 'Send reset link' }).click();
		const link = inbox.linkIn(await mail);
		expect(`${new URL(link).origin}${new URL(link).pathname}`).toBe(`${url()}/signin/reset-password`);
		await page.goto(link);
		await page.getByLabel('New password').fill('a base path password');
		await page.getByRole('button', { name: 'Set password and sign in' }).click();
		await page.waitForURL((target) => target.pathname === `${base}/`);
		expect(await signedInAs(page, email)).toBe(true);
		await signedUp.context().close();
		await page.context().close();
	});

	it('signs in by an emailed link to <base>/signin/email, back to <base>/account', async () => {
		const { browser, inbox, base } = app();
		const email = `base-link-${Date.now()}@example.com`;
		const page = await freshPage(browser);
		await page.goto(`${url()}/account`);
		const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Sign in with Email' }) });
		const mail = inbox.next(email);
		await form.getByLabel('Email').fill(email);
		await form.getByRole('button', { name: 'Sign in with Email' }).click();
		await page.waitForURL((target) => target.pathname === `${base}/signin/verify-request`);
		expect(await linkTarget(page, 'ask for a new one')).toBe(`${base}/signin`);
		const link = new URL(inbox.linkIn(await mail));
		expect(link.origin + link.pathname).toBe(`${url()}/signin/email`);
		expect(link.searchParams.get('callbackUrl')).toBe(`${base}/account`);
		await page.goto(link.href);
		await page.getByRole('button', { name: 'Continue signing in' }).click();
		await page.waitForURL((target) => target.pathname === `${base}/account`);
		await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
		await page.context().close();
	});

	it('signs in through the OAuth provider with the callback URL <base>/auth/callback/idp, back to <base>/account', async () => {
		const { browser, idp, base } = app();
		const page = await freshPage(browser);
		const redirectUris: string[] = [];
		page.on('request', (request) => {
			const asked = new URL(request.url()).searchParams.get('redirect_uri');
			if (asked) redirectUris.push(asked);
		});
		await page.goto(`${url()}/account`);
		await page.getByRole('button', { name: 'Sign in with Identity Provider' }).click();
		await page.waitForURL((target) => target.origin === idp.issuer);
		expect(redirectUris[0]).toBe(`${url()}/auth/callback/idp`);
		await page.getByLabel('Password').fill(idp.password);
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.waitForURL((target) => target.pathname === `${base}/account`);
		await expect.poll(() => page.getByText('Signed in as').isVisible()).toBe(true);
		await page.context().close();
	});
}
