// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import { PROVIDER_ROUTES, type ResolvedConfig } from '../config.js';
import { appBase } from '../http/app-paths.js';

/**
 * Paths that may be one of the runtime's own routes, `…/<route>/…` for a route of
 * {@link PROVIDER_ROUTES}: only these resolve the config inside `handle` (see {@link providerRoute}).
 */
export const PROVIDER_ROUTE_PATH = new RegExp(`/(?:${PROVIDER_ROUTES.join('|')})/`);

/**
 * The answer to a request for one of the runtime's own routes,
 * `<base><basePath>/<route>/<provider id>` (`<base>` being SvelteKit's `paths.base`): the
 * route handler of that provider's flow (`provider.flow.routes[route]`, see `ProviderFlow`),
 * bound to the request. Undefined for any other path, an unknown provider id, or a provider
 * whose flow has no such route: those go on to the app (usually a 404). A handler may itself
 * answer undefined (a method it does not take), which lets the request go on as well.
 * @see create-auth docs/api.md#routes-and-form-actions
 */
export function providerRoute(event: RequestEvent, config: ResolvedConfig): (() => Promise<Response | undefined>) | undefined {
	const { pathname } = event.url;
	for (const route of PROVIDER_ROUTES) {
		const prefix = `${appBase(event.url, config)}${config.basePath}/${route}/`;
		if (!pathname.startsWith(prefix)) continue;
		const id = decodeURIComponent(pathname.slice(prefix.length));
		const provider = config.providers.find((candidate) => candidate.id === id);
		const handler = provider?.flow?.routes?.[route];
		return provider && handler ? () => handler(event, config, provider) : undefined;
	}
	return undefined;
}
