// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Providers: one factory per provider, the default export of `providers/<id>.ts`, which the
 * generated `src/auth.ts` imports by its own path (`credentials`, `email`, `passkey`,
 * `github`, `google`, `oidc`, `idp`, `social`). A factory returns data (endpoints, scopes,
 * checks, profile mapping) and puts the flow that runs it on the provider (`flow`, see
 * `ProviderFlow` in `config.ts`): so an app loads the protocol code of the providers it uses
 * only. The factories are not re-exported here, for the same reason.
 *
 * - `types.ts` — each kind's shape: `CredentialsConfig`, `EmailConfig`, `OAuth2Config` /
 *   `OIDCConfig` / `OAuthConfig`, `WebAuthnConfig`, endpoints, button styles, `customFetch`.
 * - `profile.ts` — `Profile`, `TokenSet`, `AccountTokens` (what a provider vouches with).
 * - `merge.ts` — `withOptions`: a built-in OAuth config with the user's options over it.
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#providers, #built-in-providers
 */
export { withOptions } from './merge.js';
export type { AccountTokens, Profile, TokenSet } from './profile.js';
export {
	conformInternal,
	customFetch,
	endpointUrl,
	isDate,
	type CredentialInput,
	type CredentialsConfig,
	type EmailConfig,
	type EndpointConfig,
	type FetchLike,
	type OAuth2Config,
	type OAuthConfig,
	type OAuthEndpointType,
	type OAuthProviderButtonStyles,
	type OAuthUserConfig,
	type OIDCConfig,
	type OIDCUserConfig,
	type RelyingParty,
	type TokenEndpointConfig,
	type UserinfoEndpointConfig,
	type VerificationRequestParams,
	type WebAuthnConfig
} from './types.js';
