// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Action, RequestEvent } from '@sveltejs/kit';
import type { sequence } from '@sveltejs/kit/hooks';
import type { Session } from '../../auth/types.js';
import type { Awaitable } from './adapters/types.js';
import { resolveConfig, type GetConfig, type ProviderConfig, type ResolvedConfig, type SvelteKitAuthConfig } from './config.js';
import { CrossSiteRequest } from './errors.js';
import { appBase, type AppResolve } from './http/app-paths.js';
import { authPathOf, withAuthHeaders } from './http/auth-pages.js';
import { crossSiteRefusal, isCrossSiteWrite } from './http/fetch-metadata.js';
import { registerRequest, useRequestEvent } from './http/guards.js';
import type { OAuthProviderButtonStyles, ProviderType } from './providers/types.js';
import { readSession } from './session/session.js';
import { providerAction, signInAction, signOutAction } from './signin/actions.js';
import { PROVIDER_ROUTE_PATH, providerRoute } from './signin/routes.js';

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

/** Whether `provider` can sign anyone in as configured: it has a flow, and no setting it needs is missing (a fresh `.env`). */
const canSignIn = (provider: ProviderConfig) => !!provider.flow && !provider.flow.missingSettings?.(provider).length;

/** What {@link SvelteKitAuth} returns: a hook, the form actions, and the provider list. */
export interface SvelteKitAuthResult {
	handle: Handle;
	signIn: Action;
	signOut: Action;
	/** The `/signup` page's action: a new email + password account, signed in at once, or once it confirms its address with `passwords.requireEmailVerification` (the credentials provider's; `passwords/signup.ts`). */
	signUp: Action;
	/** The action of the page an emailed sign-in link opens: uses the link and signs in (the email provider's; `signin/email.ts`). */
	emailLink: Action;
	/** The forgot-password page's action: emails a password-reset link (the credentials provider's; `passwords/account.ts`). */
	requestPasswordReset: Action;
	/** The action of the page a password-reset link opens: sets the new password and signs in (the credentials provider's). */
	resetPassword: Action;
	/** The account page's action: the signed-in user changes their password (the credentials provider's). */
	changePassword: Action;
	/** The account page's action: a signed-in user without a password sets one, after a recent sign-in (the credentials provider's). */
	setPassword: Action;
	/** The action of the page a sign-up's confirmation link opens: confirms the address and signs in (the credentials provider's; `email/verification.ts`). */
	verifyEmail: Action;
	/** The providers that can sign anyone in, for a sign-in page's `load` to draw one button each (one whose keys are still missing is left out). */
	getProviders(event: RequestEvent): Promise<AppProvider[]>;
}

/**
 * Sets up authentication for a SvelteKit app.
 *
 * - `handle` gives every request `event.locals.auth()`: the session or null, decoded straight
 *   from the cookie on the first call and memoized for the request (requests that never call
 *   it pay nothing). It also answers OAuth callbacks, `<basePath>/callback/<provider id>`, and
 *   passkey options requests, `GET <basePath>/webauthn-options/<provider id>`.
 * - On the auth pages and those routes, `handle` refuses a POST another site made
 *   (`Sec-Fetch-Site`; the OAuth callback excepted) and sets `Cache-Control: no-store`, plus
 *   anti-framing headers on the sign-in, sign-up and account pages.
 * - `signIn` / `signOut` / `signUp` / `emailLink` / `requestPasswordReset` / `resetPassword` /
 *   `changePassword` / `setPassword` / `verifyEmail` are form actions for the `/signin`, `/signout`, `/signup`,
 *   `/signin/email`, `/signin/forgot-password`, `/signin/reset-password`, `/account` and
 *   `/signin/verify-email` pages.
 * - The guards `requireSession()` / `requireUser()` (`http/guards.ts`) find this config through the
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
	/** The config once resolved, when it is the same for every request (an object): read without a promise. */
	let ready: ResolvedConfig | undefined;
	if (typeof config === 'function') {
		// Once per request: handle, locals.auth() and the actions share it.
		const perRequest = new WeakMap<RequestEvent, Promise<ResolvedConfig>>();
		const resolveFor = async (event: RequestEvent) => resolveConfig(await config(event), app.resolve);
		getConfig = (event) => {
			let resolved = perRequest.get(event);
			if (!resolved) perRequest.set(event, (resolved = resolveFor(event)));
			return resolved;
		};
	} else {
		// SvelteKit imports server modules while building, without the runtime environment: then
		// checked at the first request. One promise for every call: each request asks several times.
		if (!app.building) ready = resolveConfig(config, app.resolve);
		let resolved: Promise<ResolvedConfig> | undefined = ready && Promise.resolve(ready);
		getConfig = () => (resolved ??= new Promise<ResolvedConfig>((settle) => settle(resolveConfig(config, app.resolve))).then((done) => (ready = done)));
	}
	/** What the guards need of this handle ({@link registerRequest}): one object for every request. */
	const forGuards = { getConfig, resolve: app.resolve };

	/** A provider's route (an OAuth callback: a 303; passkey options: JSON) is answered by its flow; any other path goes on to the app. */
	const routeOrResolve: Handle = async ({ event, resolve }) => {
		const answer = providerRoute(event, await getConfig(event));
		return (answer && (await answer())) ?? resolve(event);
	};

	/**
	 * A state-changing request another site made ({@link isCrossSiteWrite}), to an auth page or
	 * route: refused before any work (403, logged), except at the OAuth callback, which
	 * `form_post` providers post cross-site.
	 */
	const refuseCrossSite = async (event: RequestEvent): Promise<Response | undefined> => {
		const resolved = await getConfig(event);
		const path = authPathOf(event, resolved);
		if (!path || path.callback) return undefined;
		const site = event.request.headers.get('sec-fetch-site');
		resolved.logger.error(new CrossSiteRequest(`Refused ${event.request.method} ${event.url.pathname} with Sec-Fetch-Site: ${site}.`));
		return crossSiteRefusal();
	};

	/** The response, with the auth-page headers on an auth page or route (none when the config cannot be resolved). */
	const withHeaders = (event: RequestEvent, response: Response): Promise<Response> =>
		getConfig(event).then(
			(resolved) => {
				const path = authPathOf(event, resolved);
				return path ? withAuthHeaders(response, path) : response;
			},
			() => response
		);

	/** The request, answered: a refused cross-site write, a provider's route or the app's page, with the auth-page headers. */
	const answer = async (input: Parameters<Handle>[0]): Promise<Response> => {
		const { event, resolve } = input;
		const refused = isCrossSiteWrite(event.request) ? await refuseCrossSite(event) : undefined;
		if (refused) return refused;
		return withHeaders(event, await (PROVIDER_ROUTE_PATH.test(event.url.pathname) ? routeOrResolve(input) : resolve(event)));
	};

	const handle: Handle = (input) => {
		const { event, resolve } = input;
		let session: Promise<Session | null> | undefined;
		registerRequest(
			event.locals,
			() => (session ??= ready ? readSession(event, ready) : getConfig(event).then((resolved) => readSession(event, resolved))),
			forGuards
		);
		// Most requests (a page, with the config resolved, no cross-site write, no provider route)
		// go straight to the app: no promise of ours, and the auth-page headers decided up front.
		if (!ready || isCrossSiteWrite(event.request) || PROVIDER_ROUTE_PATH.test(event.url.pathname)) return answer(input);
		const path = authPathOf(event, ready);
		return path ? Promise.resolve(resolve(event)).then((response) => withAuthHeaders(response, path)) : resolve(event);
	};

	const getProviders = async (event: RequestEvent): Promise<AppProvider[]> => {
		const resolved = await getConfig(event);
		const origin = resolved.origin ?? event.url.origin;
		const base = appBase(event.url, resolved);
		return resolved.providers.filter(canSignIn).map((provider) => {
			// Behind a redirect proxy, the callback URL to register is the proxy's (the flow knows).
			const callbackBase = provider.flow?.callbackBase?.(provider, resolved) ?? `${origin}${base}${resolved.basePath}`;
			const { style } = provider as { style?: OAuthProviderButtonStyles };
			return {
				id: provider.id,
				name: provider.name,
				type: provider.type,
				signinUrl: `${base}${resolved.pages.signIn}`,
				callbackUrl: `${callbackBase}/callback/${provider.id}`,
				...(style ? { style } : {})
			};
		});
	};

	return {
		handle,
		signIn: signInAction(getConfig),
		signOut: signOutAction(getConfig),
		signUp: providerAction(getConfig, 'signUp'),
		emailLink: providerAction(getConfig, 'emailLink'),
		requestPasswordReset: providerAction(getConfig, 'requestPasswordReset'),
		resetPassword: providerAction(getConfig, 'resetPassword'),
		changePassword: providerAction(getConfig, 'changePassword'),
		setPassword: providerAction(getConfig, 'setPassword'),
		verifyEmail: providerAction(getConfig, 'verifyEmail'),
		getProviders
	};
}
