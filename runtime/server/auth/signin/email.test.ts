import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { inboxForTests } from '../../../test/smtp.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { MissingAdapter } from '../errors.js';
import { SvelteKitAuth } from '../kit.js';
import Email from '../providers/email.js';
import { memoryRateLimitStore } from '../limits/rate-limit.js';
import { hashToken } from '../email/verification-tokens.js';

vi.setConfig({ testTimeout: 20_000 });
const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
const inbox = inboxForTests();
beforeEach(() => logger.error.mockClear());

function app(extra: Partial<SvelteKitAuthConfig> = {}, adapter: Adapter = MemoryAdapter()) {
	const email = Email({ server: inbox().url, from: 'Example <no-reply@example.com>' });
	const config = { secret, logger, adapter, trustHost: true, providers: [email], rateLimit: { store: memoryRateLimitStore() }, ...extra };
	return { adapter, auth: SvelteKitAuth(config) };
}
type Auth = ReturnType<typeof app>['auth'];

/** The sign-in form's POST with the email provider. */
function requestLink(auth: Auth, email: string, options: { page?: string; clientAddress?: string; callbackUrl?: string } = {}) {
	const form: Record<string, string> = { providerId: 'email', email, ...(options.callbackUrl ? { redirectTo: options.callbackUrl } : {}) };
	return actionOutcome(auth.signIn, requestEvent(options.page ?? 'http://localhost/signin', new Jar(), { form, clientAddress: options.clientAddress }));
}

/** The "Continue signing in" POST of the link's page, with the link's fields (or others); the jar it signed in. */
async function followLink(auth: Auth, link: string, override: Record<string, string> = {}) {
	const url = new URL(link);
	const jar = new Jar();
	const form = { ...Object.fromEntries(url.searchParams), ...override };
	return { jar, ...(await actionOutcome(auth.emailLink, requestEvent(link, jar, { form }))) };
}

/** Requests a link for `email` and returns it, from the mail the SMTP server received. */
async function linkFor(auth: Auth, email: string, options: { callbackUrl?: string } = {}) {
	const mail = inbox().next(email);
	expect(await requestLink(auth, email, options)).toEqual({ redirect: '/signin/verify-request?provider=email&type=email' });
	return inbox().linkIn(await mail);
}

const signedIn = (jar: Jar) => [...jar.values.keys()].includes('auth.session-token');

describe('email sign-in links', () => {
	it('sends a link by SMTP, stores only the hash of its token, and the link signs a new user in with emailVerified set', async () => {
		freezeDate('2026-03-01T10:00:00Z');
		const { auth, adapter } = app();
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const mail = inbox().next('ada@example.com');
		expect(await requestLink(auth, '  Ada@Example.com ', { callbackUrl: '/account' })).toEqual({
			redirect: '/signin/verify-request?provider=email&type=email'
		});
		const message = await mail;
		expect(message.subject).toBe('Sign in to localhost');
		expect(message.from?.value[0]).toMatchObject({ name: 'Example', address: 'no-reply@example.com' });
		const link = new URL(inbox().linkIn(message));
		expect(link.origin + link.pathname).toBe('http://localhost/signin/email');
		expect(link.searchParams.get('email')).toBe('ada@example.com');
		expect(link.searchParams.get('callbackUrl')).toBe('/account');
		const token = link.searchParams.get('token')!;
		expect(token).toMatch(/^[\w-]{43}$/);
		// The adapter has the hash, never the token; it expires in 24 hours.
		expect(create).toHaveBeenCalledWith({ identifier: 'ada@example.com', token: hashToken(token, secret), expires: new Date('2026-03-02T10:00:00Z') });
		expect(create.mock.calls[0]![0].token).not.toContain(token);

		const followed = await followLink(auth, link.href);
		expect(followed.redirect).toBe('/account');
		expect(signedIn(followed.jar)).toBe(true);
		const user = await adapter.getUserByEmail!('ada@example.com');
		expect(user?.emailVerified).toEqual(new Date('2026-03-01T10:00:00Z'));
		expect(await adapter.getUserByAccount!({ provider: 'email', providerAccountId: 'ada@example.com' })).toMatchObject({ id: user!.id });
	});

	it('signs a known user in as that user, with no second user or account, and sets emailVerified only once', async () => {
		const { auth, adapter } = app();
		await adapter.createUser!({ id: 'u1', email: 'bob@example.com', emailVerified: null, name: 'Bob', image: null });
		const createUser = vi.spyOn(adapter, 'createUser');
		const first = await followLink(auth, await linkFor(auth, 'bob@example.com'));
		expect(first.redirect).toBe('/');
		const verified = (await adapter.getUser!('u1'))!.emailVerified;
		expect(verified).toBeInstanceOf(Date);
		const second = await followLink(auth, await linkFor(auth, 'bob@example.com'));
		expect(second.redirect).toBe('/');
		expect(createUser).not.toHaveBeenCalled();
		expect((await adapter.getUser!('u1'))!.emailVerified).toEqual(verified);
	});

	it('answers an address with an account and one without alike', async () => {
		const { auth, adapter } = app();
		await adapter.createUser!({ id: 'u2', email: 'known@example.com', emailVerified: null, name: null, image: null });
		const known = await requestLink(auth, 'known@example.com');
		const unknown = await requestLink(auth, 'unknown@example.com');
		expect(known).toEqual(unknown);
		expect(await adapter.getUserByEmail!('unknown@example.com')).toBeNull();
	});

	describe('refuses a link that cannot sign anyone in, with the Verification error and no session', () => {
		const refused = { redirect: '/signin?error=Verification' };

		it('a link used already', async () => {
			const { auth } = app();
			const link = await linkFor(auth, 'reuse@example.com');
			expect(signedIn((await followLink(auth, link)).jar)).toBe(true);
			const again = await followLink(auth, link);
			expect(again).toMatchObject(refused);
			expect(signedIn(again.jar)).toBe(false);
		});

		it('an expired link (24 hours and a second later), which is gone afterwards', async () => {
			freezeDate('2026-03-01T10:00:00Z');
			const { auth, adapter } = app();
			const link = await linkFor(auth, 'late@example.com');
			vi.setSystemTime(Date.parse('2026-03-02T10:00:01Z'));
			const late = await followLink(auth, link);
			expect(late).toMatchObject(refused);
			expect(signedIn(late.jar)).toBe(false);
			const token = new URL(link).searchParams.get('token')!;
			expect(await adapter.useVerificationToken!({ identifier: 'late@example.com', token: hashToken(token, secret) })).toBeNull();
		});

		it("another address's link, which still works for its own address afterwards", async () => {
			const { auth } = app();
			const link = await linkFor(auth, 'owner@example.com');
			const other = await followLink(auth, link, { email: 'thief@example.com' });
			expect(other).toMatchObject(refused);
			expect(signedIn(other.jar)).toBe(false);
			expect(signedIn((await followLink(auth, link)).jar)).toBe(true);
		});

		it.each([
			['a tampered token', (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`],
			['no token', () => ''],
			['a token under another secret', (token: string) => token]
		])('%s', async (name, tamper) => {
			const { auth } = app(name === 'a token under another secret' ? { secret: 't'.repeat(32) } : {});
			const sender = name === 'a token under another secret' ? app().auth : auth;
			const link = await linkFor(sender, 'tamper@example.com');
			const token = new URL(link).searchParams.get('token')!;
			const followed = await followLink(auth, link, { token: tamper(token) });
			expect(followed).toMatchObject(refused);
			expect(signedIn(followed.jar)).toBe(false);
		});

		it('a malformed address in the link', async () => {
			const { auth } = app();
			const link = await linkFor(auth, 'shape@example.com');
			const followed = await followLink(auth, link, { email: 'not an address' });
			expect(followed).toMatchObject(refused);
		});
	});

	it('keeps links sent before a secret rotation working (the old secret is the second one)', async () => {
		const adapter = MemoryAdapter();
		const before = app({ secret }, adapter).auth;
		const link = await linkFor(before, 'rotate@example.com');
		const after = app({ secret: ['n'.repeat(32), secret] }, adapter).auth;
		expect(signedIn((await followLink(after, link)).jar)).toBe(true);
	});

	it('refuses a malformed address with 400 and its message, sending nothing and storing nothing', async () => {
		const { auth, adapter } = app();
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const sent = inbox().messages.length;
		expect(await requestLink(auth, 'not-an-address')).toMatchObject({
			status: 400,
			data: { error: 'InvalidEmail', message: 'Enter a valid email address.', email: 'not-an-address' }
		});
		expect(create).not.toHaveBeenCalled();
		expect(inbox().messages.length).toBe(sent);
	});

	it('refuses the 6th link for one address within the hour with 429, Retry-After and the message, sending nothing more', async () => {
		const { auth } = app();
		for (let i = 0; i < 5; i++) await linkFor(auth, 'often@example.com');
		const sent = inbox().messages.length;
		const sixth = await requestLink(auth, 'often@example.com');
		expect(sixth).toMatchObject({ status: 429, data: { error: 'RateLimited', message: 'Too many attempts. Try again in 60 minutes.' } });
		expect(Number(sixth.headers!['retry-after'])).toBeGreaterThan(3500);
		expect(inbox().messages.length).toBe(sent);
		// Another address from another client is not held.
		expect(await requestLink(auth, 'other@example.com', { clientAddress: '198.51.100.9' })).toMatchObject({ redirect: expect.any(String) });
	});

	it('never builds a link on a host nobody vouched for: without AUTH_URL or trustHost, no link is sent (UntrustedHost)', async () => {
		const { auth, adapter } = app({ trustHost: false });
		const create = vi.spyOn(adapter, 'createVerificationToken');
		const sent = inbox().messages.length;
		expect(await requestLink(auth, 'victim@example.com', { page: 'http://attacker.example/signin' })).toEqual({ redirect: '/signin?error=UntrustedHost' });
		expect(create).not.toHaveBeenCalled();
		expect(inbox().messages.length).toBe(sent);
		// With AUTH_URL, the link is on it whatever the request's host.
		const configured = app({ trustHost: false, url: 'https://app.example.com' }).auth;
		const mail = inbox().next('victim@example.com');
		await requestLink(configured, 'victim@example.com', { page: 'http://attacker.example/signin' });
		expect(new URL(inbox().linkIn(await mail)).origin).toBe('https://app.example.com');
	});

	it('ends on the sign-in page with EmailSignInError when the SMTP server refuses the mail, and logs why', async () => {
		const { auth } = app();
		inbox().setRefusing(true);
		onTestFinished(() => inbox().setRefusing(false));
		expect(await requestLink(auth, 'refused@example.com')).toEqual({ redirect: '/signin?error=EmailSignInError' });
		expect(logger.error.mock.calls[0]![0]).toMatchObject({ type: 'EmailSignInError' });
	});

	it('sends from the default sender when EMAIL_FROM is empty, as .env has it at first', async () => {
		const auth = SvelteKitAuth({ secret, logger, adapter: MemoryAdapter(), trustHost: true, providers: [Email({ server: inbox().url, from: '' })] });
		const mail = inbox().next('sender@example.com');
		await requestLink(auth, 'sender@example.com');
		expect((await mail).from?.value[0]).toMatchObject({ name: 'Sign-in', address: 'no-reply@localhost' });
	});

	it('prints the link to the server log when no SMTP server is set (development)', async () => {
		const info = vi.spyOn(console, 'info').mockImplementation(() => {});
		onTestFinished(() => info.mockRestore());
		const auth = SvelteKitAuth({ secret, logger, adapter: MemoryAdapter(), trustHost: true, providers: [Email({ server: '' })] });
		await requestLink(auth, 'dev@example.com');
		const link = /http:\/\/localhost\/signin\/email\?\S+/.exec(String(info.mock.calls[0]![0]))![0];
		expect(signedIn((await followLink(auth, link)).jar)).toBe(true);
	});

	it('refuses to start with an adapter that lacks the verification-token methods, naming them', () => {
		const { createVerificationToken, useVerificationToken, ...rest } = MemoryAdapter();
		void createVerificationToken;
		void useVerificationToken;
		expect(() => app({}, rest)).toThrow(MissingAdapter);
		expect(() => app({}, rest)).toThrow('The email provider needs an adapter with createVerificationToken(), useVerificationToken().');
	});

	it('makes one user of two first sign-ins for one address at the same moment', async () => {
		const { auth, adapter } = app();
		const [a, b] = [await linkFor(auth, 'twice@example.com'), await linkFor(auth, 'twice@example.com')];
		const results = await Promise.all([followLink(auth, a), followLink(auth, b)]);
		expect(results.map((result) => signedIn(result.jar))).toEqual([true, true]);
		const user = await adapter.getUserByEmail!('twice@example.com');
		expect(await adapter.getUserByAccount!({ provider: 'email', providerAccountId: 'twice@example.com' })).toMatchObject({ id: user!.id });
	});
});
