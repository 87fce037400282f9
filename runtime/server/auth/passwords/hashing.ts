// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { RateLimited } from '../errors.js';

/** OWASP Password Storage Cheat Sheet, scrypt: N=2^17, r=8, p=1. */
const COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Upper bounds accepted from a stored hash, so a tampered row cannot make us burn memory. */
const MAX = { N: 2 ** 20, r: 16, p: 4 } as const;
/** Verified against when no account exists, so the response time does not reveal that. */
export const DUMMY_HASH = 'scrypt$131072$8$1$OoTck3Tn8Zh8UIa3iAnJtw$x2kh6rLUl_pB5zPEHxXd6E5n8HDEQpYxi3vw4KBM00I';

/**
 * How many passwords are hashed at once, and how many more may wait. scrypt runs on libuv's
 * thread pool (4 threads), so without a bound a burst of sign-ins takes every core from the
 * pages; with one less than the cores (at least one), a core stays free for them.
 */
export interface PasswordHashingLimits {
	concurrency: number;
	/** Attempts waiting beyond this are refused at once ({@link RateLimited}, retry in 5 s). */
	maxWaiting: number;
}

let limits: PasswordHashingLimits = { concurrency: Math.max(1, availableParallelism() - 1), maxWaiting: 16 };
let queue = pLimit(limits.concurrency);
/** What a refused attempt is told: a full queue drains in seconds. */
const QUEUE_FULL_RETRY_SECONDS = 5;

/**
 * Changes {@link PasswordHashingLimits} for this process (default: cores − 1, at least 1, and
 * 16 waiting). Hashes already queued finish under the old limits.
 */
export function configurePasswordHashing(next: Partial<PasswordHashingLimits>): void {
	limits = { ...limits, ...next };
	queue = pLimit(Math.max(1, limits.concurrency));
}

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
	const wouldWait = queue.activeCount + queue.pendingCount >= queue.concurrency;
	if (wouldWait && queue.pendingCount >= limits.maxWaiting) {
		return Promise.reject(new RateLimited('The password-hashing queue is full.', QUEUE_FULL_RETRY_SECONDS));
	}
	// scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is below OWASP's cost.
	const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
	return queue(
		() =>
			new Promise<Buffer>((resolve, reject) =>
				scrypt(password, salt, KEY_BYTES, scryptOptions, (err, key) => (err ? reject(err) : resolve(key)))
			)
	);
}

/**
 * Hashes a password with scrypt (N=2^17, r=8, p=1, 16-byte random salt, 32-byte key), after
 * NFKC normalization (NIST SP 800-63B-4 §3.1.1.2: the same password typed on another keyboard
 * or input method, `ﬁ` or `ｆｉ` for `fi`, is the same password).
 * Returns the self-describing `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`. Takes ~0.3 s
 * and 128 MiB by design, in the bounded queue of {@link PasswordHashingLimits}.
 * @throws {RateLimited} the queue is full.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const key = await derive(password.normalize('NFKC'), salt, COST);
	return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks a password against a hash from {@link hashPassword}, in constant time, in the same
 * queue. A malformed hash, or one with parameters out of bounds, gives `false`. The password is
 * NFKC-normalized as {@link hashPassword} does; earlier runtimes hashed its NFC form, so when
 * the two differ and NFKC does not match, NFC is tried too, and passwords set before keep
 * signing in.
 * @throws {RateLimited} the queue is full.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
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
