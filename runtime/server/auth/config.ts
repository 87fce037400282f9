// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { ActionFailure, RequestEvent } from '@sveltejs/kit';
import type { Session, User } from '../../auth/types.js';
import type { Adapter, AdapterUser, Awaitable } from './adapters/types.js';
import { logMailer, type Mailer } from './email/mail.js';
import { DriverUnavailable, InvalidProvider, InvalidUrl, MissingAdapter, MissingSecret, UntrustedHost } from './errors.js';
import type { AppResolve } from './http/app-paths.js';
import { createRateLimits, type RateLimitConfig, type RateLimits } from './limits/rate-limit.js';
import type { AccountTokens, Profile, TokenSet } from './providers/profile.js';
import { sessionCacheFor, type SessionCache } from './session/cache.js';
import type { PreviousSessions } from './switch/types.js';

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
	/**
	 * When the user signed in: epoch seconds (OpenID Connect Core §2's claim). Kept when the
	 * cookie is re-issued; `session.freshAge` is counted from it. Set by the runtime.
	 */
	auth_time?: number;
	/**
	 * The user's `sessionVersion` when the session was issued; a revalidation ends the session
	 * once the user's is different (docs/api.md#ending-sessions). Set by the runtime.
	 */
	session_version?: number;
	/**
	 * In an app with two-factor authentication: whether the user had it on when the session was
	 * issued (`session.user.twoFactor`). Set by the runtime.
	 */
	two_factor?: boolean;
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
	/** A failure, with its cause; the default (`console.error`) prints it in full, stack included. */
	error(error: Error): void;
	/**
	 * A setting the app lacks, as one line saying what to set (an OAuth provider without its
	 * keys): each message once per process for each function it goes to, so an app's lazy
	 * config, resolved on every request, says it once when its `warn` is defined once, outside
	 * the config function. Default: `console.warn`.
	 */
	warn(message: string): void;
}

/** The provider types; `webauthn` is the passkey provider's (`providers/passkey.ts`). */
export type ProviderType = 'oidc' | 'oauth' | 'email' | 'credentials' | 'webauthn';

/** Fields every provider has. `id` is what the sign-in form posts as `providerId`. */
export interface CommonProviderOptions {
	id: string;
	name: string;
	type: ProviderType;
}

/**
 * The routes the runtime answers inside `handle`, `<base><basePath>/<route>/<provider id>`, for
 * the provider whose flow has that route: `callback` (where an OAuth provider sends the browser
 * back), `webauthn-options` (a passkey ceremony's options). `handle` looks at a request's path
 * for these names before it resolves the config, so that other requests pay nothing.
 */
export const PROVIDER_ROUTES = ['callback', 'webauthn-options'] as const;

/** One of {@link PROVIDER_ROUTES}. */
export type ProviderRoute = (typeof PROVIDER_ROUTES)[number];

/**
 * A route handler of a flow: the answer, or undefined to let the request go on to the app
 * (a method the route does not take). It may end the request by throwing SvelteKit's redirect.
 */
export type ProviderRouteHandler<P> = { bivarianceHack(event: RequestEvent, config: ResolvedConfig, provider: P): Promise<Response | undefined> }['bivarianceHack'];

/**
 * The form actions a flow may offer, by their name in `SvelteKitAuthResult`: the page that
 * mounts one posts to the provider that offers it (the first, if several do).
 */
export type ProviderAction = 'signUp' | 'emailLink' | 'requestPasswordReset' | 'resetPassword' | 'changePassword' | 'setPassword' | 'verifyEmail';

/** A form action of a flow: what SvelteKit's `Action` returns (data, an `ActionFailure`, or nothing after a redirect). */
export type ProviderActionHandler<P> = { bivarianceHack(event: RequestEvent, config: ResolvedConfig, provider: P): Promise<unknown> }['bivarianceHack'];

/**
 * One way a user signs in, as the account page lists it (`listSignInMethods`). Dates are ISO 8601
 * strings (they cross to the browser as JSON); null when unknown.
 */
export interface SignInMethod {
	/** The provider it signs in through: its id. */
	provider: string;
	kind: 'password' | 'passkey' | 'oauth' | 'email';
	/**
	 * Which one within the provider: a passkey's credential id (base64url, as WebAuthn has it), an
	 * OAuth account's `providerAccountId`; `password` / `email` for those.
	 */
	id: string;
	/** What it is called: "Password", a passkey's name (its own, else its model's from the AAGUID list, else "Passkey"), the provider's name. */
	label: string;
	/** More about it, a phrase safe to show: "Synced passkey", "A sign-in link to ada@example.com", the OAuth account's id. */
	detail?: string;
	createdAt?: string | null;
	lastUsedAt?: string | null;
	/** Passkeys: synced by a passkey provider across the user's devices (backed up), rather than bound to one device. */
	synced?: boolean;
	/**
	 * Passkeys: what the page's WebAuthn Signal API calls need (the relying party id, the user
	 * handle base64url), so the user's password manager forgets a removed passkey.
	 */
	signal?: { rpId: string; userId: string };
	/** Whether the page may offer to remove it (the flow can) and to rename it. */
	removable: boolean;
	renamable: boolean;
}

/**
 * What a flow shows and changes on the account page (`account/methods.ts` calls it for each
 * configured provider): `list` the user's sign-in methods through this provider; `remove` one
 * (its {@link SignInMethod} `id`) and `rename` one (`name` trimmed, 1 to 64 characters), returning
 * false when the user has no such method. The caller has checked the name, that the sign-in is
 * recent and that another method is left.
 * `linkable`: signing in with the provider while signed in links an account of it to the user
 * (OAuth), so the page may offer it when none is linked. `addressChanged`: the user's address
 * changed from `previous` to `user.email`; the flow moves what it keys by the address.
 */
export interface AccountMethods<P extends ProviderConfig = ProviderConfig> {
	linkable?: boolean;
	addressChanged?(user: AdapterUser, config: ResolvedConfig, provider: P, previous: string): Promise<void>;
	list(user: AdapterUser, config: ResolvedConfig, provider: P, url: URL): Promise<SignInMethod[]>;
	remove?(user: AdapterUser, config: ResolvedConfig, provider: P, id: string): Promise<boolean>;
	rename?(user: AdapterUser, config: ResolvedConfig, provider: P, id: string, name: string): Promise<boolean>;
}

/**
 * The second step of a sign-in, asked by every sign-in before its session starts: what
 * `TwoFactor()` (`two-factor/index.ts`) makes, so an app without it loads none of its code.
 * `challenge`: for `user`, who just passed a first factor with `account` (and `profile`, from
 * OAuth), either `secondStep`, the page they go to next (the pending sign-in kept, no session
 * started), or `enabled`, whether they have a second factor on (the session's `user.twoFactor`);
 * `redirectTo` is where the sign-in goes once done.
 * @see create-auth docs/api.md#two-factor-authentication
 */
export interface SecondFactor {
	challenge(
		event: RequestEvent,
		config: ResolvedConfig,
		user: User,
		account: Account,
		{ profile, redirectTo }: { profile?: Profile; redirectTo?: string }
	): Promise<{ secondStep: string } | { secondStep?: undefined; enabled: boolean }>;
	/** Called once the config is resolved: throws `MissingAdapter` for an adapter without what it needs. */
	check?(config: ResolvedConfig): void;
}

/**
 * How a provider runs its flow: carried on the provider object (`provider.flow`), set by its
 * factory, so that `handle` and the actions dispatch to it without knowing the provider's type,
 * and an app loads the code of the flows it uses only.
 *
 * - `signIn` — the `signIn` form action for this provider: start the sign-in (OAuth: the
 *   authorization URL; email: send the link) or finish it (credentials, passkey). Returns where
 *   to send the browser with a 303 (an absolute URL only when built here from the config), or an
 *   `ActionFailure` to answer the page with (a malformed address). Throws `AuthError`s, which
 *   the action logs and turns into `?error=<type>` on the sign-in page.
 * - `routes` — the {@link PROVIDER_ROUTES} it answers for this provider's id.
 * - `actions` — the {@link ProviderAction}s it offers.
 * - `check` — called once the config is resolved: throws `MissingAdapter` for an adapter that
 *   lacks what the flow needs, warns (`logger.warn`, one line) of settings it lacks (the app still starts).
 * - `missingSettings` — the settings the provider lacks to sign anyone in (`['clientId']`):
 *   while there are any, `getProviders()` leaves it out, so the sign-in page draws no button
 *   that cannot work.
 * - `callbackBase` — the `<origin><base><basePath>` of the callback URL `getProviders()`
 *   shows, when it is not the app's own (a redirect proxy).
 * - `refreshTokens` — a refresh-token grant (RFC 6749 §6), for `refreshAccessToken`.
 * - `account` — its sign-in methods on the account page ({@link AccountMethods}).
 * @see create-auth docs/api.md#providers
 */
export interface ProviderFlow<P extends ProviderConfig = ProviderConfig> {
	signIn(event: RequestEvent, config: ResolvedConfig, provider: P, form: FormData, callbackUrl: string | undefined): Promise<string | ActionFailure<Record<string, unknown>>>;
	routes?: { readonly [R in ProviderRoute]?: ProviderRouteHandler<P> };
	actions?: { readonly [A in ProviderAction]?: ProviderActionHandler<P> };
	check?(provider: P, config: ResolvedConfig): void;
	missingSettings?(provider: P): string[];
	callbackBase?(provider: P, config: ResolvedConfig): string | undefined;
	refreshTokens?(provider: P, refreshToken: string): Promise<TokenSet>;
	account?: AccountMethods<P>;
}

/**
 * A provider: its id, name and type, the flow that runs it, and the data its flow reads
 * (`providers/types.ts` has each kind: `CredentialsConfig`, `EmailConfig`, `OAuthConfig`,
 * `WebAuthnConfig`). Build one with a factory (`providers/<id>.ts`), which sets the flow.
 */
export interface ProviderConfig extends CommonProviderOptions {
	flow: ProviderFlow<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each kind narrows it to its own config
}

/** A provider, or a function that returns one (resolved once per config). */
export type Provider = ProviderConfig | (() => ProviderConfig);

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
		/**
		 * `jwt` strategy with an adapter: a session is checked against the adapter's record of its
		 * user at most once per this many seconds (and the cookie re-issued): a deleted user, ended
		 * sessions (a password change, "End all other sessions") and a proven address take effect
		 * within it. Between checks a request reads only its cookie. Default 60; 0 checks every request.
		 */
		revalidateAge?: number;
		/**
		 * Seconds after signing in during which the account page's sensitive actions (ending
		 * sessions, changing sign-in methods) need no new sign-in (OWASP ASVS 5.0 7.5.1). Default
		 * 600 (10 minutes).
		 */
		freshAge?: number;
	};
	/**
	 * The app's auth pages. `verifyRequest`: "check your email", shown once a sign-in link is
	 * sent (default `/signin/verify-request`); `emailLink`: the page an emailed link opens, with a
	 * one-click "Continue signing in" form (default `/signin/email`); `resetPassword`: the page a
	 * password-reset link opens, with the new password's form (default `/signin/reset-password`);
	 * `verifyEmail`: the page a sign-up's confirmation link opens, with a one-click "Confirm
	 * email" form (default `/signin/verify-email`); `account`: the signed-in user's page, where a
	 * sign-in that proved an address says what it removed (default `/account`; see
	 * docs/api.md#pre-hijacked-accounts), and a link to confirm a new address opens. Paths inside
	 * the app, as routes are written:
	 * the runtime puts SvelteKit's `paths.base` in front of each (see `appBase`).
	 */
	pages?: { signIn?: string; signOut?: string; verifyRequest?: string; emailLink?: string; resetPassword?: string; verifyEmail?: string; account?: string };
	/**
	 * Where the runtime answers its own routes (OAuth callbacks: `<basePath>/callback/<id>`), a
	 * path inside the app: SvelteKit's `paths.base` goes in front (`/base/auth/callback/<id>`).
	 * Default `/auth`.
	 */
	basePath?: string;
	callbacks?: Callbacks;
	logger?: Partial<Logger>;
	/** Default: whether the request is https. Secure cookies get the `__Host-` prefix (`__Secure-` for one under `basePath`). */
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
	 * `limits/rate-limit.ts`: 10 failed sign-ins per email from one client address and 50 per
	 * client address in 15 minutes, 100 consecutive per email from all clients in 24 hours, 10
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
	passwords?: Partial<Omit<PasswordOptions, 'breachCheck'>> & {
		/** `true`: {@link BreachCheck} with its defaults; an object sets its fields. Default false. */
		breachCheck?: boolean | Partial<BreachCheck>;
	};
	/**
	 * After a switch from another auth library: readers of its session cookies, made by the
	 * factories in `switch/` (`authjsSessions()` from `switch/authjs.ts`), asked in order when a
	 * request carries no session cookie of the runtime's. A browser's previous session continues
	 * as one of `session.strategy` and its cookie is deleted, so each is read once; a bad one is
	 * a signed-out visitor. Default: none (nothing is looked for).
	 * @see create-auth docs/api.md#switching-from-authjs-sessions
	 */
	previousSessions?: PreviousSessions[];
	/**
	 * Two-factor authentication: `TwoFactor()` from `two-factor/index.ts`. Users who turned it on
	 * (on the account page) pass a second step after signing in. Default: none.
	 * @see create-auth docs/api.md#two-factor-authentication
	 */
	twoFactor?: SecondFactor;
}

/**
 * The Have I Been Pwned range query a new password goes through (k-anonymity: only the first 5
 * hex characters of its SHA-1 are sent, with `Add-Padding: true`; the suffixes are compared
 * here). Unreachable, slow or failing, the check passes (fails open) with one logged error.
 * @see create-auth docs/api.md#passwords
 */
export interface BreachCheck {
	/** The range endpoint; the prefix is appended. Default `https://api.pwnedpasswords.com/range/`. */
	url: string;
	/** Milliseconds to wait for the answer. Default 2000. */
	timeoutMs: number;
}

/** NIST SP 800-63B-4 §3.1.1.2: the fewest characters of a password that is the only factor. */
const SINGLE_FACTOR_MIN_LENGTH = 15;
/** NIST SP 800-63B-4 §3.1.1.2: the fewest characters of any password (also of one beside a second factor). */
export const PASSWORD_MIN_LENGTH_FLOOR = 8;
/** The most characters a password may have (checked before hashing, and at sign-in). */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * The default of `passwords.minLength`, the one place it is decided: NIST SP 800-63B-4
 * §3.1.1.2 asks 15 characters of a password used alone and allows 8 (its floor) when it is one
 * of two factors. With `twoFactor` in the config each user chooses whether to turn a second
 * factor on, so a password may still be an account's only factor: every app gets 15. An app that
 * required a second factor of every account could return {@link PASSWORD_MIN_LENGTH_FLOOR} here.
 */
export function defaultPasswordMinLength(_config: SvelteKitAuthConfig): number {
	return SINGLE_FACTOR_MIN_LENGTH;
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
	/**
	 * The fewest characters (Unicode code points, after NFKC) a new password may have; the most
	 * is 1024. Default {@link defaultPasswordMinLength}: 15. Below 8 counts as 8 (NIST's floor),
	 * above 1024 as 1024; what is not a number keeps the default.
	 */
	minLength: number;
	/** The Have I Been Pwned range query of new passwords, or false (the default). */
	breachCheck: BreachCheck | false;
	/**
	 * Whether a password change or reset ends the user's other sessions (OWASP ASVS 5.0 7.4.3):
	 * database rows at once, JWTs within `session.revalidateAge` seconds. Default true. With false
	 * the other devices stay signed in, and only this browser's session is replaced (7.2.4). A
	 * reset that proves the address for the first time ends every session either way.
	 */
	endOtherSessions: boolean;
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
	/** Seconds between revalidations of a `jwt` session (`session.revalidateAge`). */
	revalidateAge: number;
	/** Seconds a sign-in counts as recent (`session.freshAge`). */
	freshAge: number;
	/** `database` strategy with `session.cacheMaxAge` above 0: the adapter's session cache. */
	sessionCache?: SessionCache;
	pages: { signIn: string; signOut: string; verifyRequest: string; emailLink: string; resetPassword: string; verifyEmail: string; account: string };
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
	/** The config's `previousSessions`; undefined when none, so a request without a session cookie looks for nothing. */
	previousSessions?: readonly PreviousSessions[];
	/** The config's `twoFactor`. */
	twoFactor?: SecondFactor;
}

const DAY = 24 * 60 * 60;

/**
 * Applies defaults and validates, then runs each provider's `flow.check` on the result (a
 * provider without a flow is logged as `InvalidProvider`; signing in with it fails).
 * @throws {MissingSecret} no secret, or one shorter than 32 characters.
 * @throws {MissingAdapter} `database` strategy without an adapter; from a flow's check: an email
 *   or passkey provider, or a credentials provider with `passwords.requireEmailVerification`,
 *   with an adapter that lacks a method it needs (the message names them); the same for `twoFactor`.
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
	const logger = sayingOnce({ ...consoleLogger, ...config.logger });
	const resolved: ResolvedConfig = {
		providers,
		adapter: config.adapter,
		secrets,
		trustHost: config.trustHost ?? false,
		origin,
		strategy,
		maxAge: config.session?.maxAge ?? 30 * DAY,
		updateAge: config.session?.updateAge ?? DAY,
		revalidateAge: seconds(config.session?.revalidateAge, 60),
		freshAge: seconds(config.session?.freshAge, 10 * 60),
		sessionCache: strategy === 'database' ? sessionCacheFor(config.adapter, config.session?.cacheMaxAge ?? 0) : undefined,
		pages: {
			signIn: config.pages?.signIn ?? '/signin',
			signOut: config.pages?.signOut ?? '/signout',
			verifyRequest: config.pages?.verifyRequest ?? '/signin/verify-request',
			emailLink: config.pages?.emailLink ?? '/signin/email',
			resetPassword: config.pages?.resetPassword ?? '/signin/reset-password',
			verifyEmail: config.pages?.verifyEmail ?? '/signin/verify-email',
			account: config.pages?.account ?? '/account'
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
			verificationMaxAge: config.passwords?.verificationMaxAge ?? DAY,
			minLength: resolveMinLength(config),
			breachCheck: resolveBreachCheck(config.passwords?.breachCheck),
			endOtherSessions: config.passwords?.endOtherSessions ?? true
		},
		previousSessions: config.previousSessions?.length ? [...config.previousSessions] : undefined,
		twoFactor: config.twoFactor
	};
	for (const provider of providers) {
		if (provider.flow) provider.flow.check?.(provider, resolved);
		else logger.error(new InvalidProvider(`Provider "${provider.id}" has no flow: build it with its factory (providers/<id>.ts); signing in with it fails.`));
	}
	resolved.twoFactor?.check?.(resolved);
	return resolved;
}

/** A duration option: a whole number of seconds, 0 or more; what is not a number keeps `fallback`. */
const seconds = (given: number | undefined, fallback: number) => (typeof given === 'number' && given >= 0 ? Math.floor(given) : fallback);

function resolveMinLength(config: SvelteKitAuthConfig): number {
	const given = config.passwords?.minLength;
	if (typeof given !== 'number' || Number.isNaN(given)) return defaultPasswordMinLength(config);
	return Math.min(PASSWORD_MAX_LENGTH, Math.max(PASSWORD_MIN_LENGTH_FLOOR, Math.floor(given)));
}

function resolveBreachCheck(given: boolean | Partial<BreachCheck> | undefined): BreachCheck | false {
	if (!given) return false;
	const options = given === true ? {} : given;
	return { url: options.url ?? 'https://api.pwnedpasswords.com/range/', timeoutMs: options.timeoutMs ?? 2000 };
}

/** What this process has said already: each message, per function it went to. */
const said = new WeakMap<(...args: never[]) => void, Set<string>>();

/** Whether `message` is new to `to` in this process; remembers it. */
function firstTime(to: (...args: never[]) => void, message: string): boolean {
	const messages = said.get(to) ?? new Set<string>();
	said.set(to, messages);
	if (messages.has(message)) return false;
	messages.add(message);
	return true;
}

/** The default logger: `console.error`, a {@link DriverUnavailable} as its one line (its message says all there is to do); `console.warn`. */
const consoleLogger: Logger = {
	error: (error) => console.error(error instanceof DriverUnavailable ? `${error.name}: ${error.message}` : error),
	warn: (message) => console.warn(message)
};

/**
 * What an {@link UntrustedHost} is said as: the same line whatever the request's `Host` was, so
 * that forged hosts neither fill the log nor what {@link firstTime} remembers.
 */
export const UNTRUSTED_HOST_WARNING =
	"UntrustedHost: a link back to the app (an OAuth redirect URI, an emailed link, the passkeys' relying party) was needed on a host that is not localhost: set AUTH_URL to the app's public URL, or AUTH_TRUST_HOST=true behind a proxy that sets the Host header.";

/**
 * `logger`, saying each `warn` message once per process; a {@link DriverUnavailable} once (by
 * its message: every request would meet it again until the driver is rebuilt, and one line says
 * all there is to do); an {@link UntrustedHost} as the one {@link UNTRUSTED_HOST_WARNING} line.
 * What is remembered comes from the app's setup, never from a request's input, so it stays as
 * small as the setup.
 */
function sayingOnce(logger: Logger): Logger {
	const warn = (message: string) => {
		if (firstTime(logger.warn, message)) logger.warn(message);
	};
	return {
		error(error) {
			if (error instanceof UntrustedHost) return warn(UNTRUSTED_HOST_WARNING);
			if (error instanceof DriverUnavailable && !firstTime(logger.error, error.message)) return;
			logger.error(error);
		},
		warn
	};
}
