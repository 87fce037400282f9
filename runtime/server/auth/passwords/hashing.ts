// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { RateLimited } from '../errors.js';
import { COST } from './cost.js';
import { verifyForeignHash } from './foreign.js';
import { scryptInQueue } from './queue.js';

export { configurePasswordHashing, type PasswordHashingLimits } from './queue.js';

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Upper bounds accepted from a stored hash, so a tampered row cannot make us burn memory. */
const MAX = { N: 2 ** 20, r: 16, p: 4 } as const;

const derive = (password: string, salt: Buffer, options: { N: number; r: number; p: number }) => scryptInQueue(password, salt, KEY_BYTES, options);

/** Whether `stored` is in our own format (`scrypt$…`), as {@link hashPassword} makes it; it says nothing of its validity. */
export const isOwnPasswordHash = (stored: string): boolean => stored.startsWith('scrypt$');

/**
 * Hashes a password with scrypt at {@link COST} (`cost.ts`: N=2^17, r=8, p=1; on Cloudflare
 * Workers N=2^15, r=8, p=3; 16-byte random salt, 32-byte key), after
 * NFKC normalization (NIST SP 800-63B-4 §3.1.1.2: the same password typed on another keyboard
 * or input method, `ﬁ` or `ｆｉ` for `fi`, is the same password).
 * Returns the self-describing `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`. Takes ~0.3 s
 * and 128 MiB by design (on Workers ~0.25 s of CPU and 32 MiB: more than the Free plan's 10 ms), in the bounded queue of `PasswordHashingLimits` (`queue.ts`).
 * @throws {RateLimited} the queue is full.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const key = await derive(password.normalize('NFKC'), salt, COST);
	return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks a password against a stored hash, in constant time, in the same queue. The stored
 * string's shape says how:
 * - ours, from {@link hashPassword}: the password is NFKC-normalized as it does; earlier runtimes
 *   hashed its NFC form, so when the two differ and NFKC does not match, NFC is tried too, and
 *   passwords set before keep signing in. Parameters out of bounds (N over 2^20, r over 16, p
 *   over 4) or a malformed string give `false`, nothing derived;
 * - Better Auth's `<salt hex>:<key hex>` and argon2's PHC string (`$argon2id$v=19$m=…`, as
 *   `sv add lucia` made them): {@link verifyForeignHash} (`foreign.ts`), for apps switched from
 *   those libraries; `authorizeWithPassword` replaces such a hash with ours at the sign-in;
 * - anything else (another scheme, the `''` of a removed password) is `false`.
 * @throws {RateLimited} the queue is full.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	if (!isOwnPasswordHash(stored)) return verifyForeignHash(password, stored);
	const parts = stored.split('$');
	if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
	const [N, r, p] = parts.slice(1, 4).map((part) => (/^[1-9]\d{0,7}$/.test(part ?? '') ? Number(part) : 0)) as [number, number, number];
	const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
	if (!powerOfTwo || N > MAX.N || r < 1 || r > MAX.r || p < 1 || p > MAX.p) return false;
	const salt = Buffer.from(parts[4]!, 'base64url');
	const expected = Buffer.from(parts[5]!, 'base64url');
	if (salt.length < SALT_BYTES || expected.length !== KEY_BYTES) return false;
	const matches = async (form: string) => {
		try {
			return timingSafeEqual(await derive(form, salt, { N, r, p }), expected);
		} catch (err) {
			if (err instanceof RateLimited) throw err;
			return false;
		}
	};
	const nfkc = password.normalize('NFKC');
	const nfc = password.normalize('NFC');
	return (await matches(nfkc)) || (nfc !== nfkc && (await matches(nfc)));
}
