import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COST, DUMMY_HASH } from '../server/auth/passwords/cost.js';
import { hashPassword, verifyPassword } from '../server/auth/passwords/hashing.js';

afterEach(() => vi.unstubAllEnvs());
const costOf = (hash: string) => hash.split('$').slice(1, 4).map(Number);

describe('scrypt in the unit tests (scrypt-cost.ts)', () => {
	it('hashes a new password at N=2^10, r=8, p=1, and verifies it', async () => {
		const hash = await hashPassword('correct horse battery');
		expect(costOf(hash)).toEqual([2 ** 10, 8, 1]);
		expect(COST).toEqual({ N: 2 ** 10, r: 8, p: 1 });
		expect(await verifyPassword('correct horse battery', hash)).toBe(true);
		expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
	});

	it('checks an unknown account against a dummy hash made at that cost, which verifies no password', async () => {
		expect(DUMMY_HASH).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
		expect(costOf(DUMMY_HASH)).toEqual(costOf(await hashPassword('x')));
		expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
	});

	it('leaves the production module at N=2^17, r=8, p=1, whatever the environment says', async () => {
		vi.stubEnv('NODE_ENV', 'test');
		expect(process.env.VITEST).toBeTruthy();
		const actual = await vi.importActual<typeof import('../server/auth/passwords/cost.js')>('../server/auth/passwords/cost.js');
		expect(actual.COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
		expect(Object.isFrozen(actual.COST)).toBe(true);
		expect(costOf(actual.DUMMY_HASH)).toEqual([2 ** 17, 8, 1]);
		// Nothing to change it with: the two constants, and no read of the environment.
		expect(Object.keys(actual).sort()).toEqual(['COST', 'DUMMY_HASH']);
		for (const module of ['cost.ts', 'hashing.ts', 'queue.ts']) {
			expect(readFileSync(new URL(`../server/auth/passwords/${module}`, import.meta.url), 'utf8')).not.toMatch(/process\.env|import\.meta\.env|\$env\//);
		}
	});
});
