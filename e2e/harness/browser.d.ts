// Generated from the .js file of the same name by `node scripts/harness-types.js`. Do not edit.
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
export function launchBrowser({ javaScriptEnabled, baseURL, timeout }?: LaunchOptions): Promise<Browser>;
/**
 * Give a page a virtual WebAuthn authenticator (CTAP2, internal, resident keys, user verified,
 * auto presence) through the Chrome DevTools Protocol. Returns its id and a function that
 * lists its credentials.
 * @param {import('playwright-core').Page} page
 * @param {Record<string, unknown>} [options]  overrides for `WebAuthn.addVirtualAuthenticator`'s options
 * @returns {Promise<{ authenticatorId: string, cdp: import('playwright-core').CDPSession, credentials: () => Promise<Array<{ credentialId: string, rpId?: string, userHandle?: string, signCount: number, isResidentCredential: boolean }>> }>}
 */
export function addVirtualAuthenticator(page: import("playwright-core").Page, options?: Record<string, unknown>): Promise<{
    authenticatorId: string;
    cdp: import("playwright-core").CDPSession;
    credentials: () => Promise<Array<{
        credentialId: string;
        rpId?: string;
        userHandle?: string;
        signCount: number;
        isResidentCredential: boolean;
    }>>;
}>;
export const CHROMIUM_PATH: "/usr/bin/chromium";
export const CHROMIUM_ARGS: string[];
export type LaunchOptions = {
    /**
     * for the default context (default true); false = a no-JS browser
     */
    javaScriptEnabled?: boolean | undefined;
    /**
     * lets `page.goto('/signin')` work; for the default context
     */
    baseURL?: string | undefined;
    /**
     * default action/navigation timeout in ms (default 15 000)
     */
    timeout?: number | undefined;
};
export type Browser = {
    browser: import("playwright-core").Browser;
    /**
     * the default context
     */
    context: import("playwright-core").BrowserContext;
    /**
     * a page in the default context
     */
    newPage: () => Promise<import("playwright-core").Page>;
    /**
     *   another isolated context (own cookies), e.g. `{ javaScriptEnabled: false }` or a second user;
     *   gets the same default timeout and baseURL unless given
     */
    newContext: (options?: import("playwright-core").BrowserContextOptions) => Promise<import("playwright-core").BrowserContext>;
    /**
     * closes every context and the browser (and deletes the profile)
     */
    close: () => Promise<void>;
};
