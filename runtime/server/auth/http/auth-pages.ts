// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import { PROVIDER_ROUTES, type ResolvedConfig } from '../config.js';
import { appBase, routePathOf } from './app-paths.js';

/** The pages the CLI generates at fixed paths (the others, `/account` included, are `config.pages`). */
const FIXED_PAGES = { signUp: '/signup', forgotPassword: '/signin/forgot-password' } as const;

/**
 * What `handle` knows about a request path that is one of the app's auth pages or the runtime's
 * own routes (see {@link authPathOf}).
 */
export interface AuthPath {
	/** The sign-in, sign-up or account page: a page a click in a frame could act on (clickjacking). */
	framed: boolean;
	/**
	 * An OAuth callback route, `<base><basePath>/callback/<id>`: a provider posts it from its own
	 * site with `response_mode=form_post`, so a cross-site POST there is legitimate.
	 */
	callback: boolean;
}

/** `/x/` → `/x`; `/` stays. */
const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * Whether a request is for an auth page or one of the runtime's routes: the `config.pages`
 * (sign-in, sign-out, verify-request, email link, reset password, verify email, account),
 * `/signup`, `/signin/forgot-password`, and `<basePath>/<route>/…` for each of `PROVIDER_ROUTES`.
 * Either of two paths naming one is enough, so that no URL shape escapes the defences:
 * - the route SvelteKit serves ({@link routePathOf}: `event.route.id` once the app's `reroute`
 *   hook mapped the URL, so Paraglide's `/de/signin` is the `/signin` page);
 * - the URL path with `<base>` (SvelteKit's `paths.base`) in front, a trailing slash ignored
 *   (SvelteKit has already taken a data request's `/__data.json` off `event.url`); the runtime's
 *   own routes are only ever answered there, before any route.
 * Undefined for any other request.
 * @param event the request's `url` and `route` (a `RequestEvent`)
 * @see create-auth docs/api.md#auth-pages-defence-in-depth
 */
export function authPathOf(event: Pick<RequestEvent, 'url' | 'route'>, config: ResolvedConfig): AuthPath | undefined {
	const { url } = event;
	const base = appBase(url, config);
	const path = withoutTrailingSlash(url.pathname);
	const routes = `${base}${config.basePath}/`;
	const providerRoute = path.startsWith(routes) ? path.slice(routes.length).split('/')[0]! : undefined;
	if (providerRoute !== undefined && (PROVIDER_ROUTES as readonly string[]).includes(providerRoute)) return { framed: false, callback: providerRoute === 'callback' };
	const served = routePathOf(event.route);
	return (served === undefined ? undefined : pagesOf(config, '').get(served)) ?? pagesOf(config, base).get(path);
}

/** The auth pages' paths under `base`, per config: built once, since `handle` asks on every request. */
const pageTables = new WeakMap<ResolvedConfig, Map<string, Map<string, AuthPath>>>();

function pagesOf(config: ResolvedConfig, base: string): Map<string, AuthPath> {
	let byBase = pageTables.get(config);
	if (!byBase) pageTables.set(config, (byBase = new Map()));
	let pages = byBase.get(base);
	if (!pages) {
		const framed = new Set([config.pages.signIn, FIXED_PAGES.signUp, config.pages.account]);
		pages = new Map();
		for (const page of [...Object.values(config.pages), ...Object.values(FIXED_PAGES)]) {
			const path = withoutTrailingSlash(`${base}${page}`);
			if (!pages.has(path)) pages.set(path, { framed: framed.has(page), callback: false });
		}
		byBase.set(base, pages);
	}
	return pages;
}

/** Sets the headers {@link withAuthHeaders} describes; throws a TypeError on immutable headers. */
function setAuthHeaders(headers: Headers, { framed }: AuthPath): void {
	headers.set('cache-control', 'no-store');
	if (!framed) return;
	const policy = headers.get('content-security-policy');
	if (policy && /(^|[;,])\s*frame-ancestors\b/i.test(policy)) return;
	headers.set('content-security-policy', policy ? `${policy}; frame-ancestors 'none'` : "frame-ancestors 'none'");
	headers.set('x-frame-options', 'DENY');
}

/**
 * The response headers of an auth page or route: `Cache-Control: no-store`, so that no browser
 * or shared cache keeps what it shows (OWASP ASVS 5.0 V14.3), and for a `framed` page
 * `X-Frame-Options: DENY` plus CSP `frame-ancestors 'none'`, so that no other site can frame it
 * (clickjacking; ASVS 5.0 V3.4). A `Content-Security-Policy` header SvelteKit set from `kit.csp`
 * (it sends one on server-rendered pages, a `<meta>` only on prerendered ones, which cannot carry
 * `frame-ancestors`; auth pages have actions, so are never prerendered) gets the directive
 * appended; a policy that has `frame-ancestors` already is the app's choice, and framing is
 * then left to it.
 * @returns `response` with the headers set, or a copy of it when its headers are immutable
 *   (a `fetch()` answer, `Response.redirect()`)
 * @see create-auth docs/api.md#auth-pages-defence-in-depth
 */
export function withAuthHeaders(response: Response, path: AuthPath): Response {
	try {
		setAuthHeaders(response.headers, path);
		return response;
	} catch {
		const copy = new Response(response.body, response);
		setAuthHeaders(copy.headers, path);
		return copy;
	}
}
