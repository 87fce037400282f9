#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/screenshots.js [--app <dir>] [--all] [--out <dir>]`: screenshots of the
 * generated /signin, /signup, /account and /signout pages in Chromium, at phone (390×844) and
 * desktop (1280×800) widths, in light and dark colour schemes.
 *
 * Without `--app` it makes a fresh app as the e2e tests do (the kit2-ts fixture,
 * `create-auth --yes --providers credentials,idp,social,github,google --two-factor`, which installs) and
 * removes it afterwards; `--app <dir>` reuses an app that already has auth and its
 * dependencies. Either way the app is built and previewed on 127.0.0.1; the sign-in page shows
 * the real provider buttons (their settings may stay empty: only the buttons are shot). Each
 * page gets `:root { color-scheme: light dark }`, as an app with a dark mode has, since the
 * fixture app has no styles of its own.
 *
 * By default only the README's images are written, to `docs/screenshots/`; `--all` writes every
 * page × width × scheme (to `--out`, default a new temp folder). Each file's path is printed.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import { build, copyFixture, removeApp, repoRoot, runCli, start } from '../e2e/harness/app.js';
import { launchBrowser } from '../e2e/harness/browser.js';

const { values: options } = parseArgs({
	options: { app: { type: 'string' }, all: { type: 'boolean', default: false }, out: { type: 'string' } }
});

/** Every sign-in method with a button of its own, beside the credentials form. */
const PROVIDERS = 'credentials,idp,social,github,google';
const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery staple';

/**
 * The pages to shoot, by name; `signedIn` ones are taken after signing in, `limited` after wrong
 * passwords until the sign-in rate limit answers (the first time, 11 of them; the limit lasts).
 * `two-factor-setup`: the account page once "Set up two-factor authentication" was pressed;
 * `two-factor`: the second step, reached by another user who has it on ({@link TWO_FACTOR_EMAIL}).
 */
const PAGES = {
	signin: { path: '/signin', signedIn: false },
	'signin-error': { path: '/signin?error=CredentialsSignin', signedIn: false },
	'signin-limited': { path: '/signin', signedIn: false, limited: true },
	signup: { path: '/signup', signedIn: false },
	account: { path: '/account', signedIn: true },
	'two-factor-setup': { path: '/account', signedIn: true, setup: true },
	'two-factor': { path: '/signin/two-factor', signedIn: false, secondStep: true },
	signout: { path: '/signout', signedIn: true }
};
/** @typedef {keyof typeof PAGES} PageName */

/** Browser context options per width: the phone at 2× device pixels, like the phones it stands for. */
const VIEWPORTS = {
	phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
	desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 }
};
/** @typedef {keyof typeof VIEWPORTS} ViewportName */

/** @typedef {{ page: PageName, viewport: ViewportName, scheme: 'light' | 'dark' }} Shot */

/** The images the README shows, written to docs/screenshots/ as `<page>-<viewport>-<scheme>.png`. */
const README_SHOTS = /** @type {Shot[]} */ ([
	{ page: 'signin', viewport: 'desktop', scheme: 'light' },
	{ page: 'signin', viewport: 'phone', scheme: 'dark' },
	{ page: 'signin-error', viewport: 'phone', scheme: 'light' },
	{ page: 'account', viewport: 'desktop', scheme: 'dark' },
	{ page: 'two-factor-setup', viewport: 'phone', scheme: 'light' },
	{ page: 'two-factor', viewport: 'desktop', scheme: 'dark' }
]);

const shots = options.all
	? /** @type {Shot[]} */ (
			Object.keys(PAGES).flatMap((page) =>
				Object.keys(VIEWPORTS).flatMap((viewport) =>
					['light', 'dark'].map((scheme) => /** @type {Shot} */ ({ page, viewport, scheme }))
				)
			)
		)
	: README_SHOTS;
const outDir = options.out
	? path.resolve(options.out)
	: options.all
		? await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-screenshots-'))
		: path.join(repoRoot, 'docs', 'screenshots');

/**
 * Signs `email` up on a new page, left open and signed in; a reused app may have the user already,
 * and then the sign-up is refused, harmlessly.
 * @param {import('../e2e/harness/browser.js').Browser} browser
 * @param {string} email
 * @returns {Promise<{ page: import('playwright-core').Page, signedUp: boolean }>}
 */
async function signUp(browser, email) {
	const page = await browser.newPage();
	await page.goto('/signup');
	await page.getByLabel('Email').fill(email);
	await page.getByLabel('Password').fill(PASSWORD);
	await page.getByRole('button', { name: 'Create account' }).click();
	await page.waitForLoadState();
	return { page, signedUp: new URL(page.url()).pathname === '/' };
}

/**
 * Wrong passwords for one email until the page shows the rate limit's message.
 * @param {import('playwright-core').Page} page
 */
async function reachLimit(page) {
	for (let attempt = 0; attempt < 12; attempt++) {
		await page.getByLabel('Email').fill('limited@example.com');
		await page.getByLabel('Password').fill('not the password');
		await page.getByRole('button', { name: 'Sign in', exact: true }).click();
		await page.waitForLoadState();
		if ((await page.getByRole('alert').textContent())?.startsWith('Too many attempts')) return;
	}
	throw new Error('the sign-in rate limit never answered');
}

/** The user who has two-factor authentication on, for the second step's pictures. */
const TWO_FACTOR_EMAIL = 'grace@example.com';

/**
 * Signs `TWO_FACTOR_EMAIL` up and turns two-factor authentication on for them (a reused app may
 * have them already: then only the sign-up is refused).
 * @param {import('../e2e/harness/browser.js').Browser} browser
 */
async function enrolSecondUser(browser) {
	const { page, signedUp } = await signUp(browser, TWO_FACTOR_EMAIL);
	if (signedUp) {
		await page.goto('/account');
		const section = page.getByRole('region', { name: 'Two-factor authentication' });
		await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
		const key = (await section.locator('.key code').textContent())?.trim() ?? '';
		await section.getByLabel('6-digit code').fill(new TOTP({ secret: Secret.fromBase32(key) }).generate());
		await section.getByRole('button', { name: 'Turn on' }).click();
		await section.locator('.codes').waitFor();
	}
	await page.close();
}

/** @param {import('playwright-core').Page} page */
async function firstStepOfSecondUser(page) {
	await page.goto('/signin');
	await page.getByLabel('Email').fill(TWO_FACTOR_EMAIL);
	await page.getByLabel('Password').fill(PASSWORD);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await page.waitForURL('**/signin/two-factor');
}

/** @param {import('playwright-core').Page} page */
async function signIn(page) {
	await page.goto('/signin?callbackUrl=%2Faccount');
	await page.getByLabel('Email').fill(EMAIL);
	await page.getByLabel('Password').fill(PASSWORD);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await page.waitForURL('**/account');
}

const appDir = options.app ? path.resolve(options.app) : await copyFixture('kit2-ts');
/** @type {import('../e2e/harness/app.js').Server | undefined} */
let server;
/** @type {import('../e2e/harness/browser.js').Browser | undefined} */
let browser;
try {
	if (!options.app) {
		console.log(`screenshots: create-auth --yes --providers ${PROVIDERS} --two-factor in ${appDir} (installs; about a minute)...`);
		const cli = await runCli(appDir, ['--yes', '--providers', PROVIDERS, '--two-factor']);
		if (cli.exitCode !== 0) throw new Error(`create-auth exited with ${cli.exitCode}\n${cli.stdout}\n${cli.stderr}`);
	}
	await build(appDir);
	server = await start(appDir, { mode: 'preview' });
	browser = await launchBrowser({ baseURL: server.url });
	await fs.mkdir(outDir, { recursive: true });
	await (await signUp(browser, EMAIL)).page.close();
	await enrolSecondUser(browser);

	for (const viewport of /** @type {ViewportName[]} */ (Object.keys(VIEWPORTS))) {
		for (const scheme of /** @type {const} */ (['light', 'dark'])) {
			const wanted = shots.filter((shot) => shot.viewport === viewport && shot.scheme === scheme);
			if (wanted.length === 0) continue;
			const context = await browser.newContext({ ...VIEWPORTS[viewport], colorScheme: scheme });
			const page = await context.newPage();
			let signedIn = false;
			for (const shot of wanted.sort((a, b) => Number(PAGES[a.page].signedIn) - Number(PAGES[b.page].signedIn))) {
				if (PAGES[shot.page].signedIn && !signedIn) {
					await signIn(page);
					signedIn = true;
				}
				if ('secondStep' in PAGES[shot.page]) await firstStepOfSecondUser(page);
				await page.goto(PAGES[shot.page].path);
				if ('limited' in PAGES[shot.page]) await reachLimit(page);
				if ('setup' in PAGES[shot.page]) {
					const section = page.getByRole('region', { name: 'Two-factor authentication' });
					await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
					await section.locator('.key').waitFor();
					await section.scrollIntoViewIfNeeded();
				}
				// The fixture app has no styles of its own: this one line is what a dark-mode app
				// declares, so that the page around the card follows the scheme too.
				await page.addStyleTag({ content: ':root { color-scheme: light dark; }' });
				await page.waitForLoadState('networkidle');
				const file = path.join(outDir, `${shot.page}-${shot.viewport}-${shot.scheme}.png`);
				await page.screenshot({ path: file });
				console.log(`screenshots: ${path.relative(process.cwd(), file)}`);
			}
			await context.close();
		}
	}
} finally {
	await browser?.close();
	await server?.stop();
	if (!options.app) await removeApp(appDir);
}
