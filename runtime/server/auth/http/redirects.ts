// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { ResolvedConfig } from '../config.js';
import { UntrustedHost } from '../errors.js';

/**
 * This deployment's origin, as the links back to the app name it (OAuth redirect URIs, the
 * redirect proxy's `state`, emailed sign-in links, the passkeys' relying party): `AUTH_URL`'s
 * (`url`) when set, else the request's when the host is trusted (`trustHost` / `AUTH_TRUST_HOST`,
 * the dev server) or is this machine's own loopback name (`localhost`, `127.x.x.x`, `[::1]`:
 * `vite preview`, a local `node build`). Never another `Host` header nobody vouched for: an OAuth
 * code or an emailed token would go there (Host header injection, OWASP WSTG-INPV-17). A loopback
 * link can only reach the machine of whoever opens it, never the sender's.
 * @throws {UntrustedHost} neither `url` nor `trustHost`, and the host is not a loopback name.
 */
export function appOriginOf(url: URL, config: ResolvedConfig): string {
	if (config.origin) return config.origin;
	if (config.trustHost || isLoopbackHost(url.hostname)) return url.origin;
	throw new UntrustedHost(`Set AUTH_URL or AUTH_TRUST_HOST=true so that links back to the app can be built (host ${url.host}).`);
}

/**
 * Whether `hostname` (a parsed URL's: lower case, IPv4 in dotted form, IPv6 in brackets) names
 * this machine by the names every resolver keeps on it: `localhost`, `127.0.0.0/8`, `[::1]`.
 * Not `*.localhost` (RFC 6761 §6.3 lets resolvers answer it, but not all keep it local) and not
 * a DNS name that happens to resolve to 127.0.0.1 (`127.0.0.1.nip.io`).
 */
export function isLoopbackHost(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Checks a post-sign-in/out target. Accepts a path (`/account?tab=1`) or, when
 * `allowAbsolute`, an absolute URL on `origin`; returns it as a path (so the Location header
 * never names another host). With SvelteKit's `paths.base` (`base`, e.g. `/base`), the path must
 * be the app's: `/base` or below it, compared once the URL parser has resolved dot segments
 * (`/base/../x`, `/base/%2e%2e/x`), since anything else on the origin is not this app (another
 * app may live there). Anything else (another origin, outside the base, `//evil`, `/\evil`,
 * `javascript:`, control characters, non-strings) gives the app's home, `<base>/`.
 * @param base the app's `paths.base` (`''` or `/base`, see `appBase`)
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html
 */
export function safeRedirectTarget(target: unknown, origin: string, allowAbsolute: boolean, base = ''): string {
	const home = `${base}/`;
	// Browsers read "\" as "/" and drop tabs/newlines, which turns "/\evil" into "//evil".
	if (typeof target !== 'string' || target === '' || /[\\\u0000-\u001f\u007f]/.test(target)) return home;
	const relative = target.startsWith('/') && !target.startsWith('//');
	if (!relative && !allowAbsolute) return home;
	let url: URL;
	try {
		url = relative ? new URL(target, origin) : new URL(target);
	} catch {
		return home;
	}
	if (url.origin !== origin || !isUnder(url.pathname, base)) return home;
	return url.pathname + url.search + url.hash;
}

/** Whether `pathname` is `base` or below it, by whole segments (`/base/x`, not `/basement`). */
const isUnder = (pathname: string, base: string) => base === '' || pathname === base || pathname.startsWith(`${base}/`);

/**
 * Whether `pathname` is one of `prefixes` or below it, by whole segments: `/account` matches
 * `/account` and `/account/x`, not `/accounts`. Compares the percent-decoded path with
 * repeated slashes collapsed (SvelteKit routes on the decoded path, so `/%61ccount` is
 * `/account`). A malformed escape counts as a match: a guard should fail closed.
 * @param pathname a request's URL path (`event.url.pathname`), SvelteKit's `paths.base` included
 * @param prefixes paths inside the app, without the base (`/account`), as routes are written
 * @param base the app's `paths.base` (`''` or `/base`): taken off `pathname` first; a path
 *   outside it is no path of the app (SvelteKit answers it 404 before any hook) and matches nothing
 */
export function matchesPathPrefix(pathname: string, prefixes: readonly string[], base = ''): boolean {
	let decoded: string;
	try {
		decoded = decodeURIComponent(pathname).replace(/\/{2,}/g, '/');
	} catch {
		return prefixes.length > 0;
	}
	if (!isUnder(decoded, base)) return false;
	return isUnderPrefix(decoded.slice(base.length) || '/', prefixes);
}

/**
 * Whether a decoded path inside the app (`/account/x`, no base) is one of `prefixes` or below
 * it, by whole segments: {@link matchesPathPrefix} once the URL is decoded and the base taken
 * off; also for a route's path (`routePathOf`), which has neither escapes nor base.
 */
export function isUnderPrefix(inApp: string, prefixes: readonly string[]): boolean {
	return prefixes.some((prefix) => {
		const start = prefix.replace(/\/+$/, '');
		return start === '' || inApp === start || inApp.startsWith(`${start}/`);
	});
}
