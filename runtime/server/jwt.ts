// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { hkdfSync } from 'node:crypto';
import { EncryptJWT, errors, jwtDecrypt } from 'jose';
import type { JWT } from './config.js';

const ALG = 'dir';
const ENC = 'A256CBC-HS512';
const SALT = 'auth.session-token';
const INFO = `create-auth Generated Encryption Key (${SALT})`;
/** Seconds of clock skew tolerated on `exp`. */
const CLOCK_TOLERANCE = 15;

/** Derived keys by secret: HKDF runs once per secret per process. */
const keys = new Map<string, Uint8Array>();

/** Decrypted tokens kept per secret; past this many the oldest is dropped. */
const DECODED_MAX = 4096;
/**
 * Payloads already decrypted, by secret, then by the exact cookie value. A JWE is
 * authenticated, so one value under one key always decrypts to the same payload: a repeat
 * visit costs a map lookup instead of a WebCrypto key import, AES-CBC and HMAC (the profile of
 * a page calling `locals.auth()` was a quarter crypto). `exp` is still checked on every hit.
 */
const decoded = new Map<string, Map<string, JWT>>();

function remember(secret: string, value: string, payload: JWT): void {
	let bySecret = decoded.get(secret);
	if (!bySecret) decoded.set(secret, (bySecret = new Map()));
	if (bySecret.size >= DECODED_MAX) bySecret.delete(bySecret.keys().next().value!);
	bySecret.set(value, payload);
}

/** HKDF-SHA256 of the secret → 64 bytes, the key size of A256CBC-HS512. @see RFC 5869 */
function keyFor(secret: string): Uint8Array {
	let key = keys.get(secret);
	if (!key) keys.set(secret, (key = new Uint8Array(hkdfSync('sha256', secret, SALT, INFO, 64))));
	return key;
}

/**
 * Encrypts `token` as a JWE (`dir` + `A256CBC-HS512`) with the key derived from `secret`.
 * Sets `iat` = `now`, `exp` = `now + maxAge` and a fresh `jti`; both in epoch seconds.
 * @see RFC 7516, RFC 7519
 */
export function encodeToken(token: JWT, secret: string, maxAge: number, now: number): Promise<string> {
	const { iat: _iat, exp: _exp, jti: _jti, ...claims } = token;
	return new EncryptJWT(claims)
		.setProtectedHeader({ alg: ALG, enc: ENC })
		.setIssuedAt(now)
		.setExpirationTime(now + maxAge)
		.setJti(crypto.randomUUID())
		.encrypt(keyFor(secret));
}

/**
 * Decrypts a token made by {@link encodeToken}, trying each secret in order (rotation).
 * Returns null, never throws, for anything malformed, tampered, expired or made with an
 * unknown secret. Each call returns a fresh copy: callers (the `jwt` callback) may mutate it.
 */
export async function decodeToken(value: string, secrets: readonly string[]): Promise<JWT | null> {
	for (const secret of secrets) {
		const hit = decoded.get(secret)?.get(value);
		if (!hit) continue;
		if (hit.exp !== undefined && hit.exp <= Date.now() / 1000 - CLOCK_TOLERANCE) {
			decoded.get(secret)!.delete(value);
			return null;
		}
		return structuredClone(hit);
	}
	for (const secret of secrets) {
		try {
			const { payload } = await jwtDecrypt<JWT>(value, keyFor(secret), {
				clockTolerance: CLOCK_TOLERANCE,
				keyManagementAlgorithms: [ALG],
				contentEncryptionAlgorithms: [ENC]
			});
			remember(secret, value, payload);
			return structuredClone(payload);
		} catch (err) {
			// Decrypted fine but expired (or otherwise invalid): another secret will not help.
			if (err instanceof errors.JWTClaimValidationFailed || err instanceof errors.JWTExpired) return null;
		}
	}
	return null;
}
