import type { RequestEvent } from '@sveltejs/kit';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_USER, signInAtDevIdp, startDevIdp, type DevIdp } from '../../../../src/dev-idp/index.js';
import { Jar, redirectOf as redirectWith, requestEvent } from '../../../test/event.js';

/** Runs `fn`, which must throw SvelteKit's redirect; returns its location. */
const redirectOf = async (fn: () => unknown) => (await redirectWith(fn)).location;
import AuthjsPostgresAdapter from '@auth/pg-adapter';
import pg from 'pg';
import { AUTHJS_PG_SCHEMA, postgresScratch } from '../../../test/databases.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';
import type { Account, JWT, SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import Idp from '../providers/idp.js';
import OIDC from '../providers/oidc.js';
import { customFetch, type FetchLike, type OAuthConfig } from '../providers/types.js';
import { refreshAccessToken, type TokenFields } from '../session/refresh.js';
import { storedSessionKey } from '../session/stored-key.js';
import { currentSession } from '../session/session.js';
import { resolveConfig } from '../config.js';

/**
 * The OAuth/OIDC flow against a real OpenID provider (the dev IdP, oidc-provider) on
 * 127.0.0.1: the happy path, then one test per check the protocol requires, each of which must
 * end on the sign-in page with a stable error type and no session.
 */

const ORIGIN = 'http://localhost';
const client = { clientId: 'app', clientSecret: 'app-secret', redirectUris: [`${ORIGIN}/auth/callback/idp`, `${ORIGIN}/auth/callback/other`] };
const secret = 'x'.repeat(32);
let idp: DevIdp;
let signingKey: JWK;

beforeAll(async () => {
	const { privateKey } = await generateKeyPair('RS256', { extractable: true });
	signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
	idp = await startDevIdp({ port: 0, clients: [client], keys: { keys: [signingKey] } });
});
afterAll(() => idp?.stop());

const logger = { error: vi.fn() };
const jwt = vi.fn(({ token, account }: { token: JWT; account?: Account; profile?: Record<string, unknown> }) =>
	account ? { ...token, account } : token
);
beforeEach(() => {
	logger.error.mockClear();
	jwt.mockClear();
});

function auth(provider: Partial<OAuthConfig> = {}, extra: Partial<SvelteKitAuthConfig> = {}) {
	const idpProvider = Idp({ issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret, tenantId: 'dev', ...provider });
	return SvelteKitAuth({ secret, trustHost: true, logger, callbacks: { jwt }, providers: [idpProvider], ...extra });
}
type Auth = ReturnType<typeof auth>;


/** POSTs the sign-in form for `providerId`; returns the authorization URL it redirects to. */
const start = (a: Auth, jar: Jar, providerId = 'idp') =>
	redirectOf(() => a.signIn(requestEvent(`${ORIGIN}/signin`, jar, { form: { providerId, redirectTo: '/account' } }) as never));

/** Sends the browser back to the app: runs `handle` on the callback URL. */
const callback = (a: Auth, jar: Jar, url: string | URL, body?: string) =>
	redirectOf(() => a.handle({ event: requestEvent(String(url), jar, { body }), resolve: async () => new Response('app') }));

/** The session `locals.auth()` returns for the jar's cookies. */
async function session(a: Auth, jar: Jar) {
	const event: RequestEvent = requestEvent(`${ORIGIN}/`, jar);
	await a.handle({ event, resolve: async () => new Response('app') });
	return (event.locals as unknown as { auth: () => Promise<unknown> }).auth();
}

/** Start, sign in at the IdP, and return the callback URL (not yet followed). */
async function authorize(a: Auth, jar: Jar) {
	const location = await start(a, jar);
	const result = await signInAtDevIdp(location);
	return { location: new URL(location), callbackUrl: result.url };
}

/** A customFetch that lets `edit` rewrite the ID token the token endpoint returns, re-signed with the IdP's key. */
function forgeIdToken(edit: (claims: Record<string, unknown>) => void, { breakSignature = false } = {}): FetchLike {
	return async (input, init) => {
		const response = await fetch(input, init);
		if (!String(input).endsWith('/oauth2/token') || !response.ok) return response;
		const body = await response.json();
		const claims = decodeJwt(body.id_token);
		edit(claims);
		let idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: signingKey.kid }).sign(await importJWK(signingKey, 'RS256'));
		if (breakSignature) idToken = `${idToken.slice(0, -6)}${idToken.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
		return Response.json({ ...body, id_token: idToken }, { status: response.status });
	};
}

/** Asserts the callback ended on the sign-in page with `error` and started no session. */
async function expectRejected(a: Auth, jar: Jar, location: string, error: string) {
	expect(location).toBe(`/signin?error=${error}`);
	expect([...jar.values.keys()].filter((name) => name.includes('session-token'))).toEqual([]);
	expect(await session(a, jar)).toBeNull();
	expect(logger.error).toHaveBeenCalled();
}

describe('OAuth sign-in with the idp provider against a real OpenID provider', () => {
	it('signs in through the authorization code flow and keeps the account fields', async () => {
		const a = auth();
		const jar = new Jar();
		const { location, callbackUrl } = await authorize(a, jar);
		expect(location.origin + location.pathname).toBe(`${idp.issuer}/oauth2/authorize`);
		const params = location.searchParams;
		expect(params.get('code_challenge_method')).toBe('S256');
		expect(params.get('scope')).toBe('openid offline_access email profile');
		expect(params.get('tenantId')).toBe('dev');
		expect(params.get('redirect_uri')).toBe(`${ORIGIN}/auth/callback/idp`);
		expect(params.get('state')).toBeTruthy();
		expect(params.get('nonce')).toBeTruthy();
		// Nobody is signed in: nothing asks the provider to authenticate again.
		expect(params.has('prompt')).toBe(false);
		expect(params.has('max_age')).toBe(false);
		expect(callbackUrl.searchParams.get('iss')).toBe(idp.issuer);

		const flowCookie = jar.writes.find((w) => w.name === 'auth.oauth-flow')!;
		expect(flowCookie.options).toMatchObject({ httpOnly: true, maxAge: 900, path: '/auth', sameSite: 'lax' });
		expect(flowCookie.value).not.toContain(params.get('state')!); // encrypted

		expect(await callback(a, jar, callbackUrl)).toBe('/account');
		expect(jar.values.has('auth.oauth-flow')).toBe(false);
		expect(logger.error).not.toHaveBeenCalled();
		expect(await session(a, jar)).toMatchObject({ user: { id: 'dev-user-1', email: 'dev@example.com', name: 'Dev User' } });

		const signInCall = jwt.mock.calls.find(([arg]) => (arg as { account?: Account }).account)![0] as { account: Account; profile: Record<string, unknown> };
		const { account } = signInCall;
		expect(account).toMatchObject({ provider: 'idp', type: 'oidc', providerAccountId: 'dev-user-1', token_type: 'bearer', scope: expect.stringContaining('openid') });
		expect(typeof account.access_token).toBe('string');
		expect(typeof account.refresh_token).toBe('string');
		expect(typeof account.id_token).toBe('string');
		expect(account.expires_at).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 3590);
		expect(account.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
		expect(signInCall.profile).toMatchObject({ sub: 'dev-user-1', iss: idp.issuer, aud: 'app' });
	});

	it('accepts the response as a form POST (response_mode=form_post)', async () => {
		const a = auth({ authorization: { params: { response_mode: 'form_post' } } });
		const jar = new Jar();
		const result = await signInAtDevIdp(await start(a, jar));
		expect(result.method).toBe('POST');
		expect(await callback(a, jar, result.url, result.form!.toString())).toBe('/account');
		expect(await session(a, jar)).toMatchObject({ user: { email: 'dev@example.com' } });
	});
});

describe('every check is enforced: rejected with a stable error type and no session', () => {
	it('state altered → InvalidCheck', async () => {
		const a = auth();
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		callbackUrl.searchParams.set('state', 'forged');
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'InvalidCheck');
	});

	it('state missing → InvalidCheck', async () => {
		const a = auth();
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		callbackUrl.searchParams.delete('state');
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'InvalidCheck');
	});

	it('iss of another issuer (mix-up, RFC 9207) → InvalidCheck', async () => {
		const a = auth();
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		callbackUrl.searchParams.set('iss', 'https://attacker.example');
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'InvalidCheck');
	});

	it('PKCE verifier of another flow → OAuthCallbackError (the token endpoint refuses the code)', async () => {
		const a = auth({ checks: ['pkce'] });
		const victim = new Jar();
		const { callbackUrl } = await authorize(a, victim);
		const attacker = new Jar();
		await start(a, attacker); // a flow cookie with another verifier
		await expectRejected(a, attacker, await callback(a, attacker, callbackUrl), 'OAuthCallbackError');
	});

	it('nonce mismatch → InvalidCheck', async () => {
		const a = auth({ [customFetch]: forgeIdToken((claims) => (claims.nonce = 'another-nonce')) });
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'InvalidCheck');
	});

	it('ID token for another audience → OAuthCallbackError', async () => {
		const a = auth({ [customFetch]: forgeIdToken((claims) => (claims.aud = 'another-client')) });
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'OAuthCallbackError');
	});

	it('ID token with an invalid signature → OAuthCallbackError', async () => {
		const a = auth({ [customFetch]: forgeIdToken(() => {}, { breakSignature: true }) });
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'OAuthCallbackError');
		const cause = logger.error.mock.calls[0]![0].cause.err as Error;
		expect(String(cause.message)).toMatch(/signature/i);
	});

	it('expired ID token → OAuthCallbackError', async () => {
		const past = Math.floor(Date.now() / 1000) - 3600;
		const a = auth({ [customFetch]: forgeIdToken((claims) => Object.assign(claims, { iat: past - 60, exp: past })) });
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'OAuthCallbackError');
	});

	it('a replayed code → OAuthCallbackError', async () => {
		const a = auth();
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		const flow = jar.values.get('auth.oauth-flow')!;
		expect(await callback(a, jar, callbackUrl)).toBe('/account');
		const replay = new Jar();
		replay.values.set('auth.oauth-flow', flow);
		await expectRejected(a, replay, await callback(a, replay, callbackUrl), 'OAuthCallbackError');
	});

	it('error=access_denied from the provider → AccessDenied', async () => {
		const a = auth();
		const jar = new Jar();
		const location = new URL(await start(a, jar));
		const denied = new URL(`${ORIGIN}/auth/callback/idp`);
		denied.search = new URLSearchParams({ error: 'access_denied', state: location.searchParams.get('state')!, iss: idp.issuer }).toString();
		await expectRejected(a, jar, await callback(a, jar, denied), 'AccessDenied');
	});

	it('a callback for another provider than the one that started → InvalidCheck', async () => {
		const other = OIDC({ id: 'other', issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret });
		const a = auth({}, { providers: [Idp({ issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret, tenantId: 'dev' }), other] });
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		const wrong = new URL(callbackUrl);
		wrong.pathname = '/auth/callback/other';
		await expectRejected(a, jar, await callback(a, jar, wrong), 'InvalidCheck');
	});

	it('a callback with no flow cookie → InvalidCheck', async () => {
		const a = auth();
		const { callbackUrl } = await authorize(a, new Jar());
		const fresh = new Jar();
		await expectRejected(a, fresh, await callback(a, fresh, callbackUrl), 'InvalidCheck');
	});

	it.each([
		['500', () => new Response('boom', { status: 500 })],
		['non-JSON', () => new Response('<html>oops</html>', { status: 200, headers: { 'content-type': 'text/html' } })]
	])('a token endpoint answering %s → OAuthCallbackError', async (_, answer) => {
		const a = auth({ [customFetch]: async (input, init) => (String(input).endsWith('/oauth2/token') ? answer() : fetch(input, init)) });
		const jar = new Jar();
		const { callbackUrl } = await authorize(a, jar);
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'OAuthCallbackError');
	});

	it('discovery unreachable → OAuthSignInError on the sign-in page, no flow started', async () => {
		const a = auth({ issuer: 'http://127.0.0.1:9' });
		const jar = new Jar();
		expect(await start(a, jar)).toBe('/signin?error=OAuthSignInError&callbackUrl=%2Faccount');
		expect(jar.values.size).toBe(0);
		expect(logger.error).toHaveBeenCalled();
	});
});

describe('redirect URI origin', () => {
	it('refuses to start without AUTH_URL or a trusted host → UntrustedHost, no flow started', async () => {
		const a = auth({}, { trustHost: false });
		const jar = new Jar();
		const onHost = (host: string) => redirectOf(() => a.signIn(requestEvent(`http://${host}/signin`, jar, { form: { providerId: 'idp', redirectTo: '/account' } }) as never));
		expect(await onHost('app.example')).toBe('/signin?error=UntrustedHost&callbackUrl=%2Faccount');
		expect(jar.values.size).toBe(0);
		// This machine's loopback name is trusted (vite preview): the code can only come back to it.
		expect(new URL(await onHost('127.0.0.1:4173')).searchParams.get('redirect_uri')).toBe('http://127.0.0.1:4173/auth/callback/idp');
	});

	it("uses AUTH_URL's origin for the redirect_uri when set", async () => {
		const a = auth({}, { trustHost: false, url: 'https://app.example/some/path' });
		const location = new URL(await start(a, new Jar()));
		expect(location.searchParams.get('redirect_uri')).toBe('https://app.example/auth/callback/idp');
	});
});

describe('plain http', () => {
	it('is refused for a provider that is not on this machine → OAuthSignInError, nothing fetched', async () => {
		const fetched: string[] = [];
		const a = auth({ issuer: 'http://idp.example', [customFetch]: async (input) => (fetched.push(String(input)), new Response('{}')) });
		const jar = new Jar();
		expect(await start(a, jar)).toBe('/signin?error=OAuthSignInError&callbackUrl=%2Faccount');
		expect(fetched).toEqual([]);
		expect(String(logger.error.mock.calls[0]![0].cause.err)).toMatch(/https/i);
	});
});

describe('refresh (the jwt callback of the recommended idp configuration)', () => {
	it('gets a new access token and expires_at when the old one has expired, keeping the refresh token when none comes back', async () => {
		const provider = Idp({ issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret, tenantId: 'dev' });
		const a = auth();
		const jar = new Jar();
		await callback(a, jar, (await authorize(a, jar)).callbackUrl);
		const account = (jwt.mock.calls.find(([arg]) => arg.account)![0].account as Account);
		const expired: JWT & TokenFields = { access_token: account.access_token as string, refresh_token: account.refresh_token as string, expires_at: Math.floor(Date.now() / 1000) - 10 };
		const refreshed = await refreshAccessToken(provider, expired);
		expect(refreshed.access_token).toEqual(expect.any(String));
		expect(refreshed.access_token).not.toBe(expired.access_token);
		expect(refreshed.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000);
		expect(refreshed.refresh_token).toEqual(expect.any(String));
		expect(refreshed.error).toBeUndefined();
		expect(await refreshAccessToken(provider, refreshed)).toBe(refreshed); // not expired: unchanged

		// A provider that sends no new refresh token: the old one is kept.
		const stripRefreshToken: FetchLike = async (input, init) => {
			const response = await fetch(input, init);
			if (!String(input).endsWith('/oauth2/token')) return response;
			const { refresh_token: _dropped, ...body } = await response.json();
			return Response.json(body, { status: response.status });
		};
		const quiet = { ...provider, [customFetch]: stripRefreshToken };
		const again = await refreshAccessToken(quiet, { ...refreshed, expires_at: 1 });
		expect(again.access_token).not.toBe(refreshed.access_token);
		expect(again.refresh_token).toBe(refreshed.refresh_token);
	});

	it('a failing refresh sets RefreshTokenError, logs, and still returns the token', async () => {
		const provider = Idp({ issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret, tenantId: 'dev' });
		const onError = vi.fn();
		const token = { sub: 'u', access_token: 'old', refresh_token: 'not-a-real-refresh-token', expires_at: 1 };
		const result = await refreshAccessToken(provider, token, onError);
		expect(result).toEqual({ ...token, error: 'RefreshTokenError' });
		expect(onError).toHaveBeenCalledTimes(1);
	});

	it('throws a TypeError when the token has expired and there is no refresh token', async () => {
		const provider = Idp({ issuer: idp.issuer, tenantId: 'dev' });
		await expect(refreshAccessToken(provider, { expires_at: 1 })).rejects.toThrow(TypeError);
	});
});

/**
 * Our SQLite adapter, and an Auth.js adapter package used unchanged (@auth/pg-adapter on its own
 * schema, whose users get SERIAL ids of their own): the runtime needs nothing but the contract.
 */
const ADAPTERS: { name: string; open(): Promise<{ adapter: Adapter; close(): Promise<void> }> }[] = [
	{ name: 'SQLite', open: async () => ({ adapter: SQLiteAdapter({ filename: ':memory:' }), close: async () => undefined }) },
	{
		name: '@auth/pg-adapter',
		async open() {
			const scratch = await postgresScratch({ migrate: false });
			const pool = new pg.Pool({ connectionString: scratch.url });
			await pool.query(AUTHJS_PG_SCHEMA);
			return { adapter: AuthjsPostgresAdapter(pool) as Adapter, close: async () => (await pool.end(), await scratch.drop()) };
		}
	}
];

describe.each(ADAPTERS)('accounts and database sessions with an adapter ($name)', ({ open }) => {
	let adapter: Adapter & Required<Pick<Adapter, 'createUser' | 'createSession' | 'getUserByAccount' | 'getAccount' | 'getUser'>>;
	beforeEach(async () => {
		const opened = await open();
		adapter = opened.adapter as typeof adapter;
		return opened.close;
	});
	const withDb = (provider: Partial<OAuthConfig> = {}, strategy: 'jwt' | 'database' = 'database') => ({ a: auth(provider, { adapter, session: { strategy } }) });

	it('creates the user and links the account on the first sign-in, and finds them again on the next', async () => {
		const { a } = withDb();
		const first = new Jar();
		expect(await callback(a, first, (await authorize(a, first)).callbackUrl)).toBe('/account');
		const user = await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' });
		// The dev IdP vouches for the address (email_verified: true): it is proven from the start.
		expect(user).toMatchObject({ email: 'dev@example.com', name: 'Dev User', emailVerified: expect.any(Date) });
		expect(user!.id).not.toBe('dev-user-1'); // our id, not the provider's
		if (adapter.getAccount) {
			const account = await adapter.getAccount('dev-user-1', 'idp');
			expect(account).toMatchObject({ userId: user!.id, type: 'oidc', token_type: 'bearer' });
			expect(account!.access_token).toEqual(expect.any(String));
		}
		expect(await session(a, first)).toMatchObject({ user: { id: user!.id, email: 'dev@example.com' } });

		const second = new Jar();
		expect(await callback(a, second, (await authorize(a, second)).callbackUrl)).toBe('/account');
		expect(await session(a, second)).toMatchObject({ user: { id: user!.id } });
	});

	it('does not link to an existing user with the same email → OAuthAccountNotLinked', async () => {
		const { a } = withDb();
		await adapter.createUser({ id: crypto.randomUUID(), email: 'dev@example.com', emailVerified: null });
		const jar = new Jar();
		await expectRejected(a, jar, await callback(a, jar, (await authorize(a, jar)).callbackUrl), 'OAuthAccountNotLinked');
		expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' })).toBeNull();
	});

	it('links to the user with the same email with allowDangerousEmailAccountLinking', async () => {
		const { a } = withDb({ allowDangerousEmailAccountLinking: true });
		const existing = await adapter.createUser({ id: crypto.randomUUID(), email: 'dev@example.com', emailVerified: null });
		// Pre-hijacking, the classic-federated merge (USENIX Security 2022): someone registered the address with a password first.
		await adapter.linkAccount!({ userId: existing.id, type: 'credentials', provider: 'credentials', providerAccountId: 'dev@example.com', password_hash: 'scrypt$their-hash' });
		const jar = new Jar();
		expect(await callback(a, jar, (await authorize(a, jar)).callbackUrl)).toBe('/account');
		// Our adapters list the accounts to remove; an Auth.js one lacks the method, which is logged.
		if ('listAccountsByUserId' in adapter) expect(await adapter.getAccount!('dev@example.com', 'credentials')).toMatchObject({ password_hash: '' });
		// The provider vouched for the address: the link proves it.
		expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' })).toMatchObject({ id: existing.id, emailVerified: expect.any(Date) });
		expect(await session(a, jar)).toMatchObject({ user: { id: existing.id } });
	});

	// Pre-hijacking, the non-verifying IdP (USENIX Security 2022): a provider that does not vouch
	// for the address (email_verified false) lets anyone claim any address; it never links by it.
	it('does not link by email a provider that does not vouch for the address, even with allowDangerousEmailAccountLinking', async () => {
		const unverifying = await startDevIdp({ port: 0, clients: [client], user: { ...DEFAULT_USER, email_verified: false } });
		try {
			const a = auth({ issuer: unverifying.issuer, allowDangerousEmailAccountLinking: true }, { adapter, session: { strategy: 'database' } });
			const existing = await adapter.createUser({ id: crypto.randomUUID(), email: 'dev@example.com', emailVerified: null });
			const jar = new Jar();
			await expectRejected(a, jar, await callback(a, jar, (await authorize(a, jar)).callbackUrl), 'OAuthAccountNotLinked');
			expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' })).toBeNull();
			expect((await adapter.getUser(existing.id))?.emailVerified).toBeNull();
		} finally {
			await unverifying.stop();
		}
	});

	it('links the account to the user who is signed in, when they signed in recently (session.freshAge)', async () => {
		const { a } = withDb();
		const someone = await adapter.createUser({ id: crypto.randomUUID(), email: 'someone@example.com', emailVerified: null });
		await adapter.createSession({ sessionToken: storedSessionKey('signed-in'), userId: someone.id, expires: new Date(Date.now() + 3_600_000), createdAt: new Date() });
		const jar = new Jar();
		jar.values.set('auth.session-token', 'signed-in');
		const linked = await callback(a, jar, (await authorize(a, jar)).callbackUrl);
		if (!adapter.listSessionsByUserId) {
			// An Auth.js adapter keeps no sign-in time, and this token (not one the runtime made) carries none: not recent.
			expect(linked).toMatch(/^\/signin\?error=AccessDenied/);
			return;
		}
		expect(linked).toBe('/account');
		expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' })).toMatchObject({ id: someone.id });
	});

	// OWASP ASVS 5.0 7.5.1: a stolen session cookie must not let its holder add their own way in,
	// which would outlast the session.
	it('refuses to link an account to a user whose sign-in is older than freshAge: AccessDenied, nothing linked', async () => {
		const { a } = withDb();
		const someone = await adapter.createUser({ id: crypto.randomUUID(), email: 'someone@example.com', emailVerified: null });
		const hourAgo = new Date(Date.now() - 3_600_000);
		await adapter.createSession({ sessionToken: storedSessionKey('stolen'), userId: someone.id, expires: new Date(Date.now() + 3_600_000), createdAt: hourAgo });
		const jar = new Jar();
		jar.values.set('auth.session-token', 'stolen');
		expect(await callback(a, jar, (await authorize(a, jar)).callbackUrl)).toMatch(/^\/signin\?error=AccessDenied/);
		expect(await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' })).toBeNull();
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'AccessDenied', message: expect.stringContaining('needs a sign-in within session.freshAge') }));
	});

	/**
	 * A user signed in through the provider an hour ago, the account linked: a jar whose session
	 * row (`stored`) says so where the adapter keeps sign-in times.
	 */
	async function signedInAnHourAgo(a: Auth) {
		const first = new Jar();
		await callback(a, first, (await authorize(a, first)).callbackUrl);
		const user = (await adapter.getUserByAccount({ provider: 'idp', providerAccountId: 'dev-user-1' }))!;
		const token = `an-hour-old-${crypto.randomUUID()}`;
		const stored = storedSessionKey(token);
		await adapter.createSession({ sessionToken: stored, userId: user.id, expires: new Date(Date.now() + 3_600_000), createdAt: new Date(Date.now() - 3_600_000) });
		const jar = new Jar();
		jar.values.set('auth.session-token', token);
		return { user, jar, stored, token };
	}

	// OWASP ASVS 5.0 7.5.1 through an OpenID provider: the provider must authenticate the user
	// again (OpenID Connect Core 1.0 §3.1.2.1 prompt=login, max_age), not wave them through on
	// its own session, and the new session then counts as a recent sign-in.
	it('re-authenticates a user whose sign-in is older than freshAge: prompt=login and max_age=freshAge, then a new, recent session', async () => {
		const { a } = withDb();
		const { user, jar, stored, token: old } = await signedInAnHourAgo(a);
		const location = new URL(await start(a, jar));
		expect(location.searchParams.get('prompt')).toBe('login');
		expect(location.searchParams.get('max_age')).toBe('600');
		const { url } = await signInAtDevIdp(location.href);
		expect(await callback(a, jar, url)).toBe('/account');
		const token = jar.values.get('auth.session-token')!;
		expect(token).not.toBe(old);
		expect(await adapter.getSessionAndUser!(stored)).toBeNull(); // ASVS 7.2.4: the old session ends
		const current = await currentSession(requestEvent(`${ORIGIN}/account`, jar), resolveConfig({ secret, adapter, session: { strategy: 'database' }, providers: [] }));
		expect(current?.authTime).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 5);
		expect((await adapter.getSessionAndUser!(storedSessionKey(token)))?.user.id).toBe(user.id);
	});

	// OpenID Connect Core 1.0 §3.1.3.7 step 13: a provider that ignored max_age (its ID token's
	// auth_time is older) did not re-authenticate the user; that sign-in must not count as one.
	it('refuses a re-authentication whose ID token says the user authenticated before max_age → OAuthCallbackError, the old session stays', async () => {
		const { a } = withDb({ [customFetch]: forgeIdToken((claims) => (claims.auth_time = Math.floor(Date.now() / 1000) - 3_000)) });
		const { user, jar, stored, token } = await signedInAnHourAgo(a);
		const { url } = await signInAtDevIdp(await start(a, jar));
		expect(await callback(a, jar, url)).toBe('/signin?error=OAuthCallbackError');
		expect(jar.values.get('auth.session-token')).toBe(token);
		expect(await adapter.getSessionAndUser!(stored)).toMatchObject({ user: { id: user.id } });
		expect(String(logger.error.mock.calls.at(-1)![0].cause.err.message)).toMatch(/too much time has elapsed/);
	});

	it("asks what the provider's reauthenticate says: prompt=login alone, or nothing", async () => {
		for (const [reauthenticate, prompt, maxAge] of [['prompt', 'login', null], [false, null, null]] as const) {
			const { a } = withDb({ reauthenticate });
			const { jar } = await signedInAnHourAgo(a);
			const params = new URL(await start(a, jar)).searchParams;
			expect([params.get('prompt'), params.get('max_age')]).toEqual([prompt, maxAge]);
		}
	});

	it('signs out: the session row is deleted with the cookie', async () => {
		const { a } = withDb();
		const jar = new Jar();
		await callback(a, jar, (await authorize(a, jar)).callbackUrl);
		const token = jar.values.get('auth.session-token')!;
		expect(await adapter.getSessionAndUser!(storedSessionKey(token))).not.toBeNull();
		await redirectOf(() => a.signOut(requestEvent(`${ORIGIN}/signout`, jar, { form: {} }) as never));
		expect(jar.values.has('auth.session-token')).toBe(false);
		expect(await adapter.getSessionAndUser!(storedSessionKey(token))).toBeNull();
	});
});

describe('JWT sessions without an adapter', () => {
	it('uses the profile id as the user id', async () => {
		const a = auth();
		const jar = new Jar();
		await callback(a, jar, (await authorize(a, jar)).callbackUrl);
		expect(await session(a, jar)).toMatchObject({ user: { id: 'dev-user-1' } });
	});

	it('splits a session too big for one cookie into chunks under 4096 bytes, and reads them back', async () => {
		const padding = 'p'.repeat(6000);
		const a = SvelteKitAuth({
			secret,
			trustHost: true,
			logger,
			providers: [Idp({ issuer: idp.issuer, clientId: client.clientId, clientSecret: client.clientSecret, tenantId: 'dev' })],
			callbacks: { jwt: ({ token }) => ({ ...token, padding }), session: ({ session, token }) => ({ ...session, padding: token?.padding }) }
		});
		const jar = new Jar();
		await callback(a, jar, (await authorize(a, jar)).callbackUrl);
		const chunks = [...jar.values.keys()].filter((name) => name.startsWith('auth.session-token'));
		expect(chunks.length).toBeGreaterThan(1);
		expect(chunks).toEqual(chunks.map((_, i) => `auth.session-token.${i}`));
		for (const name of chunks) expect(`${name}=${jar.values.get(name)}`.length + 120).toBeLessThan(4096);
		expect(await session(a, jar)).toMatchObject({ user: { id: 'dev-user-1' }, padding });
	});
});
