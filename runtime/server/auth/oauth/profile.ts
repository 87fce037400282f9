// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { User } from '../../../auth/types.js';
import type { Account } from '../config.js';
import type { AccountTokens, OAuthConfig, Profile, TokenSet } from '../providers/types.js';

const nonEmpty = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The default `profile()`: `id` from `sub` (OpenID) or `id`, `name` from `name`, `nickname` or
 * `preferred_username`, `email`, and `image` from `picture`.
 * @see create-auth docs/api.md#oauth-2-and-openid-connect (`profile`)
 */
export function defaultProfile(profile: Profile): User {
	const id = profile.sub ?? profile.id;
	return {
		id: id === undefined || id === null ? undefined : String(id),
		name: nonEmpty(profile.name) ?? nonEmpty(profile.nickname) ?? nonEmpty(profile.preferred_username),
		email: nonEmpty(profile.email),
		image: nonEmpty(profile.picture)
	};
}

/**
 * The default `account()`: the token set's `access_token`, `id_token`, `refresh_token`,
 * `expires_at`, `scope`, `token_type`, `session_state` (those present).
 */
export function defaultAccount(tokens: TokenSet): AccountTokens {
	const kept: AccountTokens = {};
	for (const key of ['access_token', 'id_token', 'refresh_token', 'expires_at', 'scope', 'token_type', 'session_state'] as const) {
		const value = tokens[key];
		if (typeof value === 'string' || typeof value === 'number') kept[key] = value;
	}
	return kept;
}

/**
 * The token set as the account sees it: `token_type` lowercased, and `expires_at` = now +
 * `expires_in` in epoch seconds (floored) unless the provider sent `expires_at` itself.
 * @param now  epoch milliseconds
 * @see create-auth docs/api.md#account
 */
export function normalizeTokens(tokens: TokenSet, now: number): TokenSet {
	const normalized: Record<string, unknown> = { ...tokens };
	if (typeof tokens.token_type === 'string') normalized.token_type = tokens.token_type.toLowerCase();
	if (typeof tokens.expires_in === 'number' && typeof tokens.expires_at !== 'number') {
		normalized.expires_at = Math.floor(now / 1000 + tokens.expires_in);
	}
	return normalized as TokenSet;
}

/**
 * Runs the provider's `profile()` and `account()` on what the provider sent; without them,
 * {@link defaultProfile} and `keep` (default {@link defaultAccount}; OAuth 1.0a keeps its own).
 * @throws {TypeError} the profile yields no id.
 */
export async function toUserAndAccount(
	provider: OAuthConfig,
	profile: Profile,
	tokens: TokenSet,
	keep: (tokens: TokenSet) => AccountTokens = defaultAccount
): Promise<{ user: User; account: Account }> {
	const user = await (provider.profile ?? defaultProfile)(profile, tokens);
	if (user.id === undefined || user.id === null || user.id === '') throw new TypeError(`The ${provider.id} profile has no id.`);
	const fields = (provider.account ?? keep)(tokens) ?? {};
	const account: Account = { ...fields, provider: provider.id, type: provider.type, providerAccountId: String(user.id) };
	return { user: { ...user, id: String(user.id) }, account };
}
