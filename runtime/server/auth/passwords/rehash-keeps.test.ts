import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { EMAIL, foreignHashes, PASSWORD, signIn, storedHash, switchedUser } from '../../../test/switched-user.js';
import { authorizeWithPassword } from './accounts.js';
import { COST } from './cost.js';
import { hashPassword } from './hashing.js';

// Where the rehash at sign-in keeps the stored hash, at the unit tests' low cost
// (runtime/test/scrypt-cost.ts): nothing here depends on the cost. The hash it stores at the
// production cost, and what a refused sign-in costs, are rehash.test.ts's.
const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
beforeEach(() => {
	consoleError.mockClear();
});

describe('the rehash at sign-in', () => {
	it('keeps the foreign hash and still signs in when linking the new account fails (the old one is linked back), then rehashes next time', async () => {
		const adapter = MemoryAdapter();
		const foreign = await foreignHashes['Better Auth']();
		await switchedUser(adapter, foreign);
		const link = vi.spyOn(adapter, 'linkAccount').mockImplementationOnce(() => Promise.reject(new Error('connection reset')));
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(link).toHaveBeenCalledTimes(2);
		expect(await storedHash(adapter)).toBe(foreign);
		expect(consoleError).toHaveBeenCalledWith(expect.objectContaining({ type: 'AdapterError', message: expect.stringContaining('the old one stays') }));
		expect(JSON.stringify(consoleError.mock.calls)).not.toContain(PASSWORD);
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(await storedHash(adapter)).toMatch(new RegExp(`^scrypt\\$${COST.N}\\$${COST.r}\\$${COST.p}\\$`));
	});

	it('keeps the foreign hash and still signs in when unlinking fails', async () => {
		const adapter = MemoryAdapter();
		const foreign = await foreignHashes['Better Auth']();
		await switchedUser(adapter, foreign);
		vi.spyOn(adapter, 'unlinkAccount').mockImplementationOnce(() => Promise.reject(new Error('connection reset')));
		expect(await signIn(adapter)).toMatchObject({ id: 'u-ada' });
		expect(await storedHash(adapter)).toBe(foreign);
	});

	it('keeps the foreign hash and still signs in with an adapter that cannot unlink or link accounts', async () => {
		const adapter = MemoryAdapter();
		const foreign = await foreignHashes['Better Auth']();
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
		const foreign = await foreignHashes['Better Auth']();
		await switchedUser(adapter, foreign);
		expect(await signIn(adapter, 'a wrong guess here')).toBeNull();
		expect(await storedHash(adapter)).toBe(foreign);
	});
});
