// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, EncryptJWT, errors, jwtDecrypt } from 'jose';
import type { JWT } from '../config.js';

const ALG = 'dir';
/**
 * AES-256-GCM (RFC 7518 §5.3) with a key imported once: about 80 µs of CPU to decrypt on
 * the bench machine, against about 370 µs for A256CBC-HS512, whose two halves WebCrypto must
 * import on every call. A fresh random 96-bit IV per token.
 */
const ENC = 'A256GCM';
/** HKDF salt of the session cookie's key; each other use of the secret has its own. */
const SESSION_SALT = 'auth.session-token';
/** Seconds of clock skew tolerated on `exp`. */
const CLOCK_TOLERANCE = 15;

/** Derived keys by salt and secret: HKDF and the WebCrypto import run once per pair per process. */
const keys = new Map<string, Promise<CryptoKey>>();

/** Decrypted tokens kept per secret; past this many the oldest is dropped. */
const DECODED_MAX = 4096;
/**
 * Payloads already decrypted, by secret, then by the exact cookie value. A JWE is
 * authenticated, so one value under one key always decrypts to the same payload: a repeat
 * visit costs a map lookup instead of a WebCrypto decryption (the profile of a page calling
 * `locals.auth()` was a quarter crypto). `exp` is still checked on every hit.
 */
const decoded = new Map<string, Map<string, JWT>>();

function remember(secret: string, value: string, payload: JWT): void {
	let bySecret = decoded.get(secret);
	if (!bySecret) decoded.set(secret, (bySecret = new Map()));
	if (bySecret.size >= DECODED_MAX) bySecret.delete(bySecret.keys().next().value!);
	bySecret.set(value, payload);
}

/** HKDF-SHA256 of the secret with `salt` → the 32-byte A256GCM key. @see RFC 5869 */
function keyFor(secret: string, salt: string): Promise<CryptoKey> {
	const id = `${salt}\0${secret}`;
	let key = keys.get(id);
	if (!key) {
		const raw = new Uint8Array(hkdfSync('sha256', secret, salt, `create-auth Generated Encryption Key (${salt})`, 32));
		keys.set(id, (key = crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt'])));
	}
	return key;
}

/**
 * Encrypts `claims` as a JWE (`dir` + `A256GCM`) with the key derived from `secret` and `salt`.
 * Sets `iat` = `now`, `exp` = `now + maxAge` and a fresh `jti`; all in epoch seconds.
 * @see RFC 7516, RFC 7519
 */
export async function seal(claims: Record<string, unknown>, secret: string, salt: string, maxAge: number, now: number): Promise<string> {
	const { iat: _iat, exp: _exp, jti: _jti, ...rest } = claims;
	return new EncryptJWT(rest)
		.setProtectedHeader({ alg: ALG, enc: ENC })
		.setIssuedAt(now)
		.setExpirationTime(now + maxAge)
		.setJti(crypto.randomUUID())
		.encrypt(await keyFor(secret, salt));
}

/**
 * Encrypts `plaintext` for storage (no expiry: a value kept at rest, such as a TOTP secret) as a
 * compact JWE (`dir` + `A256GCM`) with the key derived from `secret` and `salt`.
 * @see RFC 7516 §7.1
 */
export async function encryptAtRest(plaintext: string, secret: string, salt: string): Promise<string> {
	return new CompactEncrypt(new TextEncoder().encode(plaintext)).setProtectedHeader({ alg: ALG, enc: ENC }).encrypt(await keyFor(secret, salt));
}

/**
 * Decrypts a value made by {@link encryptAtRest} with the same `salt`, trying each secret in
 * order: the plaintext and the index of the secret that opened it (0: the current one; above 0:
 * an earlier one, so the caller should encrypt it again). Null (never throws) for anything
 * malformed, tampered, or made with another salt or an unknown secret.
 */
export async function decryptAtRest(value: string, secrets: readonly string[], salt: string): Promise<{ plaintext: string; secretIndex: number } | null> {
	for (const [secretIndex, secret] of secrets.entries()) {
		try {
			const { plaintext } = await compactDecrypt(value, await keyFor(secret, salt), { keyManagementAlgorithms: [ALG], contentEncryptionAlgorithms: [ENC] });
			return { plaintext: new TextDecoder().decode(plaintext), secretIndex };
		} catch {
			// another secret, or not ours at all
		}
	}
	return null;
}

/**
 * Decrypts a value made by {@link seal} with the same `salt`, trying each secret in order.
 * Returns the claims, or null (never throws) for anything malformed, tampered, expired or
 * made with an unknown secret or another salt.
 */
export async function unseal<T extends Record<string, unknown>>(value: string, secrets: readonly string[], salt: string): Promise<T | null> {
	return (await open<T>(value, secrets, salt))?.payload ?? null;
}

/** {@link unseal}, also telling which secret decrypted it. */
async function open<T extends Record<string, unknown>>(
	value: string,
	secrets: readonly string[],
	salt: string
): Promise<{ payload: T; secret: string } | null> {
	for (const secret of secrets) {
		try {
			const { payload } = await jwtDecrypt<T>(value, await keyFor(secret, salt), {
				clockTolerance: CLOCK_TOLERANCE,
				keyManagementAlgorithms: [ALG],
				contentEncryptionAlgorithms: [ENC]
			});
			return { payload: payload as T, secret };
		} catch (err) {
			// Decrypted fine but expired (or otherwise invalid): another secret will not help.
			if (err instanceof errors.JWTClaimValidationFailed || err instanceof errors.JWTExpired) return null;
		}
	}
	return null;
}

/**
 * Encrypts a session token: {@link seal} with the session cookie's key.
 * `now` and `maxAge` are in seconds.
 */
export function encodeToken(token: JWT, secret: string, maxAge: number, now: number): Promise<string> {
	return seal(token, secret, SESSION_SALT, maxAge, now);
}

/**
 * Decrypts a token made by {@link encodeToken}, trying each secret in order (rotation).
 * Returns null, never throws, for anything malformed, tampered, expired or made with an
 * unknown secret. Each call returns a fresh (shallow) copy: callers, such as a `jwt` callback
 * setting `token.x`, may change its claims.
 */
export async function decodeToken(value: string, secrets: readonly string[]): Promise<JWT | null> {
	const cached = cachedToken(value, secrets);
	if (cached !== undefined) return cached;
	const opened = await open<JWT>(value, secrets, SESSION_SALT);
	if (!opened) return null;
	remember(opened.secret, value, opened.payload);
	return { ...opened.payload };
}

/**
 * {@link decodeToken}'s answer without a promise when this process has decrypted `value` before
 * under one of `secrets`: a fresh copy of its claims, or null once it has expired; undefined
 * when it has not (then only `decodeToken` can tell). `locals.auth()` reads a repeat visitor's
 * cookie through this.
 */
export function cachedToken(value: string, secrets: readonly string[]): JWT | null | undefined {
	for (const secret of secrets) {
		const hit = decoded.get(secret)?.get(value);
		if (!hit) continue;
		if (hit.exp !== undefined && hit.exp <= Date.now() / 1000 - CLOCK_TOLERANCE) {
			decoded.get(secret)!.delete(value);
			return null;
		}
		return { ...hit };
	}
	return undefined;
}
