// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createHash } from 'node:crypto';
import type { BreachCheck, Logger } from '../config.js';

/**
 * Whether a password appears in Have I Been Pwned's Pwned Passwords, by its range query
 * (k-anonymity): the SHA-1 of the password (UTF-8, as typed) is computed here, only its first 5
 * hex characters are sent (`GET <url><prefix>` with `Add-Padding: true`), and the answer's
 * `SUFFIX:COUNT` lines are compared here; padding lines (count 0) never match. Neither the
 * password nor its full hash leaves the process.
 *
 * Fails open: when the service does not answer within `timeoutMs`, answers other than 200, or
 * cannot be reached, the password counts as not breached and one error is logged (the local
 * blocklist still applies).
 * @see https://haveibeenpwned.com/API/v3#PwnedPasswords
 */
export async function isBreachedPassword(password: string, check: BreachCheck, logger: Pick<Logger, 'error'>): Promise<boolean> {
	const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
	const prefix = hash.slice(0, 5);
	const suffix = hash.slice(5);
	try {
		const response = await fetch(`${check.url}${prefix}`, { headers: { 'Add-Padding': 'true' }, signal: AbortSignal.timeout(check.timeoutMs) });
		if (!response.ok) throw new Error(`HTTP ${response.status}`);
		const body = await response.text();
		return body.split('\n').some((line) => {
			const [candidate, count] = line.trim().split(':');
			return candidate?.toUpperCase() === suffix && Number(count) > 0;
		});
	} catch (err) {
		logger.error(new Error(`The Pwned Passwords check (${check.url}) did not answer; the new password was accepted without it.`, { cause: err }));
		return false;
	}
}
