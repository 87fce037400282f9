/**
 * Defence in depth on the auth pages of a built app (issue 28), over HTTP: a cross-site POST to
 * the sign-in and sign-out actions is refused with 403 (Fetch Metadata), the same POST without
 * the header is not, and the auth pages carry `Cache-Control: no-store` and anti-framing
 * headers. With {@link useStrictCsp} applied before the build, also: the app signs up, in and out
 * in Chromium under a strict `kit.csp` with no Content Security Policy violation.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { freshPage, submitCredentials, type CredentialsApp } from './credentials-flow.js';

/**
 * The SHA-256 of the one style attribute SvelteKit itself renders, on its route announcer
 * (`position: absolute; left: 0; …`, write_root.js; sveltejs/kit#11993, #14247): allowed for
 * style attributes alone (`'unsafe-hashes'`), as any app under a strict policy must until
 * SvelteKit moves it into a stylesheet. Any other style attribute is still refused.
 */
const SVELTEKIT_ANNOUNCER = 'sha256-S8qMpvofolR8Mpjy4kQvEm7m1q8clzU4dfDH0AmvZjo=';

/**
 * A strict `kit.csp` in hash mode, as an app that adopts one would set it: scripts, styles and
 * everything else from the app's own origin only (SvelteKit adds the hashes of its own inline
 * scripts; SvelteKit's announcer's style attribute by its hash), images also as `data:` (Vite
 * inlines small assets such as the favicon), no plugins,
 * no `<base>` (no `form-action`: Chromium applies it to the redirect a sign-in form answers with,
 * and the OAuth sign-in's goes to the provider). The `sveltekit()` options of the app's vite.config
 * get it (where the fixtures keep their config); its `src/app.html` loses the
 * `style="display: contents"` wrapper `sv create` writes, the one inline style the app itself has.
 * @throws {Error} the config has no `adapter: adapter()` line to put it after (another fixture)
 */
export async function useStrictCsp(appDir: string): Promise<void> {
	const file = (await fs.readdir(appDir)).find((name) => /^vite\.config\.[jt]s$/.test(name));
	if (!file) throw new Error(`no vite.config in ${appDir}`);
	const source = await fs.readFile(path.join(appDir, file), 'utf8');
	if (!source.includes('adapter: adapter()')) throw new Error(`${file} has no adapter: adapter() line to add csp after`);
	const directives = `{ 'default-src': ['self'], 'script-src': ['self'], 'style-src': ['self'], 'style-src-attr': ['unsafe-hashes', '${SVELTEKIT_ANNOUNCER}'], 'img-src': ['self', 'data:'], 'object-src': ['none'], 'base-uri': ['none'] }`;
	await fs.writeFile(path.join(appDir, file), source.replace('adapter: adapter()', `adapter: adapter(),\n\t\t\tcsp: { mode: 'hash', directives: ${directives} }`));
	const html = path.join(appDir, 'src', 'app.html');
	await fs.writeFile(html, (await fs.readFile(html, 'utf8')).replace('<div style="display: contents">%sveltekit.body%</div>', '<div>%sveltekit.body%</div>'));
}

/** A form POST to `path` as a browser sends it from the app's own page (`Origin`, for SvelteKit's CSRF check), plus `headers`. */
function postForm(url: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
	return fetch(`${url}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
		body: new URLSearchParams(fields)
	});
}

/** The Content Security Policy violations a page reports, from the console and `securitypolicyviolation` events. */
async function cspViolations(page: Page): Promise<string[]> {
	const violations: string[] = [];
	page.on('console', (message) => {
		if (message.text().includes('Content Security Policy')) violations.push(message.text());
	});
	await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			(window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`);
		});
	});
	return violations;
}

/**
 * Registers the flows as tests of the enclosing `describe`.
 * @param app the app under test
 * @param options `csp`: {@link useStrictCsp} was applied before its build
 */
export function defenceFlows(app: () => Pick<CredentialsApp, 'server' | 'browser'>, { csp = false } = {}): void {
	// Login CSRF and forced sign-out from another site (OWASP ASVS 5.0 V3.5.1, V3.5.3: Sec-Fetch-*).
	it('refuses a cross-site POST to the sign-in and sign-out actions with 403, and takes the same POST without the header', async () => {
		const { url } = app().server;
		const signIn = { providerId: 'credentials', email: 'nobody@example.com', password: 'not the password' };
		for (const [target, fields] of [['/signin', signIn], ['/signin?/default', signIn], ['/signout', {}]] as const) {
			for (const site of ['cross-site', 'same-site']) {
				const refused = await postForm(url, target, fields, { 'sec-fetch-site': site });
				expect([target, site, refused.status]).toEqual([target, site, 403]);
				expect(await refused.text()).toBe('Cross-site requests to sign-in pages are refused.');
				expect(refused.headers.getSetCookie()).toEqual([]);
			}
		}
		// The same posts from the app's own page (or a client without Fetch Metadata) reach the actions.
		const wrongPassword = await postForm(url, '/signin', signIn, { 'sec-fetch-site': 'same-origin' });
		expect(wrongPassword.status).toBe(303);
		expect(wrongPassword.headers.get('location')).toMatch(/^\/signin\?error=CredentialsSignin/);
		const signOut = await postForm(url, '/signout', {});
		expect([signOut.status, signOut.headers.get('location')]).toEqual([303, '/']);
	});

	// Cached personal pages and clickjacking (ASVS 5.0 V14.3, V3.4).
	it('sends Cache-Control: no-store on the auth pages, and refuses frames on sign-in and sign-up', async () => {
		const { url } = app().server;
		for (const target of ['/signin', '/signup']) {
			const response = await fetch(`${url}${target}`);
			expect([target, response.status]).toEqual([target, 200]);
			expect(response.headers.get('cache-control')).toBe('no-store');
			expect(response.headers.get('x-frame-options')).toBe('DENY');
			const policy = response.headers.get('content-security-policy') ?? '';
			expect(policy).toMatch(/(^|; )frame-ancestors 'none'$/);
			// Appended to SvelteKit's own policy (its script hashes kept), not put in its place.
			if (csp) expect(policy).toMatch(/script-src 'self' 'sha256-/);
		}
		const signOut = await fetch(`${url}/signout`);
		expect(signOut.headers.get('cache-control')).toBe('no-store');
		expect(signOut.headers.get('x-frame-options')).toBeNull();
		expect((await fetch(`${url}/`)).headers.get('x-frame-options')).toBeNull();
	});

	if (!csp) return;
	it('signs up, in and out in Chromium under a strict kit.csp with no Content Security Policy violation', async () => {
		const { url } = app().server;
		const page = await freshPage(app().browser);
		const violations = await cspViolations(page);
		const email = 'csp@example.com';
		await page.goto(`${url}/signup`);
		await submitCredentials(page, 'Create account', email);
		await page.waitForURL((target) => target.pathname === '/account');
		await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		await page.goto(`${url}/signin`);
		// An OAuth button keeps its brand colour (the idp's #0f766e), set through CSSOM, not a style attribute.
		const idpButton = page.getByRole('button', { name: 'Sign in with Identity Provider' });
		await expect.poll(() => idpButton.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(15, 118, 110)');
		await submitCredentials(page, 'Sign in', email);
		await page.waitForURL((target) => target.pathname === '/');
		await page.goto(`${url}/signout`);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		expect(violations).toEqual([]);
		await page.context().close();
	});
}
