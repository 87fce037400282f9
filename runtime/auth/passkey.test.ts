import { afterEach, describe, expect, it, vi } from 'vitest';
import { PasskeyError, signUpWithPasskey } from './passkey.js';

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
