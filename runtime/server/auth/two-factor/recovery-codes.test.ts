import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, recoveryCodeHash, RECOVERY_CODE_COUNT } from './recovery-codes.js';

describe('recovery codes', () => {
	it('makes ten distinct codes of 24 base32 characters (120 bits) in groups of four', () => {
		const codes = newRecoveryCodes();
		expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
		expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
		for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
	});

	it('stores the SHA-256 (OWASP ASVS 5.0 6.5.2: over 112 bits, no slow hash needed), the same however the code is typed', () => {
		const [code] = newRecoveryCodes();
		const stored = recoveryCodeHash(code!);
		expect(stored).toMatch(/^sha256\.[\w-]{43}$/);
		expect(stored).not.toContain(code!.replace(/-/g, ''));
		expect(recoveryCodeHash(` ${code!.toUpperCase().replace(/-/g, ' ')} `)).toBe(stored);
		expect(recoveryCodeHash(code!.replace(/-/g, ''))).toBe(stored);
	});

	it('hashes nothing that cannot be a code: too short, too long, outside base32', () => {
		const [code] = newRecoveryCodes();
		for (const typed of ['', code!.slice(0, -1), `${code}a`, code!.replace(/^./, '1'), code!.replace(/^./, '0'), '123456']) {
			expect(recoveryCodeHash(typed)).toBeNull();
		}
	});
});
