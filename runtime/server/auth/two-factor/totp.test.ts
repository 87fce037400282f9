import { describe, expect, it } from 'vitest';
import { matchTotp, newTotpSecret, otpauthUri, totpCode, totpStep } from './totp.js';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890"; the table's
// codes have 8 digits, and a 6-digit code is the same number mod 10^6 (RFC 4226 §5.3), its last six.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // base32 of that seed (RFC 4648 §6)
const RFC_VECTORS: [seconds: number, code: string][] = [
	[59, '94287082'],
	[1111111109, '07081804'],
	[1111111111, '14050471'],
	[1234567890, '89005924'],
	[2000000000, '69279037'],
	[20000000000, '65353130']
];

describe('TOTP (RFC 6238: SHA-1, 6 digits, 30 s)', () => {
	it.each(RFC_VECTORS)('gives RFC 6238 Appendix B’s code at T = %i s, and matches it at its own step', (seconds, code) => {
		const now = seconds * 1000;
		expect(totpCode(RFC_SECRET, now)).toBe(code.slice(-6));
		expect(matchTotp(RFC_SECRET, code.slice(-6), now)).toBe(Math.floor(seconds / 30));
	});

	it('takes a code one step early or late (clock drift), not two', () => {
		const now = 1111111111 * 1000;
		const step = totpStep(now);
		expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
		expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
		expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now - 60_000), now)).toBeNull();
		expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now + 60_000), now)).toBeNull();
	});

	it('changes step at the 30-second edges: 29.999 s is step 0, 30 s step 1', () => {
		expect([totpStep(0), totpStep(29_999), totpStep(30_000)]).toEqual([0, 0, 1]);
		expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, 29_999), 30_000)).toBe(0);
	});

	it('ignores spaces; refuses a wrong code and anything that is not 6 digits', () => {
		const now = 1234567890 * 1000;
		expect(matchTotp(RFC_SECRET, ' 005 924 ', now)).toBe(Math.floor(1234567890 / 30));
		for (const code of ['005925', '05924', '0059244', 'abcdef', '', '00592४']) expect(matchTotp(RFC_SECRET, code, now)).toBeNull();
	});

	it('makes 160-bit secrets, a new one each time, that authenticator apps read from the otpauth URI', () => {
		const secret = newTotpSecret();
		expect(secret).toMatch(/^[A-Z2-7]{32}$/);
		expect(newTotpSecret()).not.toBe(secret);
		const uri = new URL(otpauthUri(secret, 'app.example', 'ada@example.com'));
		expect(uri.protocol).toBe('otpauth:');
		expect(uri.host).toBe('totp');
		expect(decodeURIComponent(uri.pathname)).toBe('/app.example:ada@example.com');
		expect(Object.fromEntries(uri.searchParams)).toEqual({ secret, issuer: 'app.example', algorithm: 'SHA1', digits: '6', period: '30' });
	});
});
