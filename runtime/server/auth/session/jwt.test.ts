import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeToken, encodeToken } from './jwt.js';

const secretA = 'a'.repeat(32);
const secretB = 'b'.repeat(32);
const now = Date.parse('2025-01-01T00:00:00Z') / 1000;

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(now * 1000);
});
afterEach(() => vi.useRealTimers());

describe('encodeToken / decodeToken', () => {
	it('round-trips the claims and sets iat, exp (seconds) and a jti', async () => {
		const jwe = await encodeToken({ sub: 'u1', email: 'a@example.com', iat: 1, exp: 2 }, secretA, 3600, now);
		expect(jwe.split('.')).toHaveLength(5);
		expect(await decodeToken(jwe, [secretA])).toEqual({ sub: 'u1', email: 'a@example.com', iat: now, exp: now + 3600, jti: expect.any(String) });
	});

	it('decodes with any of the rotated secrets', async () => {
		const jwe = await encodeToken({ sub: 'u1' }, secretB, 3600, now);
		expect(await decodeToken(jwe, [secretA, secretB])).toMatchObject({ sub: 'u1' });
	});

	it('returns null once the token is 15 s or more past exp', async () => {
		const jwe = await encodeToken({ sub: 'u1' }, secretA, 60, now);
		vi.setSystemTime((now + 74) * 1000);
		expect(await decodeToken(jwe, [secretA])).not.toBeNull();
		vi.setSystemTime((now + 75) * 1000);
		expect(await decodeToken(jwe, [secretA])).toBeNull();
	});

	it.each([
		['an unknown secret', async () => encodeToken({ sub: 'u1' }, secretB, 60, now), [secretA]],
		['a tampered ciphertext', async () => (await encodeToken({ sub: 'u1' }, secretA, 60, now)).replace(/\.(.)([^.]*)\.([^.]*)$/, (_, c, rest, tag) => `.${c === 'A' ? 'B' : 'A'}${rest}.${tag}`), [secretA]],
		['garbage', async () => 'not-a-jwe', [secretA]],
		['a signed JWT instead of a JWE', async () => 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2ln', [secretA]]
	])('returns null for %s', async (_, make, secrets) => {
		expect(await decodeToken(await make(), secrets)).toBeNull();
	});
});
