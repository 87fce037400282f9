// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { EndpointConfig, OAuthConfig, OAuthUserConfig, Profile } from './types.js';

/** An endpoint as an object (a string is its URL). */
const asObject = <E extends EndpointConfig>(endpoint: string | E | undefined): E | undefined =>
	typeof endpoint === 'string' ? ({ url: endpoint } as E) : endpoint;

/** Endpoints merged field by field; their `params` merged too. */
function mergeEndpoint<E extends EndpointConfig>(base: string | E | undefined, user: string | E | undefined): string | E | undefined {
	if (user === undefined) return base;
	if (base === undefined) return user;
	const b = asObject(base)!;
	const u = asObject(user)!;
	return { ...b, ...u, params: { ...b.params, ...u.params } };
}

/**
 * A built-in provider's config with the user's `options` merged over it: plain fields
 * replaced, `authorization` / `token` / `userinfo` merged field by field (their `params` key by
 * key), `client` and `style` merged; `options` keeps what the user passed.
 * @see create-auth docs/api.md#built-in-providers (`options`)
 */
export function withOptions<P extends Profile, C extends OAuthConfig<P>>(builtIn: C, options: OAuthUserConfig<P>): C {
	return {
		...builtIn,
		...options,
		type: builtIn.type,
		flow: builtIn.flow,
		authorization: mergeEndpoint(builtIn.authorization, options.authorization),
		token: mergeEndpoint(builtIn.token, options.token),
		userinfo: mergeEndpoint(builtIn.userinfo, options.userinfo),
		client: builtIn.client || options.client ? { ...builtIn.client, ...options.client } : undefined,
		style: { ...builtIn.style, ...options.style },
		options
	} as C;
}
