// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { JWT, ProviderConfig } from '../config.js';
import type { TokenSet } from '../providers/profile.js';

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
 * Sends a refresh-token grant (RFC 6749 §6) through the provider's flow (`flow.refreshTokens`:
 * OAuth 2's, `oauth/refresh.ts`), so that this module, which every app has, loads no OAuth code.
 * @returns the new token set: `token_type` lowercased, `expires_at` in epoch seconds.
 * @throws {TypeError} the provider's flow cannot refresh (not OAuth 2).
 * @throws what the grant throws: oauth4webapi's errors for an error answer (e.g.
 *   `invalid_grant`), a non-JSON or non-2xx response, or an unreachable provider.
 * @see create-auth docs/api.md#token-refresh
 */
export function refreshTokenGrant(provider: ProviderConfig, refreshToken: string): Promise<TokenSet> {
	const { flow } = provider;
	if (!flow?.refreshTokens) throw new TypeError(`Provider "${provider.id}" cannot refresh tokens.`);
	return flow.refreshTokens(provider, refreshToken);
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
 * @throws {TypeError} the token has expired and has no `refresh_token`; the provider cannot refresh.
 * @see create-auth docs/api.md#token-refresh
 */
export async function refreshAccessToken<T extends JWT & TokenFields>(
	provider: ProviderConfig,
	token: T,
	onError: (error: unknown) => void = (error) => console.error(error)
): Promise<T> {
	if (typeof token.expires_at === 'number' && token.expires_at * 1000 > Date.now()) return token;
	if (!token.refresh_token) throw new TypeError('The access token has expired and there is no refresh_token.');
	if (!provider.flow?.refreshTokens) throw new TypeError(`Provider "${provider.id}" cannot refresh tokens.`);
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
