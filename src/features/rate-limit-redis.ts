import type { FeatureDescriptor } from '../providers/types.js';

/** The variable of the Redis server's URL, read by the `redis` rate-limit store. */
export const REDIS_URL = 'REDIS_URL';

/**
 * The Redis rate-limit store (`--rate-limit redis`): the sign-in and sign-up counters shared by
 * every server at `REDIS_URL` (a first run writes a local server's URL to `.env`). Its config
 * entry is the section `auth/config` of `src/auth.ts`. The memory store, the default, is part of
 * the runtime every app gets, so it is no feature.
 */
export const rateLimitRedis: FeatureDescriptor = {
	id: 'rate-limit-redis',
	label: 'the rate-limit store',
	chosen: (answers) => answers.rateLimit === 'redis',
	imports: [{ names: '{ redisRateLimitStore }', module: 'server/auth/rate-limit-redis' }],
	env: [
		{
			key: REDIS_URL,
			description: 'Redis holding the sign-in and sign-up rate-limit counters every server shares: redis://user:password@host:6379 (rediss:// for TLS)',
			value: 'redis://127.0.0.1:6379',
			example: 'redis://user:password@host:6379',
			hint: 'Set it in .env and in the production environment. Unset, src/auth uses a Redis on 127.0.0.1, and sign-ins and sign-ups are refused while none answers.'
		}
	],
	routes: [],
	dependencies: ['ioredis'],
	sections: ['auth/config']
};
