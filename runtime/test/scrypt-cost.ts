import { vi } from 'vitest';

/**
 * The unit project's setup file (`setupFiles` in vitest.config.ts): every test file sees
 * `passwords/cost.ts` at N=2^10, r=8, p=1 (1 MiB, about a millisecond) instead of N=2^17
 * (128 MiB, ~0.3 s a hash), and a `DUMMY_HASH` made at that cost when the mock is built, so the
 * dummy still has the cost of every new hash. A file whose subject is the cost itself calls
 * `vi.unmock('<path to>/passwords/cost.js')` at its top and hashes at the production cost.
 * Test files run isolated (vitest's default), so an unmock stays in its file.
 *
 * Vitest only: an app is vendored neither `runtime/test/` nor this mock, and `cost.ts` reads
 * nothing an app configures.
 */
vi.mock(import('../server/auth/passwords/cost.js'), async () => {
	const { randomBytes, scryptSync } = await vi.importActual<typeof import('node:crypto')>('node:crypto');
	const COST = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });
	const salt = randomBytes(16);
	const key = scryptSync(randomBytes(16), salt, 32, COST);
	return { COST, DUMMY_HASH: ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$') };
});
