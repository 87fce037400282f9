// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import * as oauth from 'oauth4webapi';
import type { OAuthConfig, TokenSet } from '../providers/types.js';
import { providerClient } from './client.js';
import { normalizeTokens } from './profile.js';

/**
 * Sends a refresh_token grant to the provider's token endpoint (RFC 6749 §6) through
 * oauth4webapi, with the client authentication the provider is configured for: the OAuth 2
 * flow's `refreshTokens` (`signin/oauth.ts`), which `refreshTokenGrant` and
 * `refreshAccessToken` (`session/refresh.ts`) call through the provider.
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
