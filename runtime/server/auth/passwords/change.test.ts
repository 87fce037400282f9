import { availableParallelism } from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { passwordApp } from '../../../test/password-app.js';
import { inboxForTests } from '../../../test/smtp.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { authorizeWithPassword, registerWithPassword, type RegisterAdapter } from './accounts.js';
import { configurePasswordHashing, hashPassword } from './hashing.js';
import { inHashingQueue } from './queue.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';
import { memoryRateLimitStore } from '../limits/rate-limit.js';
import { hashToken } from '../email/verification-tokens.js';
import { storedSessionKey } from '../session/stored-key.js';
import { hashPassword as betterAuthHash } from 'better-auth/crypto';

vi.setConfig({ testTimeout: 30_000 });
const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
const inbox = inboxForTests();
beforeEach(() => logger.error.mockClear());

/** The apps of the running test; the next test starts once their mail has arrived. */
const apps: Array<ReturnType<typeof passwordApp>> = [];
afterEach(() => Promise.all(apps.splice(0).map((made) => made.delivered())));
const app = (extra: Partial<SvelteKitAuthConfig> = {}, adapter?: Adapter) => {
	const made = passwordApp(inbox(), { secret, logger, ...extra }, adapter);
	apps.push(made);
	return made;
};
type Auth = ReturnType<typeof app>['auth'];

async function register(adapter: Adapter, email: string, password = 'correct horse battery') {
	const result = await registerWithPassword(adapter as RegisterAdapter, { email, password }, resolveConfig({ providers: [], secret }));
	if (!result.ok) throw new Error(result.message);
	return result.user;
}

/** The forgot-password form's POST. */
function requestReset(auth: Auth, email: string, options: { page?: string; clientAddress?: string } = {}) {
	const event = requestEvent(options.page ?? 'http://localhost/signin/forgot-password', new Jar(), { form: { email }, clientAddress: options.clientAddress });
	return actionOutcome(auth.requestPasswordReset, event);
}

/** The reset page's POST, with the link's fields (or others) and the new password; the jar it signed in. */
async function reset(auth: Auth, link: string, password: string, override: Record<string, string> = {}, jar = new Jar()) {
	const form = { ...Object.fromEntries(new URL(link).searchParams), password, ...override };
	return { jar, ...(await actionOutcome(auth.resetPassword, requestEvent(link, jar, { form }))) };
}

/** Requests a reset for `email` and returns the link from the mail the SMTP server received. */
async function resetLinkFor(auth: Auth, email: string) {
	const mail = inbox().next(email);
	expect(await requestReset(auth, email)).toMatchObject({ status: 200, data: { sent: true, email } });
	return inbox().linkIn(await mail);
}

const sessionCookie = (jar: Jar) => jar.values.get('auth.session-token');
const passwordWorks = (adapter: Adapter, email: string, password: string) => authorizeWithPassword(adapter as never, { email, password }).then(Boolean);

describe('forgot password', () => {
	it('mails a one-time reset link for an account with a password, storing only the token’s hash, for one hour', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app();
		await register(adapter, 'ada@example.com');
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const mail = inbox().next('ada@example.com');
		expect(await requestReset(auth, '  Ada@Example.com ')).toMatchObject({ status: 200, data: { sent: true, email: 'ada@example.com' } });
		const message = await mail;
		expect(message.subject).toBe('Reset your password for localhost');
		expect(message.from?.value[0]).toMatchObject({ address: 'no-reply@example.com' });
		const link = new URL(inbox().linkIn(message));
		expect(link.origin + link.pathname).toBe('http://localhost/signin/reset-password');
		expect(link.searchParams.get('email')).toBe('ada@example.com');
		const token = link.searchParams.get('token')!;
		expect(create).toHaveBeenCalledWith({ identifier: 'password-reset:ada@example.com', token: hashToken(token, secret), expires: new Date('2026-03-01T11:00:00Z') });
		expect(message.html).toContain('Reset password');
	});

	it('makes links last passwords.resetMaxAge seconds when the config sets it', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app({ passwords: { resetMaxAge: 600 } });
		await register(adapter, 'ada@example.com');
		const create = vi.spyOn(adapter, 'createVerificationToken');
		await resetLinkFor(auth, 'ada@example.com');
		expect(create.mock.calls[0]![0].expires).toEqual(new Date('2026-03-01T10:10:00Z'));
	});

	it('answers the same for an unknown address and for a user without a password, and sends them nothing', async () => {
		const { auth, adapter } = app();
		await adapter.createUser!({ id: 'u-link', email: 'link@example.com', emailVerified: new Date(), name: null, image: null });
		await register(adapter, 'known@example.com');
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const before = inbox().messages.length;
		for (const email of ['nobody@example.com', 'link@example.com']) {
			expect(await requestReset(auth, email)).toEqual({ status: 200, data: { sent: true, email }, headers: {} });
		}
		expect(create).not.toHaveBeenCalled();
		// A known address's mail arrives after them, and is the only one.
		await resetLinkFor(auth, 'known@example.com');
		expect(inbox().messages.slice(before).map((mail) => mail.subject)).toEqual(['Reset your password for localhost']);
	});

	it('refuses a malformed address with 400 InvalidEmail, keeping what was typed', async () => {
		const { auth } = app();
		expect(await requestReset(auth, 'not an address')).toMatchObject({ status: 400, data: { error: 'InvalidEmail', email: 'not an address' } });
	});

	it('counts requests against the emailLink limits: the 6th for one address in an hour is a 429 with Retry-After', async () => {
		const { auth, adapter } = app();
		await register(adapter, 'ada@example.com');
		for (let i = 0; i < 5; i++) await resetLinkFor(auth, 'ada@example.com');
		const refused = await requestReset(auth, 'ada@example.com');
		expect(refused).toMatchObject({ status: 429, data: { error: 'RateLimited', message: expect.stringMatching(/^Too many attempts/) } });
		expect(Number(refused.headers!['retry-after'])).toBeGreaterThan(3500);
	});

	it('builds the link only on a trusted origin: a forged Host without AUTH_URL stores and sends nothing', async () => {
		const { auth, adapter } = app({ trustHost: false });
		await register(adapter, 'ada@example.com');
		const create = vi.spyOn(adapter, 'createVerificationToken');
		await expect(requestReset(auth, 'ada@example.com', { page: 'http://evil.example/signin/forgot-password' })).rejects.toMatchObject({ type: 'UntrustedHost' });
		expect(create).not.toHaveBeenCalled();
		const trusted = app({ trustHost: false, url: 'https://app.example.com' });
		await register(trusted.adapter, 'ada@example.com');
		const mail = inbox().next('ada@example.com');
		await requestReset(trusted.auth, 'ada@example.com', { page: 'http://evil.example/signin/forgot-password' });
		expect(inbox().linkIn(await mail)).toMatch(/^https:\/\/app\.example\.com\/signin\/reset-password\?/);
	});

	it('answers at once even when the mail server refuses the mail, and logs EmailSignInError', async () => {
		const { auth, adapter } = app();
		await register(adapter, 'ada@example.com');
		inbox().setRefusing(true);
		try {
			expect(await requestReset(auth, 'ada@example.com')).toMatchObject({ status: 200, data: { sent: true } });
			await vi.waitFor(() => expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'EmailSignInError' })), { timeout: 5000 });
		} finally {
			inbox().setRefusing(false);
		}
	});
});

describe('resetting the password from the link', () => {
	it('sets the new password, signs the user in, and the link works once; the old password is refused', async () => {
		const { auth, adapter } = app();
		const user = await register(adapter, 'ada@example.com', 'the old password here');
		const link = await resetLinkFor(auth, 'ada@example.com');
		const done = await reset(auth, link, 'a brand new password');
		expect(done.redirect).toBe('/');
		expect(sessionCookie(done.jar)).toBeTruthy();
		expect(await passwordWorks(adapter, 'ada@example.com', 'a brand new password')).toBe(true);
		expect(await passwordWorks(adapter, 'ada@example.com', 'the old password here')).toBe(false);
		expect(await adapter.getAccount!('ada@example.com', 'credentials')).toMatchObject({ userId: user.id, type: 'credentials' });
		// Used once.
		const again = await reset(auth, link, 'a third password here');
		expect(again).toMatchObject({ status: 400, data: { error: 'Verification', message: expect.stringMatching(/invalid, used or expired/) } });
		expect(sessionCookie(again.jar)).toBeUndefined();
		expect(await passwordWorks(adapter, 'ada@example.com', 'a brand new password')).toBe(true);
	});

	it.each([
		['an expired link', 'expired'],
		['a tampered token', 'tampered'],
		['another address’s link', 'other'],
		['an email sign-in link’s token', 'signInLink'],
		['no token', 'none']
	])('refuses %s with 400 Verification: no session, the password unchanged', async (_, kind) => {
		freezeDate('2026-03-01T10:00:00Z');
		// The password pages are the credentials provider's: it stays beside the email provider.
		const adapter = MemoryAdapter();
		const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter as never, fields) });
		const { auth } = app({ providers: [credentials, Email({ server: inbox().url })] }, adapter);
		await register(adapter, 'ada@example.com', 'the old password here');
		await register(adapter, 'eve@example.com', 'eve password seeded');
		let link: string;
		let override: Record<string, string> = {};
		if (kind === 'signInLink') {
			const mail = inbox().next('ada@example.com');
			await actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { providerId: 'email', email: 'ada@example.com' } }));
			const signInLink = new URL(inbox().linkIn(await mail));
			link = `http://localhost/signin/reset-password?${signInLink.searchParams}`;
		} else {
			link = await resetLinkFor(auth, kind === 'other' ? 'eve@example.com' : 'ada@example.com');
		}
		if (kind === 'expired') vi.setSystemTime(Date.parse('2026-03-01T11:00:01Z'));
		if (kind === 'tampered') override = { token: `${new URL(link).searchParams.get('token')!.slice(0, -2)}AA` };
		if (kind === 'other') override = { email: 'ada@example.com' };
		if (kind === 'none') override = { token: '' };
		const refused = await reset(auth, link, 'a brand new password', override);
		expect(refused).toMatchObject({ status: 400, data: { error: 'Verification' } });
		expect(sessionCookie(refused.jar)).toBeUndefined();
		expect(await passwordWorks(adapter, 'ada@example.com', 'the old password here')).toBe(true);
		expect(await passwordWorks(adapter, 'ada@example.com', 'a brand new password')).toBe(false);
	});

	it('refuses a too short password with 400 PasswordTooShort and leaves the link unused', async () => {
		const { auth, adapter } = app();
		await register(adapter, 'ada@example.com', 'the old password here');
		const link = await resetLinkFor(auth, 'ada@example.com');
		expect(await reset(auth, link, 'short')).toMatchObject({ status: 400, data: { error: 'PasswordTooShort', message: 'Use at least 15 characters.' } });
		expect((await reset(auth, link, 'long enough to pass')).redirect).toBe('/');
	});

	it('hashes nothing for a made-up link, and puts the link back when the hashing queue is full', async () => {
		const { auth, adapter } = app();
		await register(adapter, 'ada@example.com', 'the old password here');
		const link = await resetLinkFor(auth, 'ada@example.com');
		// One hash at a time and none waiting; work held in the queue until the test lets it end
		// takes the one slot.
		configurePasswordHashing({ concurrency: 1, maxWaiting: 0 });
		let release = () => {};
		const busy = inHashingQueue(() => new Promise<void>((resolve) => (release = resolve)));
		try {
			expect(await reset(auth, link, 'a brand new password', { token: 'made-up' })).toMatchObject({ status: 400, data: { error: 'Verification' } });
			const full = await reset(auth, link, 'a brand new password');
			expect(full).toMatchObject({ status: 429, data: { error: 'RateLimited' } });
			expect(full.headers!['retry-after']).toBe('5');
		} finally {
			release();
			await busy;
			configurePasswordHashing({ concurrency: Math.max(1, availableParallelism() - 1), maxWaiting: 16 });
		}
		expect((await reset(auth, link, 'a brand new password')).redirect).toBe('/');
		expect(await passwordWorks(adapter, 'ada@example.com', 'a brand new password')).toBe(true);
	});

	it('clears the failed sign-ins that locked the address out', async () => {
		const { auth, adapter } = app({ rateLimit: { store: memoryRateLimitStore(), signIn: { perEmail: { max: 2, windowSeconds: 900 } } } });
		await register(adapter, 'ada@example.com', 'the old password here');
		const signIn = (password: string) =>
			actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { email: 'ada@example.com', password } }));
		await signIn('wrong 1');
		await signIn('wrong 2');
		expect(await signIn('the old password here')).toMatchObject({ status: 429 });
		await reset(auth, await resetLinkFor(auth, 'ada@example.com'), 'a brand new password');
		expect(await signIn('a brand new password')).toEqual({ redirect: '/' });
	});

	it('with database sessions, deletes every other session of the user (not other users’) and starts a new one', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' } });
		const ada = await register(adapter, 'ada@example.com', 'the old password here');
		const eve = await register(adapter, 'eve@example.com', 'eve password seeded');
		const later = new Date(Date.now() + 3_600_000);
		for (const [sessionToken, userId] of [['ada-laptop', ada.id], ['ada-phone', ada.id], ['eve-laptop', eve.id]] as const) {
			await adapter.createSession!({ sessionToken: storedSessionKey(sessionToken), userId, expires: later });
		}
		const jar = new Jar();
		jar.values.set('auth.session-token', 'ada-phone');
		const done = await reset(auth, await resetLinkFor(auth, 'ada@example.com'), 'a brand new password', {}, jar);
		expect(done.redirect).toBe('/');
		expect(await adapter.getSessionAndUser!(storedSessionKey('ada-laptop'))).toBeNull();
		expect(await adapter.getSessionAndUser!(storedSessionKey('ada-phone'))).toBeNull();
		expect(await adapter.getSessionAndUser!(storedSessionKey('eve-laptop'))).toMatchObject({ user: { id: eve.id } });
		const fresh = sessionCookie(jar)!;
		expect(fresh).not.toBe('ada-phone');
		expect(await adapter.getSessionAndUser!(storedSessionKey(fresh))).toMatchObject({ user: { id: ada.id } });
	});

	it('with passwords.endOtherSessions false, keeps the other sessions, replaces only this browser’s (OWASP ASVS 5.0 7.2.4), and says so in the notice', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' }, passwords: { endOtherSessions: false } });
		const ada = await register(adapter, 'ada@example.com', 'the old password here');
		await adapter.updateUser!({ id: ada.id, emailVerified: new Date() });
		const later = new Date(Date.now() + 3_600_000);
		for (const token of ['ada-laptop', 'ada-phone']) await adapter.createSession!({ sessionToken: storedSessionKey(token), userId: ada.id, expires: later });
		const jar = new Jar();
		jar.values.set('auth.session-token', 'ada-phone');
		const link = await resetLinkFor(auth, 'ada@example.com');
		const notice = inbox().next('ada@example.com');
		expect((await reset(auth, link, 'a brand new password', {}, jar)).redirect).toBe('/');
		expect(await adapter.getSessionAndUser!(storedSessionKey('ada-laptop'))).toMatchObject({ user: { id: ada.id } });
		expect(await adapter.getSessionAndUser!(storedSessionKey('ada-phone'))).toBeNull();
		expect(await adapter.getSessionAndUser!(storedSessionKey(sessionCookie(jar)!))).toMatchObject({ user: { id: ada.id } });
		expect((await notice).text).toContain('Devices signed in before stay signed in');
	});

	it('with passwords.endOtherSessions false, still ends every session when the reset proves the address for the first time', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' }, passwords: { endOtherSessions: false } });
		const ada = await register(adapter, 'ada@example.com', 'the old password here');
		await adapter.createSession!({ sessionToken: storedSessionKey('ada-laptop'), userId: ada.id, expires: new Date(Date.now() + 3_600_000) });
		expect((await reset(auth, await resetLinkFor(auth, 'ada@example.com'), 'a brand new password')).redirect).toBeTruthy();
		expect(await adapter.getSessionAndUser!(storedSessionKey('ada-laptop'))).toBeNull();
	});

	it('with a session cache (session.cacheMaxAge), signs the other devices out at once', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database', cacheMaxAge: 300 } });
		const ada = await register(adapter, 'ada@example.com', 'the old password here');
		await adapter.createSession!({ sessionToken: storedSessionKey('ada-laptop'), userId: ada.id, expires: new Date(Date.now() + 3_600_000) });
		const laptop = async () => {
			const jar = new Jar();
			jar.values.set('auth.session-token', 'ada-laptop');
			const event = requestEvent('http://localhost/', jar);
			await auth.handle({ event, resolve: async () => new Response('ok') });
			return (event.locals as { auth(): Promise<unknown> }).auth();
		};
		expect(await laptop()).toMatchObject({ user: { id: ada.id } });
		await reset(auth, await resetLinkFor(auth, 'ada@example.com'), 'a brand new password');
		expect(await laptop()).toBeNull();
	});

	it('keeps the old password when storing the new one fails half way (the account is linked back)', async () => {
		const { auth, adapter } = app();
		await register(adapter, 'ada@example.com', 'the old password here');
		const link = await resetLinkFor(auth, 'ada@example.com');
		vi.spyOn(adapter, 'linkAccount').mockImplementationOnce(() => Promise.reject(new Error('connection reset')));
		await expect(reset(auth, link, 'a brand new password')).rejects.toMatchObject({ type: 'AdapterError' });
		expect(adapter.linkAccount).toHaveBeenCalledTimes(2);
		expect(await passwordWorks(adapter, 'ada@example.com', 'the old password here')).toBe(true);
	});
	it('logs that other sessions stay when the adapter cannot delete a user’s sessions', async () => {
		const adapter = MemoryAdapter();
		delete (adapter as Adapter).deleteUserSessions;
		const { auth } = app({ session: { strategy: 'database' } }, adapter);
		await register(adapter, 'ada@example.com', 'the old password here');
		const done = await reset(auth, await resetLinkFor(auth, 'ada@example.com'), 'a brand new password');
		expect(done.redirect).toBe('/');
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'MissingAdapter', message: expect.stringContaining('deleteUserSessions()') }));
	});
});

describe('changing the password on the account page', () => {
	/** A database-session user signed in on two devices; the jar is this browser's. */
	async function signedIn() {
		const { auth, adapter } = app({ session: { strategy: 'database' } });
		const user = await register(adapter, 'ada@example.com', 'the old password here');
		const later = new Date(Date.now() + 3_600_000);
		await adapter.createSession!({ sessionToken: storedSessionKey('this-browser'), userId: user.id, expires: later });
		await adapter.createSession!({ sessionToken: storedSessionKey('other-device'), userId: user.id, expires: later });
		const jar = new Jar();
		jar.values.set('auth.session-token', 'this-browser');
		const change = async (form: Record<string, string>) => {
			const event = requestEvent('http://localhost/account', jar, { form, headers: { accept: 'text/html' } });
			await auth.handle({ event, resolve: async () => new Response('ok') });
			return actionOutcome(auth.changePassword, event);
		};
		return { auth, adapter, user, jar, change };
	}

	it('changes it with the right current password, signs the other devices out and keeps this browser signed in', async () => {
		const { adapter, user, jar, change } = await signedIn();
		expect(await change({ currentPassword: 'the old password here', password: 'a brand new password' })).toMatchObject({ status: 200, data: { passwordChanged: true, othersSignedOut: true } });
		expect(await passwordWorks(adapter, 'ada@example.com', 'a brand new password')).toBe(true);
		expect(await passwordWorks(adapter, 'ada@example.com', 'the old password here')).toBe(false);
		expect(await adapter.getSessionAndUser!(storedSessionKey('other-device'))).toBeNull();
		expect(await adapter.getSessionAndUser!(storedSessionKey('this-browser'))).toBeNull();
		expect(await adapter.getSessionAndUser!(storedSessionKey(sessionCookie(jar)!))).toMatchObject({ user: { id: user.id } });
	});

	it('with passwords.endOtherSessions false, keeps the other devices signed in and gives this browser a new session', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' }, passwords: { endOtherSessions: false } });
		const user = await register(adapter, 'ada@example.com', 'the old password here');
		const later = new Date(Date.now() + 3_600_000);
		for (const token of ['this-browser', 'other-device']) await adapter.createSession!({ sessionToken: storedSessionKey(token), userId: user.id, expires: later });
		const jar = new Jar();
		jar.values.set('auth.session-token', 'this-browser');
		const event = requestEvent('http://localhost/account', jar, { form: { currentPassword: 'the old password here', password: 'a brand new password' }, headers: { accept: 'text/html' } });
		await auth.handle({ event, resolve: async () => new Response('ok') });
		expect(await actionOutcome(auth.changePassword, event)).toMatchObject({ status: 200, data: { passwordChanged: true, othersSignedOut: false } });
		expect(await adapter.getSessionAndUser!(storedSessionKey('other-device'))).toMatchObject({ user: { id: user.id } });
		expect(await adapter.getSessionAndUser!(storedSessionKey('this-browser'))).toBeNull();
		expect(await adapter.getSessionAndUser!(storedSessionKey(sessionCookie(jar)!))).toMatchObject({ user: { id: user.id } });
	});

	it('mails a notice of the change to the address, saying the other devices were signed out', async () => {
		const { change } = await signedIn();
		const mail = inbox().next('ada@example.com');
		expect(await change({ currentPassword: 'the old password here', password: 'a brand new password' })).toMatchObject({ status: 200 });
		expect(await mail).toMatchObject({ subject: 'Your password was changed on localhost', text: expect.stringContaining('your other devices were signed out') });
	});

	it('accepts a current password still hashed by Better Auth (a user switched over who has not signed in since)', async () => {
		const { adapter, user, change } = await signedIn();
		await adapter.unlinkAccount!({ provider: 'credentials', providerAccountId: 'ada@example.com' });
		await adapter.linkAccount!({ userId: user.id, type: 'credentials', provider: 'credentials', providerAccountId: 'ada@example.com', password_hash: await betterAuthHash('the better auth password') });
		expect(await change({ currentPassword: 'the old password here', password: 'a brand new password' })).toMatchObject({ status: 400, data: { error: 'WrongPassword' } });
		expect(await change({ currentPassword: 'the better auth password', password: 'a brand new password' })).toMatchObject({ status: 200, data: { passwordChanged: true } });
		expect((await adapter.getAccount!('ada@example.com', 'credentials'))?.password_hash).toMatch(/^scrypt\$/);
		expect(await passwordWorks(adapter, 'ada@example.com', 'a brand new password')).toBe(true);
		expect(await passwordWorks(adapter, 'ada@example.com', 'the better auth password')).toBe(false);
	});

	it('refuses a wrong current password (400 WrongPassword) and a too short new one, changing nothing', async () => {
		const { adapter, change } = await signedIn();
		expect(await change({ currentPassword: 'guess', password: 'a brand new password' })).toMatchObject({ status: 400, data: { error: 'WrongPassword' } });
		expect(await change({ currentPassword: 'the old password here', password: 'short' })).toMatchObject({ status: 400, data: { error: 'PasswordTooShort' } });
		expect(await passwordWorks(adapter, 'ada@example.com', 'the old password here')).toBe(true);
		expect(await adapter.getSessionAndUser!(storedSessionKey('other-device'))).toBeTruthy();
	});

	it('counts wrong current passwords against the sign-in limit per email: the 11th attempt is a 429', async () => {
		const { change } = await signedIn();
		for (let i = 0; i < 10; i++) await change({ currentPassword: `guess ${i}`, password: 'a brand new password' });
		const refused = await change({ currentPassword: 'the old password here', password: 'a brand new password' });
		expect(refused).toMatchObject({ status: 429, data: { error: 'RateLimited' } });
		expect(Number(refused.headers!['retry-after'])).toBeGreaterThan(0);
	});

	it('answers NoPassword for a user who signs in without one, and sends a signed-out visitor to sign in', async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' } });
		await adapter.createUser!({ id: 'u-link', email: 'link@example.com', emailVerified: new Date(), name: null, image: null });
		await adapter.createSession!({ sessionToken: storedSessionKey('link-session'), userId: 'u-link', expires: new Date(Date.now() + 3_600_000) });
		const post = async (jar: Jar) => {
			const event = requestEvent('http://localhost/account', jar, { form: { currentPassword: 'x', password: 'a brand new password' }, headers: { accept: 'text/html' } });
			await auth.handle({ event, resolve: async () => new Response('ok') });
			return actionOutcome(auth.changePassword, event);
		};
		const jar = new Jar();
		jar.values.set('auth.session-token', 'link-session');
		expect(await post(jar)).toMatchObject({ status: 400, data: { error: 'NoPassword' } });
		expect(await post(new Jar())).toEqual({ redirect: '/signin?callbackUrl=%2Faccount' });
	});

	it("changes the password of a user carried over from Lucia, keyed by username, and not another user's through a name equal to that username", async () => {
		const { auth, adapter } = app({ session: { strategy: 'database' } });
		const later = new Date(Date.now() + 3_600_000);
		await adapter.createUser!({ id: 'lucia-ada', email: null, emailVerified: null, name: 'ada', image: null } as never);
		await adapter.linkAccount!({ userId: 'lucia-ada', type: 'credentials', provider: 'credentials', providerAccountId: 'ada', password_hash: await hashPassword('the lucia password') });
		await adapter.createSession!({ sessionToken: storedSessionKey('ada-browser'), userId: 'lucia-ada', expires: later });
		// An OAuth user without an address who named themselves after Ada's username.
		await adapter.createUser!({ id: 'oauth-eve', email: null, emailVerified: null, name: 'Ada', image: null } as never);
		await adapter.createSession!({ sessionToken: storedSessionKey('eve-browser'), userId: 'oauth-eve', expires: later });
		const change = async (token: string, form: Record<string, string>) => {
			const jar = new Jar();
			jar.values.set('auth.session-token', token);
			const event = requestEvent('http://localhost/account', jar, { form, headers: { accept: 'text/html' } });
			await auth.handle({ event, resolve: async () => new Response('ok') });
			return actionOutcome(auth.changePassword, event);
		};
		expect(await change('eve-browser', { currentPassword: 'the lucia password', password: 'eve takes over ada' })).toMatchObject({ status: 400, data: { error: 'NoPassword' } });
		expect(await passwordWorks(adapter, 'ada', 'the lucia password')).toBe(true);
		expect(await change('ada-browser', { currentPassword: 'the lucia password', password: 'a brand new password' })).toMatchObject({ status: 200, data: { passwordChanged: true } });
		expect(await passwordWorks(adapter, 'ada', 'a brand new password')).toBe(true);
	});
});


describe('setting a password on the account page (a user who signed up without one)', () => {
	/** A user made by an OAuth sign-in (no password), signed in `age` seconds ago in this browser. */
	async function oauthUser(age = 0) {
		freezeDate('2026-11-28T10:00:00Z');
		const { auth, adapter } = app({ session: { freshAge: 300 } });
		const user = await adapter.createUser!({ id: 'ada', email: 'ada@example.com', emailVerified: new Date() });
		await adapter.linkAccount!({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: '583231' });
		const jar = new Jar();
		const { encodeToken } = await import('../session/jwt.js');
		const now = Date.now() / 1000;
		jar.values.set('auth.session-token', await encodeToken({ sub: user.id, email: user.email, auth_time: now - age }, secret, 3600, now));
		const set = async (form: Record<string, string>) => {
			const event = requestEvent('http://localhost/account', jar, { form, headers: { accept: 'text/html' } });
			await auth.handle({ event, resolve: async () => new Response('ok') });
			return actionOutcome(auth.setPassword, event);
		};
		return { adapter, set };
	}

	it('sets it after a recent sign-in: the user then signs in with it too', async () => {
		const { adapter, set } = await oauthUser();
		expect(await set({ password: 'passwordpassword' })).toMatchObject({ status: 400, data: { error: 'PasswordTooCommon' } });
		expect(await set({ password: 'my first real password' })).toMatchObject({ status: 200, data: { passwordSet: true } });
		expect(await passwordWorks(adapter, 'ada@example.com', 'my first real password')).toBe(true);
		expect(await set({ password: 'another password again' })).toMatchObject({ status: 400, data: { error: 'HasPassword' } });
	});

	it('OWASP ASVS 5.0 7.5.1: refuses past freshAge (a session stolen days after its sign-in cannot add a password), nothing stored', async () => {
		const { adapter, set } = await oauthUser(301);
		expect(await set({ password: 'my first real password' })).toMatchObject({ status: 401, data: { error: 'ReauthenticationRequired', action: 'setPassword' } });
		expect(await adapter.getAccount!('ada@example.com', 'credentials')).toBeNull();
	});

	it('refuses when another user signs in with a password at the address', async () => {
		const { adapter, set } = await oauthUser();
		await adapter.createUser!({ id: 'eve', email: 'eve@example.com', emailVerified: null });
		await adapter.linkAccount!({ userId: 'eve', type: 'credentials', provider: 'credentials', providerAccountId: 'ada@example.com', password_hash: await hashPassword('eve sets this up') });
		expect(await set({ password: 'my first real password' })).toMatchObject({ status: 400, data: { error: 'EmailInUse' } });
		expect((await adapter.getAccount!('ada@example.com', 'credentials'))?.userId).toBe('eve');
	});
});
