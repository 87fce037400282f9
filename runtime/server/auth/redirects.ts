// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { ResolvedConfig } from './config.js';
import { UntrustedHost } from './errors.js';

/**
 * This deployment's origin, as the links back to the app name it (OAuth redirect URIs, the
 * redirect proxy's `state`, emailed sign-in links): `AUTH_URL`'s (`url`) when set, else the
 * request's when the host is trusted (`trustHost` / `AUTH_TRUST_HOST`, or the dev server).
 * Never a `Host` header nobody vouched for: an OAuth code or an emailed token would go there.
 * @throws {UntrustedHost} neither `url` nor `trustHost`.
 */
export function appOriginOf(url: URL, config: ResolvedConfig): string {
	if (!config.origin && !config.trustHost) {
		throw new UntrustedHost(`Set AUTH_URL or AUTH_TRUST_HOST=true so that links back to the app can be built (host ${url.host}).`);
	}
	return config.origin ?? url.origin;
}

/**
 * Checks a post-sign-in/out target. Accepts a path (`/account?tab=1`) or, when
 * `allowAbsolute`, an absolute URL on `origin`; returns it as a path (so the Location header
 * never names another host). Anything else (another origin, `//evil`, `/\evil`,
 * `javascript:`, control characters, non-strings) gives `/`.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html
 */
export function safeRedirectTarget(target: unknown, origin: string, allowAbsolute: boolean): string {
	// Browsers read "\" as "/" and drop tabs/newlines, which turns "/\evil" into "//evil".
	if (typeof target !== 'string' || target === '' || /[\\\u0000-\u001f\u007f]/.test(target)) return '/';
	const relative = target.startsWith('/') && !target.startsWith('//');
	if (!relative && !allowAbsolute) return '/';
	let url: URL;
	try {
		url = relative ? new URL(target, origin) : new URL(target);
	} catch {
		return '/';
	}
	return url.origin === origin ? url.pathname + url.search + url.hash : '/';
}

/**
 * Whether `pathname` is one of `prefixes` or below it, by whole segments: `/account` matches
 * `/account` and `/account/x`, not `/accounts`. Compares the percent-decoded path with
 * repeated slashes collapsed (SvelteKit routes on the decoded path, so `/%61ccount` is
 * `/account`). A malformed escape counts as a match: a guard should fail closed.
 */
export function matchesPathPrefix(pathname: string, prefixes: readonly string[]): boolean {
	let decoded: string;
	try {
		decoded = decodeURIComponent(pathname).replace(/\/{2,}/g, '/');
	} catch {
		return prefixes.length > 0;
	}
	return prefixes.some((prefix) => {
		const base = prefix.replace(/\/+$/, '');
		return base === '' || decoded === base || decoded.startsWith(`${base}/`);
	});
}
