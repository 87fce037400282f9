// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { JsonValue } from '../adapters/types.js';

/**
 * User info from an OAuth provider: the OpenID Connect standard claims (all optional), plus
 * whatever else the provider sends.
 * @see create-auth docs/api.md#profile; OpenID Connect Core 1.0 §5.1
 */
export interface Profile {
	id?: string | null;
	sub?: string | null;
	name?: string | null;
	given_name?: string | null;
	family_name?: string | null;
	middle_name?: string | null;
	nickname?: string | null;
	preferred_username?: string | null;
	profile?: string | null;
	picture?: unknown;
	website?: string | null;
	email?: string | null;
	email_verified?: boolean | null;
	gender?: string | null;
	birthdate?: string | null;
	zoneinfo?: string | null;
	locale?: string | null;
	phone_number?: string | null;
	updated_at?: Date | string | number | null;
	address?: {
		formatted?: string | null;
		street_address?: string | null;
		locality?: string | null;
		region?: string | null;
		postal_code?: string | null;
		country?: string | null;
	} | null;
	[claim: string]: unknown;
}

/**
 * The token endpoint's answer (RFC 6749 §5.1), as oauth4webapi returns it: `access_token`,
 * `token_type` (lowercased), `expires_in` (seconds), `refresh_token`, `scope`, `id_token`, and
 * any extra members.
 */
export interface TokenSet {
	access_token?: string;
	token_type?: string;
	/** Seconds. */
	expires_in?: number;
	/** Epoch seconds, added from `expires_in` when the token set is received. */
	expires_at?: number;
	refresh_token?: string;
	scope?: string;
	id_token?: string;
	[member: string]: unknown;
}

/** The account fields a provider's `account()` keeps from the token set (snake_case, JSON). */
export type AccountTokens = Record<string, JsonValue | undefined>;
