import { beforeEach, describe, expect, it, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { passwordApp } from '../../../test/password-app.js';
import { inboxForTests } from '../../../test/smtp.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { issueVerificationToken } from '../email/verification-tokens.js';
import { memoryRateLimitStore } from '../limits/rate-limit.js';
import { registerWithPassword, type RegisterAdapter } from '../passwords/accounts.js';
import { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, startTwoFactorSetup, twoFactorStatus, twoFactorStep, TwoFactor, verifyTwoFactor } from './index.js';
import { sealTotpSecret } from './factor.js';
import { totpCode } from './totp.js';

vi.setConfig({ testTimeout: 30_000 });
const secret = 't'.repeat(32);
const logger = { error: vi.fn() };
const inbox = inboxForTests();
const PASSWORD = 'correct horse battery';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
beforeEach(() => {
	logger.error.mockClear();
	freezeDate('2026-11-28T12:00:00Z');
});

/** A password app with `TwoFactor()`, and Ada, who has a password (registered on `adapter` unless she is there already). */
async function app(extra: Partial<SvelteKitAuthConfig> = {}, adapter: Adapter = MemoryAdapter()) {
	const made = passwordApp(inbox(), { secret, logger, twoFactor: TwoFactor(), ...extra }, adapter);
	const existing = await adapter.getUserByEmail!('ada@example.com');
	const result = existing
		? { ok: true as const, user: existing }
		: await registerWithPassword(adapter as RegisterAdapter, { email: 'ada@example.com', password: PASSWORD }, resolveConfig({ providers: [], secret }));
	if (!result.ok) throw new Error(result.message);
	const through = async (url: string, jar: Jar, form?: Record<string, string>) => {
		const event = requestEvent(url, jar, form ? { form, headers: { accept: 'text/html' } } : {});
		await made.auth.handle({ event, resolve: async () => new Response('page') });
		return event;
	};
	const session = async (jar: Jar) => ((await through('http://localhost/', jar)).locals as unknown as { auth(): Promise<unknown> }).auth();
	const signIn = async (jar = new Jar(), password = PASSWORD) =>
		(await redirectOf(async () => made.auth.signIn(await through('http://localhost/signin', jar, { email: 'ada@example.com', password, redirectTo: '/account' })))).location;
	const verify = async (jar: Jar, code: string) => actionOutcome(verifyTwoFactor, await through('http://localhost/signin/two-factor', jar, { code }));
	return { ...made, user: result.user, through, session, signIn, verify };
}

/** Ada with two-factor on: the secret {@link SECRET}, sealed under `under`, no recovery codes. */
async function withTwoFactor(made: Awaited<ReturnType<typeof app>>, under: string[] = [secret]) {
	const config = resolveConfig({ providers: [], secret: under });
	await made.adapter.createTwoFactor!({ userId: made.user.id, secret: await sealTotpSecret(SECRET, config), createdAt: new Date(), lastUsedStep: null }, []);
}

describe('signing in with a second factor', () => {
	it('stops after the password: no session, a pending sign-in, and the second step’s page', async () => {
		const made = await app();
		await withTwoFactor(made);
		const jar = new Jar();
		expect(await made.signIn(jar)).toBe('/signin/two-factor');
		expect(jar.values.has('auth.session-token')).toBe(false);
		expect(await made.session(jar)).toBeNull();
		const pending = jar.writes.find((write) => write.name === 'auth.two-factor')!;
		expect(pending.options).toMatchObject({ httpOnly: true, path: '/signin', maxAge: 300, sameSite: 'lax' });
		expect(await twoFactorStep(await made.through('http://localhost/signin/two-factor', jar))).toEqual({ pending: true });
	});

	it('signs in with the app’s current code and goes where the sign-in was going; the pending sign-in ends', async () => {
		const made = await app();
		await withTwoFactor(made);
		const jar = new Jar();
		await made.signIn(jar);
		expect(await made.verify(jar, totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
		expect(jar.values.has('auth.two-factor')).toBe(false);
		expect(await made.session(jar)).toMatchObject({ user: { id: made.user.id, email: 'ada@example.com' } });
	});

	it('needs nothing more from a user who has not turned it on', async () => {
		const made = await app();
		const jar = new Jar();
		expect(await made.signIn(jar)).toBe('/account');
		expect(await made.session(jar)).toMatchObject({ user: { id: made.user.id } });
	});

	// OWASP ASVS 5.0 6.5.1: a TOTP code is usable once, even within its 30 seconds.
	it('refuses a code already used, in a later sign-in within its step: 400 InvalidCode, no session', async () => {
		const made = await app();
		await withTwoFactor(made);
		const code = totpCode(SECRET, Date.now());
		await made.verify(await signedInOnce(made), code);
		vi.setSystemTime(Date.now() + 10_000);
		const jar = new Jar();
		await made.signIn(jar);
		expect(await made.verify(jar, code)).toMatchObject({ status: 400, data: { error: 'InvalidCode' } });
		expect(await made.session(jar)).toBeNull();
		vi.setSystemTime(Date.now() + 30_000);
		expect(await made.verify(jar, totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
	});

	it('takes a recovery code once', async () => {
		const made = await app();
		const { recoveryCodes } = await enable(made);
		expect(recoveryCodes).toHaveLength(10);
		for (const attempt of [0, 1]) {
			const next = new Jar();
			await made.signIn(next);
			const outcome = await made.verify(next, recoveryCodes[3]!.toUpperCase());
			if (attempt === 0) expect(outcome).toEqual({ redirect: '/account' });
			else expect(outcome).toMatchObject({ status: 400, data: { error: 'InvalidCode' } });
		}
	});

	it('sends a visitor without a pending sign-in, or with a tampered or expired one, back to the sign-in page', async () => {
		const made = await app();
		await withTwoFactor(made);
		const code = () => totpCode(SECRET, Date.now());
		expect(await made.verify(new Jar(), code())).toEqual({ redirect: '/signin' });
		const jar = new Jar();
		await made.signIn(jar);
		const value = jar.values.get('auth.two-factor')!;
		const tampered = new Jar();
		tampered.values.set('auth.two-factor', `${value.slice(0, -4)}AAAA`);
		expect(await made.verify(tampered, code())).toEqual({ redirect: '/signin' });
		vi.setSystemTime(Date.now() + 5 * 60_000 + 30_000);
		expect(await made.verify(jar, code())).toEqual({ redirect: '/signin' });
		expect(await made.session(jar)).toBeNull();
	});

	it('binds the pending sign-in to its user: another user’s right code does not sign in as them', async () => {
		const made = await app();
		await withTwoFactor(made);
		const eve = await registerWithPassword(made.adapter as RegisterAdapter, { email: 'eve@example.com', password: PASSWORD }, resolveConfig({ providers: [], secret }));
		if (!eve.ok) throw new Error(eve.message);
		const evesSecret = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU';
		await made.adapter.createTwoFactor!({ userId: eve.user.id, secret: await sealTotpSecret(evesSecret, resolveConfig({ providers: [], secret })), createdAt: new Date(), lastUsedStep: null }, []);
		const jar = new Jar();
		await made.signIn(jar);
		expect(await made.verify(jar, totpCode(evesSecret, Date.now()))).toMatchObject({ status: 400, data: { error: 'InvalidCode' } });
	});

	it('limits wrong codes to 5 per pending sign-in: the 6th, right or not, is a 429 and signs no one in; a new sign-in gets new tries', async () => {
		const made = await app();
		await withTwoFactor(made);
		const jar = new Jar();
		await made.signIn(jar);
		for (let i = 0; i < 5; i++) expect(await made.verify(jar, '000000')).toMatchObject({ status: 400 });
		const limited = await made.verify(jar, totpCode(SECRET, Date.now()));
		expect(limited).toMatchObject({ status: 429, data: { error: 'RateLimited', message: 'Too many wrong codes. Sign in again to try once more.' } });
		// The page can still say so (its load needs the pending sign-in); it takes no more codes.
		expect(await twoFactorStep(await made.through('http://localhost/signin/two-factor', jar))).toEqual({ pending: true });
		expect(await made.verify(jar, totpCode(SECRET, Date.now()))).toMatchObject({ status: 429 });
		expect(await made.session(jar)).toBeNull();
		await made.signIn(jar);
		expect(await made.verify(jar, totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
	});

	// NIST SP 800-63B-4 §3.2.2: at most 100 consecutive failures per account, whatever the sign-ins.
	it('limits wrong codes per user across pending sign-ins: past rateLimit.twoFactor.perAccount, a 429 with Retry-After; a right code clears the count', async () => {
		const made = await app({ rateLimit: { store: memoryRateLimitStore(), twoFactor: { perAccount: { max: 3, windowSeconds: 3600 } } } });
		await withTwoFactor(made);
		const wrong = async () => {
			const jar = new Jar();
			await made.signIn(jar);
			return made.verify(jar, '000000');
		};
		for (let i = 0; i < 2; i++) expect(await wrong()).toMatchObject({ status: 400 });
		expect(await made.verify(await signedInOnce(made), totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
		for (let i = 0; i < 3; i++) expect(await wrong()).toMatchObject({ status: 400 });
		vi.setSystemTime(Date.now() + 30_000);
		const jar = new Jar();
		await made.signIn(jar);
		const limited = await made.verify(jar, totpCode(SECRET, Date.now()));
		expect(limited).toMatchObject({ status: 429, data: { error: 'RateLimited', message: expect.stringMatching(/^Too many attempts. Try again in/) } });
		expect(Number(limited.headers!['retry-after'])).toBeGreaterThan(3000);
		expect(await made.session(jar)).toBeNull();
	});

	it('still opens a secret sealed under the previous auth secret after a rotation, and seals it again under the new one', async () => {
		const rotated = 'r'.repeat(32);
		const made = await app({ secret: [rotated, secret] });
		await withTwoFactor(made, [secret]);
		const before = (await made.adapter.getTwoFactor!(made.user.id))!.secret;
		const jar = new Jar();
		await made.signIn(jar);
		expect(await made.verify(jar, totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
		const after = (await made.adapter.getTwoFactor!(made.user.id))!.secret;
		expect(after).not.toBe(before);
		// Sealed under the new secret: it opens without the old one.
		const onlyNew = await app({ secret: rotated }, made.adapter);
		vi.setSystemTime(Date.now() + 30_000);
		const next = new Jar();
		await onlyNew.signIn(next);
		expect(await onlyNew.verify(next, totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
	});

	it('still asks after a password reset', async () => {
		const made = await app();
		await withTwoFactor(made);
		await made.adapter.updateUser!({ id: made.user.id, emailVerified: new Date() });
		const config = resolveConfig({ providers: [], secret });
		const { token } = await issueVerificationToken({ ...config, adapter: made.adapter }, 'password-reset:ada@example.com', 3600);
		const jar = new Jar();
		const event = await made.through('http://localhost/signin/reset-password', jar, { email: 'ada@example.com', token, password: 'a brand new password' });
		expect(await actionOutcome(made.auth.resetPassword, event)).toEqual({ redirect: '/signin/two-factor' });
		expect(await made.session(jar)).toBeNull();
	});

	it('is not asked after a passkey (two factors in one) nor, by default, after an OAuth provider', async () => {
		const made = await app();
		await withTwoFactor(made);
		const config = resolveConfig({ providers: [], secret, adapter: made.adapter, twoFactor: TwoFactor() });
		const event = requestEvent('http://localhost/signin', new Jar());
		const user = { id: made.user.id, email: 'ada@example.com' };
		expect(await config.twoFactor!.challenge(event, config, user, { type: 'webauthn', provider: 'passkey', providerAccountId: 'c' }, {})).toEqual({ enabled: true });
		expect(await config.twoFactor!.challenge(event, config, user, { type: 'oidc', provider: 'idp', providerAccountId: 's' }, {})).toEqual({ enabled: true });
		const withOAuth = resolveConfig({ providers: [], secret, adapter: made.adapter, twoFactor: TwoFactor({ after: ['credentials', 'oauth', 'oidc'] }) });
		expect(await withOAuth.twoFactor!.challenge(event, withOAuth, user, { type: 'oidc', provider: 'idp', providerAccountId: 's' }, {})).toEqual({ secondStep: '/signin/two-factor' });
	});

	it('refuses to start with an adapter that cannot store it: MissingAdapter naming the methods', () => {
		const { getTwoFactor: _lacks, ...adapter } = MemoryAdapter();
		expect(() => resolveConfig({ providers: [], secret, adapter, twoFactor: TwoFactor() })).toThrow(/Two-factor authentication needs an adapter with getTwoFactor\(\)/);
	});
});

/** Ada signed in with her password (and a code, when she has two-factor on), on a jar of her own. */
async function signedInOnce(made: Awaited<ReturnType<typeof app>>) {
	const jar = new Jar();
	await made.signIn(jar);
	return jar;
}

/**
 * Ada, without two-factor, signs in and turns it on from the account page: her browser's jar,
 * the secret the page showed, and the recovery codes. The clock then moves a step on.
 */
async function enable(made: Awaited<ReturnType<typeof app>>): Promise<{ jar: Jar; secret: string; recoveryCodes: string[] }> {
	const jar = new Jar();
	expect(await made.signIn(jar)).toBe('/account');
	expect(await actionOutcome(startTwoFactorSetup, await made.through('http://localhost/account', jar, {}))).toMatchObject({ status: 200 });
	const { setup } = await twoFactorStatus(await made.through('http://localhost/account', jar));
	const outcome = await actionOutcome(enableTwoFactor, await made.through('http://localhost/account', jar, { code: totpCode(setup!.secret, Date.now()) }));
	vi.setSystemTime(Date.now() + 30_000);
	return { jar, secret: setup!.secret, recoveryCodes: outcome.data!.recoveryCodes as string[] };
}

describe('turning it on and off on the account page', () => {
	it('shows a QR code and the secret, stores nothing before a right code, then the secret sealed and ten recovery codes shown once', async () => {
		const made = await app();
		const jar = new Jar();
		await made.signIn(jar);
		expect(await twoFactorStatus(await made.through('http://localhost/account', jar))).toEqual({ available: true, enabled: false, recoveryCodes: 0 });
		await actionOutcome(startTwoFactorSetup, await made.through('http://localhost/account', jar, {}));
		const { setup } = await twoFactorStatus(await made.through('http://localhost/account', jar));
		expect(setup!.secret).toMatch(/^[A-Z2-7]{32}$/);
		expect(setup!.uri).toBe(`otpauth://totp/localhost:ada%40example.com?issuer=localhost&secret=${setup!.secret}&algorithm=SHA1&digits=6&period=30`);
		expect(setup!.qrCode).toMatch(/^<svg [^>]*viewBox/);
		const wrong = await actionOutcome(enableTwoFactor, await made.through('http://localhost/account', jar, { code: '123456' }));
		expect(wrong).toMatchObject({ status: 400, data: { action: 'enableTwoFactor', error: 'InvalidCode' } });
		expect(await made.adapter.getTwoFactor!(made.user.id)).toBeNull();

		const right = await actionOutcome(enableTwoFactor, await made.through('http://localhost/account', jar, { code: totpCode(setup!.secret, Date.now()) }));
		expect(right.data!.recoveryCodes).toHaveLength(10);
		const stored = (await made.adapter.getTwoFactor!(made.user.id))!;
		expect(stored).toMatchObject({ recoveryCodes: 10, lastUsedStep: Math.floor(Date.now() / 30_000) });
		expect(stored.secret).not.toContain(setup!.secret);
		expect(await twoFactorStatus(await made.through('http://localhost/account', jar))).toEqual({ available: true, enabled: true, recoveryCodes: 10 });
	});

	it('OWASP ASVS 5.0 7.5.1: past freshAge, setting it up asks for a new sign-in', async () => {
		const made = await app();
		const jar = new Jar();
		await made.signIn(jar);
		vi.setSystemTime(Date.now() + 11 * 60_000);
		expect(await actionOutcome(startTwoFactorSetup, await made.through('http://localhost/account', jar, {}))).toMatchObject({ status: 401, data: { error: 'ReauthenticationRequired' } });
	});

	// OWASP ASVS 5.0 6.3.1 (attempts limited): a stolen, recent session must not be able to guess
	// codes on the account page until one turns the second factor off.
	it('counts wrong codes on the account page against the user’s limit: past it, turning off is refused even with a right code', async () => {
		const made = await app({ rateLimit: { store: memoryRateLimitStore(), twoFactor: { perAccount: { max: 3, windowSeconds: 3600 } } } });
		const { jar, recoveryCodes } = await enable(made);
		for (let i = 0; i < 3; i++) {
			expect(await actionOutcome(disableTwoFactor, await made.through('http://localhost/account', jar, { code: '000000' }))).toMatchObject({ status: 400, data: { error: 'InvalidCode' } });
		}
		const limited = await actionOutcome(disableTwoFactor, await made.through('http://localhost/account', jar, { code: recoveryCodes[0]! }));
		expect(limited).toMatchObject({ status: 429, data: { action: 'disableTwoFactor', error: 'RateLimited' } });
		expect(Number(limited.headers!['retry-after'])).toBeGreaterThan(0);
		expect(await made.adapter.getTwoFactor!(made.user.id)).toMatchObject({ recoveryCodes: 10 });
	});

	it('makes new recovery codes with a current code (the old ones die), and turns it off with one', async () => {
		const made = await app();
		const { jar, recoveryCodes: first } = await enable(made);
		const stored = (await made.adapter.getTwoFactor!(made.user.id))!;
		expect(stored.recoveryCodes).toBe(10);
		expect(await actionOutcome(regenerateRecoveryCodes, await made.through('http://localhost/account', jar, { code: '000000' }))).toMatchObject({ status: 400 });
		const replaced = await actionOutcome(regenerateRecoveryCodes, await made.through('http://localhost/account', jar, { code: first[0]! }));
		const second = replaced.data!.recoveryCodes as string[];
		expect(second).toHaveLength(10);
		expect(await actionOutcome(disableTwoFactor, await made.through('http://localhost/account', jar, { code: first[1]! }))).toMatchObject({ status: 400 });
		expect(await actionOutcome(disableTwoFactor, await made.through('http://localhost/account', jar, { code: second[1]! }))).toEqual({ status: 200, data: { twoFactorDisabled: true, othersSignedOut: true }, headers: {} });
		expect(await made.adapter.getTwoFactor!(made.user.id)).toBeNull();
	});
});

describe.each(['jwt', 'database'] as const)('session.user.twoFactor, %s sessions', (strategy) => {
	const user = async (made: Awaited<ReturnType<typeof app>>, jar: Jar) => ((await made.session(jar)) as { user: Record<string, unknown> } | null)?.user;

	it('says whether the user has it on: false before, true after the second step', async () => {
		const made = await app({ session: { strategy } });
		const before = new Jar();
		await made.signIn(before);
		expect(await user(made, before)).toMatchObject({ id: made.user.id, twoFactor: false });
		await withTwoFactor(made);
		const jar = new Jar();
		await made.signIn(jar);
		await made.verify(jar, totpCode(SECRET, Date.now()));
		expect(await user(made, jar)).toMatchObject({ id: made.user.id, twoFactor: true });
	});

	it('is absent in an app without TwoFactor()', async () => {
		const made = await app({ session: { strategy }, twoFactor: undefined });
		const jar = new Jar();
		await made.signIn(jar);
		expect(await user(made, jar)).not.toHaveProperty('twoFactor');
	});

	// OWASP ASVS 5.0 7.4.3: after a change of an authentication factor, the other sessions can be ended.
	it('follows turning it on and off in this browser, and ends the user’s other sessions each time', async () => {
		const made = await app({ session: { strategy } });
		const other = new Jar();
		await made.signIn(other);
		const { jar, secret: totpSecret } = await enable(made);
		expect(await user(made, jar)).toMatchObject({ twoFactor: true });
		vi.setSystemTime(Date.now() + 61_000); // past session.revalidateAge: JWT sessions learn they ended
		expect(await made.session(other)).toBeNull();

		const again = new Jar();
		await made.signIn(again);
		await made.verify(again, totpCode(totpSecret, Date.now()));
		vi.setSystemTime(Date.now() + 30_000);
		const off = await actionOutcome(disableTwoFactor, await made.through('http://localhost/account', jar, { code: totpCode(totpSecret, Date.now()) }));
		expect(off).toMatchObject({ status: 200, data: { twoFactorDisabled: true, othersSignedOut: true } });
		expect(await user(made, jar)).toMatchObject({ id: made.user.id, twoFactor: false });
		vi.setSystemTime(Date.now() + 61_000);
		expect(await made.session(again)).toBeNull();
		expect(await user(made, jar)).toMatchObject({ twoFactor: false });
	});

	it('with TwoFactor({ endOtherSessions: false }), leaves the other sessions as their sign-in made them', async () => {
		const made = await app({ session: { strategy }, twoFactor: TwoFactor({ endOtherSessions: false }) });
		const other = new Jar();
		await made.signIn(other);
		const { jar } = await enable(made);
		vi.setSystemTime(Date.now() + 61_000);
		expect(await user(made, other)).toMatchObject({ id: made.user.id, twoFactor: false });
		expect(await user(made, jar)).toMatchObject({ twoFactor: true });
	});
});

describe('the database session token’s two-factor flag', () => {
	// OWASP ASVS 5.0 7.2.1 (session tokens verified by the backend): the token carries the flag,
	// so a user who edits it to claim a second factor must find no session at all.
	it('cannot be edited: a token whose .0 is changed to .1 signs no one in', async () => {
		const made = await app({ session: { strategy: 'database' } });
		const jar = new Jar();
		await made.signIn(jar);
		const value = jar.values.get('auth.session-token')!;
		expect(value).toMatch(/^[\w-]{43}\.\d+\.0$/);
		const edited = new Jar();
		edited.values.set('auth.session-token', value.replace(/\.0$/, '.1'));
		expect(await made.session(edited)).toBeNull();
		expect(await made.session(jar)).toMatchObject({ user: { twoFactor: false } });
	});
});

describe('an OAuth first factor that the second step follows', () => {
	it('hands the provider’s tokens and profile to the jwt callback once the second step passes', async () => {
		const seen: unknown[] = [];
		const jwt = vi.fn(({ token, account, profile }) => {
			if (account) seen.push({ access_token: account.access_token, provider: account.provider, profile });
			return token;
		});
		const made = await app({ session: { strategy: 'jwt' }, twoFactor: TwoFactor({ after: ['credentials', 'oidc'] }), callbacks: { jwt } });
		await withTwoFactor(made);
		const jar = new Jar();
		const event = await made.through('http://localhost/signin', jar);
		const config = resolveConfig({ providers: [], secret, adapter: made.adapter, twoFactor: TwoFactor({ after: ['oidc'] }) });
		const account = { type: 'oidc' as const, provider: 'idp', providerAccountId: 'sub-1', access_token: 'a'.repeat(2000), id_token: 'i'.repeat(1500), token_type: 'bearer' };
		const second = await config.twoFactor!.challenge(event, config, { id: made.user.id }, account, { profile: { sub: 'sub-1', groups: ['staff'] }, redirectTo: '/account' });
		expect(second).toEqual({ secondStep: '/signin/two-factor' });
		// The tokens make the sealed pending sign-in bigger than one cookie: it is split in chunks.
		expect([...jar.values.keys()].filter((name) => name.startsWith('auth.two-factor.'))).not.toHaveLength(0);
		expect(await made.verify(jar, totpCode(SECRET, Date.now()))).toEqual({ redirect: '/account' });
		expect(seen).toEqual([{ access_token: 'a'.repeat(2000), provider: 'idp', profile: { sub: 'sub-1', groups: ['staff'] } }]);
		expect([...jar.values.keys()].filter((name) => name.startsWith('auth.two-factor'))).toEqual([]);
	});
});
