// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * What each kind of provider is made of: the data a factory (`providers/<id>.ts`) returns,
 * with the `flow` that runs its sign-in (see `ProviderFlow` in `config.ts`). Types only, and
 * no protocol code: importing this module loads neither OAuth nor WebAuthn.
 * @see create-auth docs/api.md#providers
 */
import type { User } from '../../../auth/types.js';
import type { Awaitable } from '../adapters/types.js';
import type { ProviderConfig, ProviderFlow } from '../config.js';
import type { AccountTokens, Profile, TokenSet } from './profile.js';

export type { AccountTokens, Profile, TokenSet } from './profile.js';
export type { CommonProviderOptions, ProviderType } from '../config.js';

/** Describes one input of a credentials form (used to label fields). */
export interface CredentialInput {
	label?: string;
	type?: string;
	placeholder?: string;
}

/**
 * A username/password-style provider. `authorize` receives the posted form fields (strings;
 * files are dropped) and the request, and returns the user or null to reject. It may throw
 * `CredentialsSignin` (or a subclass with its own `code`) to reject with a code.
 */
export interface CredentialsConfig<C extends string = string> extends ProviderConfig {
	type: 'credentials';
	/** Signs in with `authorize`; also offers the password-account actions (sign-up, reset, change, confirm). Set by `Credentials()`. */
	flow: ProviderFlow<CredentialsConfig>;
	credentials: Record<C, CredentialInput>;
	authorize(credentials: Partial<Record<C, unknown>>, request: Request): Awaitable<User | null>;
}

/** What an email provider's {@link EmailConfig.sendVerificationRequest} gets to send one link. */
export interface VerificationRequestParams {
	/** The address to send to (trimmed, lowercased). */
	identifier: string;
	/** The link to send: the app's email-link page with `token`, `email` and `callbackUrl` in its query. */
	url: string;
	/** When the link stops working. */
	expires: Date;
	provider: EmailConfig;
	/** The token in the link (its SHA-256 with the secret is what the adapter stores). */
	token: string;
	/** The sign-in request that asked for the link. */
	request: Request;
}

/**
 * A provider that signs users in with a one-time link sent to their email address ("magic
 * link"). Build one with `Email()` (`providers/email.ts`, nodemailer over SMTP).
 * @see create-auth docs/api.md#email
 */
export interface EmailConfig extends ProviderConfig {
	type: 'email';
	/** Sends the link, and offers the `emailLink` action that uses it. Set by `Email()`. */
	flow: ProviderFlow<EmailConfig>;
	/** Seconds a link stays valid. Default (in `Email()`) 24 hours. */
	maxAge: number;
	/** Sends the link; a throw or rejection fails the sign-in with `EmailSignInError`. */
	sendVerificationRequest(params: VerificationRequestParams): Awaitable<void>;
}

/** Button looks for the sign-in page. `bg` and `text` are the deprecated spellings. */
export interface OAuthProviderButtonStyles {
	/** CSS colour of the button. */
	brandColor?: string;
	/** URL (or data: URI) of a square logo. */
	logo?: string;
	/** @deprecated use `brandColor` */
	bg?: string;
	/** @deprecated CSS colour of the button text; chosen for contrast when absent */
	text?: string;
}

/** Which endpoint an {@link EndpointConfig} describes. */
export type OAuthEndpointType = 'authorization' | 'token' | 'userinfo';

/**
 * An endpoint given as an object: `url` (else the discovered one), extra `params` (added to the
 * authorization request; to the token request for `token`), and `conform`, a hook that may
 * rewrite the endpoint's HTTP response before it is processed (for providers that break the
 * protocol in small ways).
 */
export interface EndpointConfig {
	url?: string;
	params?: Record<string, string | undefined>;
	conform?: (response: Response) => Awaitable<Response | undefined>;
}

/** The URL of an endpoint given as a string or as `{ url }`. */
export const endpointUrl = (endpoint: string | EndpointConfig | undefined) =>
	typeof endpoint === 'string' ? endpoint : endpoint?.url;

/**
 * The token endpoint. `request` replaces the code exchange for providers that do not speak
 * RFC 6749 there; it gets the callback `params` and the `checks` values and returns `{ tokens }`.
 */
export interface TokenEndpointConfig extends EndpointConfig {
	request?: (context: {
		params: URLSearchParams;
		checks: { codeVerifier?: string; nonce?: string };
		provider: OAuthConfig;
		redirectUri: string;
	}) => Awaitable<{ tokens: TokenSet }>;
}

/**
 * The userinfo endpoint. `request` replaces the request for providers whose user data is not at
 * an OpenID userinfo endpoint (for example behind a `data` wrapper); it returns the Profile.
 */
export interface UserinfoEndpointConfig extends EndpointConfig {
	request?: (context: { tokens: TokenSet; provider: OAuthConfig }) => Awaitable<Profile>;
}

/** A fetch with the signature of the global one (for `customFetch`). */
export type FetchLike = (input: URL | RequestInfo, init?: RequestInit) => Promise<Response>;

/**
 * Replaces the fetch used for this provider's requests (discovery, token, userinfo, JWKS).
 * Security-sensitive: everything the provider says passes through it.
 */
export const customFetch: unique symbol = Symbol.for('create-auth.customFetch');
/**
 * Marks a provider whose `conform` hooks are part of its built-in config (not user code).
 */
export const conformInternal: unique symbol = Symbol.for('create-auth.conformInternal');

/**
 * An OAuth 2 provider (`type: 'oauth'`). Endpoints come from `wellKnown` / `issuer` discovery
 * (RFC 8414, OpenID Connect Discovery) or are given one by one.
 * @see create-auth docs/api.md#oauth-2-and-openid-connect; RFC 6749; RFC 7636
 */
export interface OAuth2Config<P extends Profile = Profile> extends ProviderConfig {
	type: 'oauth' | 'oidc';
	/**
	 * The protocol: the authorization redirect, the `callback` route, the refresh-token grant.
	 * Set by the factory (OAuth 2 for every built-in provider; OAuth 1.0a for `Social({ version: '1.0a' })`).
	 */
	flow: ProviderFlow<OAuthConfig>;
	clientId?: string;
	clientSecret?: string;
	/** The authorization server's issuer identifier; with `wellKnown` absent, discovery starts here. */
	issuer?: string;
	/** Not used: keys come from the discovered `jwks_uri`. Kept for config compatibility. */
	jwks_endpoint?: unknown;
	/** URL of the discovery document, when it is not under `issuer`. */
	wellKnown?: string;
	authorization?: string | EndpointConfig;
	token?: string | TokenEndpointConfig;
	userinfo?: string | UserinfoEndpointConfig;
	/** Default `['pkce']`; `state` is added when a `redirectProxyUrl` is set. */
	checks?: ('none' | 'state' | 'pkce' | 'nonce')[];
	/** `token_endpoint_auth_method`: `client_secret_basic` (default), `client_secret_post` or `none`. */
	client?: { token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none'; [key: string]: unknown };
	/**
	 * Maps the provider's profile to the user. Default: `id`, `name`, `email`, `image`.
	 * (Method syntax, so that a provider typed for its own profile is still a `Provider`.)
	 */
	profile?(profile: P, tokens: TokenSet): Awaitable<User>;
	/**
	 * Picks what the account keeps from the token set. Default: `access_token`, `id_token`,
	 * `refresh_token`, `expires_at`, `scope`, `token_type`, `session_state`.
	 */
	account?(tokens: TokenSet): AccountTokens | undefined | void;
	/** Link to an existing user with the same email. Default false; only for providers that verify emails. */
	allowDangerousEmailAccountLinking?: boolean;
	/**
	 * What the authorization request asks of the provider when a signed-in user whose sign-in is
	 * older than `session.freshAge` signs in with it again, to re-authenticate before an account
	 * change (OWASP ASVS 5.0 7.5.1; create-auth docs/api.md#re-authentication):
	 * - `'max_age'` (default for `oidc`): `prompt=login` and `max_age=<freshAge>`; the ID token must
	 *   then carry an `auth_time` within `freshAge` seconds, or the callback fails with
	 *   `OAuthCallbackError` (OpenID Connect Core 1.0 §3.1.2.1, §3.1.3.7 step 13);
	 * - `'prompt'`: `prompt=login` only, for a provider whose ID tokens carry no `auth_time`;
	 * - `false` (default for `oauth`, which has no standard parameter for it): nothing, and the
	 *   provider decides whether to ask.
	 * Either way the new session counts as a sign-in from the callback's time.
	 */
	reauthenticate?: 'max_age' | 'prompt' | false;
	/**
	 * This provider's redirect proxy, over the config's `redirectProxyUrl`: the absolute http(s)
	 * URL `<origin><basePath>` of the deployment that receives every callback (its
	 * `<basePath>/callback/<id>` is the one redirect URI registered at the provider) and forwards
	 * it to the origin the sign-in started on (preview deployments). Adds the `state` check.
	 * Ignored by OAuth 1.0a providers (no `state` to carry the origin).
	 */
	redirectProxyUrl?: string;
	style?: OAuthProviderButtonStyles;
	/** The user's options, merged over a built-in provider's config by its factory. */
	options?: OAuthUserConfig<P>;
	[customFetch]?: FetchLike;
	[conformInternal]?: true;
}

/**
 * An OpenID Connect provider (`type: 'oidc'`): the ID token is validated (signature against the
 * provider's JWKS, `iss`, `aud`, `exp`, `nonce`) and is the profile, unless `idToken: false`.
 * @see create-auth docs/api.md#oauth-2-and-openid-connect (`idToken`); OpenID Connect Core 1.0 §3.1.3.7
 */
export interface OIDCConfig<P extends Profile = Profile> extends OAuth2Config<P> {
	type: 'oidc';
	/** When false, the profile comes from the userinfo endpoint (an ID token is still required). */
	idToken?: boolean;
}

/** An OAuth 2 or OpenID Connect provider. */
export type OAuthConfig<P extends Profile = Profile> = OAuth2Config<P> | OIDCConfig<P>;

/** What a user passes to a built-in provider's factory: any config field except `type` / `options`. */
export type OAuthUserConfig<P extends Profile = Profile> = Omit<Partial<OAuthConfig<P>>, 'options' | 'type' | 'flow'>;
/** The same for OpenID Connect providers. */
export type OIDCUserConfig<P extends Profile = Profile> = Omit<Partial<OIDCConfig<P>>, 'options' | 'type' | 'flow'>;

/**
 * The relying party a passkey belongs to (WebAuthn Level 3 §5.4.2): `id`, the domain passkeys
 * are scoped to (default: the app origin's hostname); `name`, shown by the browser when a
 * passkey is made (default: that hostname); `origin`, the origin ceremonies must come from
 * (default: the app's, `AUTH_URL` or the trusted request's).
 */
export interface RelyingParty {
	id?: string;
	name?: string;
	origin?: string;
}

/**
 * A provider that signs users in with a passkey (WebAuthn): a key pair made on the user's
 * device, the public key kept through the adapter's authenticator methods. Build one with
 * `Passkey()` (`providers/passkey.ts`); its flow (`signin/passkey.ts`, over `webauthn/`) is
 * carried on the provider, so only apps with passkeys load it and `@simplewebauthn/server`.
 * @see create-auth docs/api.md#passkey, #adapter-records (`AdapterAuthenticator`)
 */
export interface WebAuthnConfig extends ProviderConfig {
	type: 'webauthn';
	relyingParty: RelyingParty;
	/** Checks a posted ceremony response (`signIn`), and answers `GET <basePath>/webauthn-options/<id>`. Set by `Passkey()`. */
	flow: ProviderFlow<WebAuthnConfig>;
	/** Milliseconds the browser gives the user to answer its passkey prompt (the WebAuthn `timeout`). */
	timeout: number;
	/** Whether the sign-in page offers the device's passkeys in the email field's autofill (WebAuthn conditional mediation). */
	enableConditionalUI: boolean;
}

/**
 * True when `value` parses into a date: a Date that is valid, or a string or number that
 * `new Date()` accepts.
 * @see create-auth docs/api.md#built-in-providers (`isDate`)
 */
export function isDate(value: unknown): value is Date | string | number {
	if (value instanceof Date) return !Number.isNaN(value.getTime());
	if (typeof value !== 'string' && typeof value !== 'number') return false;
	return !Number.isNaN(new Date(value).getTime());
}
