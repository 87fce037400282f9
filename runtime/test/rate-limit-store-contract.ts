import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { AccountLocked, RateLimited } from '../server/auth/errors.js';
import { countPasswordAttempt, createRateLimits, emailClientKey, type RateLimitConfig, type RateLimitStore } from '../server/auth/limits/rate-limit.js';

/** A shared rate-limit store under test: a new store on the same counters, as another server (or isolate) holds it. */
export interface RateLimitStoreHarness {
	store(): RateLimitStore;
	/** The count the store holds for a limiter's name and key (`signin-email-client`, the email); undefined when it has none. */
	stored(name: string, key: string): Promise<number | undefined>;
}

const rule = (max: number, windowSeconds = 60): RateLimitConfig => ({ signIn: { perEmailAndClient: { max, windowSeconds } } });

/**
 * What every store shared by several servers must do, registered as tests of the enclosing
 * `describe`: counts shared between two stores on the same counters, the per-client lock and
 * the account-wide cap across them (NIST SP 800-63B-4 §3.2.2), atomic counting under a burst,
 * and `reset`.
 */
export function rateLimitStoreContract(harness: () => RateLimitStoreHarness): void {
	const limitsOf = (config: RateLimitConfig) => createRateLimits({ ...config, store: harness().store() })!;

	it('shares the counts between servers: two stores on the same counters allow the limit once in all', async () => {
		const one = limitsOf(rule(4));
		const two = limitsOf(rule(4));
		const email = `shared-${randomUUID()}@example.com`;
		const results = [];
		for (const limits of [one, two, one, two, one]) results.push(await limits.signInPerEmailAndClient!.consume(email));
		expect(results.map((result) => result.ok)).toEqual([true, true, true, true, false]);
		expect(results[4]).toEqual({ ok: false, retryAfter: 60 });
		expect(await harness().stored('signin-email-client', email)).toBe(5);
	});

	it('keeps an address locked for the client that guessed, on every server, and counts the account-wide cap there too (NIST SP 800-63B-4 §3.2.2)', async () => {
		const config = { signIn: { perEmailAndClient: { max: 2, windowSeconds: 60 }, perAccount: { max: 4, windowSeconds: 60 } } };
		const one = limitsOf(config);
		const two = limitsOf(config);
		const email = `pair-${randomUUID()}@example.com`;
		await countPasswordAttempt(one, email, '203.0.113.7');
		await countPasswordAttempt(two, email, '203.0.113.7');
		const refused = await countPasswordAttempt(one, email, '203.0.113.7').catch((err) => err);
		expect(refused).toBeInstanceOf(RateLimited);
		expect(refused).not.toBeInstanceOf(AccountLocked);
		expect(await harness().stored('signin-email-client', emailClientKey(email, '203.0.113.7'))).toBe(3);
		// Other clients of the same address are not locked, until the account-wide cap (4; the refused attempt was not counted there) is reached.
		await countPasswordAttempt(two, email, '198.51.100.9');
		await countPasswordAttempt(one, email, '198.51.100.10');
		expect(await countPasswordAttempt(two, email, '198.51.100.11').catch((err) => err)).toBeInstanceOf(AccountLocked);
		expect(await harness().stored('signin-account', email)).toBe(5);
	});

	it('counts atomically: 30 parallel attempts let exactly 10 through', async () => {
		const limits = limitsOf(rule(10));
		const email = `burst-${randomUUID()}@example.com`;
		const results = await Promise.all(Array.from({ length: 30 }, () => limits.signInPerEmailAndClient!.consume(email)));
		expect(results.filter((result) => result.ok)).toHaveLength(10);
	});

	it('forgets a key on reset', async () => {
		const limiter = limitsOf(rule(1)).signInPerEmailAndClient!;
		const email = `reset-${randomUUID()}@example.com`;
		await limiter.consume(email);
		expect((await limiter.consume(email)).ok).toBe(false);
		await limiter.reset(email);
		expect(await harness().stored('signin-email-client', email)).toBeUndefined();
		expect(await limiter.consume(email)).toEqual({ ok: true });
	});
}
