// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import type { Session, User } from '../../../auth/types.js';
import { appBase, routePathOf, type AppResolve } from './app-paths.js';
import type { ResolvedConfig } from '../config.js';
import { isUnderPrefix, matchesPathPrefix } from './redirects.js';

/** A session with its user: what the guards let through. */
export type SignedInSession = Session & { user: User };

/**
 * What the auth handle that a request passed through leaves for the guards: its config getter and
 * the app's `resolve` (the source of `paths.base`, which needs no config).
 */
export interface RequestAuth {
	getConfig(event: RequestEvent): Promise<ResolvedConfig>;
	resolve?: AppResolve;
}

const HANDLE = Symbol('create-auth handle');
/** `locals.auth`, which carries its handle's {@link RequestAuth} under a key no app code sees. */
type LocalsAuth = (() => Promise<Session | null>) & { [HANDLE]?: RequestAuth };

/** The app's `getRequestEvent` (from `$app/server`), handed in by `SvelteKitAuth`. */
let currentRequestEvent: (() => RequestEvent) | undefined;

/**
 * Called by the auth handle for each request: sets `locals.auth` to `auth`, marked as its
 * handle's (`handle`, one object per handle). A property of the function rather than a WeakMap
 * entry keyed by `locals`: the entry cost ~2 µs per request (an ephemeron for the GC to trace).
 */
export function registerRequest(locals: object, auth: () => Promise<Session | null>, handle: RequestAuth): void {
	(auth as LocalsAuth)[HANDLE] = handle;
	(locals as { auth?: LocalsAuth }).auth = auth;
}

/** `locals.auth` of a request and its handle, when the auth handle set them. */
function requestAuth(event: RequestEvent): { auth: LocalsAuth; handle: RequestAuth } | undefined {
	const auth = (event.locals as { auth?: LocalsAuth }).auth;
	const handle = auth?.[HANDLE];
	return handle ? { auth: auth!, handle } : undefined;
}

/**
 * The resolved config of the auth handle `event` passed through.
 * @throws {Error} it did not pass through one (`hooks.server.ts` does not export the handle).
 */
export function requestConfig(event: RequestEvent): Promise<ResolvedConfig> {
	const found = requestAuth(event);
	if (!found) throw new Error('This request did not pass through the auth handle; export it from src/hooks.server.');
	return found.handle.getConfig(event);
}

/** The current request, through the app's `getRequestEvent`; undefined when none was handed in, or outside a request. */
export function currentRequest(): RequestEvent | undefined {
	try {
		return currentRequestEvent?.();
	} catch {
		return undefined;
	}
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
	const found = requestAuth(current);
	if (!found) throw new Error('requireSession(): this request did not pass through the auth handle; export it from src/hooks.server.');
	const session = await found.auth();
	if (session?.user) return session as SignedInSession;
	if (!isNavigation(current)) error(401, 'Sign in to continue.');
	const callbackUrl = current.url.pathname + current.url.search;
	const config = await found.handle.getConfig(current);
	redirect(303, `${appBase(current.url, config)}${config.pages.signIn}?callbackUrl=${encodeURIComponent(callbackUrl)}`);
}

/**
 * Whether the request is for one of `prefixes` or below it ({@link matchesPathPrefix}): the
 * prefixes are paths inside the app (`/account`), as routes are written. Either of two paths
 * matching is enough, so that no URL shape gets past the guard:
 * - the route SvelteKit serves (`event.route.id`, layout groups and optional parameters taken
 *   out: {@link routePathOf}), which the app's `reroute` hook has already mapped, so `/de/account`
 *   that Paraglide serves with the `/account` route matches `/account`;
 * - the request's URL path, SvelteKit's `paths.base` taken off first (`/base/account` matches
 *   `/account` in an app served under `/base`), for a request no route matched.
 * Synchronous (it needs no config, so the guard costs an unprotected request no promise); code
 * written for 0.2.0, which returned a promise, still works (`await` of a boolean is the boolean).
 * @throws {Error} the request did not pass through the auth handle (`hooks.server.ts`).
 * @see https://owasp.org/Top10/A01_2021-Broken_Access_Control/
 */
export function matchesRequestPath(event: RequestEvent, prefixes: readonly string[]): boolean {
	const found = requestAuth(event);
	if (!found) throw new Error('matchesRequestPath(): this request did not pass through the auth handle; export it from src/hooks.server.');
	const route = routePathOf(event.route);
	return (route !== undefined && isUnderPrefix(route, prefixes)) || matchesPathPrefix(event.url.pathname, prefixes, appBase(event.url, found.handle));
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
