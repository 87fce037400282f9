// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * HTTP helpers every flow uses: forms, redirects, the app's base path, and the guards.
 *
 * - `form.ts` — `readForm`, `formText`, `callbackUrlOf`, `clientAddress`, `refusedAttempt`
 *   (the 429 / 503 answer of a rate-limited attempt).
 * - `redirects.ts` — `safeRedirectTarget` (OWASP ASVS 4.0.3 V5.1.5), `appOriginOf` (the origin
 *   links back to the app use), `matchesPathPrefix`.
 * - `see-other.ts` — `seeOther`: SvelteKit's 303 allowed to leave the origin (SvelteKit 3).
 * - `app-paths.ts` — `appBase`: SvelteKit's `paths.base` from the app's `resolve`; `routePathOf`:
 *   the route SvelteKit serves a request with, as a path (after the app's `reroute`).
 * - `guards.ts` — `requireSession`, `requireUser`, `isNavigation`, `matchesRequestPath`,
 *   `currentRequest` (the request `getRequestEvent` gives, for code that has no event).
 * - `fetch-metadata.ts` — `isCrossSiteWrite`, `crossSiteRefusal` (Sec-Fetch-Site on auth POSTs).
 * - `auth-pages.ts` — `authPathOf` (auth pages and routes), `withAuthHeaders` (`no-store`, anti-framing).
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#guards, #routes-and-form-actions
 */
export { appBase, routePathOf, type AppResolve } from './app-paths.js';
export { authPathOf, withAuthHeaders, type AuthPath } from './auth-pages.js';
export { crossSiteRefusal, isCrossSiteWrite } from './fetch-metadata.js';
export { callbackUrlOf, clientAddress, formText, readForm, refusedAttempt } from './form.js';
export {
	currentRequest,
	isNavigation,
	matchesRequestPath,
	registerRequest,
	requireSession,
	requireUser,
	useRequestEvent,
	type SignedInSession
} from './guards.js';
export { appOriginOf, matchesPathPrefix, safeRedirectTarget } from './redirects.js';
export { seeOther } from './see-other.js';
