// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * A user's second factor as stored: the TOTP secret, encrypted at rest with a key derived from
 * the auth secret (so a leaked table holds no usable secret), and the check of a code against it.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { need } from '../adapters/methods.js';
import type { ResolvedConfig } from '../config.js';
import { decryptAtRest, encryptAtRest } from '../session/jwt.js';
import { recoveryCodeHash } from './recovery-codes.js';
import { matchTotp } from './totp.js';

/** HKDF salt of the key the TOTP secrets are encrypted with; no other use shares it. */
const SECRET_SALT = 'auth.two-factor-secret';

/** `secret` (base32) as the adapter stores it: a compact JWE under the current auth secret. */
export function sealTotpSecret(secret: string, config: ResolvedConfig): Promise<string> {
	return encryptAtRest(secret, config.secrets[0]!, SECRET_SALT);
}

/** How a code was taken: a TOTP code, or one of the recovery codes (now spent). */
export type SecondFactorUsed = 'totp' | 'recovery-code';

/**
 * Checks `code` for `userId`, who has a second factor: a 6-digit TOTP code within a step of now,
 * of a step after the last one taken (a code works once: OWASP ASVS 5.0 6.5.1; the step is
 * recorded atomically), else a recovery code, which is spent. A secret sealed under an earlier
 * auth secret (`AUTH_SECRET_1` after `create-auth secret`) is sealed again under the current one.
 * A secret no auth secret opens is logged once per attempt; recovery codes still work.
 * @returns how it was taken, or null (wrong, used, or the user has no second factor)
 * @throws {MissingAdapter} the adapter lacks the two-factor methods.
 * @throws {AdapterError} the adapter failed.
 */
export async function checkSecondFactor(config: ResolvedConfig, userId: string, code: string, now = Date.now()): Promise<SecondFactorUsed | null> {
	const stored = await need(config, 'getTwoFactor')(userId);
	if (!stored) return null;
	if (/^\s*\d[\d\s]*$/.test(code)) {
		const opened = await decryptAtRest(stored.secret, config.secrets, SECRET_SALT);
		if (!opened) {
			config.logger.error(new Error(`The second factor of user ${userId} cannot be decrypted with the auth secrets (AUTH_SECRET, AUTH_SECRET_1): only their recovery codes work.`));
			return null;
		}
		const step = matchTotp(opened.plaintext, code, now);
		if (step === null || !(await need(config, 'useTotpStep')(userId, step))) return null;
		if (opened.secretIndex > 0) await need(config, 'updateTwoFactorSecret')(userId, await sealTotpSecret(opened.plaintext, config));
		return 'totp';
	}
	const hash = recoveryCodeHash(code);
	return hash && (await need(config, 'useRecoveryCode')(userId, hash)) ? 'recovery-code' : null;
}
