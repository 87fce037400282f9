// @ts-check
/**
 * Sign in over plain HTTP (no JavaScript, as a browser with JS disabled would) to get a real
 * session cookie, and check what `/protected` answers with and without it.
 */
import { BETTER_AUTH, DEMO, WITH_CREDENTIALS } from './apps.js';
import { devIdp } from './idp.js';

/**
 * A request as a no-JS browser sends it: `Accept: text/html`, redirects not followed, and
 * for a form POST `Origin` (SvelteKit's CSRF check; default the URL's) and a urlencoded body;
 * or, with `json`, a POST of that JSON body as a page's script sends it (Better Auth's client).
 * @param {string} url
 * @param {{ cookie?: string, form?: Record<string, string>, json?: Record<string, string>, origin?: string }} [options]
 */
async function request(url, { cookie, form, json, origin } = {}) {
	/** @type {Record<string, string>} */
	const headers = { accept: 'text/html' };
	if (cookie) headers.cookie = cookie;
	/** @type {RequestInit} */
	const init = { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) };
	if (form || json) {
		headers.origin = origin ?? new URL(url).origin;
		headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
		init.method = 'POST';
		init.body = form ? new URLSearchParams(form).toString() : JSON.stringify(json);
	}
	const response = await fetch(url, init);
	const body = await response.text();
	return { status: response.status, location: response.headers.get('location'), setCookies: response.headers.getSetCookie(), body };
}

/**
 * `name=value` pairs of Set-Cookie headers that set a value (deletions left out).
 * @param {string[]} setCookies
 */
function cookiePairs(setCookies) {
	return setCookies
		.map((header) => /** @type {string} */ (header.split(';')[0]).trim())
		.filter((pair) => !pair.endsWith('='));
}

/**
 * @param {string} what
 * @param {{ status: number, location: string | null, setCookies: string[] }} response
 * @param {number} status
 */
function expectStatus(what, response, status) {
	if (response.status !== status) {
		throw new Error(`${what}: expected ${status}, got ${response.status} (location ${response.location}, set-cookie ${response.setCookies.join(' | ')})`);
	}
}

/**
 * POST the sign-in page's form action (`/signin`), as its form does, with `redirectTo=/protected`
 * and the provider's fields; expects its 303 (to /protected, or to the provider).
 * @param {string} url
 * @param {Record<string, string> & { providerId: string }} fields
 * @param {string} [origin]
 */
async function postSignIn(url, fields, origin) {
	const response = await request(`${url}/signin`, { form: { ...fields, redirectTo: '/protected' }, origin });
	expectStatus(`POST /signin (providerId=${fields.providerId})`, response, 303);
	return response;
}

/**
 * The `name=value` pairs of a session cookie among Set-Cookie headers: `name`, its `__Host-`
 * or `__Secure-` variant (https) and its chunks `name.0`, `name.1`, …; throws when there is none.
 * @param {string} what  the request, for the error
 * @param {string[]} setCookies
 * @param {string} name  e.g. `auth.session-token`
 */
function sessionPairs(what, setCookies, name) {
	const pattern = new RegExp(`^(__Host-|__Secure-)?${name.replace(/\./g, '\\.')}(\\.\\d+)?=`);
	const pairs = cookiePairs(setCookies).filter((pair) => pattern.test(pair));
	if (pairs.length === 0) throw new Error(`${what} set no ${name} cookie: ${setCookies.join(' | ')}`);
	return pairs;
}

/** `https://idp/path?query` → `https://idp/path`, for the steps. */
const withoutQuery = (/** @type {string | URL} */ url) => {
	const { origin, pathname } = new URL(url);
	return `${origin}${pathname}`;
};

/**
 * Sign in and return the `Cookie` header value that carries the session.
 * - ours, ours-db-sqlite, ours-db-postgres(-cache): POST /signup (303 → /, already signed in), then
 *   POST /signin (the form action), whose session cookie is the one kept.
 * - ours-idp: POST /signin with `providerId=idp` (303 to the dev IdP, with the flow cookie),
 *   sign in at the dev IdP (signInAtDevIdp: its login form, as a no-JS browser), then GET the
 *   callback it sends back to, on the app, with the flow cookie (303 → /protected, with the
 *   session cookie, chunked when it does not fit in one).
 * - authjs: GET /auth/csrf (token + csrf cookie, if it hands them out), then POST
 *   /auth/callback/credentials.
 * - better-auth, better-auth-cache: POST /api/auth/sign-up/email, then POST
 *   /api/auth/sign-in/email (JSON, as sv's demo page sends them through Better Auth's client),
 *   whose cookies are kept (with `cookieCache`, the session token and the cached session).
 * @param {import('./apps.js').AppName} name
 * @param {string} url
 * @param {string} [origin]  the origin the app sees itself at, for the `Origin` header of form
 *   POSTs (default: the URL's)
 * @returns {Promise<{ cookie: string, steps: string[] }>}
 */
export async function signIn(name, url, origin) {
	if (WITH_CREDENTIALS.has(name)) {
		const signup = await request(`${url}/signup`, { form: { email: DEMO.email, password: DEMO.password }, origin });
		expectStatus('POST /signup', signup, 303);
		const signin = await postSignIn(url, { providerId: 'credentials', email: DEMO.email, password: DEMO.password }, origin);
		return {
			cookie: cookiePairs(signin.setCookies).join('; '),
			steps: [`POST /signup → ${signup.status} ${signup.location}`, `POST /signin → ${signin.status} ${signin.location}`]
		};
	}
	if (name === 'ours-idp') {
		const signin = await postSignIn(url, { providerId: 'idp' }, origin);
		const authorization = /** @type {string} */ (signin.location);
		const { signInAtDevIdp } = await devIdp();
		// Stops at the app's redirect_uri, on the origin the app sees itself at (https on Kit 3).
		const back = await signInAtDevIdp(authorization);
		if (back.method !== 'GET' || back.url.searchParams.has('error')) {
			throw new Error(`the dev IdP sent the browser back with ${back.method} ${back.url} ${back.form ?? ''}`);
		}
		const what = `GET ${back.url.pathname}`;
		const callback = await request(`${url}${back.url.pathname}${back.url.search}`, { cookie: cookiePairs(signin.setCookies).join('; ') });
		expectStatus(what, callback, 303);
		// A failed callback also answers 303, to /signin?error=<type>.
		if (new URL(callback.location ?? '', url).pathname !== '/protected') throw new Error(`${what}: 303 to ${callback.location}, not /protected`);
		return {
			cookie: sessionPairs(what, callback.setCookies, 'auth.session-token').join('; '),
			steps: [
				`POST /signin (providerId=idp) → ${signin.status} ${withoutQuery(authorization)}`,
				`dev IdP sign-in → ${withoutQuery(back.url)}`,
				`${what} → ${callback.status} ${callback.location}`
			]
		};
	}
	if (name === 'authjs') {
		// @auth/sveltekit sets skipCSRFCheck (SvelteKit checks Origin itself): /auth/csrf then
		// answers 404 and the callback needs no token. Send one only if the version hands one out.
		const csrf = await request(`${url}/auth/csrf`);
		/** @type {Record<string, string>} */
		const form = { email: DEMO.email, password: DEMO.password, callbackUrl: `${url}/protected` };
		let csrfCookie = '';
		if (csrf.status === 200) {
			form.csrfToken = JSON.parse(csrf.body).csrfToken;
			csrfCookie = cookiePairs(csrf.setCookies).join('; ');
		}
		const callback = await request(`${url}/auth/callback/credentials`, { cookie: csrfCookie, form, origin });
		expectStatus('POST /auth/callback/credentials', callback, 302);
		return {
			cookie: sessionPairs('POST /auth/callback/credentials', callback.setCookies, 'authjs.session-token').join('; '),
			steps: [
				`GET /auth/csrf → ${csrf.status}${csrf.status === 200 ? '' : ' (CSRF token check skipped by @auth/sveltekit)'}`,
				`POST /auth/callback/credentials → ${callback.status} ${callback.location}`
			]
		};
	}
	if (BETTER_AUTH.has(name)) {
		const signup = await request(`${url}/api/auth/sign-up/email`, { json: { name: 'Demo', ...DEMO }, origin });
		expectStatus('POST /api/auth/sign-up/email', signup, 200);
		const signin = await request(`${url}/api/auth/sign-in/email`, { json: DEMO, origin });
		expectStatus('POST /api/auth/sign-in/email', signin, 200);
		sessionPairs('POST /api/auth/sign-in/email', signin.setCookies, 'better-auth.session_token');
		return {
			cookie: cookiePairs(signin.setCookies).join('; '),
			steps: [`POST /api/auth/sign-up/email → ${signup.status}`, `POST /api/auth/sign-in/email → ${signin.status}`]
		};
	}
	throw new Error(`${name} has no sign-in`);
}

/**
 * What a `Cookie` header costs on every request: its bytes and the cookies in it (a chunked
 * session shows as `name.0`, `name.1`, …).
 * @param {string} cookie
 */
export function cookieSize(cookie) {
	const names = cookie ? cookie.split('; ').map((pair) => /** @type {string} */ (pair.split('=')[0])) : [];
	return { bytes: Buffer.byteLength(cookie), names };
}

/**
 * What `path` answers with and without the cookie. Throws unless it is 200 with the cookie,
 * showing `Signed in as <email>.` (the /protected page's markup), and, when `guarded`, 303
 * without it (the precondition for measuring at all).
 * @param {string} url
 * @param {string} path
 * @param {string} cookie
 * @param {{ guarded: boolean }} options
 */
export async function checkProtected(url, path, cookie, { guarded }) {
	const signedIn = await request(`${url}${path}`, { cookie });
	expectStatus(`GET ${path} with the session cookie`, signedIn, 200);
	const signedInAs = /Signed in as ([^<]*)\.</.exec(signedIn.body)?.[1];
	if (!signedInAs) throw new Error(`GET ${path} with the session cookie: no "Signed in as …" in ${signedIn.body.slice(0, 2000)}`);
	const anonymous = await request(`${url}${path}`);
	if (guarded) expectStatus(`GET ${path} without a session cookie`, anonymous, 303);
	return { withCookie: signedIn.status, signedInAs, withoutCookie: anonymous.status, withoutCookieLocation: anonymous.location };
}

/**
 * Set-Cookie headers on `times` sequential GETs of `path` with the cookie.
 * @param {string} url
 * @param {string} path
 * @param {string} cookie
 * @param {number} times
 */
export async function countSetCookies(url, path, cookie, times) {
	let total = 0;
	/** @type {Set<string>} */
	const names = new Set();
	for (let i = 0; i < times; i++) {
		const response = await request(`${url}${path}`, { cookie });
		total += response.setCookies.length;
		for (const header of response.setCookies) names.add(/** @type {string} */ (header.split('=')[0]));
	}
	return { requests: times, setCookieHeaders: total, names: [...names] };
}

/**
 * The `Cookie` header a browser would send after one more GET of `path`: what the response's
 * Set-Cookie headers set replaces the cookie of the same name, what they delete leaves. The
 * load generator sends one fixed header, while a browser keeps every re-issued cookie (a JWT
 * session re-checked and re-sealed, say, which is then not checked again for a while): the bench
 * calls this before each load of a signed-in row, so the row measures what a browser would cost.
 * @param {string} url
 * @param {string} path
 * @param {string} cookie
 * @returns {Promise<{ cookie: string, reissued: boolean }>}
 */
export async function keptCookie(url, path, cookie) {
	const response = await request(`${url}${path}`, { cookie });
	const jar = new Map(cookie.split('; ').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
	for (const header of response.setCookies) {
		const pair = /** @type {string} */ (header.split(';')[0]).trim();
		const name = pair.slice(0, pair.indexOf('='));
		const value = pair.slice(pair.indexOf('=') + 1);
		if (value === '' || /;\s*max-age=0\b/i.test(header)) jar.delete(name);
		else jar.set(name, value);
	}
	const kept = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
	return { cookie: kept, reissued: kept !== cookie };
}
