// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import type { Session, User } from '../../../auth/types.js';
import { appBase } from './app-paths.js';
import type { ResolvedConfig } from '../config.js';
import { matchesPathPrefix } from './redirects.js';

/** A session with its user: what the guards let through. */
export type SignedInSession = Session & { user: User };

/**
 * The config of the auth handle a request passed through (for the sign-in page's path), keyed
 * by the request's `locals`: one object per request, which `getRequestEvent()` hands back too.
 */
const configs = new WeakMap<object, (event: RequestEvent) => Promise<ResolvedConfig>>();
/** The app's `getRequestEvent` (from `$app/server`), handed in by `SvelteKitAuth`. */
let currentRequestEvent: (() => RequestEvent) | undefined;

/** Called by the auth handle for each request, with its instance's config getter (no allocation per request). */
export function registerRequest(locals: object, getConfig: (event: RequestEvent) => Promise<ResolvedConfig>): void {
	configs.set(locals, getConfig);
}

/**
 * The resolved config of the auth handle `event` passed through.
 * @throws {Error} it did not pass through one (`hooks.server.ts` does not export the handle).
 */
export function requestConfig(event: RequestEvent): Promise<ResolvedConfig> {
	const getConfig = configs.get(event.locals);
	if (!getConfig) throw new Error('This request did not pass through the auth handle; export it from src/hooks.server.');
	return getConfig(event);
}

/** Called by `SvelteKitAuth` with the app's `getRequestEvent`. */
export function useRequestEvent(getRequestEvent: (() => RequestEvent) | undefined): void {
	if (getRequestEvent) currentRequestEvent = getRequestEvent;
}

/**
 * Whether a request is a page navigation, which a redirect to the sign-in page serves: a
 * document request (`Sec-Fetch-Mode: navigate`, or without that header an `Accept` naming
 * `text/html`; native form posts included), a client-side navigation's data request
 * (`isDataRequest`), or a `use:enhance` form action (`x-sveltekit-action`). Remote function
 * calls and other fetches (`+server.ts` endpoints) are not.
 */
export function isNavigation(event: RequestEvent): boolean {
	if ((event as { isRemoteRequest?: boolean }).isRemoteRequest) return false;
	if (event.isDataRequest) return true;
	const headers = event.request.headers;
	if (headers.get('x-sveltekit-action') === 'true') return true;
	const mode = headers.get('sec-fetch-mode');
	if (mode) return mode === 'navigate';
	return /\btext\/html\b/i.test(headers.get('accept') ?? '');
}

/**
 * The signed-in session, or the end of the request: a page navigation is sent to the sign-in
 * page (303 to `<base><signIn page>?callbackUrl=<path and query>`, `<base>` being SvelteKit's
 * `paths.base` and the path the request's own, base included; the sign-in brings the user back), any
 * other request (a `+server.ts` endpoint, a remote function, a fetch) gets a 401 with SvelteKit's
 * error body (JSON `{ "message": "Sign in to continue." }` for clients that do not ask for HTML).
 * Works in `load`, form actions, endpoints and remote functions; without `event`, the current
 * one comes from SvelteKit's `getRequestEvent()`.
 * @throws SvelteKit's `redirect(303)` or `error(401)`, as above.
 * @throws {Error} the request did not pass through the auth handle (`hooks.server.ts`), or no
 *   `event` was given and the app's `getRequestEvent` was not handed to `SvelteKitAuth`.
 */
export async function requireSession(event?: RequestEvent): Promise<SignedInSession> {
	const current = event ?? currentEvent();
	const getConfig = configs.get(current.locals);
	const auth = (current.locals as { auth?: () => Promise<Session | null> }).auth;
	if (!getConfig || !auth) throw new Error('requireSession(): this request did not pass through the auth handle; export it from src/hooks.server.');
	const session = await auth();
	if (session?.user) return session as SignedInSession;
	if (!isNavigation(current)) error(401, 'Sign in to continue.');
	const callbackUrl = current.url.pathname + current.url.search;
	const config = await getConfig(current);
	redirect(303, `${appBase(current.url, config)}${config.pages.signIn}?callbackUrl=${encodeURIComponent(callbackUrl)}`);
}

/**
 * Whether the request's path is one of `prefixes` or below it ({@link matchesPathPrefix}), with
 * SvelteKit's `paths.base` taken off first: the prefixes are paths inside the app (`/account`),
 * as routes are written, and `/base/account` matches `/account` in an app served under `/base`.
 * @throws {Error} the request did not pass through the auth handle (`hooks.server.ts`).
 */
export async function matchesRequestPath(event: RequestEvent, prefixes: readonly string[]): Promise<boolean> {
	const getConfig = configs.get(event.locals);
	if (!getConfig) throw new Error('matchesRequestPath(): this request did not pass through the auth handle; export it from src/hooks.server.');
	return matchesPathPrefix(event.url.pathname, prefixes, appBase(event.url, await getConfig(event)));
}

/** {@link requireSession}'s user. Same answers and errors. */
export async function requireUser(event?: RequestEvent): Promise<User> {
	return (await requireSession(event)).user;
}

function currentEvent(): RequestEvent {
	if (!currentRequestEvent) {
		throw new Error("requireSession() without an event needs SvelteKit's getRequestEvent: pass it to SvelteKitAuth in src/auth (SvelteKit 2.20+).");
	}
	return currentRequestEvent();
}
