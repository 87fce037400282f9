// @ts-check
/**
 * Debian's Chromium (/usr/bin/chromium, installed by scripts/setup.sh) driven by playwright-core.
 * Each launch gets a fresh temporary profile: playwright-core's `chromium.launch()` creates its
 * own temp `--user-data-dir` and deletes it on close (passing `--user-data-dir` in `args` is
 * refused by playwright), and every context is an isolated incognito-like session.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { count, timed } from './ledger.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-quic',
	'--no-first-run',
	'--disable-sync'
];

/**
 * @typedef {object} LaunchOptions
 * @property {boolean} [javaScriptEnabled]  for the default context (default true); false = a no-JS browser
 * @property {string} [baseURL]  lets `page.goto('/signin')` work; for the default context
 * @property {number} [timeout]  default action/navigation timeout in ms (default 15 000)
 */

/**
 * @typedef {object} Browser
 * @property {import('playwright-core').Browser} browser
 * @property {import('playwright-core').BrowserContext} context  the default context
 * @property {() => Promise<import('playwright-core').Page>} newPage  a page in the default context
 * @property {(options?: import('playwright-core').BrowserContextOptions) => Promise<import('playwright-core').BrowserContext>} newContext
 *   another isolated context (own cookies), e.g. `{ javaScriptEnabled: false }` or a second user;
 *   gets the same default timeout and baseURL unless given
 * @property {() => Promise<void>} close  closes every context and the browser (and deletes the profile)
 */

/**
 * Launch headless Chromium.
 * @param {LaunchOptions} [options]
 * @returns {Promise<Browser>}
 */
export async function launchBrowser({ javaScriptEnabled = true, baseURL, timeout = 15_000 } = {}) {
	if (!existsSync(CHROMIUM_PATH)) {
		throw new Error(`${CHROMIUM_PATH} is missing: run \`bash scripts/setup.sh\` (installs Debian's chromium)`);
	}
	count('spawns');
	const browser = await timed('browsers', 'chromium', () => chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 }));
	/** @param {import('playwright-core').BrowserContextOptions} [contextOptions] */
	const newContext = async (contextOptions = {}) => {
		const context = await browser.newContext({ baseURL, ...contextOptions });
		context.setDefaultTimeout(timeout);
		context.setDefaultNavigationTimeout(timeout);
		return context;
	};
	let context;
	try {
		context = await newContext({ javaScriptEnabled });
	} catch (error) {
		await browser.close().catch(() => {});
		throw error;
	}
	return {
		browser,
		context,
		newPage: () => context.newPage(),
		newContext,
		close: async () => {
			await browser.close().catch(() => {});
		}
	};
}

/**
 * Closes `page`, as `page.close()` does (no `beforeunload`), but never waits more than `timeout` ms
 * (default 15 000). Chromium can acknowledge a page's close (CDP `Target.closeTarget`) and drop it
 * when a navigation of that page commits at the same moment (crbug.com/536385539: a redirect, a
 * form's answer), and `page.close()` then waits for a close that never comes; so the close is asked
 * again every second until the page is gone. A page of a context of its own closes with its context
 * (`context.close()`), which does not race navigations.
 * @param {import('playwright-core').Page} page
 * @param {{ timeout?: number }} [options]
 * @returns {Promise<void>}
 * @throws {Error} the page is still open after `timeout` ms
 */
export async function closePage(page, { timeout = 15_000 } = {}) {
	if (page.isClosed()) return;
	const context = page.context();
	const closed = page.close({ runBeforeUnload: false }).then(
		() => true,
		() => true
	);
	const deadline = Date.now() + timeout;
	/** @type {string | undefined} */
	let targetId;
	/** @type {import('playwright-core').CDPSession | undefined} */
	let browserSession;
	try {
		while (!(await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000, false))]))) {
			if (Date.now() >= deadline) throw new Error(`Chromium did not close the page at ${page.url()} within ${timeout} ms.`);
			// Looked up only for a page still open after a second; one that closed meanwhile fails it, and the loop sees it closed.
			targetId ??= await targetIdOf(page).catch(() => undefined);
			if (targetId === undefined) continue;
			browserSession ??= await /** @type {import('playwright-core').Browser} */ (context.browser()).newBrowserCDPSession();
			await answered(browserSession.send('Target.closeTarget', { targetId }), 'Target.closeTarget').catch(() => {});
		}
	} finally {
		await browserSession?.detach().catch(() => {});
	}
}

/**
 * The CDP target id of `page`.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string>}
 */
async function targetIdOf(page) {
	const session = await page.context().newCDPSession(page);
	try {
		return (await answered(session.send('Target.getTargetInfo'), 'Target.getTargetInfo')).targetInfo.targetId;
	} finally {
		await session.detach().catch(() => {});
	}
}

/**
 * Give a page a virtual WebAuthn authenticator (CTAP2, internal, resident keys, user verified,
 * auto presence) through the Chrome DevTools Protocol. Returns its id and a function that
 * lists its credentials.
 * @param {import('playwright-core').Page} page
 * @param {Record<string, unknown>} [options]  overrides for `WebAuthn.addVirtualAuthenticator`'s options
 * @returns {Promise<{ authenticatorId: string, cdp: import('playwright-core').CDPSession, credentials: () => Promise<Array<{ credentialId: string, rpId?: string, userHandle?: string, signCount: number, isResidentCredential: boolean }>> }>}
 */
export async function addVirtualAuthenticator(page, options = {}) {
	const cdp = await page.context().newCDPSession(page);
	await answered(cdp.send('WebAuthn.enable', { enableUI: false }), 'WebAuthn.enable');
	const { authenticatorId } = await answered(cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: {
			protocol: 'ctap2',
			transport: 'internal',
			hasResidentKey: true,
			hasUserVerification: true,
			isUserVerified: true,
			automaticPresenceSimulation: true,
			...options
		}
	}), 'WebAuthn.addVirtualAuthenticator');
	return {
		authenticatorId,
		cdp,
		credentials: async () => (await answered(cdp.send('WebAuthn.getCredentials', { authenticatorId }), 'WebAuthn.getCredentials')).credentials
	};
}

/**
 * A CDP command's answer, or an error naming it after 15 s: Playwright puts no timeout on
 * `CDPSession.send`, and a command Chromium never answers would hold its test until the test
 * timeout (10 minutes) without saying where; polled (`expect.poll`), the error lets it retry.
 * @template T
 * @param {Promise<T>} answer
 * @param {string} command
 * @returns {Promise<T>}
 */
function answered(answer, command) {
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const late = new Promise((_, reject) => {
		timer = setTimeout(() => reject(new Error(`Chromium did not answer ${command} within 15 s.`)), 15_000);
	});
	return /** @type {Promise<T>} */ (Promise.race([answer, late]).finally(() => clearTimeout(timer)));
}

/**
 * Runs `step` on `page`; when it fails, its error is thrown again with what the page was showing:
 * its URL, the status of the document it last loaded, its text, and the tail of `output` (the app
 * server's, from `start()`), so a label that never appears says why.
 * @template T
 * @param {import('playwright-core').Page} page
 * @param {() => string} output
 * @param {() => Promise<T>} step
 * @returns {Promise<T>}
 */
export async function explained(page, output, step) {
	/** @type {number | undefined} */
	let status;
	const seen = (/** @type {import('playwright-core').Response} */ response) => {
		if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) status = response.status();
	};
	page.on('response', seen);
	try {
		return await step();
	} catch (error) {
		const text = await page.locator('body').innerText({ timeout: 2_000 }).catch((reason) => `(no text: ${reason})`);
		const tail = output().split('\n').slice(-40).join('\n');
		throw new Error(`${/** @type {Error} */ (error).message}\nthe page: ${page.url()}, answered ${status ?? 'nothing seen'}\n${text}\nthe server's last lines:\n${tail}`, { cause: error });
	} finally {
		page.off('response', seen);
	}
}
