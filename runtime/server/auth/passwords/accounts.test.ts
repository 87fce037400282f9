import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scryptSync } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SQLiteAdapter } from '../adapters/sqlite.js';
import { resolveConfig } from '../config.js';
import { AdapterError } from '../errors.js';
import { authorizeWithPassword, registerWithPassword as register, type RegisterAdapter } from './accounts.js';
import { COST } from './cost.js';
import { hashPassword, verifyPassword } from './hashing.js';

vi.setConfig({ testTimeout: 20_000 });
const dir = mkdtempSync(join(tmpdir(), 'create-auth-passwords-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshAdapter = () => SQLiteAdapter({ filename: join(dir, `${files++}.sqlite`) });
const config = resolveConfig({ providers: [], secret: 's'.repeat(32) });
const registerWithPassword = (adapter: RegisterAdapter, input: { email: unknown; password: unknown }) => register(adapter, input, config);

describe('hashPassword / verifyPassword', async () => {
	const hash = await hashPassword('correct horse battery');

	it('produces a self-describing scrypt string with the parameters of COST (cost.ts) and a random salt', async () => {
		expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]{22}\$[\w-]{43}$/);
		expect(hash.split('$').slice(1, 4).map(Number)).toEqual([COST.N, COST.r, COST.p]);
		expect(await hashPassword('correct horse battery')).not.toBe(hash);
	});

	it('accepts the right password and rejects a wrong one', async () => {
		expect(await verifyPassword('correct horse battery', hash)).toBe(true);
		expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
	});

	it('hashes the NFKC form (NIST SP 800-63B-4 §3.1.1.2): the ligature ﬁ and fullwidth letters verify as their plain letters', async () => {
		const stored = await hashPassword('ﬁve ﬁne ﬁsh swim');
		expect(await verifyPassword('five fine fish swim', stored)).toBe(true);
		expect(await verifyPassword('ｆｉｖｅ ｆｉｎｅ ｆｉｓｈ ｓｗｉｍ', stored)).toBe(true);
		expect(await verifyPassword('five fine fish swam', stored)).toBe(false);
	});

	it('keeps verifying a hash an earlier runtime made of the NFC form, so passwords set before still sign in', async () => {
		const salt = Buffer.alloc(16, 7);
		const earlier = (password: string) =>
			['scrypt', 1024, 8, 1, salt.toString('base64url'), scryptSync(password.normalize('NFC'), salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url')].join('$');
		const ligature = earlier('ﬁve ﬁne ﬁsh swim');
		expect(await verifyPassword('ﬁve ﬁne ﬁsh swim', ligature)).toBe(true);
		expect(await verifyPassword('five fine fish swim', ligature)).toBe(false);
		// Decomposed é (e + U+0301) was stored composed (NFC), as NFKC composes it too.
		expect(await verifyPassword('café au lait please', earlier('cafe\u0301 au lait please'))).toBe(true);
		expect(await verifyPassword('plain ascii password', earlier('plain ascii password'))).toBe(true);
	});

	const [, , , , salt, key] = hash.split('$');
	it.each([
		['an empty string', ''],
		['another scheme', hash.replace('scrypt', 'bcrypt')],
		['a missing part', `scrypt$131072$8$1$${salt}`],
		['N not a power of two', `scrypt$131071$8$1$${salt}$${key}`],
		['N too large', `scrypt$2097152$8$1$${salt}$${key}`],
		['r = 0', `scrypt$131072$0$1$${salt}$${key}`],
		['p too large', `scrypt$131072$8$99$${salt}$${key}`],
		['a non-numeric cost', `scrypt$1e5$8$1$${salt}$${key}`],
		['a short salt', `scrypt$131072$8$1$AAAA$${key}`],
		['a truncated hash', `scrypt$131072$8$1$${salt}$${key!.slice(0, 20)}`]
	])('returns false, without throwing, for a stored hash with %s', async (_, stored) => {
		expect(await verifyPassword('correct horse battery', stored)).toBe(false);
	});
});

describe('registerWithPassword', () => {
	it('creates a user and a credentials account holding the hash, email normalized', async () => {
		const adapter = freshAdapter();
		const result = await registerWithPassword(adapter, { email: '  Alice@Example.COM ', password: 'long enough to pass' });
		expect(result).toMatchObject({ ok: true, user: { email: 'alice@example.com', emailVerified: null, name: null, image: null } });
		if (!result.ok) return;
		const account = await adapter.getAccount('alice@example.com', 'credentials');
		expect(account).toMatchObject({ userId: result.user.id, type: 'credentials', provider: 'credentials' });
		expect(await verifyPassword('long enough to pass', account!.password_hash!)).toBe(true);
	});

	it.each([
		['a missing email', { email: null, password: 'long enough to pass' }, 'InvalidEmail'],
		['a file instead of an email', { email: new File([], 'x'), password: 'long enough to pass' }, 'InvalidEmail'],
		['an email without a domain dot', { email: 'alice@localhost', password: 'long enough to pass' }, 'InvalidEmail'],
		['an email with spaces inside', { email: 'al ice@example.com', password: 'long enough to pass' }, 'InvalidEmail'],
		['a missing password', { email: 'a@example.com', password: null }, 'PasswordTooShort'],
		['a 14-character password', { email: 'a@example.com', password: 'fourteen chars' }, 'PasswordTooShort'],
		['a blocklisted password', { email: 'a@example.com', password: 'qwertyuiopasdfgh' }, 'PasswordTooCommon'],
		['a 1025-character password', { email: 'a@example.com', password: 'x'.repeat(1025) }, 'PasswordTooLong']
	])('refuses %s with a stable code and a message', async (_, input, code) => {
		const adapter = freshAdapter();
		const result = await registerWithPassword(adapter, input);
		expect(result).toMatchObject({ ok: false, code, message: expect.any(String) });
		expect(await adapter.getUserByEmail('a@example.com')).toBeNull();
	});

	it('refuses an email that is already registered, whatever its case', async () => {
		const adapter = freshAdapter();
		await registerWithPassword(adapter, { email: 'a@example.com', password: 'long enough to pass' });
		expect(await registerWithPassword(adapter, { email: 'A@example.com', password: 'another long password' })).toMatchObject({
			ok: false,
			code: 'EmailInUse'
		});
	});

	it('removes the new user again when linking the account fails, and answers Unavailable', async () => {
		const adapter = freshAdapter();
		const failing = { ...adapter, linkAccount: () => Promise.reject(new Error('disk full')) };
		const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		try {
			expect(await registerWithPassword(failing, { email: 'a@example.com', password: 'long enough to pass' })).toMatchObject({ ok: false, code: 'Unavailable' });
			expect(log).toHaveBeenCalledWith(expect.objectContaining({ type: 'AdapterError', message: expect.stringContaining('linkAccount() failed: disk full') }));
		} finally {
			log.mockRestore();
		}
		expect(await adapter.getUserByEmail('a@example.com')).toBeNull();
	});

	it.each([
		['rejects', () => Promise.reject(new Error('connect ECONNREFUSED'))],
		['throws synchronously (an adapter breaking the contract)', () => {
			throw new Error('connect ECONNREFUSED');
		}]
	])('answers Unavailable, never throwing, when the store %s', async (_, down) => {
		const adapter = { ...freshAdapter(), getUserByEmail: down };
		const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		try {
			const result = await registerWithPassword(adapter, { email: 'a@example.com', password: 'long enough to pass' });
			expect(result).toEqual({ ok: false, code: 'Unavailable', message: 'Sign-up is unavailable for a moment. Please try again shortly.' });
			expect(log).toHaveBeenCalledWith(expect.objectContaining({ type: 'AdapterError', message: expect.stringContaining('getUserByEmail()') }));
		} finally {
			log.mockRestore();
		}
	});
});

describe('authorizeWithPassword', async () => {
	const adapter = freshAdapter();
	const registered = await registerWithPassword(adapter, { email: 'bob@example.com', password: 'bob password that is long' });

	it('returns the user for the right email (any case) and password', async () => {
		expect(registered.ok).toBe(true);
		const user = await authorizeWithPassword(adapter, { email: ' BOB@example.com', password: 'bob password that is long' });
		expect(user).toEqual({ id: registered.ok && registered.user.id, email: 'bob@example.com', name: null, image: null });
	});

	it.each([
		['a wrong password', { email: 'bob@example.com', password: 'wrong password' }],
		['an unknown email', { email: 'carol@example.com', password: 'bob password that is long' }],
		['no fields', {}],
		['non-string fields', { email: ['bob@example.com'], password: 42 }]
	])('returns null for %s', async (_, credentials) => {
		expect(await authorizeWithPassword(adapter, credentials)).toBeNull();
	});

	it.each([
		['getAccount', { getAccount: () => Promise.reject(new Error('connect ECONNREFUSED')) }],
		['getUser', { getUser: () => Promise.reject(new Error('connect ECONNREFUSED')) }]
	])('rejects with AdapterError naming %s when the store is down, not with a failed sign-in', async (method, down) => {
		const failure = authorizeWithPassword({ ...adapter, ...down }, { email: 'bob@example.com', password: 'bob password that is long' });
		await expect(failure).rejects.toBeInstanceOf(AdapterError);
		await expect(failure).rejects.toThrow(`The adapter's ${method}() failed: connect ECONNREFUSED`);
	});
});
