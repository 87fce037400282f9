import * as jose from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedToken, decodeToken, encodeToken } from './jwt.js';

// Counts real decryptions while keeping jose's behaviour.
vi.mock('jose', async (original) => {
	const actual = await original<typeof import('jose')>();
	return { ...actual, jwtDecrypt: vi.fn(actual.jwtDecrypt) };
});

const secret = 'c'.repeat(32);
const now = Date.parse('2025-01-01T00:00:00Z') / 1000;

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(now * 1000);
	vi.mocked(jose.jwtDecrypt).mockClear();
});
afterEach(() => vi.useRealTimers());

describe('decodeToken cache', () => {
	it('decrypts a cookie value once; later reads of the same value do no crypto', async () => {
		const jwe = await encodeToken({ sub: 'cached-1' }, secret, 3600, now);
		for (let i = 0; i < 5; i++) expect(await decodeToken(jwe, [secret])).toMatchObject({ sub: 'cached-1' });
		expect(jose.jwtDecrypt).toHaveBeenCalledTimes(1);
	});

	it('still expires a cached token on time', async () => {
		const jwe = await encodeToken({ sub: 'cached-2' }, secret, 60, now);
		expect(await decodeToken(jwe, [secret])).not.toBeNull();
		vi.setSystemTime((now + 75) * 1000);
		expect(await decodeToken(jwe, [secret])).toBeNull();
	});

	it('hands out copies: a caller mutating its token does not change the next read', async () => {
		const jwe = await encodeToken({ sub: 'cached-3' }, secret, 3600, now);
		const first = (await decodeToken(jwe, [secret]))!;
		first.sub = 'someone-else';
		expect(await decodeToken(jwe, [secret])).toMatchObject({ sub: 'cached-3' });
	});

	it('does not serve a token cached under a secret that is no longer configured', async () => {
		const jwe = await encodeToken({ sub: 'cached-4' }, secret, 3600, now);
		expect(await decodeToken(jwe, [secret])).not.toBeNull();
		expect(await decodeToken(jwe, ['d'.repeat(32)])).toBeNull();
	});

	it('cachedToken answers without a promise only for a value decrypted before, under a configured secret', async () => {
		const jwe = await encodeToken({ sub: 'cached-5' }, secret, 60, now);
		expect(cachedToken(jwe, [secret])).toBeUndefined();
		await decodeToken(jwe, [secret]);
		const first = cachedToken(jwe, [secret])!;
		expect(first).toMatchObject({ sub: 'cached-5' });
		first.sub = 'someone-else';
		expect(cachedToken(jwe, [secret])).toMatchObject({ sub: 'cached-5' });
		expect(cachedToken(jwe, ['d'.repeat(32)])).toBeUndefined();
		vi.setSystemTime((now + 75) * 1000);
		expect(cachedToken(jwe, [secret])).toBeNull();
	});
});
