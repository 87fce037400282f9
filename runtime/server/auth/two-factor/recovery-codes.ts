// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Recovery codes: the second factor's lookup secrets, for a user without their authenticator app.
 * Each is 120 random bits (24 base32 characters, shown in groups of four), so its SHA-256 is
 * what is stored (OWASP ASVS 5.0 6.5.2: a plain hash is enough from 112 bits), and a code is
 * found and spent by that hash in one statement (6.5.1: usable once).
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { hash, randomBytes } from 'node:crypto';

/** How many codes a user gets at once. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'; // RFC 4648 §6, lower case
const LENGTH = 24;

/** One new code, `xxxx-xxxx-xxxx-xxxx-xxxx-xxxx`: 24 characters of {@link ALPHABET}, 5 bits each. */
function newRecoveryCode(): string {
	const bytes = randomBytes(LENGTH);
	// 256 is a multiple of 32: taking each byte mod 32 keeps every character equally likely.
	const characters = Array.from(bytes, (byte) => ALPHABET[byte % 32]).join('');
	return characters.match(/.{4}/g)!.join('-');
}

/** {@link RECOVERY_CODE_COUNT} new codes, to show the user once. */
export function newRecoveryCodes(): string[] {
	return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/**
 * What is stored for `code`: `sha256.` and the SHA-256 (base64url) of its 24 characters, as typed
 * in any case, with or without the dashes and spaces. Null for what cannot be a code.
 */
export function recoveryCodeHash(code: string): string | null {
	const characters = code.toLowerCase().replace(/[\s-]/g, '');
	if (characters.length !== LENGTH || ![...characters].every((character) => ALPHABET.includes(character))) return null;
	return `sha256.${hash('sha256', characters, 'base64url')}`;
}
