// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Cookies } from '@sveltejs/kit';

/** The attributes our cookies are set with (SvelteKit passes them to `cookie.serialize`). */
export interface CookieOptions {
	path: string;
	httpOnly: boolean;
	sameSite: 'lax' | 'strict' | 'none';
	secure: boolean;
	/** Seconds. */
	maxAge?: number;
}

/**
 * One of our cookies, `auth.<use>`: httpOnly; `Secure` over https, or as `useSecureCookies` says.
 * A secure cookie is `__Host-` prefixed when its `path` is `/` (RFC 6265bis §4.1.3.2: Secure,
 * `Path=/`, no `Domain`, so no other path or subdomain can set or shadow it; the config has no
 * cookie domain), else `__Secure-` (§4.1.3.1; the OAuth flow cookie lives under `basePath`).
 * `crossSite`: sent on cross-site POSTs too (SameSite=None, which browsers take only with Secure;
 * Lax without it).
 * @returns its name and the attributes to set and delete it with
 * @see create-auth docs/api.md#session-strategies
 */
export function authCookie(
	url: URL,
	useSecureCookies: boolean | undefined,
	use: string,
	{ path = '/', crossSite = false }: { path?: string; crossSite?: boolean } = {}
): { name: string; options: CookieOptions } {
	const secure = useSecureCookies ?? url.protocol === 'https:';
	const sameSite = crossSite && secure ? 'none' : 'lax';
	const prefix = !secure ? '' : path === '/' ? '__Host-' : '__Secure-';
	return { name: `${prefix}auth.${use}`, options: { path, httpOnly: true, secure, sameSite } };
}

/**
 * The name a runtime before 0.2.0 gave the cookie {@link authCookie} now calls `name`:
 * `__Secure-auth.<use>` for `__Host-auth.<use>`; undefined for any other name (it was not renamed).
 */
export const previousCookieName = (name: string): string | undefined =>
	name.startsWith('__Host-') ? `__Secure-${name.slice('__Host-'.length)}` : undefined;

/**
 * Browsers keep a cookie only while `name=value` plus its attributes fit in 4096 bytes
 * (RFC 6265 §6.1 asks for at least that much). Our attributes (`Path=/; Expires=…;
 * Max-Age=…; HttpOnly; Secure; SameSite=Lax`) take under 120; 200 leaves room to spare.
 */
const COOKIE_BYTES = 4096;
const ATTRIBUTES_BYTES = 200;

/** Longest value a cookie called `name` (chunk suffix included) may carry. */
const chunkSize = (name: string) => COOKIE_BYTES - ATTRIBUTES_BYTES - name.length - '.00='.length;

/**
 * A cookie's value, or undefined when absent or deleted earlier in this request (SvelteKit's
 * `get` then answers the empty string it set).
 */
const read = (cookies: Cookies, name: string) => cookies.get(name) || undefined;

/** The values of `name.0`, `name.1`, … up to the first one absent (in the request or set so far). */
function chunks(cookies: Cookies, name: string): string[] {
	const values: string[] = [];
	for (let value = read(cookies, `${name}.0`); value !== undefined; value = read(cookies, `${name}.${values.length}`)) {
		values.push(value);
	}
	return values;
}

/**
 * Reads a cookie that {@link setChunkedCookie} may have split: the plain cookie if present, else
 * its chunks `name.0`, `name.1`, … joined in order, else undefined.
 */
export function getChunkedCookie(cookies: Cookies, name: string): string | undefined {
	const whole = read(cookies, name);
	if (whole !== undefined) return whole;
	const parts = chunks(cookies, name);
	return parts.length > 0 ? parts.join('') : undefined;
}

/**
 * Reads a chunked cookie {@link authCookie} renamed: the value under `name`, else the one under its
 * {@link previousCookieName}, which is then set again under `name` with `options` (`maxAge`
 * included), so the browser holds it under the new name from this response on. A cookie under
 * the previous name is deleted (with its chunks) whenever it is seen, so none outlives the first
 * request that reads or ends the session.
 */
export function getRenamedChunkedCookie(cookies: Cookies, name: string, options: CookieOptions): string | undefined {
	const value = getChunkedCookie(cookies, name);
	const previous = previousCookieName(name);
	const old = previous === undefined ? undefined : getChunkedCookie(cookies, previous);
	if (old === undefined) return value;
	deleteChunkedCookie(cookies, previous!, { ...options, maxAge: undefined });
	if (value !== undefined) return value;
	setChunkedCookie(cookies, name, old, options);
	return old;
}

/**
 * Sets `value` as one cookie when it fits, else as chunks `name.0`, `name.1`, … each small
 * enough to be kept. Whatever a bigger earlier value left (the plain cookie, or chunks past
 * the new count) is deleted.
 */
export function setChunkedCookie(cookies: Cookies, name: string, value: string, options: CookieOptions): void {
	const size = chunkSize(name);
	const before = chunks(cookies, name).length;
	let count = 0;
	if (value.length <= size) {
		cookies.set(name, value, options);
	} else {
		if (read(cookies, name) !== undefined) cookies.delete(name, options);
		for (; count * size < value.length; count++) {
			cookies.set(`${name}.${count}`, value.slice(count * size, (count + 1) * size), options);
		}
	}
	for (let i = count; i < before; i++) cookies.delete(`${name}.${i}`, options);
}

/** Deletes the cookie and all its chunks. */
export function deleteChunkedCookie(cookies: Cookies, name: string, options: CookieOptions): void {
	if (read(cookies, name) !== undefined) cookies.delete(name, options);
	const count = chunks(cookies, name).length;
	for (let i = 0; i < count; i++) cookies.delete(`${name}.${i}`, options);
}
