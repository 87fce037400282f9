// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { PASSWORD_MAX_LENGTH, type ResolvedConfig } from '../config.js';
import { blocklistKey, isCommonPassword } from './blocklist.js';
import { isBreachedPassword } from './breach.js';

/** What a new password is checked with: the resolved config's `passwords` (`minLength`, `breachCheck`), `logger` and `origin`. */
export type PasswordPolicyConfig = Pick<ResolvedConfig, 'passwords' | 'logger' | 'origin'>;

/**
 * Why a new password was refused; stable values the pages get as `code` / `error`:
 * - `PasswordTooShort` / `PasswordTooLong`: fewer than `passwords.minLength`, more than 1024
 *   characters;
 * - `PasswordHasContext`: it contains the address's local part or the app's name;
 * - `PasswordTooCommon`: it is on the blocklist of common and breached passwords;
 * - `PasswordBreached`: Have I Been Pwned knows it (`passwords.breachCheck` only).
 */
export type PasswordErrorCode = 'PasswordTooShort' | 'PasswordTooLong' | 'PasswordHasContext' | 'PasswordTooCommon' | 'PasswordBreached';

/** Result of {@link checkNewPassword}: the password as typed, or why not (`message` is safe to show). */
export type PasswordCheck = { ok: true; password: string } | { ok: false; code: PasswordErrorCode; message: string };

/** The words of a context shorter than this are not looked for (a 3-letter name is in too many passwords). */
const CONTEXT_MIN_LENGTH = 4;

/** Code points, as NIST SP 800-63B-4 §3.1.1.2 counts a password's length. */
const codePoints = (text: string) => [...text].length;

/**
 * The app's name as a password may not contain it: the labels of the app's host name (`url`'s
 * origin, or the request's) of 4 characters or more, without the top-level domain and `www`
 * (`auth.my-shop.co.uk` → `my-shop`). None for an IP address or a one-label host (`localhost`).
 */
export function appNameWords(host: string): string[] {
	const hostname = host.replace(/:\d+$/, '').toLowerCase();
	if (hostname.startsWith('[') || /^[\d.]+$/.test(hostname)) return [];
	const labels = hostname.split('.');
	if (labels.length < 2) return [];
	return labels.slice(0, -1).filter((label) => label !== 'www' && codePoints(label) >= CONTEXT_MIN_LENGTH);
}

/** The context words of {@link checkNewPassword}: the address's local part and the app's name. */
function contextWords(config: PasswordPolicyConfig, email: string | undefined, url: URL | undefined): string[] {
	const local = email ? blocklistKey(email.slice(0, Math.max(0, email.lastIndexOf('@')))) : '';
	const origin = config.origin ?? url?.origin;
	const app = origin ? appNameWords(new URL(origin).host) : [];
	return [local, ...app].filter((word) => codePoints(word) >= CONTEXT_MIN_LENGTH);
}

/**
 * Checks a new password (sign-up, reset, change), a raw form value, as NIST SP 800-63B-4
 * §3.1.1.2 and OWASP ASVS 5.0 V6.2 ask. In order:
 * 1. length, in code points after NFKC normalization: `passwords.minLength` (default 15) to 1024
 *    characters; no composition rule (no required digits, cases or symbols);
 * 2. not containing a context word, case-insensitively: the local part of `email` (4
 *    characters or more) or the app's name ({@link appNameWords}, from the config's `url` or
 *    the request's `url`);
 * 3. not on the blocklist of common and breached passwords ({@link isCommonPassword}, read on
 *    the first call);
 * 4. with `passwords.breachCheck`, not known to Have I Been Pwned ({@link isBreachedPassword},
 *    which fails open).
 * The password is returned as typed: hashing normalizes it (`hashing.ts`).
 * @throws {Error} the blocklist cannot be read (see {@link isCommonPassword}).
 */
export async function checkNewPassword(value: unknown, config: PasswordPolicyConfig, context: { email?: string; url?: URL } = {}): Promise<PasswordCheck> {
	const password = typeof value === 'string' ? value : '';
	const { minLength, breachCheck } = config.passwords;
	// A value far over the limit is refused before it is normalized.
	const length = password.length > PASSWORD_MAX_LENGTH * 4 ? Infinity : codePoints(password.normalize('NFKC'));
	if (length < minLength) return { ok: false, code: 'PasswordTooShort', message: `Use at least ${minLength} characters.` };
	if (length > PASSWORD_MAX_LENGTH) return { ok: false, code: 'PasswordTooLong', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
	const key = blocklistKey(password);
	if (contextWords(config, context.email, context.url).some((word) => key.includes(word))) {
		return { ok: false, code: 'PasswordHasContext', message: "Don't use your email address or this site's name in your password." };
	}
	if (await isCommonPassword(password)) {
		return { ok: false, code: 'PasswordTooCommon', message: 'This password is too common: it is on a list of passwords attackers try first. Choose another.' };
	}
	if (breachCheck && (await isBreachedPassword(password, breachCheck, config.logger))) {
		return { ok: false, code: 'PasswordBreached', message: 'This password has appeared in a data breach. Choose another.' };
	}
	return { ok: true, password };
}
