// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Signing in: the one dispatch point, one module per flow, and the finish they share.
 *
 * - `actions.ts` — the form actions `signIn` (finds the provider by `providerId` and calls
 *   `provider.flow.signIn`), `signOut`, and `providerAction` (an action a provider's flow
 *   offers: `signUp`, `emailLink`, …). `routes.ts` — `providerRoute`, the runtime's own routes
 *   `<base><basePath>/<route>/<id>`, answered by `provider.flow.routes[route]`. Neither knows a
 *   provider type.
 * - The flows (`ProviderFlow`), each put on its provider by the factory (`providers/<id>.ts`):
 *   `oauth.ts` (OAuth 2 / OpenID Connect over `oauth/`; OAuth 1.0a's is `oauth1/flow.ts`),
 *   `credentials.ts` (`authorize`, and the password-account actions of `passwords/`),
 *   `email.ts` (the emailed link and its `emailLink` action), `passkey.ts` (over `webauthn/`).
 * - `finish.ts` — what every sign-in ends with: `completeSignIn` (the `signIn` callback, the
 *   session), `finishSignIn`, `redirectTarget` (validated targets), `signInErrorUrl`, `errorType`.
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/architecture.md (the runtime's request path)
 */
export { providerAction, signInAction, signOutAction } from './actions.js';
export { credentialsFlow, credentialsSignIn } from './credentials.js';
export { emailFlow, emailLinkAction, sendSignInLink, type InvalidEmailFailure } from './email.js';
export { completeSignIn, errorType, finishSignIn, redirectTarget, signInErrorUrl } from './finish.js';
export { answerOAuthCallback, oauthFlow, reportMissingSettings, startOAuthSignIn } from './oauth.js';
export { passkeyFlow } from './passkey.js';
export { PROVIDER_ROUTE_PATH, providerRoute } from './routes.js';
