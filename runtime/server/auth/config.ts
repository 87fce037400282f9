// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { Session, User } from '../../auth/types.js';
import type { Adapter, AdapterUser, Awaitable } from './adapters/types.js';
import type { AppResolve } from './http/app-paths.js';
import { InvalidProvider, InvalidUrl, MissingAdapter, MissingSecret } from './errors.js';
import { logMailer, type Mailer } from './email/mail.js';
import { createRateLimits, type RateLimitConfig, type RateLimits } from './limits/rate-limit.js';
import { sessionCacheFor, type SessionCache } from './session/cache.js';
import {
	endpointUrl,
	type AccountTokens,
	type CommonProviderOptions,
	type CredentialsConfig,
	type EmailConfig,
	type OAuthConfig,
	type Profile,
	type ProviderType,
	type RelyingParty
} from './providers/types.js';

/**
 * The decrypted session cookie. `sub` is the user id; `iat` / `exp` are epoch seconds.
 * Callbacks may add any JSON-serialisable claims.
 */
export interface JWT extends Record<string, unknown> {
	sub?: string;
	name?: string | null;
	email?: string | null;
	picture?: string | null;
	iat?: number;
	exp?: number;
	jti?: string;
}

/**
 * The account a sign-in came through. For `credentials`, `providerAccountId` is the user id;
 * for `oauth` / `oidc`, the profile's id, and the fields the provider's `account()` kept from
 * the token set (`access_token`, `refresh_token`, `id_token`, `scope`, `token_type` lowercased,
 * `expires_at` in epoch seconds, …).
 * @see create-auth docs/api.md#account
 */
export interface Account extends AccountTokens {
	type: ProviderType;
	provider: string;
	providerAccountId: string;
	userId?: string;
}

/**
 * Hooks into the flows, with Auth.js semantics:
 * - `jwt`: shapes the token; called with `user`/`account`/`trigger: 'signIn'` at sign-in and with
 *   just `token` on every session read. Returning a different object re-issues the cookie;
 *   returning null signs the user out.
 * - `session`: shapes what `locals.auth()` returns (`token` with jwt, `user` with database).
 * - `signIn`: `false` refuses the sign-in (`?error=AccessDenied`), a string redirects there.
 * - `redirect`: picks the URL after sign-in/out; its result is used as is.
 */
export interface Callbacks {
	jwt?(params: { token: JWT; user?: User; account?: Account; profile?: Profile; trigger?: 'signIn' }): Awaitable<JWT | null>;
	session?(params: { session: Session; token?: JWT; user?: AdapterUser }): Awaitable<Session>;
	signIn?(params: {
		user: User;
		account: Account;
		profile?: Profile;
		credentials?: Record<string, string>;
	}): Awaitable<boolean | string>;
	redirect?(params: { url: string; baseUrl: string }): Awaitable<string>;
}

/** Where errors go. Messages and causes stay on the server. */
export interface Logger {
	error(error: Error): void;
}

/**
 * A provider that signs users in with a passkey (WebAuthn): a key pair made on the user's
 * device, the public key kept through the adapter's authenticator methods. Build one with
 * `Passkey()` (`providers/passkey.ts`); the ceremonies are the runtime's (`webauthn.ts`).
 * @see create-auth docs/api.md#passkey, #adapter-records (`AdapterAuthenticator`)
 */
export interface WebAuthnConfig extends CommonProviderOptions {
	type: 'webauthn';
	relyingParty: RelyingParty;
	/**
	 * The ceremonies (`webauthn.ts`), carried by the provider so that only apps with passkeys
	 * load them and `@simplewebauthn/server`.
	 */
	ceremonies: WebAuthnCeremonies;
	/** Milliseconds the browser gives the user to answer its passkey prompt (the WebAuthn `timeout`). */
	timeout: number;
	/** Whether the sign-in page offers the device's passkeys in the email field's autofill (WebAuthn conditional mediation). */
	enableConditionalUI: boolean;
}

/**
 * What `handle` and the `signIn` action call for a passkey provider: `options` answers
 * `GET <basePath>/webauthn-options/<id>` (JSON), `signIn` checks a posted ceremony response and
 * returns where the `signIn` callback chose to go, if it did. Declared here with the provider
 * union, not in `providers/types.ts`: the ceremonies take the resolved config, which holds the
 * providers, so the two would import each other.
 */
export interface WebAuthnCeremonies {
	options(event: RequestEvent, config: ResolvedConfig, provider: WebAuthnConfig): Promise<Response>;
	signIn(event: RequestEvent, config: ResolvedConfig, provider: WebAuthnConfig, form: FormData): Promise<string | undefined>;
}

/** Any provider config. */
export type ProviderConfig = CredentialsConfig | OAuthConfig | EmailConfig | WebAuthnConfig;

/** A provider, or a function that returns one (resolved once per config). */
export type Provider = ProviderConfig | (() => ProviderConfig);

/** True for `email` providers. */
export function isEmailProvider(provider: ProviderConfig): provider is EmailConfig {
	return provider.type === 'email';
}

/** True for `webauthn` (passkey) providers. */
export function isWebAuthnProvider(provider: ProviderConfig): provider is WebAuthnConfig {
	return provider.type === 'webauthn';
}

/** True for `oauth` and `oidc` providers. */
export function isOAuthProvider(provider: ProviderConfig): provider is OAuthConfig {
	return provider.type === 'oauth' || provider.type === 'oidc';
}

/** Configuration of {@link SvelteKitAuth}. Durations are in seconds. */
export interface SvelteKitAuthConfig {
	providers: Provider[];
	adapter?: Adapter;
	/**
	 * Encrypts session cookies: at least 32 characters. With several, the first encrypts and all
	 * decrypt (rotation); undefined or empty entries are ignored, so unset variables can be listed.
	 * The generated `src/auth.ts` passes `[AUTH_SECRET, AUTH_SECRET_1]`: the current secret, then
	 * the previous one that `create-auth secret` keeps after a rotation.
	 */
	secret?: string | Array<string | undefined>;
	/**
	 * Trust the request's host, so absolute redirect URLs on it are accepted. Default false; the
	 * generated `src/auth.ts` passes `AUTH_TRUST_HOST === 'true'`, or true on the dev server.
	 */
	trustHost?: boolean;
	/**
	 * The app's public URL (`AUTH_URL`), for apps behind a proxy whose requests arrive on another
	 * origin: its origin is the one absolute redirect targets must have. Default: the request's.
	 */
	url?: string;
	session?: {
		/** Default `jwt`; `database` requires `adapter`. */
		strategy?: 'jwt' | 'database';
		/** Session lifetime in seconds. Default 30 days. */
		maxAge?: number;
		/** The session is extended at most once per this many seconds. Default 1 day. */
		updateAge?: number;
		/**
		 * `database` strategy: seconds a session read from the adapter is reused by this server
		 * process, so that a visitor's requests within that window skip the database. Default 0:
		 * every request reads it. Sign-out and a password change in this process take effect at
		 * once; a session deleted by another server process, or in the database directly, stays
		 * valid here for up to this many seconds, and the session callback's `user` may be as old.
		 */
		cacheMaxAge?: number;
	};
	/**
	 * The app's auth pages. `verifyRequest`: "check your email", shown once a sign-in link is
	 * sent (default `/signin/verify-request`); `emailLink`: the page an emailed link opens, with a
	 * one-click "Continue signing in" form (default `/signin/email`); `resetPassword`: the page a
	 * password-reset link opens, with the new password's form (default `/signin/reset-password`);
	 * `verifyEmail`: the page a sign-up's confirmation link opens, with a one-click "Confirm
	 * email" form (default `/signin/verify-email`). Paths inside the app, as routes are written:
	 * the runtime puts SvelteKit's `paths.base` in front of each (see `appBase`).
	 */
	pages?: { signIn?: string; signOut?: string; verifyRequest?: string; emailLink?: string; resetPassword?: string; verifyEmail?: string };
	/**
	 * Where the runtime answers its own routes (OAuth callbacks: `<basePath>/callback/<id>`), a
	 * path inside the app: SvelteKit's `paths.base` goes in front (`/base/auth/callback/<id>`).
	 * Default `/auth`.
	 */
	basePath?: string;
	callbacks?: Callbacks;
	logger?: Partial<Logger>;
	/** Default: whether the request is https. Secure cookies get the `__Secure-` prefix. */
	useSecureCookies?: boolean;
	/**
	 * The redirect proxy of every OAuth 2 / OIDC provider that sets none of its own: the absolute
	 * http(s) URL `<origin><basePath>` of the stable deployment (e.g.
	 * `https://app.example.com/auth`), whose `<basePath>/callback/<id>` is the one redirect URI
	 * registered at the provider. Deployments on other origins (previews) then sign in through
	 * it: it forwards each callback to the origin the sign-in started on, which the `state`
	 * carries sealed with the secret (so every deployment shares `secret`, and sets this same
	 * value, the stable one included: only a deployment with a proxy forwards). Adds the
	 * `state` check. Not used by OAuth 1.0a providers. Default: none.
	 * @see create-auth docs/api.md#redirect-proxy
	 */
	redirectProxyUrl?: string;
	/**
	 * Limits on credentials sign-in and sign-up attempts (see `DEFAULT_RATE_LIMITS` in
	 * `rate-limit.ts`: 10 failed sign-ins per email and 50 per client address in 15 minutes, 10
	 * sign-ups per client address in an hour), counted in this process's memory unless a
	 * `store` is given (`redisRateLimitStore` for several servers). `false` turns them off.
	 */
	rateLimit?: RateLimitConfig | false;
	/**
	 * Sends the runtime's own mails (password-reset links). Default: `logMailer`, which prints
	 * them to the server's log. The generated `src/auth.ts` passes `smtpMailer()` (`mail-smtp.ts`)
	 * with `EMAIL_SERVER` and `EMAIL_FROM`.
	 */
	mailer?: Mailer;
	/** Password accounts (`passwords.ts`); see {@link PasswordOptions}. */
	passwords?: Partial<PasswordOptions>;
}

/** What the config's `passwords` sets, with its defaults. */
export interface PasswordOptions {
	/** Seconds a password-reset link works. Default 1 hour. */
	resetMaxAge: number;
	/**
	 * Whether a password account must confirm its address before it can sign in: sign-up mails
	 * a link instead of signing in, and a password sign-in of an unconfirmed account is refused
	 * (`EmailNotVerified`) with a fresh link mailed. Following the link sets the user's
	 * `emailVerified`. Default false. Accounts made before it was turned on confirm theirs at
	 * their next sign-in.
	 */
	requireEmailVerification: boolean;
	/** Seconds a sign-up's confirmation link works. Default 24 hours. */
	verificationMaxAge: number;
}

/** Resolves the config for a request (object form: once; function form: per request). */
export type GetConfig = (event: RequestEvent) => Promise<ResolvedConfig>;

/** The config with defaults applied and checked. */
export interface ResolvedConfig {
	providers: ProviderConfig[];
	adapter?: Adapter;
	secrets: string[];
	trustHost: boolean;
	/** The origin of `url`, when given. */
	origin?: string;
	strategy: 'jwt' | 'database';
	maxAge: number;
	updateAge: number;
	/** `database` strategy with `session.cacheMaxAge` above 0: the adapter's session cache. */
	sessionCache?: SessionCache;
	pages: { signIn: string; signOut: string; verifyRequest: string; emailLink: string; resetPassword: string; verifyEmail: string };
	/** Without a trailing slash; inside the app (SvelteKit's `paths.base` not included). */
	basePath: string;
	/** The app's `resolve` from `$app/paths`, handed to `SvelteKitAuth`: the source of `paths.base` (see `appBase`). */
	resolve?: AppResolve;
	callbacks: Callbacks;
	logger: Logger;
	useSecureCookies?: boolean;
	/** The config's `redirectProxyUrl`, as given (checked when a sign-in uses it). */
	redirectProxyUrl?: string;
	/** Undefined when `rateLimit` is false. */
	rateLimits?: RateLimits;
	mailer: Mailer;
	passwords: PasswordOptions;
}

const DAY = 24 * 60 * 60;

/** What email sign-in needs of the adapter: the verification tokens, and users found or made by address. */
const EMAIL_ADAPTER_METHODS = [
	'createVerificationToken',
	'useVerificationToken',
	'getUserByEmail',
	'createUser',
	'updateUser',
	'getUserByAccount',
	'linkAccount'
] as const;

/** What confirming a password account's address needs of the adapter, beyond what password sign-in needs. */
const VERIFY_EMAIL_ADAPTER_METHODS = ['createVerificationToken', 'useVerificationToken', 'getUser', 'getUserByEmail', 'updateUser'] as const;

/** What passkeys need of the adapter: their authenticators, and users found, made and linked. */
const WEBAUTHN_ADAPTER_METHODS = [
	'createAuthenticator',
	'getAuthenticator',
	'listAuthenticatorsByUserId',
	'updateAuthenticatorCounter',
	'getUser',
	'getUserByEmail',
	'createUser',
	'linkAccount'
] as const;

/**
 * Checks that `adapter` has every one of `methods`, which `feature` needs.
 * @throws {MissingAdapter} naming the missing ones.
 */
function requireAdapterMethods(adapter: Adapter | undefined, methods: readonly (keyof Adapter)[], feature: string): void {
	const lacking = methods.filter((method) => !adapter?.[method]);
	if (lacking.length > 0) throw new MissingAdapter(`${feature} needs an adapter with ${lacking.join('(), ')}().`);
}

/**
 * Applies defaults and validates.
 * @throws {MissingSecret} no secret, or one shorter than 32 characters.
 * @throws {MissingAdapter} `database` strategy without an adapter; an email or passkey
 *   provider, or `passwords.requireEmailVerification`, with an adapter that lacks a method it
 *   needs (the message names them).
 * @throws {InvalidUrl} `url` is given but is not an absolute URL.
 * @param resolve the app's `resolve` from `$app/paths` (see `AppEnvironment`), kept as `resolve`
 * @see create-auth docs/api.md#configuration
 */
export function resolveConfig(config: SvelteKitAuthConfig, resolve?: AppResolve): ResolvedConfig {
	const secrets = (Array.isArray(config.secret) ? config.secret : [config.secret]).filter((s): s is string => !!s);
	if (secrets.length === 0 || secrets.some((s) => s.length < 32)) {
		throw new MissingSecret('Set AUTH_SECRET (the `secret` option) to a random string of at least 32 characters.');
	}
	let origin: string | undefined;
	if (config.url) {
		try {
			origin = new URL(config.url).origin;
		} catch {
			throw new InvalidUrl(`AUTH_URL (the \`url\` option) is not an absolute URL: ${JSON.stringify(config.url)}.`);
		}
	}
	const strategy = config.session?.strategy ?? 'jwt';
	if (strategy === 'database' && !config.adapter) {
		throw new MissingAdapter('The database session strategy needs an `adapter`.');
	}
	const providers = config.providers.map((provider) => (typeof provider === 'function' ? provider() : provider));
	const email = providers.find(isEmailProvider);
	const passkey = providers.find(isWebAuthnProvider);
	if (email) requireAdapterMethods(config.adapter, EMAIL_ADAPTER_METHODS, `The ${email.id} provider`);
	if (passkey) requireAdapterMethods(config.adapter, WEBAUTHN_ADAPTER_METHODS, `The ${passkey.id} provider`);
	if (config.passwords?.requireEmailVerification) requireAdapterMethods(config.adapter, VERIFY_EMAIL_ADAPTER_METHODS, 'passwords.requireEmailVerification');
	const logger: Logger = { error: (error) => console.error(error), ...config.logger };
	for (const provider of providers.filter(isOAuthProvider)) {
		const missing = missingSettings(provider);
		if (missing.length === 0) continue;
		logger.error(
			new InvalidProvider(
				`Provider "${provider.id}" has no ${missing.join(' and no ')}: signing in with it fails until they are set (the generated src/auth.ts reads them from .env).`
			)
		);
	}
	return {
		providers,
		adapter: config.adapter,
		secrets,
		trustHost: config.trustHost ?? false,
		origin,
		strategy,
		maxAge: config.session?.maxAge ?? 30 * DAY,
		updateAge: config.session?.updateAge ?? DAY,
		sessionCache: strategy === 'database' ? sessionCacheFor(config.adapter, config.session?.cacheMaxAge ?? 0) : undefined,
		pages: {
			signIn: config.pages?.signIn ?? '/signin',
			signOut: config.pages?.signOut ?? '/signout',
			verifyRequest: config.pages?.verifyRequest ?? '/signin/verify-request',
			emailLink: config.pages?.emailLink ?? '/signin/email',
			resetPassword: config.pages?.resetPassword ?? '/signin/reset-password',
			verifyEmail: config.pages?.verifyEmail ?? '/signin/verify-email'
		},
		basePath: (config.basePath ?? '/auth').replace(/\/+$/, ''),
		resolve,
		callbacks: config.callbacks ?? {},
		logger,
		useSecureCookies: config.useSecureCookies,
		redirectProxyUrl: config.redirectProxyUrl,
		rateLimits: createRateLimits(config.rateLimit),
		mailer: config.mailer ?? logMailer,
		passwords: {
			resetMaxAge: config.passwords?.resetMaxAge ?? 60 * 60,
			requireEmailVerification: config.passwords?.requireEmailVerification ?? false,
			verificationMaxAge: config.passwords?.verificationMaxAge ?? DAY
		}
	};
}

/** What an OAuth provider lacks to run a flow: a client id, and an issuer or its endpoints. */
function missingSettings(provider: OAuthConfig): string[] {
	const located = provider.issuer || provider.wellKnown || (endpointUrl(provider.authorization) && endpointUrl(provider.token));
	return [...(provider.clientId ? [] : ['clientId']), ...(located ? [] : ['issuer'])];
}
