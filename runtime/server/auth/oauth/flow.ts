// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Cookies } from '@sveltejs/kit';
import { appBase } from '../http/app-paths.js';
import type { ResolvedConfig } from '../config.js';
import { authCookie } from '../session/cookies.js';
import { InvalidCheck } from '../errors.js';
import { seal, unseal } from '../session/jwt.js';

/**
 * What a started sign-in must remember until its callback: the provider it was started for,
 * where to go afterwards, and the protocol's values: for OAuth 2 the check values (`state`,
 * PKCE `codeVerifier`, `nonce`), for OAuth 1.0a the temporary credentials.
 */
export interface FlowState extends Record<string, unknown> {
	provider: string;
	redirectUri: string;
	state?: string;
	codeVerifier?: string;
	nonce?: string;
	/** Seconds: the `max_age` a re-authentication sent; the ID token's `auth_time` must be within it. */
	maxAge?: number;
	/**
	 * OAuth 1.0a only: the temporary credentials (RFC 5849 §2.1). The callback's `oauth_token`
	 * must be this one, and its secret signs the token request.
	 */
	temporaryCredentials?: { oauth_token: string; oauth_token_secret: string };
	/** Validated target after sign-in (a path or an allowed absolute URL). */
	redirectTo?: string;
}

/** Seconds a started sign-in stays valid. */
export const FLOW_MAX_AGE = 15 * 60;
const SALT = 'auth.oauth-flow';

/**
 * Cookie name and attributes: scoped to where callbacks arrive, `<base><basePath>` (SvelteKit's
 * `paths.base` included, or the browser would not send it there). `form_post` callbacks are
 * cross-site POSTs: they need SameSite=None (https).
 */
const flowCookie = (url: URL, config: ResolvedConfig, formPost = false) =>
	authCookie(url, config.useSecureCookies, 'oauth-flow', { path: `${appBase(url, config)}${config.basePath}` || '/', crossSite: formPost });

/**
 * Stores the flow in one encrypted (A256GCM, key derived from the secret for this use only),
 * httpOnly cookie scoped to `<base><basePath>`, valid 15 minutes. Starting another sign-in replaces it.
 */
export async function saveFlow(cookies: Cookies, url: URL, config: ResolvedConfig, flow: FlowState, formPost: boolean): Promise<void> {
	const value = await seal(flow, config.secrets[0]!, SALT, FLOW_MAX_AGE, Math.floor(Date.now() / 1000));
	const { name, options } = flowCookie(url, config, formPost);
	cookies.set(name, value, { ...options, maxAge: FLOW_MAX_AGE });
}

/**
 * Reads and deletes the flow cookie: a callback uses it once. Null when absent, expired,
 * tampered or sealed with an unknown secret.
 */
async function takeFlow(cookies: Cookies, url: URL, config: ResolvedConfig): Promise<FlowState | null> {
	const { name, options } = flowCookie(url, config);
	const value = cookies.get(name);
	if (!value) return null;
	cookies.delete(name, options);
	const flow = await unseal<FlowState>(value, config.secrets, SALT);
	return flow && typeof flow.provider === 'string' && typeof flow.redirectUri === 'string' ? flow : null;
}

/**
 * {@link takeFlow} for a callback of `provider`, over the protocol it speaks: an OAuth 1.0a
 * flow carries temporary credentials, an OAuth 2 one none.
 * @throws {InvalidCheck} no valid flow cookie, a flow started for another provider, or over the
 *   other protocol (the provider's `version` changed meanwhile).
 */
export async function takeFlowFor(
	cookies: Cookies,
	url: URL,
	config: ResolvedConfig,
	provider: string,
	protocol: 'oauth1' | 'oauth2'
): Promise<FlowState> {
	const flow = await takeFlow(cookies, url, config);
	if (!flow) throw new InvalidCheck('The callback came without a valid sign-in flow cookie (expired, or started elsewhere).', { provider });
	if (flow.provider !== provider) {
		throw new InvalidCheck(`The callback is for ${provider} but the sign-in was started with ${flow.provider}.`, { provider });
	}
	const started = flow.temporaryCredentials ? 'oauth1' : 'oauth2';
	if (started !== protocol) throw new InvalidCheck(`The ${provider} callback is ${protocol} but the sign-in was started over ${started}.`, { provider });
	return flow;
}
