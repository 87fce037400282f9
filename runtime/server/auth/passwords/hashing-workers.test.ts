import { afterAll, describe, expect, it, vi } from 'vitest';

// The production costs are the subject (not the unit tests' low one, runtime/test/scrypt-cost.ts).
vi.unmock('./cost.js');
// workerd says who it is in navigator.userAgent; the module reads it once, when it loads.
vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
const { DUMMY_HASH } = await import('./cost.js');
const { hashPassword, verifyPassword } = await import('./hashing.js');
afterAll(() => vi.unstubAllGlobals());
vi.setConfig({ testTimeout: 30_000 });

const cost = (hash: string) => hash.split('$').slice(1, 4).map(Number);

describe('password hashing on Cloudflare Workers (an isolate has 128 MB in all)', () => {
	it("hashes at OWASP's N=2^15, r=8, p=3 (32 MiB), not the 128 MiB of N=2^17, and verifies it", async () => {
		const hash = await hashPassword('correct horse battery staple');
		expect(cost(hash)).toEqual([2 ** 15, 8, 3]);
		expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
		expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
	});

	it('checks an unknown account against a dummy of the same cost, so the time says nothing of it', async () => {
		expect(cost(DUMMY_HASH)).toEqual(cost(await hashPassword('x')));
		expect(await verifyPassword('any password', DUMMY_HASH)).toBe(false);
	});

	it('still verifies a hash made on Node at N=2^17 (an app that moved to Workers)', async () => {
		vi.unstubAllGlobals();
		vi.resetModules();
		const node = await import('./hashing.js');
		const made = await node.hashPassword('moved along');
		expect(cost(made)).toEqual([2 ** 17, 8, 1]);
		expect(await verifyPassword('moved along', made)).toBe(true);
	});
});
