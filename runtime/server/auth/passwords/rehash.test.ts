import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';

// The cost is the subject here: the rehash makes hashes at our production cost, and a refused
// sign-in costs one of them (not the unit tests' low one, runtime/test/scrypt-cost.ts). Where
// the rehash keeps the stored hash, nothing depends on the cost: rehash-keeps.test.ts.
vi.unmock('./cost.js');
// node:crypto's scrypt is spied on (it still runs), to count the hashes a sign-in costs.
vi.mock('node:crypto', async (original) => {
	const crypto = await original<typeof import('node:crypto')>();
	return { ...crypto, scrypt: vi.fn(crypto.scrypt) };
});
const { scrypt } = await import('node:crypto');
const { PASSWORD_PROVIDER } = await import('./accounts.js');
const { EMAIL, foreignHashes, signIn, storedHash, switchedUser } = await import('../../../test/switched-user.js');

vi.setConfig({ testTimeout: 30_000 });
const dir = mkdtempSync(join(tmpdir(), 'create-auth-rehash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
beforeEach(() => {
	vi.mocked(scrypt).mockClear();
});

/**
 * Our scrypt hashes at the production cost that node:crypto's scrypt was asked for since the last
 * clear; Better Auth's (N=2^14) are not. N=2^17 as a figure, not `COST.N`: were the low cost in
 * force here, nothing would count, and the test would fail rather than pass at the wrong cost.
 */
const ourHashesRun = () => vi.mocked(scrypt).mock.calls.filter(([, , , options]) => (options as { N: number }).N === 2 ** 17).length;

const adapters = {
	memory: () => MemoryAdapter(),
	SQLite: () => SQLiteAdapter({ filename: join(dir, `${files++}.sqlite`) }) as Adapter
};

describe.each(Object.entries(adapters))('a sign-in with a password hash of another library (%s adapter)', (_, makeAdapter) => {
	it.each(Object.entries(foreignHashes))('%s: signs in, stores our scrypt hash in its place, and the same password signs in again', async (_, makeHash) => {
		const adapter = makeAdapter();
		const foreign = await makeHash();
		await switchedUser(adapter, foreign);
		expect(await signIn(adapter)).toEqual({ id: 'u-ada', email: EMAIL, name: 'Ada', image: null });
		const ours = await storedHash(adapter);
		expect(ours).toMatch(/^scrypt\$131072\$8\$1\$/);
		expect(await adapter.listAccountsByUserId!('u-ada')).toEqual([expect.objectContaining({ provider: PASSWORD_PROVIDER, providerAccountId: EMAIL, password_hash: ours })]);
		// The old hash is gone from the store: nothing verifies against it any more.
		expect(JSON.stringify(await adapter.listAccountsByUserId!('u-ada'))).not.toContain(foreign);
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(await storedHash(adapter)).toBe(ours);
		expect(await signIn(adapter, 'correct horse batterY')).toBeNull();
	});
});

// Attack: account enumeration by timing. A foreign hash is cheaper to check than ours (Better
// Auth's scrypt is a quarter of our memory, Lucia's argon2 19 MiB), and a removed password ('')
// costs nothing, so a refusal there would answer faster than for an unknown address.
describe('the time a refused sign-in takes', () => {
	it('is at least one of our scrypt hashes for an unknown address, a foreign hash and a removed password alike', async () => {
		const unknown = MemoryAdapter();
		expect(await signIn(unknown, 'a wrong guess here')).toBeNull();
		expect(ourHashesRun()).toBe(1);
		for (const stored of [await foreignHashes['Better Auth'](), await foreignHashes['Lucia (argon2id, as sv add lucia)'](), '']) {
			const adapter = MemoryAdapter();
			await switchedUser(adapter, stored);
			vi.mocked(scrypt).mockClear();
			expect(await signIn(adapter, 'a wrong guess here')).toBeNull();
			expect(ourHashesRun()).toBe(1);
		}
	});
});
