// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Password hashes other libraries stored, verified so that the users of an app switched to
 * create-auth from Better Auth or Lucia sign in with the passwords they have; the sign-in then
 * replaces the hash with ours (`authorizeWithPassword`, `accounts.ts`). Nothing here hashes a
 * new password.
 * @see create-auth docs/api.md#passwords-from-better-auth-and-lucia
 */
import { timingSafeEqual } from 'node:crypto';
import { RateLimited } from '../errors.js';
import { inHashingQueue, scryptInQueue } from './queue.js';

/**
 * Better Auth's `hashPassword` (`better-auth/crypto`, `@better-auth/utils/password`): a 16-byte
 * random salt as 32 lowercase hex digits, `:`, the 64-byte scrypt key as 128 hex digits. The
 * parameters are not in the string: they are Better Auth's constants, below.
 */
const BETTER_AUTH = /^([0-9a-f]{32}):([0-9a-fA-F]{128})$/;
/** Better Auth's scrypt: N=16384, r=16, p=1 (32 MiB), a 64-byte key, over the NFKC form. */
const BETTER_AUTH_COST = { N: 16384, r: 16, p: 1 } as const;
const BETTER_AUTH_KEY_BYTES = 64;

/**
 * An argon2 PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, salt and hash in
 * unpadded standard base64), as `@node-rs/argon2`'s `hash` makes it; `sv add lucia` stored it
 * with m=19456 KiB, t=2, p=1 and a 32-byte output.
 */
const ARGON2 = /^\$(argon2id|argon2i|argon2d)\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
/**
 * Upper bounds accepted from a stored argon2 hash, so a tampered row cannot make us burn memory
 * or time: memory `m` in KiB (64 MiB, RFC 9106 §4's second recommended option), passes `t`,
 * lanes `p`, and memory × passes (RFC 9106's 64 MiB × 3; OWASP's profiles, 19 MiB × 2 to
 * 7 MiB × 5, are well within). Salt and output lengths in bytes.
 */
const ARGON2_MAX = { m: 65536, t: 10, p: 4, work: 65536 * 3 } as const;
const ARGON2_SALT_BYTES = { min: 8, max: 64 } as const;
const ARGON2_OUTPUT_BYTES = { min: 16, max: 64 } as const;

/**
 * The argon2 library, loaded only when an argon2 hash is met, so that an app that never had
 * Lucia does not need it. Named through a variable so that neither TypeScript nor the bundler
 * requires it to be installed.
 */
const ARGON2_PACKAGE = '@node-rs/argon2';
/** What this module uses of `@node-rs/argon2` (`verify(hashed, password)`, resolving to a boolean). */
interface Argon2Library {
	verify(hashed: string, password: string): Promise<boolean>;
}
let argon2: Promise<Argon2Library | null> | undefined;

function loadArgon2(): Promise<Argon2Library | null> {
	argon2 ??= import(/* @vite-ignore */ ARGON2_PACKAGE).then(
		(mod: Partial<Argon2Library> & { default?: Partial<Argon2Library> }) => {
			const library = typeof mod.verify === 'function' ? mod : mod.default;
			if (typeof library?.verify === 'function') return library as Argon2Library;
			console.error(`create-auth: ${ARGON2_PACKAGE} has no verify(); argon2 password hashes cannot be verified.`);
			return null;
		},
		() => {
			// Named once per process, with nothing of the hash or the password.
			console.error(`create-auth: a password hash in argon2 format was met, but ${ARGON2_PACKAGE} is not installed; install it so that those users can sign in.`);
			return null;
		}
	);
	return argon2;
}

/** Which foreign format `stored` has, by its shape alone (no parameter checked yet). */
function foreignFormat(stored: string): 'better-auth' | 'argon2' | null {
	if (BETTER_AUTH.test(stored)) return 'better-auth';
	if (stored.startsWith('$argon2')) return 'argon2';
	return null;
}

/**
 * Whether `stored` looks like a hash of another library that {@link verifyForeignHash} reads
 * (Better Auth's `<salt hex>:<key hex>`, an argon2 PHC string): one that a successful sign-in
 * replaces with ours. By shape only; it says nothing of its validity.
 */
export const isForeignPasswordHash = (stored: string): boolean => foreignFormat(stored) !== null;

/**
 * Checks a password against a hash another library stored, in the bounded password-hashing
 * queue (`queue.ts`). `false` for a wrong password and for a string of no known shape.
 * - Better Auth (`<salt hex>:<key hex>`): scrypt N=16384, r=16, p=1 of the NFKC form of the
 *   password, salted with the hex string itself (its UTF-8), 64-byte key, compared in constant
 *   time (`timingSafeEqual`). The parameters are fixed, so a tampered row cannot raise them.
 * - argon2 (PHC `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>`, RFC 9106): the
 *   parameters are bounded first (m ≤ 65536 KiB, t ≤ 10, p ≤ 4, m·t ≤ 196608, 8–64-byte
 *   salt, 16–64-byte output; out of bounds is `false`, nothing derived), then `@node-rs/argon2`'s
 *   `verify` checks the password as typed (Lucia did not normalize it). When that package is
 *   not installed it is `false` (the sign-in fails closed), and one line saying so is logged
 *   with `console.error`, with nothing of the hash or the password.
 * @throws {RateLimited} the queue is full.
 */
export async function verifyForeignHash(password: string, stored: string): Promise<boolean> {
	try {
		switch (foreignFormat(stored)) {
			case 'better-auth':
				return await verifyBetterAuth(password, stored);
			case 'argon2':
				return await verifyArgon2(password, stored);
			default:
				return false;
		}
	} catch (err) {
		if (err instanceof RateLimited) throw err;
		return false;
	}
}

async function verifyBetterAuth(password: string, stored: string): Promise<boolean> {
	const [, salt, key] = BETTER_AUTH.exec(stored)!;
	const expected = Buffer.from(key!, 'hex');
	const derived = await scryptInQueue(password.normalize('NFKC'), salt!, BETTER_AUTH_KEY_BYTES, BETTER_AUTH_COST);
	return timingSafeEqual(derived, expected);
}

/** Decoded length of unpadded standard base64, or -1 for a length no encoding has. */
function base64Bytes(text: string): number {
	return text.length % 4 === 1 ? -1 : Math.floor((text.length * 3) / 4);
}

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
	const parts = ARGON2.exec(stored);
	if (!parts) return false;
	const [m, t, p] = parts.slice(2, 5).map(Number) as [number, number, number];
	const salt = base64Bytes(parts[5]!);
	const output = base64Bytes(parts[6]!);
	if (t < 1 || t > ARGON2_MAX.t || p < 1 || p > ARGON2_MAX.p || m < 8 * p || m > ARGON2_MAX.m || m * t > ARGON2_MAX.work) return false;
	if (salt < ARGON2_SALT_BYTES.min || salt > ARGON2_SALT_BYTES.max) return false;
	if (output < ARGON2_OUTPUT_BYTES.min || output > ARGON2_OUTPUT_BYTES.max) return false;
	const library = await loadArgon2();
	if (!library) return false;
	return (await inHashingQueue(() => library.verify(stored, password))) === true;
}
