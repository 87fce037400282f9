// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect, type Action, type RequestEvent } from '@sveltejs/kit';
import type { Account, ResolvedConfig } from './config.js';
import { AccessDenied, CallbackRouteError, CredentialsSignin, InvalidProvider, type ErrorType } from './errors.js';
import { safeRedirectTarget } from './redirects.js';
import { endSession, startSession } from './session.js';

/** Resolves the config for a request (object form: once; function form: per request). */
export type GetConfig = (event: RequestEvent) => Promise<ResolvedConfig>;

/** Form fields that steer the flow and are not credentials. */
const CONTROL_FIELDS = new Set(['providerId', 'redirectTo', 'callbackUrl']);

async function readForm(request: Request): Promise<FormData> {
	try {
		return await request.formData();
	} catch {
		return new FormData();
	}
}

const formText = (value: FormDataEntryValue | null) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Where to go next: the `redirect` callback's choice, or the validated target (default `/`).
 * The app's origin is `url`'s (AUTH_URL) when configured, else the request's.
 */
async function redirectTarget(event: RequestEvent, config: ResolvedConfig, url: string | undefined): Promise<string> {
	const baseUrl = config.origin ?? event.url.origin;
	const { redirect: callback } = config.callbacks;
	if (callback) return callback({ url: url ?? '/', baseUrl });
	return safeRedirectTarget(url, baseUrl, config.trustHost);
}

/**
 * Runs the provider's `authorize()`, the `signIn` callback and starts the session. Returns
 * where to go on success (a callback-chosen URL, or undefined for the default), or the error
 * to show. Every failure is logged in full here; only its type and code leave the server.
 */
async function attemptSignIn(
	event: RequestEvent,
	config: ResolvedConfig,
	form: FormData,
	providerId: string | undefined
): Promise<{ ok: true; next?: string } | { ok: false; error: ErrorType; code?: string }> {
	const provider = config.providers.find((candidate) => candidate.id === providerId);
	if (!provider) {
		config.logger.error(new InvalidProvider(`Sign-in with unknown provider "${providerId ?? ''}".`));
		return { ok: false, error: 'InvalidProvider' };
	}
	const credentials: Record<string, string> = {};
	for (const [name, value] of form) if (!CONTROL_FIELDS.has(name) && typeof value === 'string') credentials[name] = value;
	try {
		const user = await provider.authorize(credentials, event.request);
		if (!user) throw new CredentialsSignin('authorize() returned null.', { provider: provider.id });
		const account: Account = { type: provider.type, provider: provider.id, providerAccountId: user.id ?? '' };
		const allowed = (await config.callbacks.signIn?.({ user, account, credentials })) ?? true;
		if (allowed === false) throw new AccessDenied('The signIn callback refused the sign-in.', { provider: provider.id });
		if (!(await startSession(event, config, user, account))) throw new AccessDenied('The jwt callback returned null.');
		return { ok: true, next: typeof allowed === 'string' ? allowed : undefined };
	} catch (err) {
		if (err instanceof CredentialsSignin || err instanceof AccessDenied) {
			config.logger.error(err);
			return { ok: false, error: err.type, code: err instanceof CredentialsSignin ? err.code : undefined };
		}
		config.logger.error(new CallbackRouteError('Sign-in failed.', { provider: provider.id, err: err as Error }));
		return { ok: false, error: 'CallbackRouteError' };
	}
}

/**
 * The `signIn` form action. Form fields: `providerId` (optional with one provider),
 * `redirectTo` (or `callbackUrl`, or `?callbackUrl=` on the page), and the credentials.
 * Always ends in a 303: to the validated target on success, else to the sign-in page with
 * `?error=<ErrorType>` (plus `code` for CredentialsSignin, and the `callbackUrl`).
 * @see spec/interface.md "Errors" (CredentialsSignin)
 */
export function signInAction(getConfig: GetConfig): Action {
	return async (event) => {
		const config = await getConfig(event);
		const form = await readForm(event.request);
		const callbackUrl =
			formText(form.get('redirectTo')) ?? formText(form.get('callbackUrl')) ?? formText(event.url.searchParams.get('callbackUrl'));
		const only = config.providers.length === 1 ? config.providers[0]?.id : undefined;
		const result = await attemptSignIn(event, config, form, formText(form.get('providerId')) ?? only);
		if (result.ok) redirect(303, await redirectTarget(event, config, result.next ?? callbackUrl));

		const query = new URLSearchParams({ error: result.error });
		if (result.code) query.set('code', result.code);
		const safeCallback = safeRedirectTarget(callbackUrl, event.url.origin, false);
		if (callbackUrl && safeCallback !== '/') query.set('callbackUrl', safeCallback);
		redirect(303, `${config.pages.signIn}?${query}`);
	};
}

/**
 * The `signOut` form action: deletes the session cookie (and the database session), then
 * 303 to the validated `redirectTo` field, or `/`.
 */
export function signOutAction(getConfig: GetConfig): Action {
	return async (event) => {
		const config = await getConfig(event);
		const form = await readForm(event.request);
		await endSession(event, config);
		redirect(303, await redirectTarget(event, config, formText(form.get('redirectTo'))));
	};
}
