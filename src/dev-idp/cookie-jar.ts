/**
 * The cookies of one origin, as a browser keeps them for a sign-in: by name and path, sent to
 * requests under that path. Enough for the dev IdP's session and interaction cookies over
 * one short sign-in: `Domain` and `Secure` are ignored (it is one http origin) and an expiry
 * date is only used to delete a cookie, never tracked.
 */
export class CookieJar {
	/** `path` → name → value. */
	readonly #cookies = new Map<string, Map<string, string>>();

	/**
	 * Stores a response's `Set-Cookie` headers. An empty value, `Max-Age` ≤ 0 or an `Expires`
	 * in the past deletes the cookie (the way servers clear one).
	 *
	 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.2
	 */
	store(response: Response): void {
		for (const header of response.headers.getSetCookie()) {
			const [pair = '', ...attributes] = header.split(';');
			const split = pair.indexOf('=');
			if (split < 1) continue;
			const name = pair.slice(0, split).trim();
			const value = pair.slice(split + 1).trim();
			let path = '/';
			let expired = value === '';
			for (const attribute of attributes) {
				const [key = '', ...rest] = attribute.split('=');
				const attributeValue = rest.join('=').trim();
				switch (key.trim().toLowerCase()) {
					case 'path':
						if (attributeValue.startsWith('/')) path = attributeValue;
						break;
					case 'max-age':
						expired ||= Number(attributeValue) <= 0;
						break;
					case 'expires':
						expired ||= Date.parse(attributeValue) <= Date.now();
						break;
				}
			}
			const cookies = this.#cookies.get(path) ?? new Map<string, string>();
			if (expired) cookies.delete(name);
			else cookies.set(name, value);
			this.#cookies.set(path, cookies);
		}
	}

	/** The `Cookie` header for a request to `url`, or undefined when no cookie applies. */
	header(url: URL): string | undefined {
		const pairs: string[] = [];
		for (const [path, cookies] of this.#cookies) {
			if (!pathMatches(url.pathname, path)) continue;
			for (const [name, value] of cookies) pairs.push(`${name}=${value}`);
		}
		return pairs.length ? pairs.join('; ') : undefined;
	}
}

/** RFC 6265 §5.1.4 path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
	if (requestPath === cookiePath) return true;
	if (!requestPath.startsWith(cookiePath)) return false;
	return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
