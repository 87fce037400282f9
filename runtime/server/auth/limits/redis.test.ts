import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimitStoreContract } from '../../../test/rate-limit-store-contract.js';
import { startTcpProxy, type TcpProxy } from '../../../test/tcp-proxy.js';
import { RateLimitStoreError } from '../errors.js';
import { countAttempt, createRateLimits } from './rate-limit.js';
import { redisRateLimitStore } from './redis.js';

// The Redis server of the project's machines (README); each run writes under its own prefix.
const REDIS = { host: '127.0.0.1', port: 6379 };
const prefix = `create-auth-test:${randomUUID()}:`;
let proxy: TcpProxy;
let admin: Redis;

beforeAll(async () => {
	proxy = await startTcpProxy(REDIS);
	admin = new Redis(REDIS.port, REDIS.host);
});
afterAll(async () => {
	const keys = await admin.keys(`${prefix}*`);
	if (keys.length > 0) await admin.del(...keys);
	admin.disconnect();
	await proxy.close();
});

/** A store through the proxy, as one server of the app would hold it. */
const storeOf = (logger = { error: vi.fn() }) => ({ logger, store: redisRateLimitStore({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix: prefix, logger }) });
const rule = (max: number, windowSeconds = 60) => ({ signIn: { perEmailAndClient: { max, windowSeconds } } });

describe('redisRateLimitStore on the real Redis server', () => {
	it('connects on the first count only, so building or importing the app needs no Redis', async () => {
		const before = proxy.accepted;
		const { store } = storeOf();
		const limits = createRateLimits({ store, ...rule(3) })!;
		expect(proxy.accepted).toBe(before);
		expect(await limits.signInPerEmailAndClient!.consume('first@example.com')).toEqual({ ok: true });
		expect(proxy.accepted).toBe(before + 1);
	});

	rateLimitStoreContract(() => ({
		store: () => storeOf().store,
		stored: async (name, key) => {
			const value = await admin.get(`${prefix}${name}:${key}`);
			return value === null ? undefined : Number(value);
		}
	}));

	it('ends the window with the key (Redis expires it), and reset clears a count', async () => {
		const limits = createRateLimits({ store: storeOf().store, ...rule(1, 1) })!;
		const email = `window-${randomUUID()}@example.com`;
		await limits.signInPerEmailAndClient!.consume(email);
		expect((await limits.signInPerEmailAndClient!.consume(email)).ok).toBe(false);
		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect(await limits.signInPerEmailAndClient!.consume(email)).toEqual({ ok: true });
		await limits.signInPerEmailAndClient!.reset(email);
		expect(await admin.exists(`${prefix}signin-email-client:${email}`)).toBe(0);
	});

	it('fails closed at once while Redis is unreachable, logs one line, and counts again once it is back', async () => {
		const { store, logger } = storeOf();
		const limits = createRateLimits({ store, ...rule(5) })!;
		const email = `outage-${randomUUID()}@example.com`;
		const attempt = () => countAttempt(limits, [[limits.signInPerEmailAndClient, email]]);
		await attempt();

		proxy.setDown(true);
		const started = Date.now();
		const refusals = await Promise.all([attempt(), attempt(), attempt()].map((p) => p.catch((err) => err)));
		expect(Date.now() - started).toBeLessThan(1000);
		for (const refusal of refusals) expect(refusal).toBeInstanceOf(RateLimitStoreError);
		await vi.waitFor(() => expect(logger.error).toHaveBeenCalled());
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(logger.error).toHaveBeenCalledTimes(1);
		expect(logger.error.mock.calls[0]![0].message).toBe(
			`The rate-limit store (Redis at redis://127.0.0.1:${proxy.port}) is unreachable: sign-ins and sign-ups are refused until it is back.`
		);

		proxy.setDown(false);
		await vi.waitFor(() => attempt(), { timeout: 5000, interval: 100 });
		expect(await admin.get(`${prefix}signin-email-client:${email}`)).toBe('2');
	});

	it('fails closed when Redis is down from the start, then serves once it is up', async () => {
		proxy.setDown(true);
		const { store } = storeOf();
		const limits = createRateLimits({ store, ...rule(5) })!;
		const email = `late-${randomUUID()}@example.com`;
		await expect(countAttempt(limits, [[limits.signInPerEmailAndClient, email]])).rejects.toBeInstanceOf(RateLimitStoreError);
		proxy.setDown(false);
		await vi.waitFor(() => countAttempt(limits, [[limits.signInPerEmailAndClient, email]]), { timeout: 5000, interval: 100 });
		expect(await admin.get(`${prefix}signin-email-client:${email}`)).toBe('1');
	});

	it('keeps the password out of the log line', async () => {
		proxy.setDown(true);
		const logger = { error: vi.fn() };
		const store = redisRateLimitStore({ url: `redis://:hunter2@127.0.0.1:${proxy.port}`, keyPrefix: prefix, logger });
		const limits = createRateLimits({ store, ...rule(5) })!;
		await expect(countAttempt(limits, [[limits.signInPerEmailAndClient, 'x@example.com']])).rejects.toBeInstanceOf(RateLimitStoreError);
		await vi.waitFor(() => expect(logger.error).toHaveBeenCalled());
		expect(logger.error.mock.calls[0]![0].message).toContain(`redis://:***@127.0.0.1:${proxy.port}`);
		expect(logger.error.mock.calls[0]![0].message).not.toContain('hunter2');
		proxy.setDown(false);
	});
});
