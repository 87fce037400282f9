import type { Cookies, RequestEvent } from '@sveltejs/kit';

/**
 * A browser's cookie jar across requests, for tests that drive the runtime through several
 * requests: `cookies(url)` is what one request sees (SvelteKit's `Cookies`, in memory), writes
 * land in the jar, and `writes` records every Set-Cookie with its options.
 */
export class Jar {
	readonly values = new Map<string, string>();
	readonly writes: { name: string; value: string; options: Record<string, unknown> }[] = [];

	cookies(): Cookies {
		const jar = this;
		return {
			get: (name: string) => jar.values.get(name),
			getAll: () => [...jar.values].map(([name, value]) => ({ name, value })),
			set(name: string, value: string, options: Record<string, unknown>) {
				jar.writes.push({ name, value, options });
				if (options.maxAge === 0) jar.values.delete(name);
				else jar.values.set(name, value);
			},
			delete(name: string, options: Record<string, unknown>) {
				jar.writes.push({ name, value: '', options: { ...options, maxAge: 0 } });
				jar.values.delete(name);
			},
			serialize: () => ''
		} as unknown as Cookies;
	}

	/** The names of the cookies set (with a value) since `from` writes. */
	setSince(from: number): string[] {
		return this.writes.slice(from).filter((w) => w.value !== '').map((w) => w.name);
	}
}

/**
 * A RequestEvent for `url` with the jar's cookies; a `form` makes it a urlencoded POST (for
 * form actions), `body` a raw POST.
 */
export function requestEvent(url: string, jar: Jar, options: { form?: Record<string, string>; body?: string } = {}): RequestEvent {
	const body = options.form ? new URLSearchParams(options.form).toString() : options.body;
	const request = new Request(url, {
		method: body === undefined ? 'GET' : 'POST',
		body,
		headers: body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }
	});
	return { url: new URL(url), request, cookies: jar.cookies(), locals: {} } as unknown as RequestEvent;
}
