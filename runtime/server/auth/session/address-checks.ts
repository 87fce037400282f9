// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * When this process last asked the adapter whether a JWT session's unproven address has been
 * proven since (`email_verified: false`; see `ADDRESS_CHECK_SECONDS` in `session.ts`), by cookie
 * value. A browser stores the cookie re-issued after a check, whose new `iat` dates it; a client
 * that ignores `Set-Cookie` (a script, a load generator) keeps sending the old value, and
 * without this every one of its requests would pay a user lookup, a seal and a `Set-Cookie`.
 * A record only ever skips a check that is not due yet: it signs no one in (the cookie must still
 * decrypt under a configured secret), and the staleness stays the same at most
 * `ADDRESS_CHECK_SECONDS`.
 */

/** Values kept; past this many the oldest is dropped. */
export const ADDRESS_CHECKS_MAX = 4096;

const checks = new Map<string, number>();

/** When the session cookie `value`'s address was last checked here: epoch seconds, 0 when never. */
export function lastAddressCheck(value: string): number {
	return checks.get(value) ?? 0;
}

/** Records a check of `value`'s address at `now` (epoch seconds). */
export function rememberAddressCheck(value: string, now: number): void {
	checks.delete(value);
	if (checks.size >= ADDRESS_CHECKS_MAX) checks.delete(checks.keys().next().value!);
	checks.set(value, now);
}

/** Forgets `value` (its session ended: signed out). */
export function forgetAddressCheck(value: string): void {
	checks.delete(value);
}
