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
 * unknown secret.
 */
export async function decodeToken(value: string, secrets: readonly string[]): Promise<JWT | null> {
	for (const secret of secrets) {
		try {
			const { payload } = await jwtDecrypt<JWT>(value, keyFor(secret), {
				clockTolerance: CLOCK_TOLERANCE,
				keyManagementAlgorithms: [ALG],
				contentEncryptionAlgorithms: [ENC]
			});
			return payload;
		} catch (err) {
			// Decrypted fine but expired (or otherwise invalid): another secret will not help.
			if (err instanceof errors.JWTClaimValidationFailed || err instanceof errors.JWTExpired) return null;
		}
	}
	return null;
}
