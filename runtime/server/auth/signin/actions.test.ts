import { beforeEach, describe, expect, it, vi } from 'vitest';
import { actionOutcome, Jar, redirectOf, requestEvent, type ActionOutcome } from '../../../test/event.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { RateLimited } from '../errors.js';
import { SvelteKitAuth } from '../kit.js';
import Credentials from '../providers/credentials.js';
import { memoryRateLimitStore, type RateLimitStore } from '../limits/rate-limit.js';

const secret = 's'.repeat(32);
const ada = { id: 'u1', name: null, email: 'ada@example.com', image: null };
const logger = { error: vi.fn() };
const authorize = vi.fn(async (credentials: Partial<Record<string, unknown>>) => (credentials.password === 'right' ? ada : null));

beforeEach(() => {
	logger.error.mockClear();
	authorize.mockClear();
});

/** An app whose limits are 3 failed sign-ins per email and 5 per client in a minute, on a fresh store. */
const app = (rateLimit: SvelteKitAuthConfig['rateLimit'] = { store: memoryRateLimitStore(), signIn: { perEmail: { max: 3, windowSeconds: 60 }, perClient: { max: 5, windowSeconds: 60 } } }) =>
	SvelteKitAuth({ secret, logger, providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })], rateLimit });

/** One sign-in POST; a redirect (success or a failed sign-in) or an answer of the page itself. */
function signIn(auth: ReturnType<typeof app>, email: string, password: string, clientAddress = '192.0.2.1'): Promise<ActionOutcome> {
	return actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { email, password }, clientAddress }));
}

const FAILED = { redirect: '/signin?error=CredentialsSignin&code=credentials' };

describe('the signIn action under rate limits', () => {
	it('answers the 4th failed attempt for an email with 429, Retry-After and the message, without calling authorize', async () => {
		const auth = app();
		for (let i = 0; i < 3; i++) expect(await signIn(auth, 'ada@example.com', 'wrong')).toEqual(FAILED);
		expect(await signIn(auth, ' ADA@example.com ', 'wrong')).toEqual({
			status: 429,
			data: { error: 'RateLimited', message: 'Too many attempts. Try again in 1 minute.', email: ' ADA@example.com ' },
			headers: { 'retry-after': '60' }
		});
		expect(authorize).toHaveBeenCalledTimes(3);
		// Locked for this email, the right password included, until the window ends; others are not.
		expect(await signIn(auth, 'ada@example.com', 'right')).toMatchObject({ status: 429 });
		expect(await signIn(auth, 'bob@example.com', 'wrong', '198.51.100.2')).toEqual(FAILED);
	});

	it('clears the email’s failed count after a successful sign-in', async () => {
		const auth = app();
		await signIn(auth, 'ada@example.com', 'wrong');
		await signIn(auth, 'ada@example.com', 'wrong');
		expect(await signIn(auth, 'ada@example.com', 'right')).toEqual({ redirect: '/' });
		for (let i = 0; i < 3; i++) expect(await signIn(auth, 'ada@example.com', 'wrong')).toEqual(FAILED);
		expect(await signIn(auth, 'ada@example.com', 'wrong')).toMatchObject({ status: 429 });
	});

	it('limits failed attempts per client address across emails; successes do not count', async () => {
		const auth = app();
		expect(await signIn(auth, 'ada@example.com', 'right')).toEqual({ redirect: '/' });
		for (const email of ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org', 'e@x.org']) expect(await signIn(auth, email, 'wrong')).toEqual(FAILED);
		expect(await signIn(auth, 'f@x.org', 'wrong')).toMatchObject({ status: 429 });
		expect(await signIn(auth, 'f@x.org', 'wrong', '198.51.100.9')).toEqual(FAILED);
	});

	it('limits nothing with rateLimit: false', async () => {
		const auth = app(false);
		for (let i = 0; i < 15; i++) expect(await signIn(auth, 'ada@example.com', 'wrong')).toEqual(FAILED);
	});

	it('applies the documented defaults (10 per email from one client) without a rateLimit option; other clients are not locked', async () => {
		const auth = SvelteKitAuth({ secret, logger, providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })] });
		const email = `defaults-${Math.random()}@example.com`;
		for (let i = 0; i < 10; i++) expect(await signIn(auth, email, 'wrong', '203.0.113.1')).toEqual(FAILED);
		expect(await signIn(auth, email, 'wrong', '203.0.113.1')).toMatchObject({ status: 429, headers: { 'retry-after': '900' } });
		expect(await signIn(auth, email, 'wrong', '203.0.113.2')).toEqual(FAILED);
	});

	it('refuses with 503, logged, when the rate-limit store is down: it fails closed', async () => {
		const down: RateLimitStore = {
			name: 'redis',
			limiter: () => ({ consume: () => Promise.reject(new Error('Redis connection is not ready')), refund: async () => {}, reset: async () => {} })
		};
		const outcome = await signIn(app({ store: down }), 'ada@example.com', 'right');
		expect(outcome).toMatchObject({
			status: 503,
			data: { error: 'RateLimitStoreError', message: 'Sign-in is unavailable for a moment. Please try again shortly.' }
		});
		expect(authorize).not.toHaveBeenCalled();
		expect(logger.error.mock.calls[0]![0].cause.err.message).toBe('Redis connection is not ready');
	});

	it('keeps reading sessions while the rate-limit store is down: only attempts are counted', async () => {
		const broken = vi.fn(() => Promise.reject(new Error('Redis connection is not ready')));
		const down: RateLimitStore = { name: 'redis', limiter: () => ({ consume: broken, refund: broken, reset: broken }) };
		const auth = app(false);
		const jar = new Jar();
		const signedIn = await redirectOf(() => auth.signIn(requestEvent('http://localhost/signin', jar, { form: { email: 'ada@example.com', password: 'right' } })));
		expect(signedIn.location).toBe('/');
		const outage = SvelteKitAuth({ secret, logger, providers: [Credentials({ credentials: {}, authorize })], rateLimit: { store: down } });
		const event = requestEvent('http://localhost/account', jar);
		await outage.handle({ event, resolve: async () => new Response('ok') });
		expect(await (event.locals as { auth(): Promise<unknown> }).auth()).toMatchObject({ user: { email: 'ada@example.com' } });
		expect(broken).not.toHaveBeenCalled();
	});

	it('answers a full password-hashing queue (authorize throws RateLimited) with 429 and its wait', async () => {
		authorize.mockRejectedValueOnce(new RateLimited('The password-hashing queue is full.', 5));
		expect(await signIn(app(), 'ada@example.com', 'right')).toMatchObject({ status: 429, headers: { 'retry-after': '5' } });
	});
});

describe('dispatch to the provider object', () => {
	it('hands the signIn action to the posted provider\'s flow, with the form and the callback URL', async () => {
		const flow = { signIn: vi.fn(async () => '/welcome') };
		const custom = { id: 'custom', name: 'Custom', type: 'credentials' as const, flow };
		const auth = SvelteKitAuth({ secret, logger, providers: [custom, Credentials({ credentials: {}, authorize })] });
		const outcome = await actionOutcome(auth.signIn, requestEvent('http://localhost/signin?callbackUrl=/next', new Jar(), { form: { providerId: 'custom', x: '1' } }));
		expect(outcome).toEqual({ redirect: '/welcome' });
		expect(flow.signIn).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ providers: expect.any(Array) }), custom, expect.any(FormData), '/next');
		expect(authorize).not.toHaveBeenCalled();
	});

	it('refuses a provider object without a flow: InvalidProvider logged at startup, and its sign-in ends on ?error=InvalidProvider', async () => {
		const bare = { id: 'bare', name: 'Bare', type: 'oauth' } as never;
		const auth = SvelteKitAuth({ secret, logger, providers: [bare] });
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'InvalidProvider' }));
		expect(await actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { providerId: 'bare' } }))).toEqual({
			redirect: '/signin?error=InvalidProvider'
		});
	});

	it('answers an action no configured provider offers with 404, logging InvalidProvider', async () => {
		const auth = app();
		await expect(actionOutcome(auth.emailLink, requestEvent('http://localhost/signin/email', new Jar(), { form: { token: 't', email: 'a@b.c' } }))).rejects.toMatchObject({
			status: 404
		});
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'InvalidProvider' }));
	});
});

describe('handle dispatches the runtime\'s routes to the provider\'s flow', () => {
	const answer = vi.fn(async (event: { request: Request }) => (event.request.method === 'GET' ? new Response('options') : undefined));
	const custom = { id: 'custom', name: 'Custom', type: 'webauthn' as const, flow: { signIn: async () => '/', routes: { 'webauthn-options': answer } } };
	const handle = (url: string, method = 'GET') =>
		SvelteKitAuth({ secret, logger, providers: [custom] }).handle({
			event: requestEvent(url, new Jar(), method === 'POST' ? { form: {} } : {}),
			resolve: async () => new Response('app')
		}) as Promise<Response>;

	it('answers <basePath>/<route>/<id> with the flow\'s handler; a route its flow lacks, an unknown id, or an undefined answer go on to the app', async () => {
		expect(await (await handle('http://localhost/auth/webauthn-options/custom')).text()).toBe('options');
		expect(await (await handle('http://localhost/auth/callback/custom')).text()).toBe('app');
		expect(await (await handle('http://localhost/auth/webauthn-options/other')).text()).toBe('app');
		expect(await (await handle('http://localhost/auth/webauthn-options/custom', 'POST')).text()).toBe('app');
		expect(answer).toHaveBeenCalledTimes(2);
	});
});
