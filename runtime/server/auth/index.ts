// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The runtime's public entry, what every app imports (its `lib/server/auth/index.ts`): `SvelteKitAuth`, the
 * config and provider types, errors, guards, rate limits, mail, token refresh. Each export is
 * named, and everything here is what every app needs: nothing reached from this module loads
 * OAuth, OAuth 1.0a, WebAuthn, email links or passwords. Those come with the provider that uses
 * them, through its factory (`providers/<id>.ts`, imported by the generated `src/auth.ts`),
 * which puts its flow on the provider (`ProviderFlow`). Password accounts are `passwords.ts`,
 * the SMTP mailer `mail-smtp.ts`, the Redis store `rate-limit-redis.ts`, each by its own path.
 * @see create-auth docs/api.md
 */
export { SvelteKitAuth } from './kit.js';
export type { AppEnvironment, AppProvider, Handle, SvelteKitAuthResult } from './kit.js';
export type { AppResolve } from './http/app-paths.js';
export { PROVIDER_ROUTES } from './config.js';
export type {
	Account,
	AccountMethods,
	BreachCheck,
	Callbacks,
	CommonProviderOptions,
	JWT,
	Logger,
	PasswordOptions,
	Provider,
	ProviderAction,
	ProviderActionHandler,
	ProviderConfig,
	ProviderFlow,
	ProviderRoute,
	ProviderRouteHandler,
	ProviderType,
	SignInMethod,
	SvelteKitAuthConfig
} from './config.js';
export type { Session, User } from '../../auth/types.js';
export type {
	Adapter,
	AdapterAccount,
	AdapterAccountType,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	Awaitable,
	VerificationToken
} from './adapters/types.js';
export { conformInternal, customFetch, isDate } from './providers/types.js';
export type {
	CredentialsConfig,
	EmailConfig,
	EndpointConfig,
	OAuth2Config,
	OAuthConfig,
	OAuthEndpointType,
	OAuthProviderButtonStyles,
	OAuthUserConfig,
	OIDCConfig,
	OIDCUserConfig,
	Profile,
	RelyingParty,
	TokenEndpointConfig,
	TokenSet,
	UserinfoEndpointConfig,
	WebAuthnConfig
} from './providers/types.js';
export { refreshAccessToken, refreshTokenGrant, type TokenFields } from './session/refresh.js';
export {
	AccessDenied,
	AccountLocked,
	AdapterError,
	AuthError,
	CallbackRouteError,
	CredentialsSignin,
	EmailNotVerified,
	InvalidCheck,
	InvalidProvider,
	InvalidUrl,
	JWTSessionError,
	MissingAdapter,
	MissingSecret,
	OAuthAccountNotLinked,
	OAuthCallbackError,
	OAuthSignInError,
	RateLimited,
	RateLimitStoreError,
	UntrustedHost,
	WebAuthnVerificationError
} from './errors.js';
export type { AuthErrorCause, ErrorType } from './errors.js';
export { matchesPathPrefix } from './http/redirects.js';
export { isNavigation, matchesRequestPath, requireSession, requireUser, type SignedInSession } from './http/guards.js';
export { addressProvenNotice } from './email/proof.js';
export { listSessions, revokeOtherSessions, revokeSession, type AccountSession, type AccountSessions, type SessionsEnded } from './account/sessions.js';
export { listSignInMethods, removeSignInMethod, renameSignInMethod, type SignInMethodRemoved, type SignInMethodRenamed, type SignInMethods } from './account/methods.js';
export { accountDeletion, deleteAccount, type AccountDeletion } from './account/deletion.js';
export { confirmEmailChange, pendingEmailChange, requestEmailChange, type EmailChangeRequested, type PendingEmailChange } from './account/email-change.js';
export type { AccountFailure } from './account/recent-sign-in.js';
export type { Device } from './account/devices.js';
export { DEFAULT_RATE_LIMITS, memoryRateLimitStore } from './limits/rate-limit.js';
export type { Limiter, RateLimitConfig, RateLimitRule, RateLimitStore } from './limits/rate-limit.js';
export { logMailer, type Mailer, type MailMessage } from './email/mail.js';
