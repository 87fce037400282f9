// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Abuse limits (OWASP ASVS 4.0.3 V2.2.1, ASVS 5.0 V6.3, NIST SP 800-63B-4 §3.2.2): fixed-window counters over rate-limiter-flexible.
 *
 * - `rate-limit.ts` — the rules and their defaults (`DEFAULT_RATE_LIMITS`), the store
 *   interface and the in-memory store (`memoryRateLimitStore`), `createRateLimits`,
 *   `countAttempt` (`RateLimited` over a limit, `RateLimitStoreError` when the store fails);
 *   password attempts: `countPasswordAttempt` (per client, per email and client, account-wide:
 *   `AccountLocked`, NIST SP 800-63B-4 §3.2.2), `forgetPasswordAttempts`, `emailClientKey`.
 * - `redis.ts` — `redisRateLimitStore` (ioredis), shared by several servers; apps set up with
 *   `--rate-limit redis` import it as `../rate-limit-redis.ts`.
 * - `d1.ts` — `d1RateLimitStore` (Cloudflare D1, on the D1 adapter's binding), shared by every
 *   isolate of a Worker; apps set up with `--rate-limit d1` import it by this path.
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#rate-limits
 */
export {
	accountLockedMessage,
	countAttempt,
	countPasswordAttempt,
	createRateLimits,
	DEFAULT_RATE_LIMITS,
	emailClientKey,
	forgetPasswordAttempts,
	limiterOf,
	memoized,
	memoryRateLimitStore,
	retryMessage,
	type Limiter,
	type RateLimitConfig,
	type RateLimitResult,
	type RateLimitRule,
	type RateLimits,
	type RateLimitStore
} from './rate-limit.js';
export { redisRateLimitStore, type RedisRateLimitStoreOptions } from './redis.js';
