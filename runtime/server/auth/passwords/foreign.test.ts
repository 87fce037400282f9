import { afterEach, describe, expect, it, vi } from 'vitest';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from 'better-auth/crypto';

// The real libraries, with spies on what would burn memory: node:crypto's scrypt and
// @node-rs/argon2's verify, so a refused hash can be shown to have derived nothing.
vi.mock('node:crypto', async (original) => {
	const crypto = await original<typeof import('node:crypto')>();
	return { ...crypto, scrypt: vi.fn(crypto.scrypt) };
});
vi.mock('@node-rs/argon2', async (original) => {
	const argon2 = await original<typeof import('@node-rs/argon2')>();
	return { ...argon2, verify: vi.fn(argon2.verify) };
});
const { scrypt } = await import('node:crypto');
const argon2 = await import('@node-rs/argon2');
const { isForeignPasswordHash, verifyForeignHash } = await import('./foreign.js');
const { verifyPassword } = await import('./hashing.js');

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.mocked(scrypt).mockClear());
afterEach(() => vi.mocked(argon2.verify).mockClear());

/** The options `sv add lucia` hashed its demo's passwords with. */
const LUCIA = { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 };

/** `stored` with the character at `index` (from the end when negative) changed to another of its alphabet. */
/**
 * `stored` with the hex digit at `index` (from the end when negative) replaced by the next one
 * (f → 0), so the byte it encodes changes; `a` → `A` would not (hex decoding ignores case).
 */
function flip(stored: string, index: number): string {
	const at = index < 0 ? stored.length + index : index;
	const swap = ((parseInt(stored[at]!, 16) + 1) % 16).toString(16);
	return stored.slice(0, at) + swap + stored.slice(at + 1);
}

/**
 * `stored` with the base64 character at `index` replaced by another one. Give an index inside a
 * field, not its last character: the last one of unpadded base64 also carries padding bits, and
 * changing only those leaves the bytes as they were.
 */
function flipBase64(stored: string, index: number): string {
	const at = index < 0 ? stored.length + index : index;
	const swap = stored[at] === 'A' ? 'B' : 'A';
	return stored.slice(0, at) + swap + stored.slice(at + 1);
}

describe('Better Auth hashes (scrypt, <salt hex>:<key hex>)', async () => {
	const stored = await betterAuthHash('correct horse battery');

	it('verifies a hash made by better-auth’s own hashPassword, and refuses a wrong password', async () => {
		expect(stored).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
		expect(await verifyForeignHash('correct horse battery', stored)).toBe(true);
		expect(await verifyPassword('correct horse battery', stored)).toBe(true);
		expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
		expect(await verifyPassword('', stored)).toBe(false);
	});

	it('derives with Better Auth’s parameters (N=16384, r=16, p=1, 64-byte key) in our queue', async () => {
		await verifyPassword('correct horse battery', stored);
		expect(scrypt).toHaveBeenCalledTimes(1);
		expect(vi.mocked(scrypt).mock.calls[0]!.slice(1, 4)).toEqual([stored.slice(0, 32), 64, expect.objectContaining({ N: 16384, r: 16, p: 1 })]);
	});

	it('agrees with better-auth on NFKC: a password set with ligatures signs in typed plainly, as it did there', async () => {
		const ligatures = await betterAuthHash('ﬁve ﬁne ﬁsh swim');
		expect(await betterAuthVerify({ hash: ligatures, password: 'five fine fish swim' })).toBe(true);
		expect(await verifyPassword('five fine fish swim', ligatures)).toBe(true);
		expect(await verifyPassword('five fine fish swam', ligatures)).toBe(false);
	});

	it.each([
		['a changed key byte', flip(stored, -1)],
		['a changed salt digit', flip(stored, 0)],
		['a key cut short', stored.slice(0, -2)],
		['a salt cut short', stored.slice(2)],
		['an uppercase salt (another salt string)', stored.slice(0, 32).toUpperCase() + stored.slice(32)],
		['a key with a non-hex digit', stored.slice(0, -1) + 'g']
	])('refuses %s', async (_, tampered) => {
		expect(await verifyPassword('correct horse battery', tampered)).toBe(false);
	});
});

describe('argon2 hashes (PHC, as sv add lucia stored them with @node-rs/argon2)', async () => {
	const stored = await argon2Hash('correct horse battery', LUCIA);

	it('verifies a hash made by @node-rs/argon2 with sv’s parameters, and refuses a wrong password', async () => {
		expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
		expect(await verifyPassword('correct horse battery', stored)).toBe(true);
		expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
		expect(await verifyPassword('', stored)).toBe(false);
		// Through the library (the spy below proves the refusals never reach it).
		expect(argon2.verify).toHaveBeenCalledTimes(3);
		expect(vi.mocked(argon2.verify).mock.calls[0]).toEqual([stored, 'correct horse battery']);
	});

	it('checks the password as typed, as Lucia did (no NFKC): a ligature password needs its ligatures', async () => {
		const ligatures = await argon2Hash('ﬁve ﬁne ﬁsh swim', LUCIA);
		expect(await verifyPassword('ﬁve ﬁne ﬁsh swim', ligatures)).toBe(true);
		expect(await verifyPassword('five fine fish swim', ligatures)).toBe(false);
	});

	it('verifies a hash at the bounds (64 MiB, 3 passes, 4 lanes) and argon2i', async () => {
		const heavy = await argon2Hash('correct horse battery', { memoryCost: 65536, timeCost: 3, parallelism: 4 });
		expect(await verifyPassword('correct horse battery', heavy)).toBe(true);
		const argon2i = await argon2Hash('correct horse battery', { ...LUCIA, algorithm: 1 /* Algorithm.Argon2i */ });
		expect(argon2i).toMatch(/^\$argon2i\$/);
		expect(await verifyPassword('correct horse battery', argon2i)).toBe(true);
	});

	it('refuses a changed byte of the hash or of the salt', async () => {
		expect(await verifyPassword('correct horse battery', flipBase64(stored, -2))).toBe(false);
		const saltAt = stored.lastIndexOf('$') - 2;
		expect(await verifyPassword('correct horse battery', flipBase64(stored, saltAt))).toBe(false);
	});

	// Attack: a row tampered with (or planted) to name huge argon2 costs, so that each sign-in
	// attempt makes the server allocate gigabytes or run for minutes (DoS through stored hash
	// parameters; ASVS 5.0 V11 / V6 password storage). Refused before the library is called.
	const [, , , , salt, key] = stored.split('$');
	it.each([
		['m = 4 GiB', `$argon2id$v=19$m=4194304,t=2,p=1$${salt}$${key}`],
		['m just over 64 MiB', `$argon2id$v=19$m=65537,t=1,p=1$${salt}$${key}`],
		['t = 1,000,000 passes', `$argon2id$v=19$m=19456,t=1000000,p=1$${salt}$${key}`],
		['64 MiB × 4 passes (over the work bound)', `$argon2id$v=19$m=65536,t=4,p=1$${salt}$${key}`],
		['p = 255 lanes', `$argon2id$v=19$m=19456,t=2,p=255$${salt}$${key}`],
		['t = 0', `$argon2id$v=19$m=19456,t=0,p=1$${salt}$${key}`],
		['m below 8 KiB per lane', `$argon2id$v=19$m=7,t=2,p=1$${salt}$${key}`],
		['a 1 KiB output', `$argon2id$v=19$m=19456,t=2,p=1$${salt}$${'A'.repeat(1366)}`],
		['a 4-byte salt', `$argon2id$v=19$m=19456,t=2,p=1$AAAAAA$${key}`],
		['version 16', stored.replace('v=19', 'v=16')],
		['another algorithm name', stored.replace('argon2id', 'argon2x')],
		['parameters in another order', `$argon2id$v=19$t=2,m=19456,p=1$${salt}$${key}`]
	])('refuses %s without calling argon2', async (_, tampered) => {
		expect(await verifyPassword('correct horse battery', tampered)).toBe(false);
		expect(argon2.verify).not.toHaveBeenCalled();
		expect(scrypt).not.toHaveBeenCalled();
	});
});

describe('other shapes', () => {
	it.each([
		['the removed password of email/proof.ts', ''],
		['plain text', 'correct horse battery'],
		['bcrypt', '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy'],
		['a colon pair of other lengths', 'abcd:ef01'],
		['PBKDF2 (Django)', 'pbkdf2_sha256$600000$salt$hash'],
		['scrypt-looking but not ours', 'scrypt:16384:8:1:abcd:ef']
	])('never verifies %s, and derives nothing', async (_, stored) => {
		expect(await verifyPassword('correct horse battery', stored)).toBe(false);
		expect(await verifyPassword('', stored)).toBe(false);
		expect(scrypt).not.toHaveBeenCalled();
		expect(argon2.verify).not.toHaveBeenCalled();
	});

	it('tells foreign hashes (to be replaced at sign-in) from ours and from unknown shapes', async () => {
		expect(isForeignPasswordHash(await betterAuthHash('x'))).toBe(true);
		expect(isForeignPasswordHash(await argon2Hash('x', LUCIA))).toBe(true);
		expect(isForeignPasswordHash('scrypt$131072$8$1$OoTck3Tn8Zh8UIa3iAnJtw$x2kh6rLUl_pB5zPEHxXd6E5n8HDEQpYxi3vw4KBM00I')).toBe(false);
		expect(isForeignPasswordHash('')).toBe(false);
		expect(isForeignPasswordHash('$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy')).toBe(false);
	});
});
