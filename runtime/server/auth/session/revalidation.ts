// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * When this process last revalidated a JWT session against the adapter's record of its user
 * (`session.revalidateAge`; see `revalidationDue` in `session.ts`), by cookie value. A browser
 * stores the cookie re-issued after a revalidation, whose new `iat` dates it; a client that
 * ignores `Set-Cookie` (a script, a load generator) keeps sending the old value, and without this
 * every one of its requests would pay a user lookup, a seal and a `Set-Cookie`. A record only
 * ever skips a revalidation that is not due yet: it signs no one in (the cookie must still
 * decrypt under a configured secret), and the staleness stays at most `revalidateAge`.
 */

/** Values kept; past this many the oldest is dropped. */
export const REVALIDATIONS_MAX = 4096;

const revalidations = new Map<string, number>();

/** When the session cookie `value` was last revalidated here: epoch seconds, 0 when never. */
export function lastRevalidation(value: string): number {
	return revalidations.get(value) ?? 0;
}

/** Records a revalidation of `value` at `now` (epoch seconds). */
export function rememberRevalidation(value: string, now: number): void {
	revalidations.delete(value);
	if (revalidations.size >= REVALIDATIONS_MAX) revalidations.delete(revalidations.keys().next().value!);
	revalidations.set(value, now);
}

/** Forgets `value` (its session ended: signed out). */
export function forgetRevalidation(value: string): void {
	revalidations.delete(value);
}
