// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.

/** Methods that change nothing (RFC 9110 §9.2.1 safe methods), which the check lets through. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the browser says another site made this state-changing request (Fetch Metadata,
 * `Sec-Fetch-Site`; OWASP ASVS 5.0 V3.5 browser security mechanisms; the Resource Isolation
 * Policy of https://web.dev/articles/fetch-metadata): a method other than GET, HEAD or OPTIONS
 * with `cross-site`, or with `same-site` (a sibling subdomain, e.g. one serving user content, is
 * another party that SameSite=Lax cookies do not keep out; the config has no list of trusted
 * sites). `same-origin`, `none` (typed, bookmarked) and no header (older browsers, non-browser
 * clients, which carry no victim's cookies) pass. The header is a forbidden request header
 * name: page scripts cannot set or remove it.
 */
export function isCrossSiteWrite(request: Request): boolean {
	if (SAFE_METHODS.has(request.method)) return false;
	const site = request.headers.get('sec-fetch-site');
	return site === 'cross-site' || site === 'same-site';
}

/** The answer to a refused cross-site request: 403 with a short text, stored by no cache. */
export function crossSiteRefusal(): Response {
	return new Response('Cross-site requests to sign-in pages are refused.', {
		status: 403,
		headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }
	});
}
