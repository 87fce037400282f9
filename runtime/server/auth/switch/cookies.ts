// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Cookies } from '@sveltejs/kit';
import { adapterMethod } from '../adapters/methods.js';
import type { PreviousIdentity, PreviousSession, PreviousSessionContext } from './types.js';

/**
 * Deletes each of `names` (cookies a previous library set) with the attributes those libraries
 * set them with: `Path=/`, HttpOnly, `SameSite=Lax`, and `Secure` where it must be. A browser
 * applies a deletion only when name, path and domain match (RFC 6265 §5.3 step 11), so a
 * cookie a library set with a `Domain` (Better Auth's cross-subdomain cookies) is not deleted by
 * this and simply stops being read.
 * @param url the request's URL: over https every deletion is `Secure`
 */
export function deletePreviousCookies(cookies: Cookies, url: URL, names: Iterable<string>): void {
	for (const name of names) {
		// A `__Secure-` cookie is deleted only by a Secure Set-Cookie (RFC 6265bis §4.1.3.1); over http a Secure one is refused.
		const secure = name.startsWith('__Secure-') || name.startsWith('__Host-') || url.protocol === 'https:';
		cookies.delete(name, { path: '/', httpOnly: true, sameSite: 'lax', secure });
	}
}

/**
 * A previous library's session found in a request: `found`, and a `retire` that deletes its
 * `cookies` ({@link deletePreviousCookies}) and then the adapter's session rows stored under
 * `rows` (`deleteSession`, when the adapter has it).
 * @throws {AdapterError} from `retire`: the adapter failed deleting a row (the cookies are deleted first)
 */
export function previousSession(context: PreviousSessionContext, found: PreviousIdentity | null, cookies: readonly string[], rows: readonly string[]): PreviousSession {
	return {
		found,
		async retire() {
			deletePreviousCookies(context.cookies, context.url, cookies);
			const deleteSession = adapterMethod(context.adapter, 'deleteSession');
			for (const row of rows) await deleteSession?.(row);
		}
	};
}
