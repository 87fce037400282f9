import { isActionFailure, isRedirect, type ActionFailure, type Cookies, type RequestEvent } from '@sveltejs/kit';

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
			// What SvelteKit's serialize() gives for the attributes tests look at; the jar is not changed.
			serialize: (name: string, value: string, options: Record<string, unknown>) => `${name}=${value}; Max-Age=${options.maxAge}; Path=${options.path}`
		} as unknown as Cookies;
	}

	/** Stores the cookies of a response's own `Set-Cookie` headers (`name=value; …`), as a browser would. */
	receive(response: Response): void {
		for (const header of response.headers.getSetCookie()) {
			const [pair = '', ...attributes] = header.split('; ');
			const [name = '', value = ''] = pair.split('=');
			const options = Object.fromEntries(attributes.map((attribute) => attribute.split('=')));
			this.writes.push({ name, value, options });
			this.values.set(name, value);
		}
	}

	/** The names of the cookies set (with a value) since `from` writes. */
	setSince(from: number): string[] {
		return this.writes.slice(from).filter((w) => w.value !== '').map((w) => w.name);
	}
}

/**
 * URL shapes an app's `reroute` hook serves with the route of `page` (`/account`) while the URL
 * path does not name it, each as `[shape, URL path, route id]`: a locale prefix (Paraglide's
 * `deLocalizeUrl`), with a trailing slash, percent-encoded, a translated path, and the route under
 * a layout group and an optional locale parameter.
 */
export function reroutedShapes(page: string): [shape: string, path: string, route: string][] {
	return [
		['a locale prefix (Paraglide)', `/de${page}`, page],
		['a locale prefix with a trailing slash', `/de${page}/`, page],
		['an encoded locale segment', `/%64e${page}`, page],
		['a translated path (a custom reroute)', '/%C3%BCbersetzt', page],
		['a layout group and an optional locale parameter', `/fr${page}`, `/[[lang]]/(app)${page}`]
	];
}

/** The headers each event's `setHeaders` was given, lowercased names. */
export const responseHeaders = new WeakMap<RequestEvent, Record<string, string>>();

/**
 * A RequestEvent for `url` with the jar's cookies; a `form` makes it a urlencoded POST (for
 * form actions), `body` a raw POST. `headers` are the request's; `clientAddress` is what
 * `getClientAddress()` returns (default 127.0.0.1); `route` is `event.route.id`, the route
 * SvelteKit matched once the app's `reroute` mapped the URL (default `null`: none matched);
 * `setHeaders` records into {@link responseHeaders}.
 */
export function requestEvent(
	url: string,
	jar: Jar,
	options: {
		form?: Record<string, string>;
		body?: string;
		headers?: Record<string, string>;
		clientAddress?: string;
		isDataRequest?: boolean;
		isRemoteRequest?: boolean;
		route?: string | null;
	} = {}
): RequestEvent {
	const body = options.form ? new URLSearchParams(options.form).toString() : options.body;
	const request = new Request(url, {
		method: body === undefined ? 'GET' : 'POST',
		body,
		headers: { ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...options.headers }
	});
	const set: Record<string, string> = {};
	const event = {
		url: new URL(url),
		route: { id: options.route ?? null },
		request,
		cookies: jar.cookies(),
		locals: {},
		isDataRequest: options.isDataRequest ?? false,
		isRemoteRequest: options.isRemoteRequest ?? false,
		getClientAddress: () => options.clientAddress ?? '127.0.0.1',
		setHeaders: (headers: Record<string, string>) => {
			for (const [name, value] of Object.entries(headers)) set[name.toLowerCase()] = value;
		}
	} as unknown as RequestEvent;
	responseHeaders.set(event, set);
	return event;
}

/**
 * Runs `fn` (an action, or `handle`), which must end the request with SvelteKit's `redirect()`.
 * @returns the redirect's status and location
 * @throws what `fn` threw when it is not a redirect, or an Error when nothing was thrown
 */
export async function redirectOf(fn: () => unknown): Promise<{ status: number; location: string }> {
	try {
		await fn();
	} catch (err) {
		if (isRedirect(err)) return { status: err.status, location: err.location };
		throw err;
	}
	throw new Error('expected a redirect');
}

/**
 * What a form action ended in: a `redirect`, or an answer of the page itself with the `headers`
 * it set: `fail()`'s `status` and `data`, or, for a success, status 200 and the returned `data`.
 */
export interface ActionOutcome {
	redirect?: string;
	status?: number;
	data?: Record<string, unknown>;
	headers?: Record<string, string>;
}

/**
 * Runs a form action given `event` (made by {@link requestEvent}) and returns its
 * {@link ActionOutcome}.
 * @throws when the action returns no object, or throws anything but a redirect
 */
export async function actionOutcome(action: (event: RequestEvent) => unknown, event: RequestEvent): Promise<ActionOutcome> {
	try {
		const result = await action(event);
		if (!isActionFailure(result)) {
			if (typeof result !== 'object' || result === null) throw new Error('expected a failure, data or a redirect');
			return { status: 200, data: result as Record<string, unknown>, headers: responseHeaders.get(event)! };
		}
		const failure = result as unknown as ActionFailure<Record<string, unknown>>;
		return { status: failure.status, data: failure.data, headers: responseHeaders.get(event)! };
	} catch (err) {
		if (isRedirect(err)) return { redirect: err.location };
		throw err;
	}
}
