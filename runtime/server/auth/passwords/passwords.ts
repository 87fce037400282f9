// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import type { User } from '../../../auth/types.js';
import type { Adapter, AdapterUser } from '../adapters/types.js';
import type { Account } from '../config.js';
import { isEmail, normalizeEmail } from '../email/address.js';
import { AdapterError, RateLimited } from '../errors.js';
import { adapterMethod } from '../adapters/methods.js';
import { toUser } from '../session/session.js';

/** OWASP Password Storage Cheat Sheet, scrypt: N=2^17, r=8, p=1. */
const COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Upper bounds accepted from a stored hash, so a tampered row cannot make us burn memory. */
const MAX = { N: 2 ** 20, r: 16, p: 4 } as const;
const PASSWORD_LENGTH = { min: 8, max: 1024 } as const;
/** Verified against when no account exists, so the response time does not reveal that. */
const DUMMY_HASH = 'scrypt$131072$8$1$OoTck3Tn8Zh8UIa3iAnJtw$x2kh6rLUl_pB5zPEHxXd6E5n8HDEQpYxi3vw4KBM00I';
/** The provider id of password accounts (their `provider`, and the sign-up's account). */
export const PASSWORD_PROVIDER = 'credentials';

/** The session's account of a password sign-in, as the credentials provider gives it. */
export const passwordAccount = (userId: string): Account => ({ type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: userId, userId });

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
				scrypt(password.normalize('NFC'), salt, KEY_BYTES, scryptOptions, (err, key) => (err ? reject(err) : resolve(key)))
			)
	);
}

/**
 * Hashes a password with scrypt (N=2^17, r=8, p=1, 16-byte random salt, 32-byte key).
 * Returns the self-describing `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`. Takes ~0.3 s
 * and 128 MiB by design, in the bounded queue of {@link PasswordHashingLimits}.
 * @throws {RateLimited} the queue is full.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const key = await derive(password, salt, COST);
	return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks a password against a hash from {@link hashPassword}, in constant time, in the same
 * queue. A malformed hash, or one with parameters out of bounds, gives `false`.
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
	let key: Buffer;
	try {
		key = await derive(password, salt, { N, r, p });
	} catch (err) {
		if (err instanceof RateLimited) throw err;
		return false;
	}
	return timingSafeEqual(key, expected);
}

/**
 * Why {@link registerWithPassword} refused; stable values for the sign-up page. `Unavailable`:
 * the adapter failed (the store is down), a 503 for the page; the others are the visitor's
 * input, a 400.
 */
export type RegisterErrorCode = 'InvalidEmail' | 'PasswordTooShort' | 'PasswordTooLong' | 'EmailInUse' | 'Unavailable';

/** Result of {@link registerWithPassword}. `message` is safe to show to the user. */
export type RegisterResult =
	| { ok: true; user: AdapterUser }
	| { ok: false; code: RegisterErrorCode; message: string };

/** The adapter methods that sign-up needs. */
export type RegisterAdapter = Required<Pick<Adapter, 'getUserByEmail' | 'createUser' | 'linkAccount'>> &
	Pick<Adapter, 'deleteUser'>;

/** The adapter methods that password sign-in needs. */
export type AuthorizeAdapter = Required<Pick<Adapter, 'getAccount' | 'getUser'>>;

const refuse = (code: RegisterErrorCode, message: string): RegisterResult => ({ ok: false, code, message });

/**
 * Checks a new password (sign-up, reset, change), a raw form value: 8 to 1024 characters
 * (code points, so an emoji counts once). `message` is safe to show.
 */
export function checkNewPassword(
	value: unknown
): { ok: true; password: string } | { ok: false; code: 'PasswordTooShort' | 'PasswordTooLong'; message: string } {
	const password = typeof value === 'string' ? value : '';
	const length = [...password].length;
	if (length < PASSWORD_LENGTH.min) return { ok: false, code: 'PasswordTooShort', message: `Use at least ${PASSWORD_LENGTH.min} characters.` };
	if (length > PASSWORD_LENGTH.max) return { ok: false, code: 'PasswordTooLong', message: `Use at most ${PASSWORD_LENGTH.max} characters.` };
	return { ok: true, password };
}

/**
 * Creates a user and a `credentials` account holding the password hash. Inputs are raw form
 * values (`FormDataEntryValue | null`). Email is trimmed and lowercased; password is 8..1024
 * characters. If linking the account fails, the new user is deleted again when the adapter can.
 * Bad input is `{ ok: false, code }`, and so is a failing adapter (`Unavailable`, the
 * {@link AdapterError} naming the method logged with `console.error`).
 * @throws {RateLimited} the password-hashing queue is full.
 */
export async function registerWithPassword(
	adapter: RegisterAdapter,
	input: { email: unknown; password: unknown }
): Promise<RegisterResult> {
	try {
		return await register(adapter, input);
	} catch (err) {
		if (!(err instanceof AdapterError)) throw err;
		console.error(err);
		return refuse('Unavailable', 'Sign-up is unavailable for a moment. Please try again shortly.');
	}
}

async function register(store: RegisterAdapter, input: { email: unknown; password: unknown }): Promise<RegisterResult> {
	const adapter = {
		getUserByEmail: adapterMethod(store, 'getUserByEmail')!,
		createUser: adapterMethod(store, 'createUser')!,
		linkAccount: adapterMethod(store, 'linkAccount')!,
		deleteUser: adapterMethod(store, 'deleteUser')
	};
	const email = typeof input.email === 'string' ? normalizeEmail(input.email) : '';
	if (!isEmail(email)) return refuse('InvalidEmail', 'Enter a valid email address.');
	const checked = checkNewPassword(input.password);
	if (!checked.ok) return checked;
	const { password } = checked;
	const emailInUse = () => refuse('EmailInUse', 'An account with this email already exists.');
	if (await adapter.getUserByEmail(email)) return emailInUse();

	const password_hash = await hashPassword(password);
	let user: AdapterUser;
	try {
		user = await adapter.createUser({ id: randomUUID(), email, emailVerified: null, name: null, image: null });
	} catch (err) {
		// Lost a race with a concurrent sign-up for the same email (unique constraint).
		if (await adapter.getUserByEmail(email)) return emailInUse();
		throw err;
	}
	try {
		await adapter.linkAccount({ userId: user.id, type: PASSWORD_PROVIDER, provider: PASSWORD_PROVIDER, providerAccountId: email, password_hash });
	} catch (err) {
		await adapter.deleteUser?.(user.id);
		throw err;
	}
	return { ok: true, user };
}

/**
 * The `authorize` of a Credentials provider backed by {@link registerWithPassword}'s accounts.
 * Returns `{ id, email, name, image }` or null; null never says whether the email or the
 * password was wrong, and takes as long either way (a dummy hash is checked when there is
 * no account). A password over 1024 characters is null at once, never hashed.
 * @throws {RateLimited} the password-hashing queue is full.
 * @throws {AdapterError} naming the method, when the adapter fails (the store is down): the
 *   sign-in then ends on `?error=AdapterError`, "unavailable for a moment", not a failed sign-in
 */
export async function authorizeWithPassword(
	store: AuthorizeAdapter,
	credentials: Partial<Record<string, unknown>>
): Promise<User | null> {
	const adapter = { getAccount: adapterMethod(store, 'getAccount')!, getUser: adapterMethod(store, 'getUser')! };
	const email = typeof credentials.email === 'string' ? normalizeEmail(credentials.email) : '';
	const password = typeof credentials.password === 'string' ? credentials.password : '';
	if (password.length > PASSWORD_LENGTH.max * 2 || [...password].length > PASSWORD_LENGTH.max) return null;
	const account = email ? await adapter.getAccount(email, PASSWORD_PROVIDER) : null;
	const hash = typeof account?.password_hash === 'string' ? account.password_hash : DUMMY_HASH;
	const valid = (await verifyPassword(password, hash)) && account !== null && hash !== DUMMY_HASH;
	const user = valid ? await adapter.getUser(account.userId) : null;
	return user && toUser(user);
}
