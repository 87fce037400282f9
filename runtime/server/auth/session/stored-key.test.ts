import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isLegacySessionToken, storedSessionKey } from './stored-key.js';

describe('storedSessionKey', () => {
	it('is sha256. and the SHA-256 of the token, base64url: the same for the same token, never the token', () => {
		const token = randomBytes(32).toString('base64url');
		const key = storedSessionKey(token);
		expect(key).toBe(`sha256.${createHash('sha256').update(token).digest('base64url')}`);
		expect(key).toMatch(/^sha256\.[\w-]{43}$/);
		expect(storedSessionKey(token)).toBe(key);
		expect(key).not.toContain(token);
		expect(storedSessionKey(randomBytes(32).toString('base64url'))).not.toBe(key);
	});
});

describe('isLegacySessionToken', () => {
	it('takes the shape of a token (32 bytes, base64url), never a stored key or junk', () => {
		const token = randomBytes(32).toString('base64url');
		expect(isLegacySessionToken(token)).toBe(true);
		expect(isLegacySessionToken(storedSessionKey(token))).toBe(false);
		expect(isLegacySessionToken('garbage')).toBe(false);
		expect(isLegacySessionToken(`${token}x`)).toBe(false);
		expect(isLegacySessionToken('a'.repeat(42) + '.')).toBe(false);
	});
});
