import type { RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signInAtDevIdp, startDevIdp, type DevIdp } from '../../../../src/dev-idp/index.js';
import { Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import Idp from '../providers/idp.js';
import Social from '../providers/social.js';
import { customFetch, type FetchLike, type OAuthConfig } from '../providers/types.js';
import { oauthFlow } from '../signin/oauth.js';
import { proxyState, proxyUrlOf } from './proxy.js';

/**
 * The redirect proxy against a real OpenID provider (the dev IdP): a preview deployment on its
 * own origin signs in through the stable deployment, the only redirect URI the IdP knows. Both
 * are SvelteKitAuth instances sharing one secret, as deployments of one app do.
 */

const PREVIEW = 'https://pr-42.preview.example';
const STABLE = 'https://app.example';
const PROXY_URL = `${STABLE}/auth`;
const STABLE_CALLBACK = `${STABLE}/auth/callback/idp`;
const client = { clientId: 'app', clientSecret: 'app-secret', redirectUris: [STABLE_CALLBACK] };
const secret = 'p'.repeat(32);
let idp: DevIdp;

beforeAll(async () => {
	idp = await startDevIdp({ port: 0, clients: [client] });
});
afterAll(() => idp?.stop());

const logger = { error: vi.fn() };
beforeEach(() => logger.error.mockClear());

/** One deployment of the app; by default every deployment sets the same config-wide proxy. */
function deployment(provider: Partial<OAuthConfig> = {}, extra: Partial<SvelteKitAuthConfig> = {}) {
	const idpProvider = Idp({ issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret, tenantId: 'dev', ...provider });
	return SvelteKitAuth({ secret, trustHost: true, logger, redirectProxyUrl: PROXY_URL, providers: [idpProvider], ...extra });
}
type Auth = ReturnType<typeof deployment>;

/** POSTs the sign-in form on `origin`; returns the authorization URL it redirects to. */
const start = async (a: Auth, jar: Jar, origin = PREVIEW) =>
	(await redirectOf(() => a.signIn(requestEvent(`${origin}/signin`, jar, { form: { providerId: 'idp', redirectTo: '/account' } }) as never))).location;

/** Sends the browser to a callback URL: runs `handle` there; returns the redirect. */
const callback = (a: Auth, jar: Jar, url: string | URL, body?: string) =>
	redirectOf(() => a.handle({ event: requestEvent(String(url), jar, { body }), resolve: async () => new Response('app') }));

/** The session `locals.auth()` returns on `origin` for the jar's cookies. */
async function session(a: Auth, jar: Jar, origin = PREVIEW) {
	const event: RequestEvent = requestEvent(`${origin}/`, jar);
	await a.handle({ event, resolve: async () => new Response('app') });
	return (event.locals as unknown as { auth: () => Promise<unknown> }).auth();
}

/** Starts on the preview and signs in at the IdP: the authorization URL and the callback URL (on the stable deployment). */
async function authorize(preview: Auth, jar: Jar) {
	const location = new URL(await start(preview, jar));
	const result = await signInAtDevIdp(location.href);
	return { location, callbackUrl: result.url, result };
}

/** The URL the stable deployment forwards `callbackUrl` to. */
const forwardedTo = (callbackUrl: URL) => `${PREVIEW}/auth/callback/idp${callbackUrl.search}`;

/** The reasons the stable deployment logs: it checked the callback as its own, or refused the state's origin. */
const CHECKED_HERE = /without a valid sign-in flow cookie/;
const REFUSED = /redirect proxy state names no http\(s\) origin/;

/**
 * Asserts the stable deployment answered with its own sign-in page (`?error=InvalidCheck`),
 * forwarded nothing, set no cookie, and logged `reason`.
 */
function expectNotForwarded(answer: { status: number; location: string }, stableJar: Jar, reason: RegExp) {
	expect(answer).toEqual({ status: 303, location: '/signin?error=InvalidCheck' });
	expect(stableJar.setSince(0)).toEqual([]);
	expect(logger.error).toHaveBeenCalledTimes(1);
	expect(logger.error.mock.calls[0]![0]).toMatchObject({ type: 'InvalidCheck', message: expect.stringMatching(reason) });
}

describe('sign-in on a preview deployment through the redirect proxy', () => {
	it('sends the proxy as redirect_uri, has the stable deployment forward the callback, and signs in on the preview', async () => {
		const preview = deployment();
		const stable = deployment();
		const previewJar = new Jar();
		const { location, callbackUrl } = await authorize(preview, previewJar);
		expect(location.searchParams.get('redirect_uri')).toBe(STABLE_CALLBACK);
		const state = location.searchParams.get('state')!;
		expect(state).toMatch(/^[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/); // a compact JWE, `dir`: no encrypted key
		for (const part of state.split('.')) expect(Buffer.from(part, 'base64url').toString('latin1')).not.toContain('preview'); // encrypted
		expect(callbackUrl.origin + callbackUrl.pathname).toBe(STABLE_CALLBACK);
		expect(callbackUrl.searchParams.get('state')).toBe(state);

		const stableJar = new Jar();
		expect(await callback(stable, stableJar, callbackUrl)).toEqual({ status: 303, location: forwardedTo(callbackUrl) });
		expect(stableJar.writes).toEqual([]); // no flow taken, no session started there

		expect(await callback(preview, previewJar, forwardedTo(callbackUrl))).toEqual({ status: 303, location: '/account' });
		expect(logger.error).not.toHaveBeenCalled();
		expect(await session(preview, previewJar)).toMatchObject({ user: { id: 'dev-user-1', email: 'dev@example.com' } });
		expect(await session(stable, stableJar, STABLE)).toBeNull();
	});

	it('exchanges the code on the preview with the redirect_uri the authorization request used (the proxy’s)', async () => {
		const tokenRequests: URLSearchParams[] = [];
		const capture: FetchLike = (input, init) => {
			if (String(input).endsWith('/oauth2/token')) tokenRequests.push(new URLSearchParams(String(init?.body)));
			return fetch(input, init);
		};
		const preview = deployment({ [customFetch]: capture });
		const jar = new Jar();
		const { callbackUrl } = await authorize(preview, jar);
		const { location } = await callback(deployment(), new Jar(), callbackUrl);
		expect(await callback(preview, jar, location)).toMatchObject({ location: '/account' });
		expect(tokenRequests).toHaveLength(1);
		expect(tokenRequests[0]!.get('grant_type')).toBe('authorization_code');
		expect(tokenRequests[0]!.get('redirect_uri')).toBe(STABLE_CALLBACK);
		expect(tokenRequests[0]!.get('code')).toBe(callbackUrl.searchParams.get('code'));
	});

	it('forwards a form_post callback as a GET whose query holds the posted fields', async () => {
		const preview = deployment({ authorization: { params: { response_mode: 'form_post' } } });
		const stable = deployment({ authorization: { params: { response_mode: 'form_post' } } });
		const jar = new Jar();
		const { result } = await authorize(preview, jar);
		expect(result.method).toBe('POST');
		expect(result.url.href).toBe(STABLE_CALLBACK);
		const forwarded = await callback(stable, new Jar(), result.url, result.form!.toString());
		const target = new URL(forwarded.location);
		expect(target.origin + target.pathname).toBe(`${PREVIEW}/auth/callback/idp`);
		expect(Object.fromEntries(target.searchParams)).toEqual(Object.fromEntries(result.form!));
		expect(await callback(preview, jar, target)).toMatchObject({ location: '/account' });
		expect(await session(preview, jar)).toMatchObject({ user: { id: 'dev-user-1' } });
	});

	it("takes the provider's redirectProxyUrl over the config's, and forces the state check on a provider without it", async () => {
		const options = { redirectProxyUrl: `${PROXY_URL}/`, checks: ['none'] } satisfies Partial<OAuthConfig>;
		const preview = deployment(options, { redirectProxyUrl: 'https://elsewhere.example/auth' });
		const jar = new Jar();
		const { location, callbackUrl } = await authorize(preview, jar);
		expect(location.searchParams.get('redirect_uri')).toBe(STABLE_CALLBACK);
		expect(location.searchParams.get('state')).toBeTruthy();
		expect(location.searchParams.has('code_challenge')).toBe(false);
		const { location: forwarded } = await callback(deployment(options), new Jar(), callbackUrl);
		expect(forwarded).toBe(forwardedTo(callbackUrl));
		expect(await callback(preview, jar, forwarded)).toMatchObject({ location: '/account' });
	});

	it('gives every sign-in a different state', async () => {
		const preview = deployment();
		const states = await Promise.all([1, 2, 3].map(async () => new URL(await start(preview, new Jar())).searchParams.get('state')));
		expect(new Set(states).size).toBe(3);
	});

	it('signs in on the stable deployment itself without forwarding (the state names its own origin)', async () => {
		const stable = deployment();
		const jar = new Jar();
		const { url: callbackUrl } = await signInAtDevIdp(await start(stable, jar, STABLE));
		expect(await callback(stable, jar, callbackUrl)).toEqual({ status: 303, location: '/account' });
		expect(await session(stable, jar, STABLE)).toMatchObject({ user: { id: 'dev-user-1' } });
	});
});

describe('the proxy forwards only to an origin one of our deployments sealed in the state', () => {
	const attacker = 'https://attacker.example';
	const configWith = (secrets: string | string[]) => resolveConfig({ secret: secrets, providers: [] });

	it.each([
		['an unsealed origin', async () => attacker],
		['an unsealed URL-encoded JSON origin', async () => encodeURIComponent(JSON.stringify({ origin: attacker }))],
		['a state sealed with another secret', () => proxyState(attacker, configWith('o'.repeat(32)))],
		['garbage shaped like a JWE', async () => 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.AAAA.AAAA']
	])('%s → not forwarded: the stable deployment checks it as its own callback → InvalidCheck', async (_, forge) => {
		const jar = new Jar();
		const { callbackUrl } = await authorize(deployment(), jar);
		callbackUrl.searchParams.set('state', await forge());
		const stableJar = new Jar();
		expectNotForwarded(await callback(deployment(), stableJar, callbackUrl), stableJar, CHECKED_HERE);
	});

	it('a value sealed with our secret for another use (the flow cookie) does not open as a state → not forwarded', async () => {
		const jar = new Jar();
		const { callbackUrl } = await authorize(deployment(), jar);
		callbackUrl.searchParams.set('state', jar.values.get('__Secure-auth.oauth-flow')!);
		const stableJar = new Jar();
		expectNotForwarded(await callback(deployment(), stableJar, callbackUrl), stableJar, CHECKED_HERE);
	});

	it.each(['javascript:alert(document.cookie)//', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'ftp://attacker.example', 'null', `${attacker}/path`, `${attacker}@x`, ''])(
		'a sealed state naming %j (not an http(s) origin) → refused with InvalidCheck',
		async (origin) => {
			const { callbackUrl } = await authorize(deployment(), new Jar());
			callbackUrl.searchParams.set('state', await proxyState(origin, configWith(secret)));
			const stableJar = new Jar();
			expectNotForwarded(await callback(deployment(), stableJar, callbackUrl), stableJar, REFUSED);
		}
	);

	it('a deployment with no redirect proxy does not forward, even a genuine state', async () => {
		const { callbackUrl } = await authorize(deployment(), new Jar());
		const stableJar = new Jar();
		expectNotForwarded(await callback(deployment({}, { redirectProxyUrl: undefined }), stableJar, callbackUrl), stableJar, CHECKED_HERE);
	});

	it('keeps accepting states sealed with an older secret during rotation', async () => {
		const { callbackUrl } = await authorize(deployment(), new Jar());
		const rotated = deployment({}, { secret: ['n'.repeat(32), secret] });
		expect(await callback(rotated, new Jar(), callbackUrl)).toEqual({ status: 303, location: forwardedTo(callbackUrl) });
	});
});

describe('the preview checks a forwarded callback as any other', () => {
	it('without its flow cookie → InvalidCheck, no session', async () => {
		const preview = deployment();
		const { callbackUrl } = await authorize(preview, new Jar());
		const { location } = await callback(deployment(), new Jar(), callbackUrl);
		const fresh = new Jar();
		expect(await callback(preview, fresh, location)).toEqual({ status: 303, location: '/signin?error=InvalidCheck' });
		expect(await session(preview, fresh)).toBeNull();
		expect(logger.error).toHaveBeenCalled();
	});

	it("with another sign-in's flow cookie (state mismatch) → InvalidCheck", async () => {
		const preview = deployment();
		const { callbackUrl } = await authorize(preview, new Jar());
		const { location } = await callback(deployment(), new Jar(), callbackUrl);
		const other = new Jar();
		await start(preview, other);
		expect(await callback(preview, other, location)).toEqual({ status: 303, location: '/signin?error=InvalidCheck' });
		expect(await session(preview, other)).toBeNull();
	});
});

describe('starting a sign-in through the proxy', () => {
	it('needs a trusted origin for the state, as for a redirect URI → UntrustedHost, no flow started', async () => {
		const preview = deployment({}, { trustHost: false });
		const jar = new Jar();
		expect(await start(preview, jar)).toBe('/signin?error=UntrustedHost&callbackUrl=%2Faccount');
		expect(jar.values.size).toBe(0);
	});

	it.each(['app.example/auth', 'javascript:alert(1)'])('refuses redirectProxyUrl %j → OAuthSignInError, no flow started', async (redirectProxyUrl) => {
		const jar = new Jar();
		expect(await start(deployment({ redirectProxyUrl }), jar)).toBe('/signin?error=OAuthSignInError&callbackUrl=%2Faccount');
		expect(jar.values.size).toBe(0);
	});
});

describe('proxyUrlOf', () => {
	const config = resolveConfig({ secret, providers: [], redirectProxyUrl: 'https://app.example/auth/' });
	const provider = { id: 'x', name: 'X', type: 'oauth', flow: oauthFlow } satisfies OAuthConfig;

	it("is the provider's, else the config's, without a trailing slash, query or fragment", () => {
		expect(proxyUrlOf(config, provider)).toBe('https://app.example/auth');
		expect(proxyUrlOf(config, { ...provider, redirectProxyUrl: 'https://b.example/x/?q=1#f' })).toBe('https://b.example/x');
		expect(proxyUrlOf(resolveConfig({ secret, providers: [] }), provider)).toBeUndefined();
	});

	it('is not used by OAuth 1.0a providers (no state to carry the origin): their callback URL stays this deployment\'s', async () => {
		const oauth1 = Social({ version: '1.0a', clientId: 'k', clientSecret: 's', redirectProxyUrl: PROXY_URL });
		const oauth2 = Social({ clientId: 'k', clientSecret: 's', id: 'social2', redirectProxyUrl: PROXY_URL });
		const { getProviders } = SvelteKitAuth({ secret, trustHost: true, providers: [oauth1, oauth2] });
		const [one, two] = await getProviders(requestEvent('http://localhost/signin', new Jar()));
		expect(one?.callbackUrl).toBe('http://localhost/auth/callback/social');
		expect(two?.callbackUrl).toBe(`${PROXY_URL}/callback/social2`);
	});
});
