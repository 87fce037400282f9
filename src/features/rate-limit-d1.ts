import type { FeatureDescriptor } from '../providers/types.js';

/**
 * The D1 rate-limit store (`--rate-limit d1`, the default on Cloudflare): the sign-in and sign-up
 * counters in the D1 adapter's database (`auth_rate_limits`, from its migrations), shared by
 * every isolate of the Worker, where memory counts would start from zero in each. Its config
 * entry is the section `auth/config` of `src/auth.ts`, on the adapter's binding.
 */
export const rateLimitD1: FeatureDescriptor = {
	id: 'rate-limit-d1',
	label: 'the rate-limit store',
	chosen: (answers) => answers.rateLimit === 'd1',
	needs: [{ capability: 'rate-limits', why: 'keep rate-limit counters: d1 keeps them in the D1 adapter’s database' }],
	imports: [{ names: '{ d1RateLimitStore }', module: 'server/auth/limits/d1' }],
	env: [],
	routes: [],
	sections: ['auth/config']
};
