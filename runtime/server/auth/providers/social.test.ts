import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestEvent } from '@sveltejs/kit';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Jar, redirectOf as redirectWith, requestEvent } from '../../../test/event.js';

/** Runs `fn`, which must throw SvelteKit's redirect; returns its location. */
const redirectOf = async (fn: () => unknown) => (await redirectWith(fn)).location;
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Account, JWT, SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import Social, { type SocialOptions, type SocialProfile } from './social.js';

/**
 * The social provider against a stand-in of the X API on 127.0.0.1 that checks what X checks:
 * OAuth 2 (PKCE S256, state, client_secret_basic, bearer tokens, the `data` wrapper) and
 * OAuth 1.0a (HMAC-SHA1 signatures verified independently of the signing library, nonces,
 * temporary credentials, verifiers). Each failure must end on the sign-in page with a stable
 * error type and no session.
 */

const ORIGIN = 'http://localhost';
const CALLBACK = `${ORIGIN}/auth/callback/social`;
const CLIENT = { id: 'x-client', secret: 'x-client-secret' };
const CONSUMER = { key: 'x-consumer-key', secret: 'x-consumer-secret' };
const secret = 'x'.repeat(32);

interface XUser {
	id: string;
	name: string;
	username: string;
	profile_image_url: string;
	description: string;
	pinned_tweet_id: string;
	email: string;
}
const ADA: XUser = {
	id: '2244994945',
	name: 'Ada Lovelace',
	username: 'ada',
	profile_image_url: 'https://pbs.twimg.com/profile_images/1/ada_normal.jpg',
	description: 'Analytical engines',
	pinned_tweet_id: '1460323737035677698',
	email: 'ada@example.com'
};
const GRACE: XUser = { ...ADA, id: '783214', name: 'Grace Hopper', username: 'grace', email: 'grace@example.com' };
const PINNED = { id: ADA.pinned_tweet_id, text: 'Hello from the engine' };

// ---------------------------------------------------------------------------------------------
// OAuth 1.0a signature verification, written from RFC 5849 §3.4 (not with the signing library)

/** RFC 3986 percent-encoding as RFC 5849 §3.6 wants it. */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature base string (§3.4.1) of a request with these (decoded) parameters. */
function signatureBaseString(method: string, url: URL, params: [string, string][]): string {
	const normalized = params
		.map(([name, value]) => [encode(name), encode(value)] as const)
		.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
	return [method.toUpperCase(), encode(`${url.protocol}//${url.host}${url.pathname}`), encode(normalized)].join('&');
}

/** HMAC-SHA1 signature (§3.4.2), base64. */
const hmacSha1 = (base: string, consumerSecret: string, tokenSecret: string) =>
	createHmac('sha1', `${encode(consumerSecret)}&${encode(tokenSecret)}`).update(base).digest('base64');

/** The protocol parameters of an `Authorization: OAuth …` header (§3.5.1), decoded. */
function oauthHeaderParams(header: string | undefined): Map<string, string> {
	const params = new Map<string, string>();
	for (const [, name, value] of (header ?? '').replace(/^OAuth\s+/, '').matchAll(/([\w-]+)="([^"]*)"/g)) {
		params.set(decodeURIComponent(name!), decodeURIComponent(value!));
	}
	return params;
}

describe('the stand-in verifies HMAC-SHA1 signatures as RFC 5849 computes them', () => {
	it('§1.2: the photos example', () => {
		const url = new URL('http://photos.example.net/photos?file=vacation.jpg&size=original');
		const header = oauthHeaderParams(
			'OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", oauth_token="nnch734d00sl2jdk", oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131202", oauth_nonce="chapoH", oauth_signature="MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D"'
		);
		const params = [...header].filter(([name]) => name !== 'oauth_signature' && name !== 'realm');
		const base = signatureBaseString('GET', url, [...params, ...url.searchParams]);
		expect(hmacSha1(base, 'kd94hf93k423kf44', 'pfkkdhi9sl3r4s00')).toBe(header.get('oauth_signature'));
	});

	it('§3.4.1.1: the base string of the example with encoded, repeated and empty parameters and a form body', () => {
		const url = new URL('http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b');
		const oauth: [string, string][] = [
			['oauth_consumer_key', '9djdj82h48djs9d2'],
			['oauth_token', 'kkk9d7dh3k39sjv7'],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_timestamp', '137131201'],
			['oauth_nonce', '7d8f3e4a']
		];
		const params = [...oauth, ...url.searchParams, ...new URLSearchParams('c2&a3=2+q')];
		expect(signatureBaseString('POST', url, params)).toBe(
			'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7'
		);
	});
});

// ---------------------------------------------------------------------------------------------
// The stand-in

type Endpoint = 'token' | 'usersMe' | 'requestToken' | 'accessToken' | 'verifyCredentials';

/** The X API stand-in: its origin, what it rejected (and why), and switches for failures. */
interface XStandIn {
	origin: string;
	/** Who approves at the authorization page. */
	user: XUser;
	/** Whether the app may read email addresses over OAuth 1.0a. */
	emailPermission: boolean;
	/** Endpoints that answer this HTTP status instead of working. */
	failing: Partial<Record<Endpoint, number>>;
	/** Why requests were refused, most recent last. */
	rejections: string[];
	/** `oauth_callback` of each temporary credential request. */
	callbacks: string[];
	close(): Promise<void>;
}

async function startXStandIn(): Promise<XStandIn> {
	const codes = new Map<string, { redirectUri: string; challenge: string; user: XUser }>();
	const accessTokens = new Map<string, XUser>();
	const temporary = new Map<string, { secret: string; callback: string; verifier?: string; user?: XUser }>();
	const tokenCredentials = new Map<string, { secret: string; user: XUser }>();
	const nonces = new Set<string>();
	const random = () => randomBytes(12).toString('hex');

	const refuse = (res: ServerResponse, status: number, reason: string, body: unknown = { error: 'invalid_request', error_description: reason }) => {
		standIn.rejections.push(reason);
		res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	};
	const send = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	const sendForm = (res: ServerResponse, body: Record<string, string>) =>
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(new URLSearchParams(body).toString());
	const redirect = (res: ServerResponse, location: URL) => res.writeHead(302, { location: location.href }).end();

	/**
	 * Verifies an OAuth 1.0a request as X does: client, signature method, timestamp within five
	 * minutes, a fresh nonce, a known token, and the HMAC-SHA1 signature. Returns the protocol
	 * parameters, or null after refusing.
	 */
	function verified(req: IncomingMessage, res: ServerResponse, url: URL, tokenSecret: (token: string | undefined) => string | undefined) {
		const params = oauthHeaderParams(req.headers.authorization);
		const secret = tokenSecret(params.get('oauth_token'));
		const nonce = params.get('oauth_nonce') ?? '';
		const signed = [...params].filter(([name]) => name !== 'oauth_signature' && name !== 'realm');
		const expected = hmacSha1(signatureBaseString(req.method!, url, [...signed, ...url.searchParams]), CONSUMER.secret, secret ?? '');
		const given = Buffer.from(params.get('oauth_signature') ?? '');
		const checks: [string, boolean][] = [
			['oauth_consumer_key', params.get('oauth_consumer_key') === CONSUMER.key],
			['oauth_signature_method', params.get('oauth_signature_method') === 'HMAC-SHA1' && [undefined, '1.0'].includes(params.get('oauth_version'))],
			['oauth_timestamp', Math.abs(Date.now() / 1000 - Number(params.get('oauth_timestamp'))) < 300],
			['oauth_nonce', nonce !== '' && !nonces.has(nonce)],
			['oauth_token', secret !== undefined],
			['oauth_signature', given.length === expected.length && timingSafeEqual(given, Buffer.from(expected))]
		];
		const failed = checks.find(([, ok]) => !ok)?.[0];
		if (failed) {
			refuse(res, 401, `OAuth 1.0a: bad ${failed}`, { errors: [{ code: 32, message: 'Could not authenticate you.' }] });
			return null;
		}
		nonces.add(nonce);
		return params;
	}

	async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
		let body = '';
		for await (const chunk of req) body += chunk;
		return new URLSearchParams(body);
	}

	const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void> = {
		// OAuth 2 (https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code)
		'GET /i/oauth2/authorize'(_req, res, url) {
			const q = url.searchParams;
			if (q.get('response_type') !== 'code' || q.get('client_id') !== CLIENT.id) return refuse(res, 400, 'authorize: bad client');
			if (q.get('redirect_uri') !== CALLBACK) return refuse(res, 400, 'authorize: redirect_uri not registered');
			if (!q.get('state') || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return refuse(res, 400, 'authorize: state and PKCE required');
			if (!q.get('scope')?.split(' ').includes('users.read')) return refuse(res, 400, 'authorize: scope');
			const code = random();
			codes.set(code, { redirectUri: q.get('redirect_uri')!, challenge: q.get('code_challenge')!, user: standIn.user });
			const back = new URL(q.get('redirect_uri')!);
			back.search = new URLSearchParams({ state: q.get('state')!, code }).toString();
			redirect(res, back);
		},
		async 'POST /2/oauth2/token'(req, res) {
			if (standIn.failing.token) return refuse(res, standIn.failing.token, 'token: failing');
			// client_secret_basic: id and secret form-urlencoded, then base64 (RFC 6749 §2.3.1).
			const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
			const [id, password] = Buffer.from(basic, 'base64').toString().split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
			if (id !== CLIENT.id || password !== CLIENT.secret) return refuse(res, 401, 'token: client authentication', { error: 'invalid_client' });
			const form = await readForm(req);
			const grant = codes.get(form.get('code') ?? '');
			codes.delete(form.get('code') ?? '');
			if (form.get('grant_type') !== 'authorization_code' || !grant) return refuse(res, 400, 'token: unknown code');
			if (form.get('redirect_uri') !== grant.redirectUri) return refuse(res, 400, 'token: redirect_uri');
			const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
			if (challenge !== grant.challenge) return refuse(res, 400, 'token: code_verifier does not match the code_challenge');
			const accessToken = random();
			accessTokens.set(accessToken, grant.user);
			send(res, { token_type: 'bearer', expires_in: 7200, access_token: accessToken, scope: 'users.read tweet.read offline.access', refresh_token: random() });
		},
		'GET /2/users/me'(req, res, url) {
			if (standIn.failing.usersMe) return refuse(res, standIn.failing.usersMe, 'users/me: failing', { title: 'Internal Server Error' });
			const user = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
			if (!user) return refuse(res, 401, 'users/me: bearer token', { title: 'Unauthorized' });
			const fields = url.searchParams.get('user.fields')?.split(',') ?? [];
			const data: Record<string, string> = { id: user.id, name: user.name, username: user.username };
			for (const field of fields) if (field !== 'email' && field in user) data[field] = user[field as keyof XUser];
			const pinned = url.searchParams.get('expansions')?.split(',').includes('pinned_tweet_id');
			send(res, pinned ? { data, includes: { tweets: [PINNED] } } : { data });
		},

		// OAuth 1.0a (https://docs.x.com/resources/fundamentals/authentication/oauth-1-0a/obtaining-user-access-tokens)
		'POST /oauth/request_token'(req, res, url) {
			if (standIn.failing.requestToken) return refuse(res, standIn.failing.requestToken, 'request_token: failing', { errors: [{ code: 32 }] });
			const params = verified(req, res, url, (token) => (token === undefined ? '' : undefined));
			if (!params) return;
			const callback = params.get('oauth_callback');
			if (!callback) return refuse(res, 400, 'request_token: no oauth_callback');
			standIn.callbacks.push(callback);
			const token = random();
			temporary.set(token, { secret: random(), callback });
			sendForm(res, { oauth_token: token, oauth_token_secret: temporary.get(token)!.secret, oauth_callback_confirmed: 'true' });
		},
		'GET /oauth/authenticate'(_req, res, url) {
			const token = url.searchParams.get('oauth_token') ?? '';
			const pending = temporary.get(token);
			if (!pending) return refuse(res, 400, 'authenticate: unknown oauth_token');
			Object.assign(pending, { verifier: random(), user: standIn.user });
			const back = new URL(pending.callback);
			back.search = new URLSearchParams({ oauth_token: token, oauth_verifier: pending.verifier! }).toString();
			redirect(res, back);
		},
		'POST /oauth/access_token'(req, res, url) {
			if (standIn.failing.accessToken) return refuse(res, standIn.failing.accessToken, 'access_token: failing');
			const params = verified(req, res, url, (token) => temporary.get(token ?? '')?.secret);
			if (!params) return;
			const pending = temporary.get(params.get('oauth_token')!)!;
			if (!pending.verifier || params.get('oauth_verifier') !== pending.verifier) return refuse(res, 401, 'access_token: oauth_verifier');
			temporary.delete(params.get('oauth_token')!);
			const token = `${pending.user!.id}-${random()}`;
			tokenCredentials.set(token, { secret: random(), user: pending.user! });
			sendForm(res, { oauth_token: token, oauth_token_secret: tokenCredentials.get(token)!.secret, user_id: pending.user!.id, screen_name: pending.user!.username });
		},
		'GET /1.1/account/verify_credentials.json'(req, res, url) {
			if (standIn.failing.verifyCredentials) return refuse(res, standIn.failing.verifyCredentials, 'verify_credentials: failing');
			const params = verified(req, res, url, (token) => tokenCredentials.get(token ?? '')?.secret);
			if (!params) return;
			const { user } = tokenCredentials.get(params.get('oauth_token')!)!;
			const email = url.searchParams.get('include_email') === 'true' && standIn.emailPermission ? { email: user.email } : {};
			send(res, { id: Number(user.id), id_str: user.id, name: user.name, screen_name: user.username, profile_image_url_https: user.profile_image_url, protected: false, verified: false, ...email });
		}
	};

	const server = createServer((req, res) => {
		const url = new URL(req.url!, standIn.origin);
		const route = routes[`${req.method} ${url.pathname}`];
		if (!route) return refuse(res, 404, `no route ${req.method} ${url.pathname}`);
		Promise.resolve(route(req, res, url)).catch((err) => refuse(res, 500, String(err)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const standIn: XStandIn = {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		user: ADA,
		emailPermission: true,
		failing: {},
		rejections: [],
		callbacks: [],
		close: () => new Promise((resolve) => server.close(() => resolve()))
	};
	return standIn;
}

// ---------------------------------------------------------------------------------------------
// Driving the app

let x: XStandIn;
beforeAll(async () => {
	x = await startXStandIn();
});
afterAll(() => x?.close());

const logger = { error: vi.fn() };
const jwt = vi.fn(({ token, account }: { token: JWT; account?: Account; profile?: Record<string, unknown> }) => (account ? { ...token, account } : token));
beforeEach(() => {
	Object.assign(x, { user: ADA, emailPermission: true, failing: {}, rejections: [], callbacks: [] });
	logger.error.mockClear();
	jwt.mockClear();
});

/** The social provider on the stand-in's endpoints, OAuth 2 unless `version: '1.0a'`. */
function social(options: Partial<SocialOptions<SocialProfile>> = {}) {
	const oauth1 = options.version === '1.0a';
	return Social({
		...(oauth1
			? {
					clientId: CONSUMER.key,
					clientSecret: CONSUMER.secret,
					requestToken: `${x.origin}/oauth/request_token`,
					authorization: `${x.origin}/oauth/authenticate`,
					token: `${x.origin}/oauth/access_token`,
					userinfo: `${x.origin}/1.1/account/verify_credentials.json`
				}
			: {
					clientId: CLIENT.id,
					clientSecret: CLIENT.secret,
					authorization: `${x.origin}/i/oauth2/authorize`,
					token: `${x.origin}/2/oauth2/token`,
					userinfo: `${x.origin}/2/users/me`
				}),
		...options
	});
}

function auth(options: Partial<SocialOptions<SocialProfile>> = {}, extra: Partial<SvelteKitAuthConfig> = {}) {
	return SvelteKitAuth({ secret, trustHost: true, logger, callbacks: { jwt }, providers: [social(options)], ...extra });
}
type Auth = ReturnType<typeof auth>;


/** POSTs the sign-in form; returns where the action redirects (the provider, or an error page). */
const start = (a: Auth, jar: Jar) =>
	redirectOf(() => a.signIn(requestEvent(`${ORIGIN}/signin`, jar, { form: { providerId: 'social', redirectTo: '/account' } }) as never));

/** Follows the action's redirect to the stand-in, which approves at once; returns the callback URL it redirects to. */
async function approve(location: string): Promise<URL> {
	const response = await fetch(location, { redirect: 'manual' });
	expect(response.status, await response.clone().text()).toBe(302);
	return new URL(response.headers.get('location')!);
}

/** Sends the browser back to the app: runs `handle` on the callback URL. */
const callback = (a: Auth, jar: Jar, url: URL) =>
	redirectOf(() => a.handle({ event: requestEvent(url.href, jar), resolve: async () => new Response('app') }));

/** The session `locals.auth()` returns for the jar's cookies. */
async function session(a: Auth, jar: Jar) {
	const event: RequestEvent = requestEvent(`${ORIGIN}/`, jar);
	await a.handle({ event, resolve: async () => new Response('app') });
	return (event.locals as unknown as { auth: () => Promise<unknown> }).auth();
}

/** The whole sign-in: form, stand-in, callback; returns where the callback redirects. */
async function signIn(a: Auth, jar = new Jar()) {
	return callback(a, jar, await approve(await start(a, jar)));
}

/** The account and profile the `jwt` callback saw at sign-in. */
const signInCall = () => jwt.mock.calls.find(([arg]) => arg.account)![0] as unknown as { account: Account; profile: SocialProfile };

/** Asserts the flow ended on the sign-in page with `error`, logged, with no session. */
async function expectRejected(a: Auth, jar: Jar, location: string, error: string) {
	expect(location).toBe(`/signin?error=${error}`);
	expect([...jar.values.keys()].filter((name) => name.includes('session-token'))).toEqual([]);
	expect(await session(a, jar)).toBeNull();
	expect(logger.error).toHaveBeenCalled();
}

/** A SQLite file in a fresh temp folder, removed after the test. */
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
function sqliteFile() {
	dir = mkdtempSync(join(tmpdir(), 'create-auth-social-'));
	const filename = join(dir, 'auth.sqlite');
	return { filename, adapter: SQLiteAdapter({ filename }) };
}

// ---------------------------------------------------------------------------------------------

describe('Social(): the built-in config', () => {
	it('defaults to OAuth 2 with PKCE and state on the X endpoints, client_secret_basic, no email', async () => {
		const provider = Social({ clientId: 'c', clientSecret: 's' });
		expect(provider).toMatchObject({
			id: 'social',
			name: 'Social Network',
			type: 'oauth',
			version: '2.0',
			checks: ['pkce', 'state'],
			client: { token_endpoint_auth_method: 'client_secret_basic' },
			authorization: { url: 'https://x.com/i/oauth2/authorize', params: { scope: 'users.read tweet.read offline.access' } },
			token: 'https://api.x.com/2/oauth2/token',
			userinfo: { url: 'https://api.x.com/2/users/me', params: { 'user.fields': 'profile_image_url' } }
		});
		expect(Social({ version: '2.0' })).toMatchObject({ version: '2.0', token: 'https://api.x.com/2/oauth2/token' });
		const profile: SocialProfile = { data: { id: '1', name: 'Ada', username: 'ada', profile_image_url: 'https://i/a.jpg' } };
		expect(await provider.profile!(profile, {})).toEqual({ id: '1', name: 'Ada', email: null, image: 'https://i/a.jpg' });
	});

	it("version '1.0a': the request token, authenticate, access token and verify_credentials endpoints", () => {
		expect(Social({ version: '1.0a', clientId: 'k', clientSecret: 's' })).toMatchObject({
			id: 'social',
			type: 'oauth',
			version: '1.0a',
			requestToken: 'https://api.x.com/oauth/request_token',
			authorization: 'https://api.x.com/oauth/authenticate',
			token: 'https://api.x.com/oauth/access_token',
			userinfo: { url: 'https://api.x.com/1.1/account/verify_credentials.json', params: { include_email: 'true' } }
		});
	});
});

describe('OAuth 2 (the default) against the X stand-in', () => {
	it('signs in: authorization code with PKCE S256 and state, the profile from the data wrapper, no email', async () => {
		const a = auth();
		const jar = new Jar();
		const location = new URL(await start(a, jar));
		expect(location.origin + location.pathname).toBe(`${x.origin}/i/oauth2/authorize`);
		expect(Object.fromEntries(location.searchParams)).toMatchObject({
			response_type: 'code',
			client_id: CLIENT.id,
			redirect_uri: CALLBACK,
			scope: 'users.read tweet.read offline.access',
			code_challenge_method: 'S256',
			state: expect.any(String)
		});
		expect(await callback(a, jar, await approve(location.href))).toBe('/account');
		expect(x.rejections).toEqual([]);
		expect(jar.values.has('auth.oauth-flow')).toBe(false);
		expect(await session(a, jar)).toMatchObject({ user: { id: ADA.id, name: ADA.name, email: null, image: ADA.profile_image_url } });

		const { account, profile } = signInCall();
		expect(account).toMatchObject({ provider: 'social', type: 'oauth', providerAccountId: ADA.id, token_type: 'bearer', scope: 'users.read tweet.read offline.access' });
		expect(account).toEqual(expect.objectContaining({ access_token: expect.any(String), refresh_token: expect.any(String), expires_at: expect.any(Number) }));
		expect(profile).toEqual({ data: { id: ADA.id, name: ADA.name, username: ADA.username, profile_image_url: ADA.profile_image_url } });
	});

	it('asks for more user.fields and the pinned post when the options say so (includes.tweets)', async () => {
		const params = { 'user.fields': 'description,pinned_tweet_id,profile_image_url', expansions: 'pinned_tweet_id' };
		const a = auth({ userinfo: { url: `${x.origin}/2/users/me`, params } });
		expect(await signIn(a)).toBe('/account');
		const { profile } = signInCall();
		expect(profile.data).toMatchObject({ description: ADA.description, pinned_tweet_id: PINNED.id });
		expect(profile.includes).toEqual({ tweets: [PINNED] });
	});

	it('creates users without email through the SQLite adapter, never linking them by email', async () => {
		const { adapter } = sqliteFile();
		await adapter.createUser({ id: 'pw-user', email: 'ada@example.com', emailVerified: null });
		const a = auth({}, { adapter, session: { strategy: 'database' } });
		expect(await signIn(a)).toBe('/account');
		x.user = GRACE;
		expect(await signIn(a)).toBe('/account');
		const ada = await adapter.getUserByAccount({ provider: 'social', providerAccountId: ADA.id });
		const grace = await adapter.getUserByAccount({ provider: 'social', providerAccountId: GRACE.id });
		expect(ada).toMatchObject({ email: null, name: ADA.name });
		expect(grace).toMatchObject({ email: null, name: GRACE.name });
		expect(new Set(['pw-user', ada!.id, grace!.id]).size).toBe(3);
		expect(await adapter.getAccount(ADA.id, 'social')).toMatchObject({ type: 'oauth', token_type: 'bearer', access_token: expect.any(String) });
	});

	it("a stolen code injected into another flow (its own state, another code_verifier) → the token endpoint refuses it → OAuthCallbackError", async () => {
		const a = auth();
		const callbackUrl = await approve(await start(a, new Jar()));
		const attacker = new Jar();
		callbackUrl.searchParams.set('state', new URL(await start(a, attacker)).searchParams.get('state')!);
		await expectRejected(a, attacker, await callback(a, attacker, callbackUrl), 'OAuthCallbackError');
		expect(x.rejections).toEqual(['token: code_verifier does not match the code_challenge']);
	});

	it('a wrong client secret → the token endpoint refuses client_secret_basic → OAuthCallbackError', async () => {
		const a = auth({ clientSecret: 'wrong' });
		const jar = new Jar();
		await expectRejected(a, jar, await signIn(a, jar), 'OAuthCallbackError');
		expect(x.rejections).toEqual(['token: client authentication']);
	});

	it('users/me answering 500 → OAuthCallbackError', async () => {
		x.failing.usersMe = 500;
		const a = auth();
		const jar = new Jar();
		await expectRejected(a, jar, await signIn(a, jar), 'OAuthCallbackError');
		expect(x.rejections).toEqual(['users/me: failing']);
		expect(String(logger.error.mock.calls[0]![0].cause.err)).toMatch(/users\/me answered 500/);
	});

	it('error=access_denied from the authorization page → AccessDenied', async () => {
		const a = auth();
		const jar = new Jar();
		const state = new URL(await start(a, jar)).searchParams.get('state')!;
		const denied = new URL(CALLBACK);
		denied.search = new URLSearchParams({ error: 'access_denied', state }).toString();
		await expectRejected(a, jar, await callback(a, jar, denied), 'AccessDenied');
	});
});

describe("OAuth 1.0a (version: '1.0a') against the X stand-in, signatures verified", () => {
	it('signs in: request token with oauth_callback, authenticate, access token, verify_credentials with the email', async () => {
		const a = auth({ version: '1.0a' });
		const jar = new Jar();
		const location = new URL(await start(a, jar));
		expect(location.origin + location.pathname).toBe(`${x.origin}/oauth/authenticate`);
		expect(x.callbacks).toEqual([CALLBACK]);

		const flowCookie = jar.writes.find((w) => w.name === 'auth.oauth-flow')!;
		expect(flowCookie.options).toMatchObject({ httpOnly: true, maxAge: 900, path: '/auth', sameSite: 'lax' });
		expect(flowCookie.value).not.toContain(location.searchParams.get('oauth_token')!); // encrypted

		expect(await callback(a, jar, await approve(location.href))).toBe('/account');
		expect(x.rejections).toEqual([]);
		expect(jar.values.has('auth.oauth-flow')).toBe(false);
		expect(await session(a, jar)).toMatchObject({ user: { id: ADA.id, name: ADA.name, email: ADA.email, image: ADA.profile_image_url } });

		const { account, profile } = signInCall();
		expect(account).toEqual({
			provider: 'social',
			type: 'oauth',
			providerAccountId: ADA.id,
			userId: ADA.id,
			oauth_token: expect.stringMatching(new RegExp(`^${ADA.id}-`)),
			oauth_token_secret: expect.any(String)
		});
		expect(profile).toEqual({
			data: { id: ADA.id, name: ADA.name, username: ADA.username, profile_image_url: ADA.profile_image_url, email: ADA.email, protected: false, verified: false }
		});
	});

	it('stores oauth_token and oauth_token_secret through the SQLite adapter; no email without the permission', async () => {
		x.emailPermission = false;
		const { adapter, filename } = sqliteFile();
		const a = auth({ version: '1.0a' }, { adapter, session: { strategy: 'database' } });
		const jar = new Jar();
		expect(await signIn(a, jar)).toBe('/account');
		const user = await adapter.getUserByAccount({ provider: 'social', providerAccountId: ADA.id });
		expect(user).toMatchObject({ email: null, name: ADA.name });
		expect(await session(a, jar)).toMatchObject({ user: { id: user!.id, email: null } });

		const db = new Database(filename, { readonly: true });
		const row = db.prepare("SELECT * FROM auth_accounts WHERE provider = 'social'").get() as Record<string, unknown>;
		db.close();
		expect(row).toMatchObject({ userId: user!.id, type: 'oauth', providerAccountId: ADA.id, access_token: null, refresh_token: null });
		expect(row.oauth_token).toEqual(expect.stringMatching(new RegExp(`^${ADA.id}-`)));
		expect(row.oauth_token_secret).toEqual(expect.any(String));
	});

	it('a flow started over OAuth 2 does not finish an OAuth 1.0a callback → InvalidCheck', async () => {
		const jar = new Jar();
		const state = new URL(await start(auth(), jar)).searchParams.get('state')!;
		const a = auth({ version: '1.0a' });
		const forged = new URL(CALLBACK);
		forged.search = new URLSearchParams({ oauth_token: state, oauth_verifier: 'v' }).toString();
		await expectRejected(a, jar, await callback(a, jar, forged), 'InvalidCheck');
	});

	it('denied at the provider (denied=<oauth_token>) → AccessDenied', async () => {
		const a = auth({ version: '1.0a' });
		const jar = new Jar();
		const denied = new URL(CALLBACK);
		denied.searchParams.set('denied', new URL(await start(a, jar)).searchParams.get('oauth_token')!);
		await expectRejected(a, jar, await callback(a, jar, denied), 'AccessDenied');
	});

	it('a wrong oauth_verifier → the access token endpoint refuses → OAuthCallbackError', async () => {
		const a = auth({ version: '1.0a' });
		const jar = new Jar();
		const callbackUrl = await approve(await start(a, jar));
		callbackUrl.searchParams.set('oauth_verifier', 'guessed');
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'OAuthCallbackError');
		expect(x.rejections).toEqual(['access_token: oauth_verifier']);
	});

	it.each([
		['answers 401', () => (x.failing.requestToken = 401), 'request_token: failing'],
		['refuses a signature made with the wrong consumer secret', () => {}, 'OAuth 1.0a: bad oauth_signature']
	])('the request token endpoint %s → OAuthSignInError, no flow started', async (_, setUp, rejection) => {
		setUp();
		const a = auth({ version: '1.0a', ...(rejection.includes('signature') ? { clientSecret: 'wrong' } : {}) });
		const jar = new Jar();
		expect(await start(a, jar)).toBe('/signin?error=OAuthSignInError&callbackUrl=%2Faccount');
		expect(jar.values.size).toBe(0);
		expect(x.rejections).toEqual([rejection]);
		expect(logger.error).toHaveBeenCalled();
	});

	it('verify_credentials answering 500 → OAuthCallbackError', async () => {
		x.failing.verifyCredentials = 500;
		const a = auth({ version: '1.0a' });
		const jar = new Jar();
		await expectRejected(a, jar, await signIn(a, jar), 'OAuthCallbackError');
	});
});

describe('either version: a callback this browser did not start → InvalidCheck, nothing exchanged', () => {
	it.each([
		['2.0', 'state'],
		['1.0a', 'oauth_token']
	] as const)('%s: a tampered %s', async (version, param) => {
		const a = auth({ version });
		const jar = new Jar();
		const callbackUrl = await approve(await start(a, jar));
		callbackUrl.searchParams.set(param, 'forged');
		await expectRejected(a, jar, await callback(a, jar, callbackUrl), 'InvalidCheck');
		expect(x.rejections).toEqual([]);
	});

	it.each(['2.0', '1.0a'] as const)('%s: no flow cookie', async (version) => {
		const a = auth({ version });
		const callbackUrl = await approve(await start(a, new Jar()));
		const fresh = new Jar();
		await expectRejected(a, fresh, await callback(a, fresh, callbackUrl), 'InvalidCheck');
		expect(x.rejections).toEqual([]);
	});
});
