// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Action, RequestEvent } from '@sveltejs/kit';
import type { sequence } from '@sveltejs/kit/hooks';
import type { Session } from '../../auth/types.js';
import { signInAction, signOutAction } from './signin/actions.js';
import type { Awaitable } from './adapters/types.js';
import { appBase, type AppResolve } from './http/app-paths.js';
import { isOAuthProvider, resolveConfig, type GetConfig, type ProviderConfig, type ResolvedConfig, type SvelteKitAuthConfig } from './config.js';
import { emailLinkAction } from './signin/email.js';
import { verifyEmailAction } from './email/verification.js';
import { proxyUrlOf } from './oauth/proxy.js';
import { changePasswordAction, requestPasswordResetAction, resetPasswordAction } from './passwords/account.js';
import type { OAuthConfig, OAuthProviderButtonStyles, ProviderType } from './providers/types.js';
import { registerRequest, useRequestEvent } from './http/guards.js';
import { callbackProvider, oauthCallback, webauthnOptionsProvider } from './signin/routes.js';
import { readSession } from './session/session.js';
import { signUpAction } from './passwords/signup.js';

/**
 * SvelteKit's `handle` hook type. SvelteKit 2 exports it from `@sveltejs/kit` and SvelteKit 3
 * from `@sveltejs/kit/hooks`; `sequence()` takes it in both, so it is named through that.
 */
export type Handle = Parameters<typeof sequence>[number];

/**
 * Facts about the running app that only the app can import: SvelteKit's environment module
 * has a different name in each major. The generated `src/auth.ts` imports it and hands them in,
 * so this runtime builds in either (and `sv migrate` finds nothing to rewrite here).
 */
export interface AppEnvironment {
	/**
	 * SvelteKit is building (analysing routes or prerendering) and the runtime environment, with
	 * `AUTH_SECRET`, may be absent: an object config is then checked at its first request.
	 */
	building?: boolean;
	/**
	 * SvelteKit's `getRequestEvent` (`$app/server`, SvelteKit 2.20+), so that `requireSession()`
	 * and `requireUser()` work without an event (in remote functions, or code they call).
	 */
	getRequestEvent?: () => RequestEvent;
	/**
	 * SvelteKit's `resolve` from `$app/paths` (SvelteKit 2.26+ and 3), so that every redirect the
	 * runtime makes, every link it mails and the OAuth callback URL carry the app's `paths.base`
	 * (`/base/signin`); pages, `basePath` and `callbackUrl` checks are then taken inside the base.
	 * Without it the runtime works as if the base were empty.
	 */
	resolve?: AppResolve;
}

/**
 * A configured provider as pages may show it: no secrets. `signinUrl` is the sign-in page's path
 * (with SvelteKit's `paths.base`); `callbackUrl` is where the provider sends the browser back (the
 * URL to register at an OAuth provider, base included), on `AUTH_URL`'s origin when set, else the request's.
 * @see create-auth docs/api.md#appprovider
 */
export interface AppProvider {
	id: string;
	name: string;
	type: ProviderType;
	signinUrl: string;
	callbackUrl: string;
	style?: OAuthProviderButtonStyles;
}

/** What {@link SvelteKitAuth} returns: a hook, the form actions, and the provider list. */
export interface SvelteKitAuthResult {
	handle: Handle;
	signIn: Action;
	signOut: Action;
	/** The `/signup` page's action: a new email + password account, signed in at once, or once it confirms its address with `passwords.requireEmailVerification` (see {@link signUpAction}). */
	signUp: Action;
	/** The action of the page an emailed sign-in link opens: uses the link and signs in (see {@link emailLinkAction}). */
	emailLink: Action;
	/** The forgot-password page's action: emails a password-reset link (see {@link requestPasswordResetAction}). */
	requestPasswordReset: Action;
	/** The action of the page a password-reset link opens: sets the new password and signs in (see {@link resetPasswordAction}). */
	resetPassword: Action;
	/** The account page's action: the signed-in user changes their password (see {@link changePasswordAction}). */
	changePassword: Action;
	/** The action of the page a sign-up's confirmation link opens: confirms the address and signs in (see {@link verifyEmailAction}). */
	verifyEmail: Action;
	/** The providers, for a sign-in page's `load` to draw one button each. */
	getProviders(event: RequestEvent): Promise<AppProvider[]>;
}

/** Paths `handle` may answer itself (the config says which exactly): OAuth callbacks, passkey options. */
const AUTH_ROUTE = /\/(callback|webauthn-options)\//;

/**
 * Sets up authentication for a SvelteKit app.
 *
 * - `handle` gives every request `event.locals.auth()`: the session or null, decoded straight
 *   from the cookie on the first call and memoized for the request (requests that never call
 *   it pay nothing). It also answers OAuth callbacks, `<basePath>/callback/<provider id>`, and
 *   passkey options requests, `GET <basePath>/webauthn-options/<provider id>`.
 * - `signIn` / `signOut` / `signUp` / `emailLink` / `requestPasswordReset` / `resetPassword` /
 *   `changePassword` / `verifyEmail` are form actions for the `/signin`, `/signout`, `/signup`,
 *   `/signin/email`, `/signin/forgot-password`, `/signin/reset-password`, `/account` and
 *   `/signin/verify-email` pages.
 * - The guards `requireSession()` / `requireUser()` (guards.ts) find this config through the
 *   request, and the current request through `app.getRequestEvent`.
 *
 * `config` is an object (checked now, unless `app.building`) or a function of the request event
 * (resolved per request, when first needed).
 * @throws {MissingSecret} no `secret` of 32+ characters.
 * @throws {MissingAdapter} `database` strategy without an adapter; an email or passkey provider, or `passwords.requireEmailVerification`, with an adapter that lacks what it needs.
 * @throws {InvalidUrl} `url` is not an absolute URL.
 * @see create-auth docs/api.md#sveltekitauth
 */
export function SvelteKitAuth(
	config: SvelteKitAuthConfig | ((event: RequestEvent) => Awaitable<SvelteKitAuthConfig>),
	app: AppEnvironment = {}
): SvelteKitAuthResult {
	useRequestEvent(app.getRequestEvent);
	let getConfig: GetConfig;
	if (typeof config === 'function') {
		getConfig = async (event) => resolveConfig(await config(event), app.resolve);
	} else {
		// SvelteKit imports server modules while building, without the runtime environment.
		let resolved: ResolvedConfig | undefined = app.building ? undefined : resolveConfig(config, app.resolve);
		getConfig = async () => (resolved ??= resolveConfig(config, app.resolve));
	}

	/** An OAuth callback (a 303) and a passkey options request (JSON) are answered here; any other path goes on to the app. */
	const routeOrResolve: Handle = async ({ event, resolve }) => {
		const resolved = await getConfig(event);
		const provider = callbackProvider(event.url, resolved);
		if (provider) await oauthCallback(event, resolved, provider.id);
		const passkey = event.request.method === 'GET' ? webauthnOptionsProvider(event.url, resolved) : undefined;
		if (passkey) return passkey.ceremonies.options(event, resolved, passkey);
		return resolve(event);
	};

	const handle: Handle = (input) => {
		const { event, resolve } = input;
		let session: Promise<Session | null> | undefined;
		const locals = event.locals as { auth?: () => Promise<Session | null> };
		locals.auth = () => (session ??= getConfig(event).then((resolved) => readSession(event, resolved)));
		registerRequest(locals, getConfig);
		return AUTH_ROUTE.test(event.url.pathname) ? routeOrResolve(input) : resolve(event);
	};

	const getProviders = async (event: RequestEvent): Promise<AppProvider[]> => {
		const resolved = await getConfig(event);
		const origin = resolved.origin ?? event.url.origin;
		const base = appBase(event.url, resolved);
		// Behind a redirect proxy, the callback URL to register is the proxy's.
		const callbackBase = (provider: ProviderConfig) => (isOAuthProvider(provider) && proxyUrlOrNone(resolved, provider)) || `${origin}${base}${resolved.basePath}`;
		return resolved.providers.map((provider) => ({
			id: provider.id,
			name: provider.name,
			type: provider.type,
			signinUrl: `${base}${resolved.pages.signIn}`,
			callbackUrl: `${callbackBase(provider)}/callback/${provider.id}`,
			...(isOAuthProvider(provider) && provider.style ? { style: provider.style } : {})
		}));
	};

	return {
		handle,
		signIn: signInAction(getConfig),
		signOut: signOutAction(getConfig),
		signUp: signUpAction(getConfig),
		emailLink: emailLinkAction(getConfig),
		requestPasswordReset: requestPasswordResetAction(getConfig),
		resetPassword: resetPasswordAction(getConfig),
		changePassword: changePasswordAction(getConfig),
		verifyEmail: verifyEmailAction(getConfig),
		getProviders
	};
}

/** {@link proxyUrlOf}, with an invalid proxy URL read as none (sign-in reports it, not the page). */
function proxyUrlOrNone(config: ResolvedConfig, provider: OAuthConfig): string | undefined {
	try {
		return proxyUrlOf(config, provider);
	} catch {
		return undefined;
	}
}
