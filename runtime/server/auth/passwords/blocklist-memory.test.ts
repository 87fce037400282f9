import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

// Alone in its file (so in a worker of its own): the heap's growth is that of the one read.
describe('the blocklist in memory', () => {
	// The first check reads the list. Built from an array of its 437 000 lines and a Set of their
	// strings, it grew V8's heap by over 50 MB, which Node kept as RSS for the server's life (the
	// bench's sign-in: +82 MB RSS under Node 22); read a line at a time into SHA-256 fingerprints,
	// a string, a hash object and a digest per line still grew it by some 20 MB (+25 MB RSS, and
	// the server's later requests ~17 µs costlier); hashed from the bytes, 0.25 MB. (Its RSS: the
	// file and its text held whole added ~12 MB that the server kept; read as it is decompressed, ~4.)
	it("reads the list without growing the server's heap by more than 4 MB (a string and a hash object per line grew it by 20, an array of its lines and a Set of their strings by over 50)", async () => {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		const blocklist = await import('./blocklist.js');
		gc();
		const before = getHeapStatistics().total_heap_size;
		expect(await blocklist.isCommonPassword('a password to read the list')).toBe(false);
		const grown = getHeapStatistics().total_heap_size - before;
		expect(grown).toBeLessThan(4 * 1024 * 1024);
	});
});
