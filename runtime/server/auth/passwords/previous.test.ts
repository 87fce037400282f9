import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import type { Adapter } from '../adapters/types.js';
import { CredentialsSignin } from '../errors.js';
import { authorizeWithPassword, PASSWORD_PROVIDER, replacePasswordHash } from './accounts.js';
import { hashPassword, verifyPassword } from './hashing.js';
import type { PreviousAuthorize } from './previous.js';

vi.setConfig({ testTimeout: 30_000 });
const dir = mkdtempSync(join(tmpdir(), 'create-auth-previous-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
beforeEach(() => consoleError.mockClear());

const EMAIL = 'ada@example.com';
const PASSWORD = 'the password Auth.js checked';
const request = new Request('http://127.0.0.1/signin', { method: 'POST' });

/**
 * The app's own users as an Auth.js Credentials `authorize` checks them (its guide's
 * `getUserFromDb(email, password)`): ids of its own, passwords compared as it likes.
 */
function appAuthorize(users: Record<string, { id: string | number; password: string; name?: string; email?: string }>) {
	return vi.fn<PreviousAuthorize>(async (credentials) => {
		const email = String(credentials.email).trim().toLowerCase();
		const user = users[email];
		return user && user.password === credentials.password ? { id: user.id as string, email: user.email ?? email, name: user.name ?? null } : null;
	});
}

const adapters = {
	memory: () => MemoryAdapter(),
	SQLite: () => SQLiteAdapter({ filename: join(dir, `${files++}.sqlite`) }) as Adapter
};

describe.each(Object.entries(adapters))("authorizeWithPassword with the app's previous authorize (%s adapter)", (_, makeAdapter) => {
	const signIn = (adapter: Adapter, previous: PreviousAuthorize, email: string, password: string) => authorizeWithPassword(adapter as never, { email, password }, { previous, request });

	it('signs in a user only the app knew, and keeps it: its id and name, our hash of the password, the address unconfirmed; the next sign-in does not ask the app', async () => {
		const adapter = makeAdapter();
		const previous = appAuthorize({ [EMAIL]: { id: 42, password: PASSWORD, name: 'Ada' } });
		expect(await signIn(adapter, previous, ' Ada@Example.com', PASSWORD)).toEqual({ id: '42', email: EMAIL, name: 'Ada', image: null });
		expect(previous).toHaveBeenCalledWith({ email: ' Ada@Example.com', password: PASSWORD }, request);
		expect(await adapter.getUser!('42')).toMatchObject({ id: '42', email: EMAIL, emailVerified: null, name: 'Ada' });
		const account = await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER);
		expect(account).toMatchObject({ userId: '42', type: 'credentials', providerAccountId: EMAIL });
		expect(account?.password_hash).toMatch(/^scrypt\$/);
		expect(await verifyPassword(PASSWORD, account!.password_hash as string)).toBe(true);

		previous.mockClear();
		expect(await signIn(adapter, previous, EMAIL, PASSWORD)).toEqual({ id: '42', email: EMAIL, name: 'Ada', image: null });
		expect(await signIn(adapter, previous, EMAIL, 'a wrong password')).toBeNull();
		expect(previous).not.toHaveBeenCalled();
	});

	it("refuses what the app's authorize refuses, and stores nothing", async () => {
		const adapter = makeAdapter();
		const previous = appAuthorize({ [EMAIL]: { id: 'u1', password: PASSWORD } });
		expect(await signIn(adapter, previous, EMAIL, 'not the password')).toBeNull();
		expect(await signIn(adapter, previous, 'bob@example.com', PASSWORD)).toBeNull();
		expect(await adapter.getUserByEmail!(EMAIL)).toBeNull();
		expect(await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER)).toBeNull();
	});

	// ASVS 5.0 6.2.x / NIST SP 800-63B-4 §3.1.1.2: a changed password replaces the old one. The app's own
	// store still holds the old password after the switch; it must never sign in again once create-auth holds the account.
	it('attack: after the password is changed here, the old password the app still knows is refused, and the app is not asked', async () => {
		const adapter = makeAdapter();
		const previous = appAuthorize({ [EMAIL]: { id: 'u1', password: PASSWORD } });
		await signIn(adapter, previous, EMAIL, PASSWORD);
		const account = (await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER))!;
		await replacePasswordHash(adapter as never, account, await hashPassword('a new password of some length'), { error: () => {} });
		previous.mockClear();
		expect(await signIn(adapter, previous, EMAIL, PASSWORD)).toBeNull();
		expect(previous).not.toHaveBeenCalled();
		expect(await signIn(adapter, previous, EMAIL, 'a new password of some length')).toMatchObject({ id: 'u1' });
	});

	// The pre-hijacked accounts study (Sudhodanan and Paverd, USENIX Security 2022), "classic-federated
	// merge": an account made here in the victim's name (here by an OAuth sign-in, no password) must not
	// be joined by a password the app's old store checks, nor the attacker's account signed into.
	it('attack (pre-hijacking): another user create-auth has at the address is never signed into nor given the password', async () => {
		const adapter = makeAdapter();
		await adapter.createUser!({ id: 'attacker', email: EMAIL, emailVerified: null, name: 'Mallory', image: null });
		await adapter.linkAccount!({ userId: 'attacker', type: 'oauth', provider: 'github', providerAccountId: '666' });
		const previous = appAuthorize({ [EMAIL]: { id: 'victim', password: PASSWORD } });
		expect(await signIn(adapter, previous, EMAIL, PASSWORD)).toBeNull();
		expect(await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER)).toBeNull();
		expect(await adapter.getUser!('victim')).toBeNull();
		expect(String(consoleError.mock.calls[0]?.[0])).toContain('create-auth has another user at that address');
	});

	it('attack (pre-hijacking): a password account made here at the address first is the only one that signs in; the app is not asked', async () => {
		const adapter = makeAdapter();
		await adapter.createUser!({ id: 'attacker', email: EMAIL, emailVerified: null, name: null, image: null });
		await adapter.linkAccount!({ userId: 'attacker', type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: EMAIL, password_hash: await hashPassword('the attacker password') });
		const previous = appAuthorize({ [EMAIL]: { id: 'victim', password: PASSWORD } });
		expect(await signIn(adapter, previous, EMAIL, PASSWORD)).toBeNull();
		expect(previous).not.toHaveBeenCalled();
	});

	it('refuses a user the app returns with another address, with none, or with an id create-auth has at another address', async () => {
		const adapter = makeAdapter();
		const elsewhere = appAuthorize({ [EMAIL]: { id: 'u1', password: PASSWORD, email: 'eve@example.com' } });
		expect(await signIn(adapter, elsewhere, EMAIL, PASSWORD)).toBeNull();
		const none: PreviousAuthorize = async () => ({ id: 'u1', name: 'Ada' });
		expect(await signIn(adapter, none, EMAIL, PASSWORD)).toBeNull();
		await adapter.createUser!({ id: 'u1', email: 'other@example.com', emailVerified: null, name: null, image: null });
		expect(await signIn(adapter, appAuthorize({ [EMAIL]: { id: 'u1', password: PASSWORD } }), EMAIL, PASSWORD)).toBeNull();
		expect(await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER)).toBeNull();
		expect(consoleError).toHaveBeenCalledTimes(3);
	});

	it('gives a user create-auth has under the same id and address (no password yet) the password account', async () => {
		const adapter = makeAdapter();
		await adapter.createUser!({ id: 'u1', email: EMAIL, emailVerified: new Date(0), name: 'Ada', image: null });
		expect(await signIn(adapter, appAuthorize({ [EMAIL]: { id: 'u1', password: PASSWORD } }), EMAIL, PASSWORD)).toMatchObject({ id: 'u1', name: 'Ada' });
		expect(await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER)).toMatchObject({ userId: 'u1' });
	});

	it("is a refusal when the app's authorize fails (logged), and the app's CredentialsSignin with its code when it throws one", async () => {
		const adapter = makeAdapter();
		const broken: PreviousAuthorize = async () => {
			throw new Error('connect ECONNREFUSED');
		};
		expect(await signIn(adapter, broken, EMAIL, PASSWORD)).toBeNull();
		expect(String((consoleError.mock.calls[0]?.[0] as CredentialsSignin).cause?.err)).toContain('ECONNREFUSED');
		class InvalidLogin extends CredentialsSignin {
			override code = 'invalid_login';
		}
		const refusing: PreviousAuthorize = async () => {
			throw new InvalidLogin();
		};
		await expect(signIn(adapter, refusing, EMAIL, PASSWORD)).rejects.toMatchObject({ code: 'invalid_login' });
	});

	it('keeps one user when two first sign-ins of the same user race', async () => {
		const adapter = makeAdapter();
		const previous = appAuthorize({ [EMAIL]: { id: 'u1', password: PASSWORD } });
		const results = await Promise.all([signIn(adapter, previous, EMAIL, PASSWORD), signIn(adapter, previous, EMAIL, PASSWORD)]);
		expect(results).toEqual([expect.objectContaining({ id: 'u1' }), expect.objectContaining({ id: 'u1' })]);
		expect(await adapter.listAccountsByUserId!('u1')).toHaveLength(1);
	});
});
