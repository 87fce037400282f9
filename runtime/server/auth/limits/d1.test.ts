import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localD1, type LocalD1 } from '../../../test/d1.js';
import { rateLimitStoreContract } from '../../../test/rate-limit-store-contract.js';
import { DriverUnavailable } from '../errors.js';
import { createRateLimits } from './rate-limit.js';
import { d1RateLimitStore } from './d1.js';

let d1: LocalD1;
beforeAll(async () => {
	d1 = await localD1();
}, 60_000);
afterAll(() => d1.close());

const rule = (max: number, windowSeconds = 60) => ({ signIn: { perEmailAndClient: { max, windowSeconds } } });
/** Rate limits over the local D1, as one isolate of the Worker holds them. */
const limitsOf = (config: Parameters<typeof createRateLimits>[0] & object) => createRateLimits({ store: d1RateLimitStore({ database: d1.db }), ...config })!;
const stored = async (key: string) => (await d1.db.prepare('SELECT points FROM auth_rate_limits WHERE key = ?').bind(key).all()).results[0]?.points as number | undefined;

describe('d1RateLimitStore on a local D1 (workerd)', () => {
	rateLimitStoreContract(() => ({
		store: () => d1RateLimitStore({ database: d1.db }),
		stored: (name, key) => stored(`${name}:${key}`)
	}));

	it('gives an attempt back (never below zero), starts a new window when the last ended, and reset forgets the key', async () => {
		const limits = limitsOf(rule(2, 60));
		const limiter = limits.signInPerEmailAndClient!;
		const email = `window-${randomUUID()}@example.com`;
		const key = `signin-email-client:${email}`;
		await limiter.consume(email);
		await limiter.refund(email);
		await limiter.refund(email);
		expect(await stored(key)).toBe(0);
		await limiter.consume(email);
		await limiter.consume(email);
		expect((await limiter.consume(email)).ok).toBe(false);
		// The window's end passes: the next attempt starts a window of its own at 1.
		vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
		try {
			expect(await limiter.consume(email)).toEqual({ ok: true });
			expect(await stored(key)).toBe(1);
		} finally {
			vi.useRealTimers();
		}
		await limiter.reset(email);
		expect(await stored(key)).toBeUndefined();
	});

	it("fails the count (closed) when the request's platform.env has no binding", async () => {
		const limits = createRateLimits({ store: d1RateLimitStore({ binding: 'DB', getRequestEvent: () => ({ platform: { env: {} } }) }), ...rule(3) })!;
		await expect(limits.signInPerEmailAndClient!.consume('x@example.com')).rejects.toBeInstanceOf(DriverUnavailable);
	});
});
