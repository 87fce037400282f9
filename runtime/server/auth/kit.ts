// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Action, RequestEvent } from '@sveltejs/kit';
import type { sequence } from '@sveltejs/kit/hooks';
import type { Session } from '../../auth/types.js';
import { signInAction, signOutAction, type GetConfig } from './actions.js';
import type { Awaitable } from './adapters/types.js';
import { resolveConfig, type ResolvedConfig, type SvelteKitAuthConfig } from './config.js';
import { callbackProvider, oauthCallback } from './routes.js';
import { readSession } from './session.js';

/**
 * SvelteKit's `handle` hook type. SvelteKit 2 exports it from `@sveltejs/kit` and SvelteKit 3
 * from `@sveltejs/kit/hooks`; `sequence()` takes it in both, so it is named through that.
 */
export type Handle = Parameters<typeof sequence>[number];

/**
 * Facts about the running app that only the app can import: SvelteKit's environment module
 * has a different name in each major. The generated `src/auth.ts` imports it and hands them in,
 * so this runtime builds in either (and `sv migrate` finds nothing to rewrite here).
 */
export interface AppEnvironment {
	/**
	 * SvelteKit is building (analysing routes or prerendering) and the runtime environment, with
	 * `AUTH_SECRET`, may be absent: an object config is then checked at its first request.
	 */
	building?: boolean;
}

/** What {@link SvelteKitAuth} returns: a hook and the two form actions. */
export interface SvelteKitAuthResult {
	handle: Handle;
	signIn: Action;
	signOut: Action;
}

/**
 * Sets up authentication for a SvelteKit app.
 *
 * - `handle` gives every request `event.locals.auth()`: the session or null, decoded straight
 *   from the cookie on the first call and memoized for the request (requests that never call
 *   it pay nothing). It also answers OAuth callbacks, `<basePath>/callback/<provider id>`.
 * - `signIn` / `signOut` are form actions for the `/signin` and `/signout` pages.
 *
 * `config` is an object (checked now, unless `app.building`) or a function of the request event
 * (resolved per request, when first needed).
 * @throws {MissingSecret} no `secret` of 32+ characters.
 * @throws {MissingAdapter} `database` strategy without an adapter.
 * @throws {InvalidUrl} `url` is not an absolute URL.
 * @see spec/interface.md "Entry point"
 */
export function SvelteKitAuth(
	config: SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>),
	app: AppEnvironment = {}
): SvelteKitAuthResult {
	let getConfig: GetConfig;
	if (typeof config === 'function') {
		getConfig = async (event) => resolveConfig(await config(event));
	} else {
		// SvelteKit imports server modules while building, without the runtime environment.
		let resolved: ResolvedConfig | undefined = app.building ? undefined : resolveConfig(config);
		getConfig = async () => (resolved ??= resolveConfig(config));
	}

	/** An OAuth callback is answered here (a 303); any other path goes on to the app. */
	const callbackOrResolve: Handle = async ({ event, resolve }) => {
		const resolved = await getConfig(event);
		const provider = callbackProvider(event.url, resolved);
		if (provider) await oauthCallback(event, resolved, provider.id);
		return resolve(event);
	};

	const handle: Handle = (input) => {
		const { event, resolve } = input;
		let session: Promise<Session | null> | undefined;
		const locals = event.locals as { auth?: () => Promise<Session | null> };
		locals.auth = () => (session ??= getConfig(event).then((resolved) => readSession(event, resolved)));
		return event.url.pathname.includes('/callback/') ? callbackOrResolve(input) : resolve(event);
	};

	return { handle, signIn: signInAction(getConfig), signOut: signOutAction(getConfig) };
}
