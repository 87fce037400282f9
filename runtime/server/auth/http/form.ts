// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import type { ResolvedConfig } from '../config.js';
import { DriverUnavailable, RateLimited, RateLimitStoreError } from '../errors.js';
import { countAttempt, retryMessage } from '../limits/rate-limit.js';

/** The posted form; an empty one when the body is not a form (the fields then read as missing). */
export async function readForm(request: Request): Promise<FormData> {
	try {
		return await request.formData();
	} catch {
		return new FormData();
	}
}

export const formText = (value: FormDataEntryValue | null) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Where to go after signing in: the form's `redirectTo` or `callbackUrl`, or the page's `?callbackUrl=`. */
export const callbackUrlOf = (event: RequestEvent, form: FormData) =>
	formText(form.get('redirectTo')) ?? formText(form.get('callbackUrl')) ?? formText(event.url.searchParams.get('callbackUrl'));

/** The client's address (adapter-node: `ADDRESS_HEADER` / `XFF_DEPTH` behind a proxy), or undefined where the platform has none. */
export function clientAddress(event: RequestEvent): string | undefined {
	try {
		return event.getClientAddress();
	} catch {
		return undefined;
	}
}

/**
 * Counts a request for an emailed link against the `emailLink` limits (per client address and per
 * `email`) and, when it is refused, answers it ({@link refusedAttempt}: 429 with `Retry-After`,
 * 503 while the store is down; `typed` refills the form). Undefined when the request may go on.
 * @throws what counting threw that is no refusal.
 */
export async function refusedLinkRequest(
	event: RequestEvent,
	config: ResolvedConfig,
	email: string,
	typed: string,
	flow: Parameters<typeof refusedAttempt>[4]
): Promise<ReturnType<typeof refusedAttempt>> {
	const limits = config.rateLimits;
	try {
		if (limits) await countAttempt(limits, [[limits.emailLinkPerClient, clientAddress(event)], [limits.emailLinkPerEmail, email]]);
		return undefined;
	} catch (err) {
		const refused = refusedAttempt(event, config, err, typed, flow);
		if (refused) return refused;
		throw err;
	}
}

/**
 * The answer to an attempt refused before it ran: over a rate limit (429 with `Retry-After`),
 * or the rate-limit store is down (503, "`flow` is unavailable for a moment…"), or the adapter's
 * driver cannot load on this server (503, "… the server is misconfigured"). The page shows
 * `message`; `email` refills the form. Other errors are not this function's: it returns undefined.
 */
export function refusedAttempt(
	event: RequestEvent,
	config: ResolvedConfig,
	err: unknown,
	email: string,
	flow: 'Sign-in' | 'Sign-up' | 'Password reset' | 'Password change' | 'Email change' | 'Two-factor sign-in'
): ActionFailure<{ error: string; message: string; email: string }> | undefined {
	if (err instanceof RateLimited) {
		event.setHeaders({ 'retry-after': String(err.retryAfter) });
		return fail(429, { error: err.type, message: retryMessage(err.retryAfter), email });
	}
	if (err instanceof RateLimitStoreError) {
		config.logger.error(err);
		return fail(503, { error: err.type, message: `${flow} is unavailable for a moment. Please try again shortly.`, email });
	}
	if (err instanceof DriverUnavailable) {
		config.logger.error(err);
		return fail(503, { error: err.type, message: `${flow} is not available: the server is misconfigured. Its log says what to fix.`, email });
	}
	return undefined;
}
