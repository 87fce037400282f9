// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Stable error types. Tests, logs and the `?error=` query of the sign-in page use these values;
 * never rename one.
 */
export type ErrorType =
	| 'AccessDenied'
	| 'AdapterError'
	| 'CallbackRouteError'
	| 'CredentialsSignin'
	| 'CrossSiteRequest'
	| 'DriverUnavailable'
	| 'EmailSignInError'
	| 'InvalidCheck'
	| 'InvalidProvider'
	| 'InvalidUrl'
	| 'JWTSessionError'
	| 'MissingAdapter'
	| 'MissingSecret'
	| 'OAuthAccountNotLinked'
	| 'OAuthCallbackError'
	| 'OAuthSignInError'
	| 'RateLimited'
	| 'RateLimitStoreError'
	| 'UntrustedHost'
	| 'Verification'
	| 'WebAuthnVerificationError';

/** Extra context for the server log; `err` is the underlying error, when there is one. */
export type AuthErrorCause = Record<string, unknown> & { err?: Error };

/**
 * Base class of every error the runtime throws or logs. `type` is one of {@link ErrorType}.
 * Messages are for the server log only; the browser sees at most `type` (and a `code`).
 * @see create-auth docs/api.md#errors
 */
export abstract class AuthError extends Error {
	/** The stable type of this error class. */
	static readonly type: ErrorType;
	override cause?: AuthErrorCause;

	constructor(message?: string, cause?: AuthErrorCause) {
		super(message);
		this.name = new.target.name;
		this.cause = cause;
	}

	/** The stable type of this error (the class's static `type`). */
	get type(): ErrorType {
		return (this.constructor as typeof AuthError).type;
	}
}

/**
 * Throw from a credentials `authorize()` to reject a sign-in. The user is sent back to the
 * sign-in page with `?error=CredentialsSignin&code=<code>`. Subclass to change `code`; it
 * appears in the URL, so keep it generic (never "wrong password" vs "no such user").
 */
export class CredentialsSignin extends AuthError {
	static override readonly type = 'CredentialsSignin';
	/** Shown to the browser in the `code` query parameter. */
	code = 'credentials';
}

/**
 * A password sign-in refused because the account's address is not confirmed yet, with
 * `passwords.requireEmailVerification` on (`code` `EmailNotVerified`). Thrown only once the
 * password is right, so the code tells nothing to someone who does not know it.
 */
export class EmailNotVerified extends CredentialsSignin {
	override code = 'EmailNotVerified';
}

/** The sign-in request named a provider that is not configured. */
export class InvalidProvider extends AuthError {
	static override readonly type = 'InvalidProvider';
}

/** `url` / `AUTH_URL` is not an absolute URL. */
export class InvalidUrl extends AuthError {
	static override readonly type = 'InvalidUrl';
}

/** `secret` / `AUTH_SECRET` is missing or shorter than 32 characters. */
export class MissingSecret extends AuthError {
	static override readonly type = 'MissingSecret';
}

/**
 * An adapter method failed (the database is down, a query was refused): the operation fails.
 * Reading a database session answers 503 and keeps the cookie; sign-in ends on the sign-in page
 * with `?error=AdapterError`.
 */
export class AdapterError extends AuthError {
	static override readonly type = 'AdapterError';
}

/**
 * The adapter's database driver cannot load on this server: a native addon built for another
 * Node (its `NODE_MODULE_VERSION`), or never built. A deployment error that lasts until the driver
 * is rebuilt and the server restarted, not an outage: reading a session answers 503 saying the
 * site is misconfigured, sign-in ends on `?error=DriverUnavailable`. The message is one line that
 * names the driver and the fix; it is logged once per process (the default logger prints just it).
 */
export class DriverUnavailable extends AuthError {
	static override readonly type = 'DriverUnavailable';
}

/**
 * The `database` session strategy was chosen without an `adapter`, or a flow needs an adapter
 * method the adapter lacks (the message names it): a configuration error.
 */
export class MissingAdapter extends AuthError {
	static override readonly type = 'MissingAdapter';
}

/** A provider's `authorize()` or a callback failed unexpectedly during sign-in. */
export class CallbackRouteError extends AuthError {
	static override readonly type = 'CallbackRouteError';
}

/** The `signIn` callback refused the sign-in. */
export class AccessDenied extends AuthError {
	static override readonly type = 'AccessDenied';
}

/** Reading the session failed in a `jwt` / `session` callback (the cookie itself was valid). */
export class JWTSessionError extends AuthError {
	static override readonly type = 'JWTSessionError';
}

/**
 * Starting an OAuth sign-in failed: discovery unreachable or invalid, or the provider is
 * misconfigured (no client id, no authorization endpoint).
 */
export class OAuthSignInError extends AuthError {
	static override readonly type = 'OAuthSignInError';
}

/**
 * The provider answered the callback with an error other than `access_denied`, or the code
 * exchange, the ID token, or the userinfo request failed (RFC 6749 §4.1.2.1, §5.2).
 */
export class OAuthCallbackError extends AuthError {
	static override readonly type = 'OAuthCallbackError';
}

/**
 * A callback failed one of our checks: no flow cookie, a flow started for another provider,
 * `state` or `iss` (RFC 9207) mismatch, or an ID token `nonce` mismatch.
 */
export class InvalidCheck extends AuthError {
	static override readonly type = 'InvalidCheck';
}

/**
 * The OAuth account's email belongs to an existing user who signed in another way, and the
 * provider does not set `allowDangerousEmailAccountLinking`: the accounts are not linked.
 * @see create-auth docs/api.md#account-linking
 */
export class OAuthAccountNotLinked extends AuthError {
	static override readonly type = 'OAuthAccountNotLinked';
}

/**
 * An OAuth redirect URI was needed but the request's host is not trusted: set `AUTH_URL`
 * (the `url` option) or `AUTH_TRUST_HOST=true` (`trustHost`).
 */
export class UntrustedHost extends AuthError {
	static override readonly type = 'UntrustedHost';
}

/**
 * A state-changing request to an auth page or route that the browser says another site made
 * (`Sec-Fetch-Site: cross-site` or `same-site`): refused with a 403 before any work, and logged.
 * @see create-auth docs/api.md#auth-pages-defence-in-depth
 */
export class CrossSiteRequest extends AuthError {
	static override readonly type = 'CrossSiteRequest';
}

/**
 * Too many attempts: a rate limit was reached, or the password-hashing queue is full. The
 * visitor gets a 429 with `Retry-After` (RFC 6585 section 4) and "Try again in N minutes".
 */
export class RateLimited extends AuthError {
	static override readonly type = 'RateLimited';
	/** Seconds until an attempt may succeed again. */
	readonly retryAfter: number;

	constructor(message: string, retryAfter: number, cause?: AuthErrorCause) {
		super(message, cause);
		this.retryAfter = retryAfter;
	}
}

/**
 * A password attempt refused by the account-wide cap of consecutive failures
 * (`rateLimit.signIn.perAccount`, NIST SP 800-63B-4 §3.2.2), whichever client it came from:
 * `code` `AccountLocked`. The sign-in page says so, and that a password reset gets in meanwhile.
 */
export class AccountLocked extends RateLimited {
	/** Shown to the browser in the refused form's `code`. */
	readonly code = 'AccountLocked';
}

/**
 * The rate-limit store could not count an attempt (Redis is down): the sign-in or sign-up is
 * refused, a 503, rather than let through uncounted.
 */
export class RateLimitStoreError extends AuthError {
	static override readonly type = 'RateLimitStoreError';
}

/**
 * Sending an email sign-in link failed (the SMTP server refused or is unreachable, or
 * `sendVerificationRequest` threw): the visitor lands on the sign-in page with
 * `?error=EmailSignInError`.
 */
export class EmailSignInError extends AuthError {
	static override readonly type = 'EmailSignInError';
}

/**
 * An email link that cannot sign anyone in: its token is unknown, used already, expired, or
 * for another address. The token is gone either way (one use only).
 * @see create-auth docs/api.md#email
 */
export class Verification extends AuthError {
	static override readonly type = 'Verification';
}

/**
 * A passkey ceremony that did not verify: no or an expired challenge, a response that is
 * malformed, signed for another challenge, origin or relying party, without user verification,
 * with a bad signature or a counter that went back, or for a passkey the adapter does not know.
 * The visitor lands on the sign-in page with `?error=WebAuthnVerificationError`; the details
 * stay in the server log.
 */
export class WebAuthnVerificationError extends AuthError {
	static override readonly type = 'WebAuthnVerificationError';
}
