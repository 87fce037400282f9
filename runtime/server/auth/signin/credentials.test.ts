/**
 * Lockouts an attacker cannot aim (NIST SP 800-63B-4 §3.2.2 rate limiting, OWASP ASVS 5.0 V6.3):
 * wrong passwords lock an address for the client that sent them, not for its owner elsewhere;
 * an account-wide cap of 100 consecutive failures holds against guesses from many clients; the
 * other ways in (password reset, email link) stay open during either lockout.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { inboxForTests } from '../../../test/smtp.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { RateLimitConfig } from '../limits/rate-limit.js';
import { memoryRateLimitStore } from '../limits/rate-limit.js';
import { SvelteKitAuth } from '../kit.js';
import { authorizeWithPassword, PASSWORD_PROVIDER } from '../passwords/accounts.js';
import { hashPassword } from '../passwords/hashing.js';
import { smtpMailer } from '../email/smtp.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';

vi.setConfig({ testTimeout: 60_000 });
const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
const inbox = inboxForTests();
beforeEach(() => logger.error.mockClear());

const OWNER = 'ada@example.com';
const PASSWORD = 'correct horse battery';
/** The owner's network and the attacker's. */
const HOME = '198.51.100.9';
const ATTACKER = '203.0.113.7';

/**
 * A credentials + email app on the default limits (a fresh memory store), with the owner's
 * password account (address confirmed). The attacker's guesses ("guess …") are refused by `authorize()` without
 * hashing, to keep 100+ of them fast: what is under test is counted before `authorize()` runs.
 */
async function lockoutApp(rateLimit: RateLimitConfig = {}) {
	const adapter = MemoryAdapter();
	const owner = await adapter.createUser!({ id: 'u-ada', email: OWNER, emailVerified: new Date(), name: null, image: null });
	const password_hash = await hashPassword(PASSWORD);
	await adapter.linkAccount!({ userId: owner.id, type: PASSWORD_PROVIDER, provider: PASSWORD_PROVIDER, providerAccountId: OWNER, password_hash });
	const credentials = Credentials({
		credentials: { email: {}, password: {} },
		authorize: (fields) => (String(fields.password).startsWith('guess') ? null : authorizeWithPassword(adapter as never, fields))
	});
	const email = Email({ server: inbox().url, from: 'Example <no-reply@example.com>' });
	const auth = SvelteKitAuth({
		secret,
		logger,
		adapter,
		trustHost: true,
		providers: [credentials, email],
		rateLimit: { store: memoryRateLimitStore(), ...rateLimit },
		mailer: smtpMailer({ server: inbox().url, from: 'Example <no-reply@example.com>' })
	});
	const post = (action: (event: RequestEvent) => unknown, page: string, form: Record<string, string>, clientAddress: string, jar = new Jar()) =>
		actionOutcome(action, requestEvent(`http://localhost${page}`, jar, { form, clientAddress }));
	const signIn = (password: string, clientAddress: string, jar?: Jar) =>
		post(auth.signIn, '/signin', { providerId: 'credentials', email: OWNER, password }, clientAddress, jar);
	return { auth, post, signIn };
}

const FAILED = { redirect: '/signin?error=CredentialsSignin&code=credentials' };
const signedIn = (jar: Jar) => jar.values.has('auth.session-token');

describe('lockouts an attacker cannot aim (NIST SP 800-63B-4 §3.2.2, OWASP ASVS 5.0 V6.3)', () => {
	it('locks an address for the client that guessed, 429 with Retry-After, while its owner signs in from another client', async () => {
		const { signIn } = await lockoutApp();
		const answers = [];
		for (let i = 0; i < 20; i++) answers.push(await signIn(`guess ${i}`, ATTACKER));
		expect(answers.slice(0, 10)).toEqual(Array(10).fill(FAILED));
		for (const refused of answers.slice(10)) {
			expect(refused).toMatchObject({ status: 429, data: { error: 'RateLimited', message: 'Too many attempts. Try again in 15 minutes.' } });
			expect(Number(refused.headers!['retry-after'])).toBe(900);
		}
		// The attacker's client stays locked, the right password included.
		expect(await signIn(PASSWORD, ATTACKER)).toMatchObject({ status: 429 });

		const jar = new Jar();
		expect(await signIn(PASSWORD, HOME, jar)).toEqual({ redirect: '/' });
		expect(signedIn(jar)).toBe(true);
	});

	it('caps 100 consecutive failures across clients: the right password from a new client is refused and told how to get in, reset and email link stay open', async () => {
		const { auth, post, signIn } = await lockoutApp();
		// 100 guesses from 10 clients, 10 each: none of them reaches its own client's limits.
		for (let client = 0; client < 10; client++) {
			for (let i = 0; i < 10; i++) expect(await signIn(`guess ${client}-${i}`, `192.0.2.${client}`)).toEqual(FAILED);
		}
		const locked = await signIn(PASSWORD, HOME);
		expect(locked).toMatchObject({
			status: 429,
			data: {
				error: 'RateLimited',
				code: 'AccountLocked',
				message: 'Too many failed sign-ins for this email address. Reset your password to sign in now, or try again in 24 hours.',
				email: OWNER
			}
		});
		expect(Number(locked.headers!['retry-after'])).toBe(24 * 60 * 60);
		expect(await signIn('guess 101', '192.0.2.200')).toMatchObject({ status: 429, data: { code: 'AccountLocked' } });

		// An emailed sign-in link is sent and signs the owner in.
		const linkMail = inbox().next(OWNER);
		expect(await post(auth.signIn, '/signin', { providerId: 'email', email: OWNER }, HOME)).toEqual({ redirect: '/signin/verify-request?provider=email&type=email' });
		const link = new URL(inbox().linkIn(await linkMail));
		const linked = new Jar();
		expect(await post(auth.emailLink, `${link.pathname}${link.search}`, Object.fromEntries(link.searchParams), HOME, linked)).toMatchObject({ redirect: '/' });
		expect(signedIn(linked)).toBe(true);

		// So is a password-reset link, and the reset clears the lock: the new password signs in.
		const resetMail = inbox().next(OWNER);
		expect(await post(auth.requestPasswordReset, '/signin/forgot-password', { email: OWNER }, HOME)).toMatchObject({ status: 200, data: { sent: true } });
		const reset = new URL(inbox().linkIn(await resetMail));
		const form = { ...Object.fromEntries(reset.searchParams), password: 'quiet lighthouse morning 42' };
		expect(await post(auth.resetPassword, `${reset.pathname}${reset.search}`, form, HOME)).toEqual({ redirect: '/' });
		expect(await signIn('quiet lighthouse morning 42', '192.0.2.201')).toEqual({ redirect: '/' });
	});

	it('counts consecutive failures: a successful sign-in clears the account-wide count and its client’s, not other clients’', async () => {
		const { signIn } = await lockoutApp({ signIn: { perAccount: { max: 6, windowSeconds: 3600 }, perEmailAndClient: { max: 3, windowSeconds: 900 } } });
		for (let i = 0; i < 3; i++) expect(await signIn(`guess a${i}`, ATTACKER)).toEqual(FAILED);
		for (let i = 0; i < 2; i++) expect(await signIn(`guess h${i}`, HOME)).toEqual(FAILED);
		expect(await signIn(PASSWORD, HOME)).toEqual({ redirect: '/' });
		// Six more failures from three clients before the cap: the five before the success are forgotten.
		for (const client of [HOME, '192.0.2.1']) {
			for (let i = 0; i < 3; i++) expect(await signIn(`guess ${client} ${i}`, client)).toEqual(FAILED);
		}
		expect(await signIn(PASSWORD, '192.0.2.2')).toMatchObject({ status: 429, data: { code: 'AccountLocked' } });
		// The attacker's client was not cleared by the owner's success.
		expect(await signIn(PASSWORD, ATTACKER)).toMatchObject({ status: 429 });
	});
});
