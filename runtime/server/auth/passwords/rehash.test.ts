import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword as betterAuthHash } from 'better-auth/crypto';
import { MemoryAdapter } from '../adapters/memory.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';

// The rehash makes hashes at our production cost (not the unit tests' low one, runtime/test/scrypt-cost.ts).
vi.unmock('./cost.js');
// node:crypto's scrypt is spied on (it still runs), to count the hashes a sign-in costs.
vi.mock('node:crypto', async (original) => {
	const crypto = await original<typeof import('node:crypto')>();
	return { ...crypto, scrypt: vi.fn(crypto.scrypt) };
});
const { scrypt } = await import('node:crypto');
const { authorizeWithPassword, PASSWORD_PROVIDER } = await import('./accounts.js');
const { hashPassword } = await import('./hashing.js');

vi.setConfig({ testTimeout: 30_000 });
const dir = mkdtempSync(join(tmpdir(), 'create-auth-rehash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
beforeEach(() => {
	vi.mocked(scrypt).mockClear();
	consoleError.mockClear();
});

const PASSWORD = 'correct horse battery';
const EMAIL = 'ada@example.com';
/** Our scrypt hashes (N=2^17) that node:crypto's scrypt was asked for since the last clear. */
const ourHashesRun = () => vi.mocked(scrypt).mock.calls.filter(([, , , options]) => (options as { N: number }).N === 2 ** 17).length;

/** A user whose password account holds `password_hash` as it was copied from the old library. */
async function switchedUser(adapter: Adapter, password_hash: string) {
	await adapter.createUser!({ id: 'u-ada', email: EMAIL, emailVerified: new Date(0), name: 'Ada', image: null });
	await adapter.linkAccount!({ userId: 'u-ada', type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: EMAIL, password_hash });
}
const storedHash = async (adapter: Adapter) => (await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER))?.password_hash;
const signIn = (adapter: Adapter, password = PASSWORD) => authorizeWithPassword(adapter as never, { email: EMAIL, password });

const formats = {
	'Better Auth': () => betterAuthHash(PASSWORD),
	'Lucia (argon2id, as sv add lucia)': () => argon2Hash(PASSWORD, { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 })
};
const adapters = {
	memory: () => MemoryAdapter(),
	SQLite: () => SQLiteAdapter({ filename: join(dir, `${files++}.sqlite`) }) as Adapter
};

describe.each(Object.entries(adapters))('a sign-in with a password hash of another library (%s adapter)', (_, makeAdapter) => {
	it.each(Object.entries(formats))('%s: signs in, stores our scrypt hash in its place, and the same password signs in again', async (_, makeHash) => {
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

describe('the rehash at sign-in', () => {
	it('keeps the foreign hash and still signs in when linking the new account fails (the old one is linked back), then rehashes next time', async () => {
		const adapter = MemoryAdapter();
		const foreign = await betterAuthHash(PASSWORD);
		await switchedUser(adapter, foreign);
		const link = vi.spyOn(adapter, 'linkAccount').mockImplementationOnce(() => Promise.reject(new Error('connection reset')));
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(link).toHaveBeenCalledTimes(2);
		expect(await storedHash(adapter)).toBe(foreign);
		expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ type: 'AdapterError', message: expect.stringContaining('the old one stays') }));
		expect(JSON.stringify(consoleError.mock.calls)).not.toContain(PASSWORD);
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(await storedHash(adapter)).toMatch(/^scrypt\$/);
	});

	it('keeps the foreign hash and still signs in when unlinking fails', async () => {
		const adapter = MemoryAdapter();
		const foreign = await betterAuthHash(PASSWORD);
		await switchedUser(adapter, foreign);
		vi.spyOn(adapter, 'unlinkAccount').mockImplementationOnce(() => Promise.reject(new Error('connection reset')));
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(await storedHash(adapter)).toBe(foreign);
	});

	it('keeps the foreign hash and still signs in with an adapter that cannot unlink or link accounts', async () => {
		const adapter = MemoryAdapter();
		const foreign = await betterAuthHash(PASSWORD);
		await switchedUser(adapter, foreign);
		const { getAccount, getUser } = adapter;
		expect(await authorizeWithPassword({ getAccount, getUser }, { email: EMAIL, password: PASSWORD })).toMatchObject({ id: 'u-ada' });
		expect(await storedHash(adapter)).toBe(foreign);
	});

	it('leaves our own hash alone', async () => {
		const adapter = MemoryAdapter();
		await switchedUser(adapter, await hashPassword(PASSWORD));
		const unlink = vi.spyOn(adapter, 'unlinkAccount');
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(unlink).not.toHaveBeenCalled();
	});

	it('changes nothing on a wrong password', async () => {
		const adapter = MemoryAdapter();
		const foreign = await betterAuthHash(PASSWORD);
		await switchedUser(adapter, foreign);
		expect(await signIn(adapter, 'a wrong guess here')).toBeNull();
		expect(await storedHash(adapter)).toBe(foreign);
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
		for (const stored of [await betterAuthHash(PASSWORD), await formats['Lucia (argon2id, as sv add lucia)'](), '']) {
			const adapter = MemoryAdapter();
			await switchedUser(adapter, stored);
			vi.mocked(scrypt).mockClear();
			expect(await signIn(adapter, 'a wrong guess here')).toBeNull();
			expect(ourHashesRun()).toBe(1);
		}
	});
});
