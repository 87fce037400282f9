import type { ProviderScaffold } from './types.js';

/** The fields an OAuth 2 / OpenID Connect provider's descriptor gives; {@link oauthProvider} adds the rest. */
export type OAuthProviderFields = Omit<ProviderScaffold, 'type' | 'routes' | 'exports' | 'nextSteps' | 'trustedOrigin'> & Partial<Pick<ProviderScaffold, 'routes'>>;

/**
 * A redirect-based provider's descriptor: no page of its own (its button on `/signin` comes from
 * `getProviders()`, which `src/auth.ts` then exports), and a next step saying which callback URL
 * to register and which `.env` keys to fill (plus {@link ProviderScaffold.tryLocally}).
 */
export function oauthProvider(fields: OAuthProviderFields): ProviderScaffold {
	return {
		routes: [],
		...fields,
		type: 'oauth',
		exports: ['getProviders'],
		trustedOrigin: { links: 'OAuth redirect URIs', flow: 'OAuth sign-in', callback: true },
		nextSteps: (base) => [
			`${fields.label}: fill ${fields.env.map(({ key }) => key).join(', ')} in .env and register the callback URL http://localhost:5173${base}/auth/callback/${fields.id}.`,
			...(fields.tryLocally ? [`  ${fields.tryLocally}`] : [])
		]
	};
}
