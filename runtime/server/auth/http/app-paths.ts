// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.

/**
 * SvelteKit's `resolve` from `$app/paths` (SvelteKit 2.26+ and 3), as the generated `src/auth.ts`
 * hands it to `SvelteKitAuth`. Typed as any function returning a string (`...args: never`) so that
 * the app's own `resolve`, whose arguments are typed from its routes, is accepted as it is; the
 * runtime calls it with `/` only, which SvelteKit prefixes with `paths.base` whatever the route types say.
 */
export type AppResolve = (...args: never) => string;

/**
 * The app's `paths.base` as this request sees it: `''`, or `/base` with no trailing slash.
 * `resolve('/')` answers `<base>/`, or during a request a path relative to the request's URL
 * (`./`, `../..`, with `paths.relative`, SvelteKit's default), so it is resolved against `url`;
 * SvelteKit serves only requests under the base, so both give the same absolute path.
 * SvelteKit 3 has no `base` export left: `resolve` is the one way both majors name it.
 * @param url the request's URL (`event.url`)
 * @param config the resolved config, whose `resolve` is the app's; without it (SvelteKit 2 before
 *   2.26, or a test), no base: `''`
 * @see https://svelte.dev/docs/kit/$app-paths#resolve
 */
export function appBase(url: URL, { resolve }: { resolve?: AppResolve }): string {
	if (!resolve) return '';
	// paths.base is fixed when the app is built: worked out at the first request, then reused
	// (the guard in src/authorization.ts asks on every request).
	let base = bases.get(resolve);
	if (base === undefined) {
		base = new URL((resolve as (path: string) => string)('/'), url).pathname.replace(/\/+$/, '');
		bases.set(resolve, base);
	}
	return base;
}

/** {@link appBase}'s answers, per app (its `resolve`). */
const bases = new WeakMap<AppResolve, string>();

/**
 * The route SvelteKit serves a request with, as a path inside the app: `event.route.id` without
 * its layout groups (`/(app)`) and optional parameters (`/[[lang]]`), so `/(app)/account/[id]`
 * is `/account/[id]`. The app's `reroute` hook (Paraglide's `deLocalizeUrl`, a locale prefix, any
 * mapping of URLs onto routes) has already been applied to it, so a guard or an auth-page defence
 * decided on it holds for every URL shape that reaches the route: `/de/account` served by
 * `/account` is `/account` here, whatever `event.url` says.
 * @param route `event.route`; its `id` is `null` when no route matched (SvelteKit answers 404)
 * @returns the path (`/` for the root route), or `undefined` when no route matched
 * @see https://svelte.dev/docs/kit/hooks#Universal-hooks-reroute
 * @see https://svelte.dev/docs/kit/advanced-routing#Advanced-layouts-(group)
 */
export function routePathOf(route: { id: string | null } | undefined): string | undefined {
	const id = route?.id;
	if (!id) return undefined;
	let path = routePaths.get(id);
	if (path === undefined) {
		path = `/${id.split('/').filter((segment) => segment !== '' && !/^\(.*\)$/.test(segment) && !/^\[\[.*\]\]$/.test(segment)).join('/')}`;
		routePaths.set(id, path);
	}
	return path;
}

/** {@link routePathOf}'s answers by route id: an app has a fixed set of routes, and `handle` asks on every request. */
const routePaths = new Map<string, string>();
