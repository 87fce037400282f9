import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountLocked, RateLimited, RateLimitStoreError } from '../errors.js';
import {
	accountLockedMessage,
	countAttempt,
	countPasswordAttempt,
	createRateLimits,
	emailClientKey,
	limiterOf,
	memoryRateLimitStore,
	retryMessage,
	type Limiter,
	type RateLimitStore
} from './rate-limit.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

/** A fresh store per test: the default one is shared by the whole process. */
const limitsWith = (config: Parameters<typeof createRateLimits>[0] = {}) =>
	createRateLimits(config === false ? false : { store: memoryRateLimitStore(), ...config })!;

async function attempts(limiter: Limiter, key: string, count: number) {
	const results = [];
	for (let i = 0; i < count; i++) results.push(await limiter.consume(key));
	return results;
}

describe('the memory limiter, on a frozen clock', () => {
	it('allows 10 sign-ins per email from one client in 15 minutes and refuses the 11th until the window ends', async () => {
		const { signInPerEmailAndClient: limiter } = limitsWith();
		const key = emailClientKey('ada@example.com', '203.0.113.7');
		const results = await attempts(limiter!, key, 11);
		expect(results.slice(0, 10).every((result) => result.ok)).toBe(true);
		expect(results[10]).toEqual({ ok: false, retryAfter: 15 * 60 });

		vi.setSystemTime(T0 + 10 * 60_000);
		expect(await limiter!.consume(key)).toEqual({ ok: false, retryAfter: 5 * 60 });
		// Another client, or another email, has its own count.
		expect(await limiter!.consume(emailClientKey('ada@example.com', '198.51.100.9'))).toEqual({ ok: true });
		expect(await limiter!.consume(emailClientKey('bob@example.com', '203.0.113.7'))).toEqual({ ok: true });

		vi.setSystemTime(T0 + 15 * 60_000 + 1);
		expect(await limiter!.consume(key)).toEqual({ ok: true });
	});

	it('allows 100 failed sign-ins per email from all clients in 24 hours (NIST SP 800-63B-4 §3.2.2: at most 100)', async () => {
		const { signInPerAccount } = limitsWith();
		const results = await attempts(signInPerAccount!, 'ada@example.com', 101);
		expect(results.filter((result) => result.ok)).toHaveLength(100);
		expect(results[100]).toEqual({ ok: false, retryAfter: 24 * 60 * 60 });
	});

	it('gives an attempt back with refund, and forgets a key with reset', async () => {
		const { signInPerEmailAndClient: limiter } = limitsWith({ signIn: { perEmailAndClient: { max: 2, windowSeconds: 60 } } });
		await attempts(limiter!, 'ada@example.com', 2);
		await limiter!.refund('ada@example.com');
		expect(await limiter!.consume('ada@example.com')).toEqual({ ok: true });
		expect((await limiter!.consume('ada@example.com')).ok).toBe(false);
		await limiter!.reset('ada@example.com');
		expect(await attempts(limiter!, 'ada@example.com', 2)).toEqual([{ ok: true }, { ok: true }]);
	});

	it('reads signIn.perEmail, the name before 0.2.0, as perEmailAndClient, unless that is given: a config keeps its limit', async () => {
		const legacy = limitsWith({ signIn: { perEmail: { max: 2, windowSeconds: 60 } } });
		expect((await attempts(legacy.signInPerEmailAndClient!, 'k', 3)).map((result) => result.ok)).toEqual([true, true, false]);
		// The account-wide cap keeps its default beside it.
		expect((await attempts(legacy.signInPerAccount!, 'k', 3)).every((result) => result.ok)).toBe(true);
		expect(limitsWith({ signIn: { perEmail: false } }).signInPerEmailAndClient).toBeUndefined();
		const both = limitsWith({ signIn: { perEmail: { max: 1, windowSeconds: 60 }, perEmailAndClient: { max: 3, windowSeconds: 60 } } });
		expect((await attempts(both.signInPerEmailAndClient!, 'k', 4)).map((result) => result.ok)).toEqual([true, true, true, false]);
		expect(limitsWith({ signIn: { perEmail: { max: 1, windowSeconds: 60 }, perEmailAndClient: false } }).signInPerEmailAndClient).toBeUndefined();
	});

	it('takes the documented defaults for rules not given, and none for rules set to false', async () => {
		const limits = limitsWith({ signIn: { perEmailAndClient: false, perAccount: false }, signUp: { perClient: { max: 1, windowSeconds: 30 } } });
		expect(limits.signInPerEmailAndClient).toBeUndefined();
		expect(limits.signInPerAccount).toBeUndefined();
		expect((await attempts(limits.signInPerClient!, '203.0.113.7', 51)).filter((result) => !result.ok)).toHaveLength(1);
		expect(await attempts(limits.signUpPerClient!, '203.0.113.7', 2)).toEqual([{ ok: true }, { ok: false, retryAfter: 30 }]);
		// Emailed links: 5 per address and 20 per client address an hour.
		expect((await attempts(limits.emailLinkPerEmail!, 'ada@example.com', 6)).map((result) => result.ok)).toEqual([true, true, true, true, true, false]);
		expect((await attempts(limits.emailLinkPerClient!, '203.0.113.7', 21)).filter((result) => !result.ok)).toEqual([{ ok: false, retryAfter: 3600 }]);
	});

	it('turns every limit off with rateLimit: false', () => {
		expect(createRateLimits(false)).toBeUndefined();
	});

	it('keeps counting across configs resolved again (the function form of the config)', async () => {
		const store = memoryRateLimitStore();
		const rule = { max: 1, windowSeconds: 60 };
		await createRateLimits({ store, signUp: { perClient: rule } })!.signUpPerClient!.consume('198.51.100.1');
		const again = createRateLimits({ store, signUp: { perClient: { ...rule } } })!;
		expect((await again.signUpPerClient!.consume('198.51.100.1')).ok).toBe(false);
	});
});

describe('countAttempt', () => {
	it('throws RateLimited with the wait in seconds, and does not count the later limiters', async () => {
		const limits = limitsWith({ signIn: { perClient: { max: 1, windowSeconds: 90 } } });
		await countAttempt(limits, [[limits.signInPerClient, '192.0.2.1'], [limits.signInPerEmailAndClient, 'ada@example.com']]);
		const refusal = await countAttempt(limits, [[limits.signInPerClient, '192.0.2.1'], [limits.signInPerEmailAndClient, 'ada@example.com']]).catch((err) => err);
		expect(refusal).toBeInstanceOf(RateLimited);
		expect(refusal.retryAfter).toBe(90);
		// The email was counted once (the first attempt), not twice: nine more pass.
		const counted = await attempts(limits.signInPerEmailAndClient!, 'ada@example.com', 10);
		expect(counted.filter((result) => result.ok)).toHaveLength(9);
	});

	it('skips checks without a key (a platform with no client address) or without a limiter', async () => {
		const consume = vi.fn(async () => ({ ok: true as const }));
		const limiter: Limiter = { consume, refund: async () => {}, reset: async () => {} };
		await countAttempt(limitsWith(), [[limiter, undefined], [undefined, 'x'], [limiter, 'ada@example.com']]);
		expect(consume.mock.calls).toEqual([['ada@example.com']]);
	});

	it('throws RateLimitStoreError, the cause kept, when the store cannot count', async () => {
		const down = new Error('connect ECONNREFUSED 127.0.0.1:6379');
		const failing: Limiter = { consume: () => Promise.reject(down), refund: async () => {}, reset: async () => {} };
		const store: RateLimitStore = { name: 'redis', limiter: () => failing };
		const limits = createRateLimits({ store })!;
		const err = await countAttempt(limits, [[limits.signInPerAccount, 'ada@example.com']]).catch((caught) => caught);
		expect(err).toBeInstanceOf(RateLimitStoreError);
		expect(err.message).toContain('redis rate-limit store');
		expect(err.cause.err).toBe(down);
	});
});

describe('countPasswordAttempt', () => {
	it('counts the client, the email from that client, then the email account-wide; the cap throws AccountLocked', async () => {
		const limits = limitsWith({ signIn: { perAccount: { max: 2, windowSeconds: 600 } } });
		await countPasswordAttempt(limits, 'ada@example.com', '192.0.2.1');
		await countPasswordAttempt(limits, 'ada@example.com', '192.0.2.2');
		const refusal = await countPasswordAttempt(limits, 'ada@example.com', '192.0.2.3').catch((err) => err);
		expect(refusal).toBeInstanceOf(AccountLocked);
		expect(refusal).toMatchObject({ type: 'RateLimited', code: 'AccountLocked', retryAfter: 600 });
		// Each client and pair was counted once.
		expect((await attempts(limits.signInPerEmailAndClient!, emailClientKey('ada@example.com', '192.0.2.1'), 10)).filter((r) => r.ok)).toHaveLength(9);
		expect((await attempts(limits.signInPerClient!, '192.0.2.3', 50)).filter((r) => r.ok)).toHaveLength(49);
	});

	it('keys email and client apart unambiguously, and every unknown client of an email together', () => {
		expect(emailClientKey('a|b', 'c')).not.toBe(emailClientKey('a', 'b|c'));
		expect(emailClientKey('ada@example.com', undefined)).toBe('["ada@example.com",null]');
	});
});

describe('limiterOf', () => {
	it('waits for the store to be ready before each call', async () => {
		const order: string[] = [];
		const store = memoryRateLimitStore();
		const inner = store.limiter('x', { max: 5, windowSeconds: 60 });
		const limiter = limiterOf(
			{ consume: async () => (order.push('consume'), inner.consume('k')) } as never,
			async () => void order.push('ready')
		);
		await limiter.consume('k');
		expect(order).toEqual(['ready', 'consume']);
	});
});

describe('retryMessage', () => {
	it.each([
		[1, 'Too many attempts. Try again in 1 minute.'],
		[60, 'Too many attempts. Try again in 1 minute.'],
		[61, 'Too many attempts. Try again in 2 minutes.'],
		[900, 'Too many attempts. Try again in 15 minutes.'],
		[7200, 'Too many attempts. Try again in 120 minutes.'],
		[7201, 'Too many attempts. Try again in 3 hours.'],
		[86400, 'Too many attempts. Try again in 24 hours.']
	])('says %i seconds as "%s"', (seconds, message) => {
		expect(retryMessage(seconds)).toBe(message);
	});

	it('tells an account over the cap that a password reset gets in meanwhile', () => {
		expect(accountLockedMessage(86400)).toBe(
			'Too many failed sign-ins for this email address. Reset your password to sign in now, or try again in 24 hours.'
		);
	});
});
