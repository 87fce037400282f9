import { afterEach, describe, expect, it, vi } from 'vitest';
import { PasskeyError, signalAcceptedPasskeys, signalRemovedPasskey, signUpWithPasskey } from './passkey.js';

afterEach(() => vi.unstubAllGlobals());

/**
 * A browser at `page` that can use passkeys and whose server refuses the options request (so
 * the ceremony stops there, before any prompt); returns the URLs fetched.
 */
function browserAt(page: string): string[] {
	const fetched: string[] = [];
	vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
	vi.stubGlobal('location', new URL(page));
	vi.stubGlobal('fetch', async (url: string) => {
		fetched.push(url);
		return new Response(JSON.stringify({ error: 'EmailInUse', message: 'Sign in, then add a passkey.' }), { status: 409 });
	});
	return fetched;
}

describe('the passkey options request', () => {
	it.each([
		['the default sign-in page', 'http://localhost/signup', {}, '/auth/webauthn-options/passkey'],
		['a sign-in page under paths.base (resolve(\'/signin\'))', 'http://localhost/base/signup', { signInPage: '/base/signin' }, '/base/auth/webauthn-options/passkey'],
		['a relative sign-in page, as resolve() answers during SSR', 'http://localhost/base/signup', { signInPage: './signin' }, '/base/auth/webauthn-options/passkey'],
		['an explicit basePath', 'http://localhost/base/signup', { signInPage: '/base/signin', basePath: '/base/custom' }, '/base/custom/webauthn-options/passkey']
	])('goes next to %s', async (_, page, options, path) => {
		const fetched = browserAt(page);
		await expect(signUpWithPasskey('ada@example.com', options)).rejects.toEqual(new PasskeyError('EmailInUse', 'Sign in, then add a passkey.'));
		expect(fetched).toEqual([`${path}?action=register&email=ada%40example.com`]);
	});
});

describe('the WebAuthn Signal API', () => {
	it('tells the password manager which passkeys are accepted, the account’s name, and a removed one', async () => {
		const calls: [string, unknown][] = [];
		const record = (name: string) => async (options: unknown) => void calls.push([name, options]);
		vi.stubGlobal('PublicKeyCredential', {
			signalAllAcceptedCredentials: record('all'),
			signalCurrentUserDetails: record('user'),
			signalUnknownCredential: record('unknown')
		});
		await signalAcceptedPasskeys({ rpId: 'example.com', userId: 'dXNlcg' }, ['a', 'b'], { name: 'ada@example.com', displayName: 'Ada' });
		await signalRemovedPasskey('example.com', 'c');
		expect(calls).toEqual([
			['all', { rpId: 'example.com', userId: 'dXNlcg', allAcceptedCredentialIds: ['a', 'b'] }],
			['user', { rpId: 'example.com', userId: 'dXNlcg', name: 'ada@example.com', displayName: 'Ada' }],
			['unknown', { rpId: 'example.com', credentialId: 'c' }]
		]);
	});

	it('does nothing where the browser lacks it, and never throws when the browser refuses', async () => {
		vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
		await expect(signalRemovedPasskey('example.com', 'c')).resolves.toBeUndefined();
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
		vi.stubGlobal('PublicKeyCredential', { signalUnknownCredential: async () => Promise.reject(new DOMException('', 'SecurityError')) });
		await expect(signalRemovedPasskey('example.com', 'c')).resolves.toBeUndefined();
		expect(warn).toHaveBeenCalledTimes(1);
		warn.mockRestore();
	});
});
