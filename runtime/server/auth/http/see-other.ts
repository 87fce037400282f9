// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { redirect } from '@sveltejs/kit';

/**
 * SvelteKit's `redirect(303, location)`, allowed to leave the app's origin: SvelteKit 3 refuses
 * an absolute URL on another origin unless given `{ external: true }`; SvelteKit 2's `redirect`
 * takes no options and ignores it. Only for locations built here: a provider's authorization
 * endpoint from the config, a validated path, or a callback forwarded by the redirect proxy to
 * the origin a `state` sealed with our secret names.
 * @returns never: throws SvelteKit's redirect.
 */
export function seeOther(location: string): never {
	return (redirect as (status: 303, location: string, options: { external: true }) => never)(303, location, { external: true });
}
