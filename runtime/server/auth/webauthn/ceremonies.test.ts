import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SoftAuthenticator, type CeremonyOverrides } from '../../../test/authenticator.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { freezeDate } from '../../../test/clock.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import { UNTRUSTED_HOST_WARNING, type SvelteKitAuthConfig } from '../config.js';
import { MissingAdapter, WebAuthnVerificationError } from '../errors.js';
import { SvelteKitAuth } from '../kit.js';
import Passkey from '../providers/passkey.js';
import { MAX_OPEN_CHALLENGES_PER_CLIENT } from './challenges.js';
import { memoryRateLimitStore } from '../limits/rate-limit.js';

const secret = 's'.repeat(32);
const ORIGIN = 'http://localhost:5173';
const logger = { error: vi.fn() };
beforeEach(() => logger.error.mockClear());

function app(extra: Partial<SvelteKitAuthConfig> = {}, adapter: Adapter = MemoryAdapter()) {
	const config = { secret, logger, adapter, trustHost: true, providers: [Passkey()], rateLimit: { store: memoryRateLimitStore() }, ...extra };
	return { adapter, auth: SvelteKitAuth(config) };
}
type Auth = ReturnType<typeof app>['auth'];

/**
 * GET of the options route, as the page's script sends it; the JSON and the status. The jar
 * gets only the response's own Set-Cookie headers: SvelteKit adds cookies.set() to responses
 * made by resolve(), not to one that handle returns itself.
 */
async function optionsOf(auth: Auth, jar: Jar, query: Record<string, string> = {}, clientAddress?: string) {
	const request = new Jar();
	for (const [name, value] of jar.values) request.values.set(name, value);
	const event = requestEvent(`${ORIGIN}/auth/webauthn-options/passkey?${new URLSearchParams(query)}`, request, { clientAddress });
	const response = await auth.handle({ event, resolve: async () => new Response('the app', { status: 404 }) });
	jar.receive(response);
	return { status: response.status, body: await response.json(), headers: response.headers };
}

/** The sign-in form's POST of a ceremony's response. */
function post(auth: Auth, jar: Jar, action: 'register' | 'authenticate', response: unknown, extra: Record<string, string> = {}) {
	const form = { providerId: 'passkey', action, response: typeof response === 'string' ? response : JSON.stringify(response), ...extra };
	return actionOutcome(auth.signIn, requestEvent(`${ORIGIN}/signin`, jar, { form }));
}

/** locals.auth() of a request with the jar's cookies. */
async function sessionOf(auth: Auth, jar: Jar) {
	const event = requestEvent(`${ORIGIN}/`, jar);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	return (event.locals as { auth(): Promise<{ user?: { id?: string; email?: string | null } } | null> }).auth();
}

const signedIn = (jar: Jar) => jar.values.has('auth.session-token');

/** Minimal creation options, for a passkey made outside the app. */
const creationOptions = (rpId: string): PublicKeyCredentialCreationOptionsJSON => ({
	challenge: 'AAAA',
	rp: { id: rpId, name: rpId },
	user: { id: 'someone', name: 'someone', displayName: 'someone' },
	pubKeyCredParams: [{ type: 'public-key', alg: -7 }]
});

/** Signs a new user up: options for `email`, a passkey made, its response posted. */
async function signUp(auth: Auth, device: SoftAuthenticator, email: string) {
	const jar = new Jar();
	const { body } = await optionsOf(auth, jar, { action: 'register', email });
	const outcome = await post(auth, jar, 'register', device.register(body as PublicKeyCredentialCreationOptionsJSON), { redirectTo: '/welcome' });
	return { jar, outcome };
}

/** A sign-in with the device's passkey; `overrides` fake one part of the response. */
async function signIn(auth: Auth, device: SoftAuthenticator, overrides: CeremonyOverrides = {}) {
	const jar = new Jar();
	const { body } = await optionsOf(auth, jar);
	const outcome = await post(auth, jar, 'authenticate', device.authenticate(body as PublicKeyCredentialRequestOptionsJSON, overrides));
	return { jar, outcome };
}

describe('passkey sign-up', () => {
	it('stores the user, a webauthn account and the authenticator (base64 id and key, transports), and signs the user in', async () => {
		const { auth, adapter } = app();
		const device = new SoftAuthenticator(ORIGIN);
		const { jar, outcome } = await signUp(auth, device, ' Ada@Example.com ');
		expect(outcome).toEqual({ redirect: '/welcome' });
		expect(await sessionOf(auth, jar)).toMatchObject({ user: { email: 'ada@example.com' } });
		const user = (await adapter.getUserByEmail!('ada@example.com'))!;
		expect(user.emailVerified).toBeNull();
		// The passkey's user handle (WebAuthn user.id) is the new user's id.
		expect(Buffer.from(device.credentials[0]!.userHandle, 'base64url').toString()).toBe(user.id);
		const credentialID = device.credentials[0]!.id.toString('base64');
		expect(await adapter.listAuthenticatorsByUserId!(user.id)).toEqual([
			{
				credentialID,
				credentialPublicKey: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
				counter: 0,
				credentialDeviceType: 'singleDevice',
				credentialBackedUp: false,
				transports: 'internal,hybrid',
				providerAccountId: credentialID,
				userId: user.id,
				// The account page's details: the test authenticator's all-zero AAGUID, when it was added.
				name: null,
				aaguid: '00000000-0000-0000-0000-000000000000',
				createdAt: expect.any(Date),
				lastUsedAt: null
			}
		]);
		expect(await adapter.getUserByAccount!({ provider: 'passkey', providerAccountId: credentialID })).toMatchObject({ id: user.id });
	});

	it('offers options for the app origin: its hostname as relying party, resident key and user verification required, not cached', async () => {
		const { auth } = app();
		const jar = new Jar();
		const { status, body, headers } = await optionsOf(auth, jar, { action: 'register', email: 'ada@example.com' });
		expect(status).toBe(200);
		expect(headers.get('cache-control')).toBe('no-store');
		expect(body).toMatchObject({
			rp: { id: 'localhost', name: 'localhost' },
			user: { name: 'ada@example.com' },
			attestation: 'none',
			authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
			timeout: 60000
		});
		expect(jar.writes.at(-1)).toMatchObject({ name: 'auth.webauthn-challenge', options: { 'Max-Age': '300', Path: '/' } });
		expect(jar.writes.at(-1)!.value).not.toContain(body.challenge);
	});

	it('refuses options for a malformed address (400) and for one that has an account (409), storing nothing', async () => {
		const { auth } = app();
		await signUp(auth, new SoftAuthenticator(ORIGIN), 'ada@example.com');
		const jar = new Jar();
		expect(await optionsOf(auth, jar, { action: 'register', email: 'not an address' })).toMatchObject({ status: 400, body: { error: 'InvalidEmail' } });
		expect(await optionsOf(auth, jar, { action: 'register', email: 'ADA@example.com' })).toMatchObject({ status: 409, body: { error: 'EmailInUse' } });
		expect(jar.values.size).toBe(0);
	});

	it.each([
		['another origin', { origin: 'https://evil.example' }],
		['another relying party id', { rpId: 'evil.example' }],
		['no user verification', { userVerified: false }],
		['another challenge', { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }]
	] as [string, CeremonyOverrides][])('refuses a registration with %s, creating no user', async (_, fake) => {
		const { auth, adapter } = app();
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar, { action: 'register', email: 'ada@example.com' });
		expect(await post(auth, jar, 'register', new SoftAuthenticator(ORIGIN).register(body, fake))).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		expect(signedIn(jar)).toBe(false);
		expect(await adapter.getUserByEmail!('ada@example.com')).toBeNull();
	});

	it('counts sign-ups against the per-client limit', async () => {
		const { auth, adapter } = app({ rateLimit: { store: memoryRateLimitStore(), signUp: { perClient: { max: 1, windowSeconds: 3600 } } } });
		const device = new SoftAuthenticator(ORIGIN);
		expect((await signUp(auth, device, 'ada@example.com')).outcome).toEqual({ redirect: '/welcome' });
		const second = await signUp(auth, device, 'eve@example.com');
		expect(second.outcome).toMatchObject({ status: 429, data: { error: 'RateLimited' } });
		expect(await adapter.getUserByEmail!('eve@example.com')).toBeNull();
	});
});

describe('passkey sign-in', () => {
	it('signs the passkey’s user in and stores the rising counter and the time of each use', async () => {
		const { auth, adapter } = app();
		const device = new SoftAuthenticator(ORIGIN);
		await signUp(auth, device, 'ada@example.com');
		const credentialID = device.credentials[0]!.id.toString('base64');
		for (const expected of [1, 2]) {
			const before = Date.now();
			const { jar, outcome } = await signIn(auth, device);
			expect(outcome).toEqual({ redirect: '/' });
			expect(await sessionOf(auth, jar)).toMatchObject({ user: { email: 'ada@example.com' } });
			const stored = await adapter.getAuthenticator!(credentialID);
			expect(stored?.counter).toBe(expected);
			expect(stored?.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(before);
		}
	});

	it('offers discoverable-credential options: no allowCredentials, user verification required', async () => {
		const { auth } = app();
		const { body } = await optionsOf(auth, new Jar());
		expect(body).toMatchObject({ rpId: 'localhost', userVerification: 'required', timeout: 60000 });
		expect(body.allowCredentials ?? []).toEqual([]);
	});

	it('accepts a synced passkey whose counter stays 0', async () => {
		const { auth } = app();
		const synced = new SoftAuthenticator(ORIGIN, { counter: false });
		await signUp(auth, synced, 'ada@example.com');
		expect((await signIn(auth, synced)).outcome).toEqual({ redirect: '/' });
		expect((await signIn(auth, synced)).outcome).toEqual({ redirect: '/' });
	});

	// Each row fakes one part of an otherwise valid assertion; each must be refused by our flow.
	const refusals: [string, CeremonyOverrides | 'replay' | 'unknown' | 'no-cookie' | 'malformed'][] = [
		['another origin', { origin: 'https://evil.example' }],
		['another relying party id', { rpId: 'evil.example' }],
		['another challenge', { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
		['no user verification', { userVerified: false }],
		['a registration’s clientData type', { type: 'webauthn.create' }],
		['a counter that did not go up (a cloned authenticator)', { counter: 1 }],
		['a response replayed with its challenge cookie', 'replay'],
		['a passkey the adapter does not know', 'unknown'],
		['no challenge cookie', 'no-cookie'],
		['a response that is not JSON', 'malformed']
	];
	it.each(refusals)('refuses %s with WebAuthnVerificationError and no session', async (_, fake) => {
		const { auth } = app();
		const device = new SoftAuthenticator(ORIGIN);
		await signUp(auth, device, 'ada@example.com');
		expect((await signIn(auth, device)).outcome).toEqual({ redirect: '/' }); // the stored counter is 1 now
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar);
		let response: unknown;
		if (fake === 'replay') {
			const challengeCookie = jar.values.get('auth.webauthn-challenge')!;
			response = device.authenticate(body);
			expect(await post(auth, new Jar(), 'authenticate', response).catch(() => undefined)).toMatchObject({ redirect: '/signin?error=WebAuthnVerificationError' });
			expect(await post(auth, jar, 'authenticate', response)).toEqual({ redirect: '/' });
			jar.values.clear();
			jar.values.set('auth.webauthn-challenge', challengeCookie);
		} else if (fake === 'unknown') {
			const stranger = new SoftAuthenticator(ORIGIN);
			stranger.register(creationOptions('localhost'));
			response = stranger.authenticate(body);
		} else if (fake === 'no-cookie') {
			response = device.authenticate(body);
			jar.values.clear();
		} else if (fake === 'malformed') {
			response = '{"id":';
		} else {
			response = device.authenticate(body, fake);
		}
		const outcome = await post(auth, jar, 'authenticate', response);
		expect(outcome).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		expect(signedIn(jar)).toBe(false);
		expect(logger.error.mock.calls.at(-1)![0]).toBeInstanceOf(WebAuthnVerificationError);
	});

	it('refuses a registration response posted as an authentication (the ceremony cookie says which)', async () => {
		const { auth } = app();
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar, { action: 'register', email: 'ada@example.com' });
		const outcome = await post(auth, jar, 'authenticate', new SoftAuthenticator(ORIGIN).register(body));
		expect(outcome).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(/ceremony started was a register/);
	});
});

/** A jar holding only `jar`'s ceremony cookie: what an attacker captured with the posted response. */
const capturedCookie = (jar: Jar) => {
	const captured = new Jar();
	captured.values.set('auth.webauthn-challenge', jar.values.get('auth.webauthn-challenge')!);
	return captured;
};

/** What the flow logs when a challenge comes back a second time (or after its 5 minutes). */
const USED_CHALLENGE = /challenge was used already or expired/;

// W3C WebAuthn Level 3 §13.4.3 (Cryptographic Challenges): a challenge is good for one ceremony,
// "to prevent replay attacks"; OWASP ASVS 5.0 V6.7.2 (challenge nonce unique). @simplewebauthn/server
// compares the challenge with the one we pass it, which comes from the cookie the attacker
// replays too: only a server-side record of the challenge can tell it was used.
describe('single-use challenges (W3C WebAuthn §13.4.3, OWASP ASVS 5.0 V6.7.2)', () => {
	afterEach(() => vi.useRealTimers());

	it.each([
		['a synced passkey whose counter stays 0', false],
		['a device-bound passkey with a counter', true]
	])('refuses an assertion replayed with its challenge cookie within the 5 minutes: %s', async (_, counter) => {
		const { auth, adapter } = app();
		const device = new SoftAuthenticator(ORIGIN, { counter });
		await signUp(auth, device, 'ada@example.com');
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar);
		const response = device.authenticate(body);
		const captured = capturedCookie(jar);
		expect(await post(auth, jar, 'authenticate', response)).toEqual({ redirect: '/' });

		const getAuthenticator = vi.spyOn(adapter, 'getAuthenticator');
		const replay = await post(auth, captured, 'authenticate', response);
		expect(replay).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		expect(signedIn(captured)).toBe(false);
		// Refused by our flow before @simplewebauthn/server (or the counter) looked at it.
		expect(logger.error.mock.calls.at(-1)![0]).toBeInstanceOf(WebAuthnVerificationError);
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(USED_CHALLENGE);
		expect(getAuthenticator).not.toHaveBeenCalled();
	});

	it('signs in exactly one of two copies of an assertion posted at the same time (a replay racing the real post)', async () => {
		const { auth } = app();
		const device = new SoftAuthenticator(ORIGIN, { counter: false });
		await signUp(auth, device, 'ada@example.com');
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar);
		const response = device.authenticate(body);
		const outcomes = await Promise.all([post(auth, capturedCookie(jar), 'authenticate', response), post(auth, capturedCookie(jar), 'authenticate', response)]);
		expect(outcomes).toEqual(expect.arrayContaining([{ redirect: '/' }, { redirect: '/signin?error=WebAuthnVerificationError' }]));
	});

	it('refuses a registration replayed with its challenge cookie: a new account’s and a signed-in user’s', async () => {
		const { auth, adapter } = app();
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar, { action: 'register', email: 'ada@example.com' });
		const response = new SoftAuthenticator(ORIGIN, { counter: false }).register(body);
		const captured = capturedCookie(jar);
		expect(await post(auth, jar, 'register', response)).toEqual({ redirect: '/' });
		const user = (await adapter.getUserByEmail!('ada@example.com'))!;
		await adapter.deleteUser!(user.id); // the address is free again: only the used challenge can refuse the replay
		expect(await post(auth, captured, 'register', response)).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(USED_CHALLENGE);
		expect(await adapter.getUserByEmail!('ada@example.com')).toBeNull();

		const { jar: session } = await signUp(auth, new SoftAuthenticator(ORIGIN), 'bob@example.com');
		const bob = (await adapter.getUserByEmail!('bob@example.com'))!;
		const added = await optionsOf(auth, session, { action: 'register' });
		const laptop = new SoftAuthenticator(ORIGIN).register(added.body);
		const replayed = capturedCookie(session);
		replayed.values.set('auth.session-token', session.values.get('auth.session-token')!);
		expect(await post(auth, session, 'register', laptop, { redirectTo: '/account' })).toEqual({ redirect: '/account' });
		expect(await post(auth, replayed, 'register', laptop, { redirectTo: '/account' })).toEqual({ redirect: '/signin?error=WebAuthnVerificationError&callbackUrl=%2Faccount' });
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(USED_CHALLENGE);
		expect(await adapter.listAuthenticatorsByUserId!(bob.id)).toHaveLength(2);
	});

	it('stores only the SHA-256 of the challenge, under webauthn-challenge:<provider id>, for the ceremony’s 5 minutes, and its use deletes it', async () => {
		vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), toFake: ['Date'] });
		const { auth, adapter } = app();
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const use = vi.spyOn(adapter, 'useVerificationToken');
		const device = new SoftAuthenticator(ORIGIN, { counter: false });
		await signUp(auth, device, 'ada@example.com');
		const jar = new Jar();
		const { body } = await optionsOf(auth, jar);
		const stored = { identifier: 'webauthn-challenge:passkey', token: createHash('sha256').update(body.challenge).digest('hex'), expires: new Date('2026-03-01T10:05:00Z') };
		expect(create).toHaveBeenLastCalledWith(stored);
		expect(await post(auth, jar, 'authenticate', device.authenticate(body))).toEqual({ redirect: '/' });
		expect(use).toHaveBeenLastCalledWith({ identifier: stored.identifier, token: stored.token });
		expect(await use.mock.results.at(-1)!.value).toEqual(stored);
		expect(await adapter.useVerificationToken!({ identifier: stored.identifier, token: stored.token })).toBeNull();
	});

	it('deletes the rows of abandoned ceremonies once their 5 minutes are over (no pile-up)', async () => {
		vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), toFake: ['Date'] });
		const { auth, adapter } = app();
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const use = vi.spyOn(adapter, 'useVerificationToken');
		for (let i = 0; i < 3; i++) await optionsOf(auth, new Jar());
		const abandoned = create.mock.calls.map(([token]) => token.token);
		expect(abandoned).toHaveLength(3);
		vi.setSystemTime(new Date('2026-03-01T10:05:01Z'));
		await optionsOf(auth, new Jar());
		const swept = use.mock.calls.map(([token]) => token.token);
		expect(swept).toEqual(abandoned);
		for (const [{ identifier, token }] of create.mock.calls.slice(0, 3)) expect(await adapter.useVerificationToken!({ identifier, token })).toBeNull();
	});

	it('answers options with 503 and sets no cookie when the challenge cannot be stored; a response whose challenge cannot be checked signs no one in', async () => {
		const adapter = MemoryAdapter();
		const { auth } = app({}, adapter);
		const device = new SoftAuthenticator(ORIGIN, { counter: false });
		await signUp(auth, device, 'ada@example.com');
		vi.spyOn(adapter, 'createVerificationToken').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
		const jar = new Jar();
		expect(await optionsOf(auth, jar)).toMatchObject({ status: 503, body: { error: 'AdapterError' } });
		expect(jar.values.size).toBe(0);
		const { body } = await optionsOf(auth, jar);
		vi.spyOn(adapter, 'useVerificationToken').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
		expect(await post(auth, jar, 'authenticate', device.authenticate(body))).toEqual({ redirect: '/signin?error=AdapterError' });
		expect(signedIn(jar)).toBe(false);
	});

	it('caps the challenges one client address holds at once, so the unauthenticated options route cannot fill the table', async () => {
		vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), toFake: ['Date'] });
		const { auth, adapter } = app();
		const create = vi.spyOn(adapter, 'createVerificationToken');
		for (let i = 0; i < MAX_OPEN_CHALLENGES_PER_CLIENT; i++) expect((await optionsOf(auth, new Jar(), {}, '203.0.113.9')).status).toBe(200);
		const refused = await optionsOf(auth, new Jar(), {}, '203.0.113.9');
		expect(refused).toMatchObject({ status: 429, body: { error: 'RateLimited' } });
		expect(refused.headers.get('retry-after')).toBe('300');
		expect(create).toHaveBeenCalledTimes(MAX_OPEN_CHALLENGES_PER_CLIENT);
		expect((await optionsOf(auth, new Jar(), {}, '198.51.100.7')).status).toBe(200);
		vi.setSystemTime(new Date('2026-03-01T10:05:01Z'));
		expect((await optionsOf(auth, new Jar(), {}, '203.0.113.9')).status).toBe(200);
	});
});

describe('a signed-in user adding a passkey', () => {
	it('adds it to their account (their passkeys excluded from the options), and either passkey signs them in', async () => {
		const { auth, adapter } = app();
		const phone = new SoftAuthenticator(ORIGIN);
		const { jar } = await signUp(auth, phone, 'ada@example.com');
		const user = (await adapter.getUserByEmail!('ada@example.com'))!;
		const { body } = await optionsOf(auth, jar, { action: 'register', email: 'ignored@example.com' });
		expect(body.user.name).toBe('ada@example.com');
		expect(body.excludeCredentials).toEqual([{ id: phone.credentials[0]!.id.toString('base64url'), type: 'public-key', transports: ['internal', 'hybrid'] }]);
		const laptop = new SoftAuthenticator(ORIGIN);
		expect(await post(auth, jar, 'register', laptop.register(body), { redirectTo: '/account' })).toEqual({ redirect: '/account' });
		expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(2);
		expect(await adapter.getUserByEmail!('ignored@example.com')).toBeNull();
		for (const device of [phone, laptop]) expect(await sessionOf(auth, (await signIn(auth, device)).jar)).toMatchObject({ user: { id: user.id } });
	});

	it('refuses the registration when the session changed between options and response', async () => {
		const { auth, adapter } = app();
		const { jar } = await signUp(auth, new SoftAuthenticator(ORIGIN), 'ada@example.com');
		const { body } = await optionsOf(auth, jar, { action: 'register' });
		jar.values.delete('auth.session-token');
		expect(await post(auth, jar, 'register', new SoftAuthenticator(ORIGIN).register(body))).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		const user = (await adapter.getUserByEmail!('ada@example.com'))!;
		expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(1);
	});
});

describe('a signed-in user adding a passkey after session.freshAge', () => {
	// OWASP ASVS 5.0 7.5.1: a stolen session cookie must not register its holder's passkey, a way
	// in that would outlast the session.
	it('is refused at the options (401 ReauthenticationRequired) and at the response, nothing stored', async () => {
		freezeDate('2026-11-28T10:00:00Z');
		const { auth, adapter } = app({ session: { freshAge: 60 } });
		const { jar } = await signUp(auth, new SoftAuthenticator(ORIGIN), 'ada@example.com');
		const user = (await adapter.getUserByEmail!('ada@example.com'))!;
		const { body } = await optionsOf(auth, jar, { action: 'register' });
		// Within the ceremony's 5 minutes, past the sign-in's freshAge.
		vi.setSystemTime(Date.parse('2026-11-28T10:01:01Z'));
		expect(await optionsOf(auth, jar, { action: 'register' })).toMatchObject({ status: 401, body: { error: 'ReauthenticationRequired' } });
		// Options fetched while the sign-in was recent, the response posted after: refused too.
		expect(await post(auth, jar, 'register', new SoftAuthenticator(ORIGIN).register(body))).toEqual({ redirect: '/signin?error=WebAuthnVerificationError' });
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('more than session.freshAge after signing in') }));
		expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(1);
	});

	it('mails a notice to the user when a passkey is added', async () => {
		const mailer = vi.fn(async () => undefined);
		const { auth } = app({ mailer });
		const { jar } = await signUp(auth, new SoftAuthenticator(ORIGIN), 'ada@example.com');
		expect(mailer).not.toHaveBeenCalled();
		const { body } = await optionsOf(auth, jar, { action: 'register' });
		await post(auth, jar, 'register', new SoftAuthenticator(ORIGIN).register(body));
		expect(mailer).toHaveBeenCalledWith(expect.objectContaining({ to: 'ada@example.com', subject: 'A passkey was added to your account on localhost:5173', text: expect.stringContaining('A passkey was added to your account: it signs in from now on.') }));
	});
});

describe('configuration and failures', () => {
	it('fails at startup with MissingAdapter naming the authenticator methods an adapter lacks', () => {
		const { createAuthenticator: _c, getAuthenticator: _g, ...adapter } = MemoryAdapter();
		expect(() => app({}, adapter)).toThrow(MissingAdapter);
		expect(() => app({}, adapter)).toThrow(/passkey provider needs an adapter with createAuthenticator\(\), getAuthenticator\(\)/);
	});

	it('takes the relying party from AUTH_URL, or as configured', async () => {
		const fromUrl = app({ trustHost: false, url: 'https://app.example.com' }).auth;
		expect((await optionsOf(fromUrl, new Jar())).body.rpId).toBe('app.example.com');
		const configured = app({ providers: [Passkey({ relyingParty: { id: 'example.com', name: 'Example', origin: 'https://app.example.com' } })] }).auth;
		expect((await optionsOf(configured, new Jar(), { action: 'register', email: 'ada@example.com' })).body.rp).toEqual({ id: 'example.com', name: 'Example' });
	});

	it('works without AUTH_URL on localhost (vite preview); on another host it says what to set in one line, once, and answers JSON', async () => {
		const quiet = { error: vi.fn(), warn: vi.fn() };
		const { auth } = app({ trustHost: false, logger: quiet });
		expect((await optionsOf(auth, new Jar())).body.rpId).toBe('localhost');
		const optionsOn = async (host: string) => {
			const response = await auth.handle({ event: requestEvent(`http://${host}/auth/webauthn-options/passkey`, new Jar()), resolve: async () => new Response('the app') });
			return { status: response.status, body: await response.json() };
		};
		for (const host of ['app.example:4173', 'forged-1.example', 'forged-2.example']) {
			expect(await optionsOn(host)).toEqual({ status: 500, body: { error: 'UntrustedHost', message: 'Passkeys are not set up right on this server.' } });
		}
		expect(quiet.error).not.toHaveBeenCalled();
		expect(quiet.warn.mock.calls).toEqual([[UNTRUSTED_HOST_WARNING]]);
	});

	it('answers options with 503 JSON while the store is down, logging the cause', async () => {
		const adapter = MemoryAdapter();
		vi.spyOn(adapter, 'getUserByEmail').mockRejectedValue(new Error('connect ECONNREFUSED'));
		const { auth } = app({}, adapter);
		const answer = await optionsOf(auth, new Jar(), { action: 'register', email: 'ada@example.com' });
		expect(answer).toMatchObject({ status: 503, body: { error: 'AdapterError', message: expect.stringMatching(/unavailable/) } });
		expect(JSON.stringify(answer.body)).not.toContain('ECONNREFUSED');
		expect(logger.error.mock.calls.at(-1)![0].message).toMatch(/getUserByEmail\(\) failed: connect ECONNREFUSED/);
	});

	it('deletes the new user again when storing the authenticator fails', async () => {
		const adapter = MemoryAdapter();
		vi.spyOn(adapter, 'createAuthenticator').mockRejectedValueOnce(new Error('disk full'));
		const { auth } = app({}, adapter);
		const { jar, outcome } = await signUp(auth, new SoftAuthenticator(ORIGIN), 'ada@example.com');
		expect(outcome).toEqual({ redirect: '/signin?error=AdapterError&callbackUrl=%2Fwelcome' });
		expect(signedIn(jar)).toBe(false);
		expect(await adapter.getUserByEmail!('ada@example.com')).toBeNull();
	});

	it('leaves paths it does not know to the app: another provider id, a POST', async () => {
		const { auth } = app();
		const other = requestEvent(`${ORIGIN}/auth/webauthn-options/nope`, new Jar());
		expect((await auth.handle({ event: other, resolve: async () => new Response('the app', { status: 404 }) })).status).toBe(404);
		const posted = requestEvent(`${ORIGIN}/auth/webauthn-options/passkey`, new Jar(), { body: '' });
		expect((await auth.handle({ event: posted, resolve: async () => new Response('the app', { status: 404 }) })).status).toBe(404);
	});
});
