import { beforeEach, describe, expect, it, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { passwordApp } from '../../../test/password-app.js';
import { inboxForTests } from '../../../test/smtp.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { MissingAdapter } from '../errors.js';
import { hashToken } from './verification-tokens.js';

vi.setConfig({ testTimeout: 30_000 });
const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
const inbox = inboxForTests();
beforeEach(() => logger.error.mockClear());

/** An app whose password accounts must confirm their address; `extra` overrides the config. */
const app = (extra: Partial<SvelteKitAuthConfig> = {}, adapter?: Adapter) =>
	passwordApp(inbox(), { secret, logger, passwords: { requireEmailVerification: true }, ...extra }, adapter);
type Auth = ReturnType<typeof app>['auth'];

const PASSWORD = 'lantern orchard maple 7';
const sessionCookie = (jar: Jar) => jar.values.get('auth.session-token');

/** The sign-up page's POST; the jar it would have signed in. */
async function signUp(auth: Auth, email: string, extra: Record<string, string> = {}) {
	const jar = new Jar();
	const event = requestEvent('http://localhost/signup', jar, { form: { email, password: PASSWORD, ...extra }, clientAddress: '192.0.2.1' });
	return { jar, ...(await actionOutcome(auth.signUp, event)) };
}

/** A password sign-in on /signin; the jar it signed in, if it did. */
async function signIn(auth: Auth, email: string, password = PASSWORD) {
	const jar = new Jar();
	return { jar, ...(await actionOutcome(auth.signIn, requestEvent('http://localhost/signin', jar, { form: { email, password } }))) };
}

/** The confirmation page's POST with the link's fields and the account's password (or others). */
async function confirm(auth: Auth, link: string, override: Record<string, string> = {}) {
	const jar = new Jar();
	const form = { ...Object.fromEntries(new URL(link).searchParams), password: PASSWORD, ...override };
	return { jar, ...(await actionOutcome(auth.verifyEmail, requestEvent(link, jar, { form }))) };
}

/** Signs up `email` and returns the confirmation link from the mail the SMTP server received. */
async function signUpForLink(auth: Auth, email: string, extra: Record<string, string> = {}) {
	const mail = inbox().next(email);
	expect(await signUp(auth, email, extra)).toMatchObject({ status: 200, data: { verificationSent: true, email } });
	return inbox().linkIn(await mail);
}

describe('sign-up with passwords.requireEmailVerification', () => {
	it('mails a confirmation link for 24 hours, storing only its hash, and signs nobody in', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app();
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const mail = inbox().next('ada@example.com');
		const done = await signUp(auth, ' Ada@Example.com');
		expect(done).toMatchObject({ status: 200, data: { verificationSent: true, email: 'ada@example.com' } });
		expect(sessionCookie(done.jar)).toBeUndefined();
		const message = await mail;
		expect(message.subject).toBe('Confirm your email for localhost');
		const link = new URL(inbox().linkIn(message));
		expect(link.origin + link.pathname).toBe('http://localhost/signin/verify-email');
		expect(link.searchParams.get('email')).toBe('ada@example.com');
		const token = link.searchParams.get('token')!;
		expect(create).toHaveBeenCalledWith({
			identifier: 'verify-email:ada@example.com',
			token: hashToken(token, secret),
			expires: new Date('2026-03-02T10:00:00Z')
		});
		expect((await adapter.getUserByEmail!('ada@example.com'))?.emailVerified).toBeNull();
	});

	it('signs the new user in at once when the option is off, as before', async () => {
		const { auth, adapter } = app({ passwords: {} });
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const done = await signUp(auth, 'ada@example.com');
		expect(done.redirect).toBe('/account');
		expect(sessionCookie(done.jar)).toBeTruthy();
		expect(create).not.toHaveBeenCalled();
		expect((await signIn(auth, 'ada@example.com')).redirect).toBe('/');
	});

	it('answers 503 EmailSignInError when the mail cannot be sent; the account stays, and signing in mails a new link', async () => {
		const { auth, adapter } = app();
		inbox().setRefusing(true);
		try {
			expect(await signUp(auth, 'ada@example.com')).toMatchObject({ status: 503, data: { error: 'EmailSignInError', email: 'ada@example.com' } });
		} finally {
			inbox().setRefusing(false);
		}
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'EmailSignInError' }));
		expect(await adapter.getUserByEmail!('ada@example.com')).not.toBeNull();
		const mail = inbox().next('ada@example.com');
		expect((await signIn(auth, 'ada@example.com')).redirect).toBe('/signin?error=CredentialsSignin&code=EmailNotVerified');
		expect((await mail).subject).toBe('Confirm your email for localhost');
	});

	it('refuses at startup an adapter that cannot confirm addresses', () => {
		const { updateUser: _, ...adapter } = MemoryAdapter();
		expect(() => app({ adapter })).toThrow(MissingAdapter);
		expect(() => app({ adapter })).toThrow(/passwords\.requireEmailVerification needs an adapter with updateUser\(\)/);
	});
});

describe('signing in before the address is confirmed', () => {
	it('is refused with code EmailNotVerified and mails a fresh link; a wrong password gets the plain refusal and no mail', async () => {
		const { auth } = app();
		await signUpForLink(auth, 'ada@example.com');
		const mail = inbox().next('ada@example.com');
		const refused = await signIn(auth, 'ada@example.com');
		expect(refused.redirect).toBe('/signin?error=CredentialsSignin&code=EmailNotVerified');
		expect(sessionCookie(refused.jar)).toBeUndefined();
		const fresh = inbox().linkIn(await mail);

		const before = inbox().messages.length;
		expect((await signIn(auth, 'ada@example.com', 'not the password')).redirect).toBe('/signin?error=CredentialsSignin&code=credentials');
		expect(inbox().messages.length).toBe(before);
		// The fresh link confirms the address.
		expect((await confirm(auth, fresh)).redirect).toBe('/');
	});

	it('mails at most 5 links an hour per address (the emailLink limit); the sign-in is refused all the same', async () => {
		const { auth } = app();
		await signUpForLink(auth, 'ada@example.com');
		const before = inbox().messages.length;
		for (let i = 0; i < 5; i++) {
			const mail = inbox().next('ada@example.com');
			expect((await signIn(auth, 'ada@example.com')).redirect).toBe('/signin?error=CredentialsSignin&code=EmailNotVerified');
			await mail;
		}
		logger.error.mockClear();
		expect((await signIn(auth, 'ada@example.com')).redirect).toBe('/signin?error=CredentialsSignin&code=EmailNotVerified');
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'RateLimited' }));
		expect(inbox().messages.length - before).toBe(5);
	});

	it('lets a user confirmed before through without a mail', async () => {
		const { auth, adapter } = app();
		await signUpForLink(auth, 'ada@example.com');
		const user = await adapter.getUserByEmail!('ada@example.com');
		await adapter.updateUser!({ id: user!.id, emailVerified: new Date() });
		const before = inbox().messages.length;
		const done = await signIn(auth, 'ada@example.com');
		expect(done.redirect).toBe('/');
		expect(sessionCookie(done.jar)).toBeTruthy();
		expect(inbox().messages.length).toBe(before);
	});
});

describe('following the confirmation link', () => {
	it('sets emailVerified, signs the user in once, and the password works from then on', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app();
		const link = await signUpForLink(auth, 'ada@example.com');
		freezeDate('2026-03-01T11:00:00Z');
		const done = await confirm(auth, link);
		expect(done.redirect).toBe('/account');
		expect(sessionCookie(done.jar)).toBeTruthy();
		expect((await adapter.getUserByEmail!('ada@example.com'))?.emailVerified).toEqual(new Date('2026-03-01T11:00:00Z'));
		expect((await signIn(auth, 'ada@example.com')).redirect).toBe('/');

		const again = await confirm(auth, link);
		expect(again).toMatchObject({ status: 400, data: { error: 'Verification', email: 'ada@example.com' } });
		expect(sessionCookie(again.jar)).toBeUndefined();
	});

	it('goes on to the callbackUrl the sign-up was given, when it is a same-origin path', async () => {
		const { auth } = app();
		const link = await signUpForLink(auth, 'ada@example.com', { redirectTo: '/docs?page=2' });
		expect(new URL(link).searchParams.get('callbackUrl')).toBe('/docs?page=2');
		expect((await confirm(auth, link)).redirect).toBe('/docs?page=2');
		const elsewhere = await signUpForLink(auth, 'bob@example.com', { redirectTo: 'https://evil.example/' });
		expect(new URL(elsewhere).searchParams.has('callbackUrl')).toBe(false);
	});

	// Account pre-hijacking (Sudhodanan & Paverd, USENIX Security 2022): someone registers another
	// person's address with a password of theirs; the mailed link reaches the owner, who must not
	// confirm an account whose password someone else holds.
	it('does not confirm without the account’s password: 400 CredentialsSignin, nobody signed in, the link still works for the right one', async () => {
		const { auth, adapter } = app();
		const link = await signUpForLink(auth, 'ada@example.com');
		for (const password of ['', 'what the owner would guess']) {
			const refused = await confirm(auth, link, { password });
			expect(refused).toMatchObject({ status: 400, data: { error: 'CredentialsSignin', email: 'ada@example.com' } });
			expect(sessionCookie(refused.jar)).toBeUndefined();
		}
		expect((await adapter.getUserByEmail!('ada@example.com'))?.emailVerified).toBeNull();
		expect((await signIn(auth, 'ada@example.com')).redirect).toBe('/signin?error=CredentialsSignin&code=EmailNotVerified');
		expect((await confirm(auth, link)).redirect).toBe('/account');
	});

	/** Tokens of other flows for the same address, stored as they would be. */
	const otherToken = (adapter: Adapter, identifier: string, token: string) =>
		adapter.createVerificationToken!({ identifier, token: hashToken(token, secret), expires: new Date(Date.now() + 3_600_000) });

	it.each([
		['an expired link', async () => ({}), 24 * 3600 + 1],
		['a tampered token', async () => ({ token: 'x'.repeat(43) }), 0],
		["another address's link", async (_: Adapter, bobLink: string) => ({ token: new URL(bobLink).searchParams.get('token')! }), 0],
		["a sign-in link's token", async (adapter: Adapter) => (await otherToken(adapter, 'ada@example.com', 'sign-in'), { token: 'sign-in' }), 0],
		["a reset link's token", async (adapter: Adapter) => (await otherToken(adapter, 'password-reset:ada@example.com', 'reset'), { token: 'reset' }), 0],
		['no token', async () => ({ token: '' }), 0]
	])('refuses %s with 400 Verification, signs nobody in and leaves emailVerified unset', async (_, override, laterSeconds) => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app();
		const link = await signUpForLink(auth, 'ada@example.com');
		const bobLink = await signUpForLink(auth, 'bob@example.com');
		const fields = await override(adapter, bobLink);
		freezeDate(new Date(Date.parse('2026-03-01T10:00:00Z') + laterSeconds * 1000).toISOString());
		const done = await confirm(auth, link, fields);
		expect(done).toMatchObject({ status: 400, data: { error: 'Verification' } });
		expect(sessionCookie(done.jar)).toBeUndefined();
		expect((await adapter.getUserByEmail!('ada@example.com'))?.emailVerified).toBeNull();
		expect((await adapter.getUserByEmail!('bob@example.com'))?.emailVerified).toBeNull();
	});

	it('makes links last passwords.verificationMaxAge seconds when the config sets it', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth } = app({ passwords: { requireEmailVerification: true, verificationMaxAge: 600 } });
		const link = await signUpForLink(auth, 'ada@example.com');
		freezeDate('2026-03-01T10:10:01Z');
		expect(await confirm(auth, link)).toMatchObject({ status: 400, data: { error: 'Verification' } });
	});
});

describe('a password reset', () => {
	it('confirms the address too: the link reached it', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app();
		await signUpForLink(auth, 'ada@example.com');
		const mail = inbox().next('ada@example.com');
		await actionOutcome(auth.requestPasswordReset, requestEvent('http://localhost/signin/forgot-password', new Jar(), { form: { email: 'ada@example.com' } }));
		const link = inbox().linkIn(await mail);
		const form = { ...Object.fromEntries(new URL(link).searchParams), password: 'a new password of mine' };
		expect((await actionOutcome(auth.resetPassword, requestEvent(link, new Jar(), { form }))).redirect).toBe('/');
		expect((await adapter.getUserByEmail!('ada@example.com'))?.emailVerified).toEqual(new Date('2026-03-01T10:00:00Z'));
		expect((await signIn(auth, 'ada@example.com', 'a new password of mine')).redirect).toBe('/');
	});
});
