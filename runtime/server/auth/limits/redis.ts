// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { limiterOf, memoized, type RateLimitStore } from './rate-limit.js';

/** Options of {@link redisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
	/** `redis://[[user]:password@]host[:port][/db]` (`rediss://` for TLS): `REDIS_URL`. */
	url: string;
	/** Prefix of every key this store writes. Default `create-auth:rate-limit:`. */
	keyPrefix?: string;
	/** Milliseconds to wait for a connection, and for each command. Default 1000. */
	timeoutMs?: number;
	/** Where the outage line goes. Default `console.error`. */
	logger?: { error(error: Error): void };
}

/** The URL without its password, for log lines. */
function redact(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.password) parsed.password = '***';
		return parsed.toString();
	} catch {
		return '(an invalid REDIS_URL)';
	}
}

/**
 * Rate-limit counters in Redis (through ioredis), shared by every server of the app. The
 * counters are atomic (rate-limiter-flexible's Lua increment with its TTL).
 *
 * Create it once (in `src/auth.ts`, outside a config function): it holds the connection.
 * Nothing connects until the first count, so building the app needs no Redis. While Redis is
 * unreachable, every count fails at once (no queue of commands waiting for the connection, no
 * command waits longer than `timeoutMs`): the sign-in and sign-up flows then refuse ("fail
 * closed") and reading sessions, which never counts, goes on. One line is logged when the
 * connection is lost, and ioredis reconnects by itself; the first count after that is served.
 * @see https://github.com/animir/node-rate-limiter-flexible/wiki/Redis
 */
export function redisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
	const timeout = options.timeoutMs ?? 1000;
	const logger = options.logger ?? { error: (error: Error) => console.error(error) };
	const client = new Redis(options.url, {
		lazyConnect: true,
		enableOfflineQueue: false,
		connectTimeout: timeout,
		commandTimeout: timeout,
		maxRetriesPerRequest: 0
	});
	let down = false;
	client.on('error', (err: Error) => {
		if (down) return;
		down = true;
		logger.error(
			new Error(`The rate-limit store (Redis at ${redact(options.url)}) is unreachable: sign-ins and sign-ups are refused until it is back.`, {
				cause: err
			})
		);
	});
	client.on('ready', () => {
		down = false;
	});
	let connecting: Promise<void> | undefined;
	// The first count connects, and the counts that arrive meanwhile wait for it; later ones find
	// the client ready, or reconnecting (then they fail at once).
	const ready = async () => {
		if (client.status === 'wait') connecting ??= client.connect().finally(() => (connecting = undefined));
		if (connecting) await connecting;
	};
	const keyPrefix = options.keyPrefix ?? 'create-auth:rate-limit:';
	return {
		name: 'redis',
		limiter: memoized((name, rule) =>
			limiterOf(
				new RateLimiterRedis({
					storeClient: client,
					keyPrefix: `${keyPrefix}${name}`,
					points: rule.max,
					duration: rule.windowSeconds,
					rejectIfRedisNotReady: true
				}),
				ready
			)
		)
	};
}
