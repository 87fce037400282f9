// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Action, Handle, RequestEvent } from '@sveltejs/kit';
import { building } from '$app/environment';
import type { Session } from '$lib/auth';
import { signInAction, signOutAction, type GetConfig } from './actions.js';
import type { Awaitable } from './adapters/types.js';
import { resolveConfig, type ResolvedConfig, type SvelteKitAuthConfig } from './config.js';
import { readSession } from './session.js';

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
 *   it pay nothing).
 * - `signIn` / `signOut` are form actions for the `/signin` and `/signout` pages.
 *
 * `config` is an object (checked now, unless SvelteKit is `building`) or a function of the
 * request event (resolved per request, when first needed).
 * @throws {MissingSecret} no `secret` / `AUTH_SECRET` of 32+ characters.
 * @throws {MissingAdapter} `database` strategy without an adapter.
 * @see spec/interface.md "Entry point"
 */
export function SvelteKitAuth(
	config: SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>)
): SvelteKitAuthResult {
	let getConfig: GetConfig;
	if (typeof config === 'function') {
		getConfig = async (event) => resolveConfig(await config(event));
	} else {
		// SvelteKit imports server modules while building, without the runtime environment.
		let resolved: ResolvedConfig | undefined = building ? undefined : resolveConfig(config);
		getConfig = async () => (resolved ??= resolveConfig(config));
	}

	const handle: Handle = ({ event, resolve }) => {
		let session: Promise<Session | null> | undefined;
		const locals = event.locals as { auth?: () => Promise<Session | null> };
		locals.auth = () => (session ??= getConfig(event).then((resolved) => readSession(event, resolved)));
		return resolve(event);
	};

	return { handle, signIn: signInAction(getConfig), signOut: signOutAction(getConfig) };
}
