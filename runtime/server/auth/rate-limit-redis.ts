// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The Redis rate-limit store, by the path the generated `src/auth.ts` imports it from (apps
 * set up with `--rate-limit redis`). The code is `limits/redis.ts` (ioredis); this module only
 * names it.
 * @see create-auth docs/api.md#rate-limits
 */
export { redisRateLimitStore, type RedisRateLimitStoreOptions } from './limits/redis.js';
