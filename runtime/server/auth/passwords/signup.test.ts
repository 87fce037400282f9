import { beforeEach, describe, expect, it, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { MissingAdapter } from '../errors.js';
import { SvelteKitAuth } from '../kit.js';
import { authorizeWithPassword } from './accounts.js';
import Credentials from '../providers/credentials.js';
import { memoryRateLimitStore, type RateLimitStore } from '../limits/rate-limit.js';
import { storedSessionKey } from '../session/stored-key.js';

vi.setConfig({ testTimeout: 20_000 });
const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
beforeEach(() => logger.error.mockClear());

function app(extra: Partial<SvelteKitAuthConfig> = {}, adapter: Adapter = MemoryAdapter()) {
	const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter as never, fields) });
	const rateLimit = { store: memoryRateLimitStore(), signUp: { perClient: { max: 2, windowSeconds: 3600 } } };
	return { adapter, auth: SvelteKitAuth({ secret, logger, adapter, providers: [credentials], rateLimit, ...extra }) };
}

/** One sign-up POST: its redirect, or the page's answer; and the cookies it left. */
async function signUp(auth: ReturnType<typeof app>['auth'], form: Record<string, string>, page = 'http://localhost/signup', clientAddress = '192.0.2.1') {
	const jar = new Jar();
	return { jar, ...(await actionOutcome(auth.signUp, requestEvent(page, jar, { form, clientAddress }))) };
}

const NEW = { email: ' New@Example.com', password: 'correct horse battery' };

describe('the signUp action', () => {
	it('creates the account, signs the new user in and sends them to the validated redirectTo', async () => {
		const { auth, adapter } = app();
		const done = await signUp(auth, { ...NEW, redirectTo: '/account?tab=1' });
		expect(done.redirect).toBe('/account?tab=1');
		expect(await adapter.getUserByEmail!('new@example.com')).toMatchObject({ email: 'new@example.com' });
		// The session cookie is set: the next request is signed in.
		const next = requestEvent('http://localhost/account', done.jar);
		await auth.handle({ event: next, resolve: async () => new Response('ok') });
		expect(await (next.locals as { auth(): Promise<unknown> }).auth()).toMatchObject({ user: { email: 'new@example.com' } });
	});

	it.each([
		['no target: the account page, which shows who is signed in', {}, 'http://localhost/signup', '/account'],
		["the page's ?callbackUrl=", {}, 'http://localhost/signup?callbackUrl=%2Fdocs', '/docs'],
		['another origin', { redirectTo: 'https://evil.example/' }, 'http://localhost/signup', '/']
	])('goes to the account page, a same-origin path or /: %s', async (_, extra, page, location) => {
		expect((await signUp(app().auth, { ...NEW, ...extra }, page)).redirect).toBe(location);
	});

	it('creates a database session row with the database strategy', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' } });
		const done = await signUp(auth, NEW);
		const token = [...done.jar.values.values()][0]!;
		expect(await adapter.getSessionAndUser!(storedSessionKey(token))).toMatchObject({ user: { email: 'new@example.com' } });
	});

	it.each([
		['a malformed email', { email: 'not-an-email', password: 'correct horse battery' }, 'InvalidEmail'],
		['a short password', { email: 'x@example.com', password: 'short' }, 'PasswordTooShort'],
		['a 1025-character password', { email: 'x@example.com', password: 'p'.repeat(1025) }, 'PasswordTooLong'],
		// Attacks on the account's strength, NIST SP 800-63B-4 §3.1.1.2 / OWASP ASVS 5.0 V6.2: a blocklisted and a context password.
		['a blocklisted (common, breached) password', { email: 'x@example.com', password: 'qwertyuiopasdfgh' }, 'PasswordTooCommon'],
		["a password containing the address's local part", { email: 'margaret@example.com', password: 'Margaret likes long walks' }, 'PasswordHasContext']
	])('answers %s with 400, its code and message, and keeps the email', async (_, form, code) => {
		const refused = await signUp(app().auth, form);
		expect(refused).toMatchObject({ status: 400, data: { code, email: form.email } });
		expect(refused.jar.values.size).toBe(0);
	});

	it('answers an email already in use with 400 EmailInUse and signs no one in', async () => {
		const { auth } = app();
		await signUp(auth, NEW);
		const again = await signUp(auth, { ...NEW, email: 'NEW@example.com' });
		expect(again).toMatchObject({ status: 400, data: { code: 'EmailInUse', message: 'An account with this email already exists.' } });
		expect(again.jar.values.size).toBe(0);
	});

	it('answers the 3rd sign-up from one client address within the hour with 429 and Retry-After', async () => {
		freezeDate('2026-01-01T00:00:00Z');
		const { auth } = app();
		await signUp(auth, { ...NEW, email: 'one@example.com' });
		await signUp(auth, { ...NEW, email: 'two@example.com' });
		const third = await signUp(auth, { ...NEW, email: 'three@example.com' });
		expect(third).toMatchObject({ status: 429, data: { error: 'RateLimited', message: 'Too many attempts. Try again in 60 minutes.' } });
		expect(third.headers).toEqual({ 'retry-after': '3600' });
		expect((await signUp(auth, { ...NEW, email: 'three@example.com' }, undefined, '198.51.100.3')).redirect).toBe('/account');
	});

	it('answers 503 with the message when the adapter is down', async () => {
		const adapter = { ...MemoryAdapter(), getUserByEmail: () => Promise.reject(new Error('connect ECONNREFUSED')) };
		expect(await signUp(app({}, adapter).auth, NEW)).toMatchObject({ status: 503, data: { code: 'Unavailable' } });
	});

	it('answers 503 "Sign-up is unavailable" without creating the user when the rate-limit store is down', async () => {
		const down: RateLimitStore = {
			name: 'redis',
			limiter: () => ({ consume: () => Promise.reject(new Error('Redis connection is not ready')), refund: async () => {}, reset: async () => {} })
		};
		const { auth, adapter } = app({ rateLimit: { store: down } });
		const refused = await signUp(auth, NEW);
		expect(refused).toMatchObject({
			status: 503,
			data: { error: 'RateLimitStoreError', message: 'Sign-up is unavailable for a moment. Please try again shortly.', email: NEW.email }
		});
		expect(await adapter.getUserByEmail!('new@example.com')).toBeNull();
		expect(logger.error).toHaveBeenCalledOnce();
	});

	it('throws MissingAdapter naming the methods when the adapter cannot create users', async () => {
		const { getUserByEmail, ...rest } = MemoryAdapter();
		void getUserByEmail;
		await expect(signUp(app({}, rest).auth, NEW)).rejects.toThrow(MissingAdapter);
	});
});
