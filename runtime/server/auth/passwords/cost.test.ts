import { describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';

// The cost itself is the subject here: the production one, not the unit tests' low one
// (runtime/test/scrypt-cost.ts). node:crypto's scrypt is spied on (it still runs).
vi.unmock('./cost.js');
vi.mock('node:crypto', async (original) => {
	const crypto = await original<typeof import('node:crypto')>();
	return { ...crypto, scrypt: vi.fn(crypto.scrypt) };
});
const { scrypt } = await import('node:crypto');
const { authorizeWithPassword } = await import('./accounts.js');
const { COST, DUMMY_HASH } = await import('./cost.js');
const { hashPassword } = await import('./hashing.js');

vi.setConfig({ testTimeout: 30_000 });
const costOf = (hash: string) => hash.split('$').slice(1, 4).map(Number);
/** The options node:crypto's scrypt was called with while `work` ran; `work` must answer null (no sign-in). */
async function costsOf(work: () => Promise<unknown>) {
	vi.mocked(scrypt).mockClear();
	expect(await work()).toBeNull();
	return vi.mocked(scrypt).mock.calls.map(([, , , options]) => options);
}

describe('the scrypt cost of passwords (OWASP Password Storage Cheat Sheet)', async () => {
	const hash = await hashPassword('correct horse battery');

	it('hashes a new password at N=2^17, r=8, p=1 (128 MiB), as the stored string says', () => {
		expect(COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
		expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
	});

	it('checks an unknown account against a dummy hash of the cost every new hash has', () => {
		expect(costOf(DUMMY_HASH)).toEqual(costOf(hash));
	});

	it('costs an unknown address the same scrypt as a known one with a wrong password, and signs neither in', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'u-ada', email: 'ada@example.com', emailVerified: null, name: null, image: null });
		await adapter.linkAccount({ userId: 'u-ada', type: 'credentials', provider: 'credentials', providerAccountId: 'ada@example.com', password_hash: hash });
		const known = await costsOf(() => authorizeWithPassword(adapter, { email: 'ada@example.com', password: 'a wrong guess here' }));
		const unknown = await costsOf(() => authorizeWithPassword(adapter, { email: 'nobody@example.com', password: 'a wrong guess here' }));
		expect(known).toEqual([{ N: 2 ** 17, r: 8, p: 1, maxmem: expect.any(Number) }]);
		expect(unknown).toEqual(known);
	});

	it('still runs a full scrypt verification when the email is unknown', async () => {
		const adapter = MemoryAdapter();
		const getUser = vi.fn(adapter.getUser);
		const started = performance.now();
		await authorizeWithPassword({ ...adapter, getUser }, { email: 'nobody@example.com', password: 'whatever1' });
		expect(performance.now() - started).toBeGreaterThan(50);
		expect(getUser).not.toHaveBeenCalled();
	});
});
