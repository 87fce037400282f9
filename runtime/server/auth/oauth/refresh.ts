// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import * as oauth from 'oauth4webapi';
import type { JWT } from '../config.js';
import type { OAuthConfig, TokenSet } from '../providers/types.js';
import { providerClient } from './client.js';
import { normalizeTokens } from './profile.js';

/**
 * The token fields a JWT session keeps for a provider's access token (epoch seconds for
 * `expires_at`), and `error: 'RefreshTokenError'` once a refresh failed.
 */
export interface TokenFields {
	access_token?: string;
	refresh_token?: string;
	expires_at?: number;
	error?: 'RefreshTokenError';
}

/**
 * Sends a refresh_token grant to the provider's token endpoint (RFC 6749 §6) through
 * oauth4webapi, with the client authentication the provider is configured for.
 * @returns the new token set: `token_type` lowercased, `expires_at` in epoch seconds.
 * @throws oauth4webapi's errors for an error answer (e.g. `invalid_grant`), a non-JSON or
 *   non-2xx response, or an unreachable provider.
 */
export async function refreshTokenGrant(provider: OAuthConfig, refreshToken: string): Promise<TokenSet> {
	const pc = await providerClient(provider);
	const response = await oauth.refreshTokenGrantRequest(pc.as, pc.client, pc.clientAuth, refreshToken, pc.http);
	const tokens = await oauth.processRefreshTokenResponse(pc.as, pc.client, response);
	return normalizeTokens(tokens as TokenSet, Date.now());
}

/**
 * Keeps a JWT session's access token fresh; call it from the `jwt` callback on reads (not at
 * sign-in). Follows the spec's recommended rules:
 * - `expires_at` (epoch seconds) still in the future → the token unchanged;
 * - no `refresh_token` → TypeError;
 * - else a refresh: `access_token` replaced, `expires_at` = floor(now + `expires_in`),
 *   `refresh_token` replaced only when a new one comes back, `error` cleared;
 * - a failed refresh is logged through `onError` and sets `error: 'RefreshTokenError'`; the
 *   token is still returned (the session stays; the app decides what to do).
 * @throws {TypeError} the token has expired and has no `refresh_token`.
 * @see create-auth docs/api.md#token-refresh
 */
export async function refreshAccessToken<T extends JWT & TokenFields>(
	provider: OAuthConfig,
	token: T,
	onError: (error: unknown) => void = (error) => console.error(error)
): Promise<T> {
	if (typeof token.expires_at === 'number' && token.expires_at * 1000 > Date.now()) return token;
	if (!token.refresh_token) throw new TypeError('The access token has expired and there is no refresh_token.');
	try {
		const tokens = await refreshTokenGrant(provider, token.refresh_token);
		const next: T = { ...token, access_token: tokens.access_token, refresh_token: tokens.refresh_token ?? token.refresh_token };
		if (typeof tokens.expires_at === 'number') next.expires_at = tokens.expires_at;
		delete next.error;
		return next;
	} catch (error) {
		onError(error);
		return { ...token, error: 'RefreshTokenError' };
	}
}
