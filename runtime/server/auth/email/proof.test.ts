/**
 * Account pre-hijacking (Sudhodanan & Paverd, "Pre-hijacked accounts: An Empirical Study of
 * Security Failures in User Account Creation on the Web", USENIX Security 2022): an attacker
 * registers the victim's address first, sets up ways in, and waits for the victim to prove the
 * address. Each test is one of the paper's classes, driven through the runtime's own actions.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { inboxForTests } from '../../../test/smtp.js';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter, AdapterAuthenticator } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { SvelteKitAuth } from '../kit.js';
import { authorizeWithPassword } from '../passwords/accounts.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';
import { memoryRateLimitStore } from '../limits/rate-limit.js';
import { userForAccount } from '../oauth/accounts.js';
import { OAuthAccountNotLinked } from '../errors.js';
import { resolveConfig } from '../config.js';
import { storedSessionKey } from '../session/stored-key.js';
import GitHub from '../providers/github.js';
import { addressProvenNotice, proofNoticeText, takeProofNotice } from './proof.js';

vi.setConfig({ testTimeout: 30_000 });
const secret = 's'.repeat(32);
const logger = { error: vi.fn() };
const inbox = inboxForTests();
beforeEach(() => logger.error.mockClear());

const VICTIM = 'victim@example.com';
const ATTACKER_PASSWORD = 'attacker chose this long passphrase';

function app(strategy: 'jwt' | 'database', adapter: Adapter = MemoryAdapter()) {
	const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter as never, fields) });
	const email = Email({ server: inbox().url, from: 'Example <no-reply@example.com>' });
	const github = GitHub({ clientId: 'id', clientSecret: 'secret' });
	const config: SvelteKitAuthConfig = {
		secret,
		logger,
		adapter,
		trustHost: true,
		providers: [credentials, email, github],
		session: { strategy },
		rateLimit: { store: memoryRateLimitStore() }
	};
	return { adapter: adapter as Required<Adapter>, auth: SvelteKitAuth(config) };
}
type Auth = ReturnType<typeof app>['auth'];

/** The signed-in user's email for a browser's jar, or null (through the real handle). */
async function whoIs(auth: Auth, jar: Jar): Promise<string | null> {
	const event = requestEvent('http://localhost/account', jar);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	const session = (await (event.locals as { auth(): Promise<{ user?: { email?: string | null } } | null> }).auth()) ?? null;
	return session?.user?.email ?? null;
}

/** The attacker signs the victim's address up with a password: a browser signed in. */
async function preHijack(auth: Auth): Promise<Jar> {
	const jar = new Jar();
	const done = await actionOutcome(auth.signUp, requestEvent('http://localhost/signup', jar, { form: { email: VICTIM, password: ATTACKER_PASSWORD } }));
	expect(done.redirect).toBe('/account');
	return jar;
}

/** A password sign-in's outcome (a new browser). */
const passwordSignIn = (auth: Auth, password: string) =>
	actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { providerId: 'credentials', email: VICTIM, password } }));

/** The victim asks for an email sign-in link and follows it: their browser, and where it went (`/account` when the proof removed something, to say what). */
async function victimFollowsLink(auth: Auth, expected = '/account'): Promise<Jar> {
	const mail = inbox().next(VICTIM);
	await actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { providerId: 'email', email: VICTIM } }));
	const link = new URL(inbox().linkIn(await mail));
	const jar = new Jar();
	const followed = await actionOutcome(auth.emailLink, requestEvent(link.href, jar, { form: Object.fromEntries(link.searchParams) }));
	expect(followed.redirect).toBe(expected);
	return jar;
}

const passkey = (userId: string): AdapterAuthenticator => ({
	credentialID: crypto.randomUUID(),
	credentialPublicKey: 'cHVibGlj',
	counter: 0,
	credentialDeviceType: 'multiDevice',
	credentialBackedUp: true,
	transports: 'internal',
	providerAccountId: userId,
	userId
});

describe.each(['database', 'jwt'] as const)('pre-hijacked accounts, %s sessions', (strategy) => {
	it('classic: the attacker’s password stops working once the owner proves the address with an email link', async () => {
		const { auth, adapter } = app(strategy);
		await preHijack(auth);
		expect((await passwordSignIn(auth, ATTACKER_PASSWORD)).redirect).toBe('/');

		const victim = await victimFollowsLink(auth);
		expect(await whoIs(auth, victim)).toBe(VICTIM);
		expect((await passwordSignIn(auth, ATTACKER_PASSWORD)).redirect).toMatch(/error=CredentialsSignin/);
		const user = await adapter.getUserByEmail(VICTIM);
		expect(user?.emailVerified).toBeInstanceOf(Date);
		// The account stays, without a password: "Forgot password" sets a new one.
		expect(await adapter.getAccount(VICTIM, 'credentials')).toMatchObject({ userId: user!.id, password_hash: '' });
		// The page can say what happened, once.
		const event = requestEvent('http://localhost/account', victim);
		const removed = takeProofNotice(event, resolveConfig({ providers: [], secret }));
		expect(removed).toEqual({ password: true, passkeys: 0, providers: [] });
		expect(proofNoticeText(removed!)).toBe(
			'Your email address is confirmed. A password had been set up on this account before it was, possibly by someone else, and was removed; every other session was signed out. To sign in with a password, choose a new one with “Forgot password”.'
		);
		expect(takeProofNotice(requestEvent('http://localhost/account', victim), resolveConfig({ providers: [], secret }))).toBeNull();
	});

	it('unexpired session: the attacker’s open session ends once the owner proves the address', async () => {
		freezeDate('2026-11-24T10:00:00Z');
		const { auth } = app(strategy);
		const attacker = await preHijack(auth);
		expect(await whoIs(auth, attacker)).toBe(VICTIM);
		await victimFollowsLink(auth);
		if (strategy === 'jwt') {
			// A JWT cannot be recalled; it asks the adapter within ADDRESS_CHECK_SECONDS (60).
			vi.setSystemTime(Date.parse('2026-11-24T10:01:01Z'));
		}
		expect(await whoIs(auth, attacker)).toBeNull();
	});

	it('trojan identifier: a passkey and an OAuth sign-in the attacker added are removed once the owner proves the address', async () => {
		const { auth, adapter } = app(strategy);
		await preHijack(auth);
		const user = (await adapter.getUserByEmail(VICTIM))!;
		const trojan = passkey(user.id);
		await adapter.createAuthenticator(trojan);
		await adapter.linkAccount({ userId: user.id, type: 'webauthn', provider: 'passkey', providerAccountId: trojan.credentialID });
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: 'attacker-on-github' });

		const victim = await victimFollowsLink(auth);
		expect(await adapter.getAuthenticator(trojan.credentialID)).toBeNull();
		expect(await adapter.getUserByAccount({ provider: 'github', providerAccountId: 'attacker-on-github' })).toBeNull();
		expect(await adapter.getUserByAccount({ provider: 'passkey', providerAccountId: trojan.credentialID })).toBeNull();
		expect((await adapter.listAccountsByUserId(user.id)).map((account) => account.provider).sort()).toEqual(['credentials', 'email']);
		// The account page's load: the sentence, providers by name, once.
		const page = requestEvent('http://localhost/account', victim);
		await auth.handle({ event: page, resolve: async () => new Response('ok') });
		expect(await addressProvenNotice(page)).toBe(
			'Your email address is confirmed. A password, a passkey and sign-in with GitHub had been set up on this account before it was, possibly by someone else, and were removed; every other session was signed out. To sign in with a password, choose a new one with “Forgot password”.'
		);
		expect(await addressProvenNotice(page)).toBeNull();
		expect(proofNoticeText({ password: true, passkeys: 2, providers: ['github', 'google'] })).toMatch(
			/^Your email address is confirmed\. A password, 2 passkeys and sign-in with github and google had been set up .* and were removed;/
		);
	});

	it('a proven account loses nothing at the next proof: an owner’s own password, passkey and links stay', async () => {
		const { auth, adapter } = app(strategy);
		await victimFollowsLink(auth, '/');
		const user = (await adapter.getUserByEmail(VICTIM))!;
		await adapter.createAuthenticator(passkey(user.id));
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: 'owner-on-github' });
		const owner = await victimFollowsLink(auth, '/');
		expect(await adapter.listAuthenticatorsByUserId(user.id)).toHaveLength(1);
		expect(await adapter.getUserByAccount({ provider: 'github', providerAccountId: 'owner-on-github' })).toMatchObject({ id: user.id });
		expect(takeProofNotice(requestEvent('http://localhost/account', owner), resolveConfig({ providers: [], secret }))).toBeNull();
	});
});

describe('OAuth sign-ins and pre-hijacked accounts', () => {
	const context = () => ({ cookies: new Jar().cookies(), url: new URL('http://localhost/') });
	const profileUser = { id: 'idp-sub', name: 'Victim', email: VICTIM, image: null };
	const account = { type: 'oidc' as const, provider: 'idp', providerAccountId: 'idp-sub' };

	async function preHijacked() {
		const { auth, adapter } = app('database');
		const attacker = await preHijack(auth);
		return { auth, adapter, attacker, config: resolveConfig({ providers: [], adapter, secret, logger, session: { strategy: 'database' } }) };
	}

	it('non-verifying IdP: a provider that does not vouch for the address never links by email, even with allowDangerousEmailAccountLinking', async () => {
		const { adapter, config } = await preHijacked();
		await expect(userForAccount(context(), config, profileUser, account, { allowDangerousEmailAccountLinking: true, emailVerified: false })).rejects.toThrow(
			OAuthAccountNotLinked
		);
		expect(await adapter.getUserByAccount(account)).toBeNull();
	});

	it('classic-federated merge: linking by a vouched address proves it, and the attacker’s password and session end', async () => {
		const { auth, adapter, attacker, config } = await preHijacked();
		const { user, removed } = await userForAccount(context(), config, profileUser, account, { allowDangerousEmailAccountLinking: true, emailVerified: true });
		expect(user.email).toBe(VICTIM);
		expect(removed).toEqual({ password: true, passkeys: 0, providers: [] });
		expect((await adapter.getUserByEmail(VICTIM))?.emailVerified).toBeInstanceOf(Date);
		expect(await adapter.getUserByAccount(account)).toMatchObject({ id: user.id });
		expect((await passwordSignIn(auth, ATTACKER_PASSWORD)).redirect).toMatch(/error=CredentialsSignin/);
		// The attacker's session row is gone (this test's config is not the app's, whose session cache would forget it too).
		expect(await adapter.getSessionAndUser(storedSessionKey(attacker.values.get('auth.session-token')!))).toBeNull();
	});

	it('an owner’s own OAuth link, made while signed in, marks the address proven at its next vouched sign-in and removes nothing', async () => {
		const { adapter } = app('database');
		const config = resolveConfig({ providers: [], adapter, secret, logger, session: { strategy: 'database' } });
		const owner = await adapter.createUser({ id: 'owner', email: VICTIM, emailVerified: null, name: null, image: null });
		await adapter.linkAccount({ userId: owner.id, type: 'credentials', provider: 'credentials', providerAccountId: VICTIM, password_hash: 'scrypt$owner' });
		await userForAccount(context(), config, profileUser, account, { currentUserId: owner.id, emailVerified: true });
		await userForAccount(context(), config, profileUser, account, { emailVerified: true });
		expect((await adapter.getUser(owner.id))?.emailVerified).toBeInstanceOf(Date);
		expect(await adapter.getAccount(VICTIM, 'credentials')).toMatchObject({ password_hash: 'scrypt$owner' });
	});

	it('a provider that vouches for the address makes a user whose address is proven; one that does not, an unproven one', async () => {
		const { adapter } = app('database');
		const config = resolveConfig({ providers: [], adapter, secret, logger });
		const { user: vouched } = await userForAccount(context(), config, profileUser, account, { emailVerified: true });
		expect((await adapter.getUser(vouched.id!))?.emailVerified).toBeInstanceOf(Date);
		const { user: other } = await userForAccount(context(), config, { ...profileUser, id: 'x', email: 'other@example.com' }, { ...account, providerAccountId: 'x' }, {});
		expect((await adapter.getUser(other.id!))?.emailVerified).toBeNull();
	});
});
