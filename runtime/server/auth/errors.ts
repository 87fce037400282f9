// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Stable error types. Tests, logs and the `?error=` query of the sign-in page use these values;
 * never rename one.
 */
export type ErrorType =
	| 'AccessDenied'
	| 'CallbackRouteError'
	| 'CredentialsSignin'
	| 'InvalidProvider'
	| 'InvalidUrl'
	| 'JWTSessionError'
	| 'MissingAdapter'
	| 'MissingSecret';

/** Extra context for the server log; `err` is the underlying error, when there is one. */
export type AuthErrorCause = Record<string, unknown> & { err?: Error };

/**
 * Base class of every error the runtime throws or logs. `type` is one of {@link ErrorType}.
 * Messages are for the server log only; the browser sees at most `type` (and a `code`).
 * @see spec/interface.md "Errors"
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

/** The `database` session strategy was chosen without an `adapter`. */
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
