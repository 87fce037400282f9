// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { ProviderFlow } from '../config.js';
import { requireAdapterMethods } from '../adapters/methods.js';
import type { WebAuthnConfig } from '../providers/types.js';
import { passkeySignIn, webauthnOptionsRoute } from '../webauthn/ceremonies.js';
import { passkeyMethods } from '../webauthn/passkeys.js';
import { redirectTarget } from './finish.js';

/**
 * What passkeys need of the adapter: their authenticators, users found, made and linked, and
 * verification tokens (each ceremony's challenge, used once: `webauthn/challenges.ts`).
 */
const WEBAUTHN_ADAPTER_METHODS = [
	'createAuthenticator',
	'getAuthenticator',
	'listAuthenticatorsByUserId',
	'updateAuthenticatorCounter',
	'getUser',
	'getUserByEmail',
	'createUser',
	'linkAccount',
	'createVerificationToken',
	'useVerificationToken'
] as const;

/**
 * The passkey flow, which `Passkey()` puts on its provider; the ceremonies are `webauthn/`'s
 * (over `@simplewebauthn/server`), so only apps with passkeys load them.
 * - `signIn`: checks the posted ceremony response (`action`, `response`; {@link passkeySignIn}),
 *   then the `signIn` callback's choice or the validated target;
 * - `routes['webauthn-options']`: `GET <base><basePath>/webauthn-options/<id>` answers the
 *   ceremony's options as JSON ({@link webauthnOptionsRoute}); other methods go on to the app;
 * - `check`: the adapter must have the authenticator methods (`MissingAdapter` at startup);
 * - `account`: the user's passkeys on the account page ({@link passkeyMethods}).
 * @see create-auth docs/api.md#passkey
 */
export const passkeyFlow: ProviderFlow<WebAuthnConfig> = {
	signIn: async (event, config, provider, form, callbackUrl) =>
		redirectTarget(event, config, (await passkeySignIn(event, config, provider, form)) ?? callbackUrl),
	routes: {
		'webauthn-options': async (event, config, provider) => (event.request.method === 'GET' ? webauthnOptionsRoute(event, config, provider) : undefined)
	},
	check: (provider, config) => requireAdapterMethods(config.adapter, WEBAUTHN_ADAPTER_METHODS, `The ${provider.id} provider`),
	account: passkeyMethods
};
