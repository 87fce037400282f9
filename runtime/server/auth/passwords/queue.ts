// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { scrypt, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { RateLimited } from '../errors.js';

/**
 * How many passwords are hashed or verified at once, and how many more may wait. scrypt and
 * argon2 run on libuv's thread pool (4 threads), so without a bound a burst of sign-ins takes
 * every core from the pages; with one less than the cores (at least one), a core stays free for
 * them.
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

/**
 * Runs one password hash or verification (`work`, started only when its turn comes) in the
 * bounded queue of {@link PasswordHashingLimits}, and resolves or rejects as it does.
 * @throws {RateLimited} the queue is full (`work` is not started).
 */
export function inHashingQueue<T>(work: () => Promise<T>): Promise<T> {
	const wouldWait = queue.activeCount + queue.pendingCount >= queue.concurrency;
	if (wouldWait && queue.pendingCount >= limits.maxWaiting) {
		return Promise.reject(new RateLimited('The password-hashing queue is full.', QUEUE_FULL_RETRY_SECONDS));
	}
	return queue(work);
}

/**
 * scrypt (RFC 7914) of `password` with `salt` into `keyBytes` bytes, in {@link inHashingQueue}.
 * The salt is used as given: bytes, or a string's UTF-8 (Better Auth salts with a hex string).
 * Callers bound `N`, `r` and `p` first: this needs 128 · N · r bytes of memory.
 * @throws {RateLimited} the queue is full.
 * @throws {Error} from node:crypto, for parameters it refuses.
 */
export function scryptInQueue(password: string, salt: Buffer | string, keyBytes: number, options: { N: number; r: number; p: number }): Promise<Buffer> {
	// scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is below OWASP's cost.
	const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
	return inHashingQueue(
		() =>
			new Promise<Buffer>((resolve, reject) =>
				scrypt(password, salt, keyBytes, scryptOptions, (err, key) => (err ? reject(err) : resolve(key)))
			)
	);
}
