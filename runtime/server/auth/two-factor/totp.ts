// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps make them: HMAC-SHA-1, 6 digits,
 * a 30-second step. The arithmetic is the `otpauth` library's; this module fixes the parameters,
 * says which step a code matched (so that a code is used once: OWASP ASVS 5.0 6.5.1) and builds
 * the `otpauth://` URI an app scans.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { Secret, TOTP } from 'otpauth';

/** Seconds per step (RFC 6238 §4.1 X). */
export const TOTP_PERIOD = 30;
/** Digits of a code. */
export const TOTP_DIGITS = 6;
/** Steps either side of the current one a code may come from (RFC 6238 §5.2: clock drift, typing time). */
export const TOTP_WINDOW = 1;
/** Bytes of a new shared secret: 160 bits, the length RFC 4226 §4 recommends. */
const SECRET_BYTES = 20;

/** A new shared secret, base32 (RFC 4648 §6, no padding): what the QR code and the manual entry carry. */
export function newTotpSecret(): string {
	return new Secret({ size: SECRET_BYTES }).base32;
}

/** The TOTP generator of `secret` (base32), with create-auth's parameters. */
function totpOf(secret: string, issuer = '', label = ''): TOTP {
	return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD });
}

/** The step (RFC 6238 §4.2 T) of the instant `now`, in milliseconds since the epoch. */
export function totpStep(now: number): number {
	return TOTP.counter({ period: TOTP_PERIOD, timestamp: now });
}

/** The code of `secret` (base32) at the instant `now` (epoch milliseconds). */
export function totpCode(secret: string, now: number): string {
	return totpOf(secret).generate({ timestamp: now });
}

/**
 * The step whose code `code` is, among the {@link TOTP_WINDOW} steps either side of `now`'s (epoch
 * milliseconds); null when none. Spaces in `code` are ignored; anything but 6 digits is null.
 * The caller refuses a step at or before the last one used, so each code works once.
 * @throws {TypeError} `secret` is not base32.
 */
export function matchTotp(secret: string, code: string, now: number): number | null {
	const token = code.replace(/\s/g, '');
	if (!/^\d{6}$/.test(token)) return null;
	const delta = totpOf(secret).validate({ token, timestamp: now, window: TOTP_WINDOW });
	return delta === null ? null : totpStep(now) + delta;
}

/**
 * The Key Uri Format URI of `secret` that authenticator apps read from a QR code:
 * `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
 * `issuer` names the app (its host), `account` the user (their address).
 */
export function otpauthUri(secret: string, issuer: string, account: string): string {
	return totpOf(secret, issuer, account).toString();
}
