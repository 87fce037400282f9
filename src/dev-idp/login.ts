import { CookieJar } from './cookie-jar.js';
import { readAlert, readForm } from './html.js';

/** How the dev IdP sends the browser back to the client, with the authorization response. */
export interface SignInResult {
	/**
	 * The client's `redirect_uri`. For `GET`, the response parameters are in its query:
	 * `code`, `state`, `iss` (RFC 9207), or `error` and `error_description`.
	 */
	url: URL;
	/** `GET` for `response_mode=query` (the default); `POST` for `response_mode=form_post`. */
	method: 'GET' | 'POST';
	/** `POST` only: the form the browser would post to `url` (`code`, `state`, `iss`, or `error`…). */
	form?: URLSearchParams;
}

/** What to type in the sign-in form; a missing field keeps the value the page prefills. */
export interface SignInCredentials {
	email?: string;
	password?: string;
}

/** Requests followed before giving up: authorize → sign-in page → POST → resume → client is 4. */
const MAX_STEPS = 10;

/**
 * Signs in at a dev IdP the way a browser without JavaScript would, for tests: requests
 * `authorizationUrl`, follows redirects with a cookie jar, submits the sign-in form, and stops
 * at the first redirect or form that leaves the IdP's origin: the client's `redirect_uri`. The
 * client's callback is never requested.
 *
 * Each call starts with no cookies, so it always signs in afresh. The form's prefilled values
 * are the IdP's test user, so `credentials` are needed only to test other ones. An error the
 * IdP sends back to the client (`?error=…`) is returned, not thrown.
 *
 * @param authorizationUrl a complete authorization request, e.g. `<issuer>/oauth2/authorize?…`
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 * @see https://openid.net/specs/oauth-v2-form-post-response-mode-1_0.html
 * @throws {Error} when the IdP shows an error page instead (unknown client or `redirect_uri`,
 *   e.g. "invalid_redirect_uri: …"), refuses the credentials ("Wrong email or password."),
 *   answers with something unexpected, or takes more than 10 requests
 */
export async function signInAtDevIdp(authorizationUrl: string, credentials: SignInCredentials = {}): Promise<SignInResult> {
	let url = new URL(authorizationUrl);
	const idp = url.origin;
	const jar = new CookieJar();
	let body: URLSearchParams | undefined;
	for (let step = 0; step < MAX_STEPS; step++) {
		const cookie = jar.header(url);
		const response = await fetch(url, {
			method: body ? 'POST' : 'GET',
			body,
			headers: cookie ? { cookie } : {},
			redirect: 'manual'
		});
		jar.store(response);
		const location = response.headers.get('location');
		if (response.status >= 300 && response.status < 400 && location) {
			await response.body?.cancel();
			url = new URL(location, url);
			if (url.origin !== idp) return { url, method: 'GET' };
			body = undefined;
			continue;
		}
		const html = await response.text();
		const form = readForm(html);
		const action = form && new URL(form.action, url);
		if (form && action && action.origin !== idp) return { url: action, method: 'POST', form: form.fields };
		if (!form || !action || !response.ok) {
			const reason = readAlert(html) ?? `HTTP ${response.status}${form ? '' : ', no form'}`;
			throw new Error(`Sign-in at the dev IdP failed at ${url.pathname}: ${reason}`);
		}
		if (credentials.email !== undefined) form.fields.set('email', credentials.email);
		if (credentials.password !== undefined) form.fields.set('password', credentials.password);
		url = action;
		body = form.fields;
	}
	throw new Error(`Sign-in at the dev IdP did not reach the client after ${MAX_STEPS} requests.`);
}
