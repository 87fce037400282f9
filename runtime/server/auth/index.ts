// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
export { SvelteKitAuth } from './kit.js';
export type { AppEnvironment, Handle, SvelteKitAuthResult } from './kit.js';
export type { Account, Callbacks, JWT, Logger, SvelteKitAuthConfig } from './config.js';
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
export type { CredentialsConfig, Provider, ProviderType } from './providers/types.js';
export {
	AccessDenied,
	AuthError,
	CallbackRouteError,
	CredentialsSignin,
	InvalidProvider,
	InvalidUrl,
	JWTSessionError,
	MissingAdapter,
	MissingSecret
} from './errors.js';
export type { AuthErrorCause, ErrorType } from './errors.js';
export { matchesPathPrefix } from './redirects.js';
