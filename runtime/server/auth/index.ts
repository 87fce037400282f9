// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
export { SvelteKitAuth } from './kit.js';
export type { AppEnvironment, AppProvider, Handle, SvelteKitAuthResult } from './kit.js';
export type { AppResolve } from './http/app-paths.js';
export type {
	Account,
	Callbacks,
	JWT,
	Logger,
	PasswordOptions,
	Provider,
	ProviderConfig,
	SvelteKitAuthConfig,
	WebAuthnCeremonies,
	WebAuthnConfig
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
	CommonProviderOptions,
	CredentialsConfig,
	EndpointConfig,
	OAuth2Config,
	OAuthConfig,
	OAuthEndpointType,
	OAuthProviderButtonStyles,
	OAuthUserConfig,
	OIDCConfig,
	OIDCUserConfig,
	Profile,
	ProviderType,
	RelyingParty,
	TokenEndpointConfig,
	TokenSet,
	UserinfoEndpointConfig
} from './providers/types.js';
export { refreshAccessToken, refreshTokenGrant, type TokenFields } from './oauth/refresh.js';
export type { OAuth1Config } from './oauth1/types.js';
export {
	AccessDenied,
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
export { DEFAULT_RATE_LIMITS, memoryRateLimitStore } from './limits/rate-limit.js';
export type { Limiter, RateLimitConfig, RateLimitRule, RateLimitStore } from './limits/rate-limit.js';
export { configurePasswordHashing, type PasswordHashingLimits } from './passwords/passwords.js';
export { logMailer, type Mailer, type MailMessage } from './email/mail.js';
