import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import type { MailMessage } from '../email/mail.js';
import { requestConfig } from '../http/guards.js';
import { SvelteKitAuth } from '../kit.js';
import { authorizeWithPassword } from '../passwords/accounts.js';
import { hashPassword } from '../passwords/hashing.js';
import Credentials from '../providers/credentials.js';
import { startSession } from '../session/session.js';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { confirmEmailChange, requestEmailChange } from './email-change.js';

const secret = 'a'.repeat(32);

/** Ada, with a password, signed in on this browser and another (`jwt`, revalidated each request); her mail. */
async function ada() {
	const adapter = MemoryAdapter();
	const mails: MailMessage[] = [];
	// The credentials provider moves the password account, keyed by the address, with it.
	const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter, fields) });
	const auth = SvelteKitAuth({ adapter, secret, providers: [credentials], trustHost: true, mailer: async (mail) => void mails.push(mail), session: { freshAge: 300, revalidateAge: 0 } });
	await adapter.createUser({ id: 'ada', email: 'ada@example.com', emailVerified: new Date() });
	await adapter.linkAccount({ userId: 'ada', type: 'credentials', provider: 'credentials', providerAccountId: 'ada@example.com', password_hash: await hashPassword('ada has a good password') });
	const event = async (jar: Jar, path = '/account', form?: Record<string, string>) => {
		const made = requestEvent(`http://localhost${path}`, jar, form ? { form } : {});
		await auth.handle({ event: made, resolve: async () => new Response('page') });
		return made;
	};
	const signIn = async (id = 'ada', email = 'ada@example.com') => {
		const jar = new Jar();
		const made = await event(jar);
		await startSession(made, await requestConfig(made), { id, email }, { type: 'credentials', provider: 'credentials', providerAccountId: id });
		return jar;
	};
	const [here, there] = [await signIn(), await signIn()];
	const signedIn = async (jar: Jar) => (await ((await event(jar)).locals as unknown as { auth(): Promise<unknown> }).auth()) !== null;
	/** The link of the last mail to `to`, as the page it opens receives it. */
	const linkTo = (to: string) => new URL(mails.filter((mail) => mail.to === to).at(-1)!.text.match(/http\S+/)![0]);
	const confirm = async (jar: Jar, link: URL) => actionOutcome(confirmEmailChange, await event(jar, `${link.pathname}${link.search}`, Object.fromEntries(link.searchParams)));
	return { adapter, mails, event, here, there, signIn, signedIn, linkTo, confirm };
}

beforeEach(() => freezeDate('2026-11-28T10:00:00Z'));

describe('changing the email address', () => {
	it('changes nothing until the link sent to the new address is used; then the address and the password account move, the old address is told, other sessions end', async () => {
		const { adapter, mails, event, here, there, signedIn, linkTo, confirm } = await ada();
		expect(await actionOutcome(requestEmailChange, await event(here, '/account', { email: ' Ada.New@Example.com ' }))).toMatchObject({ status: 200, data: { emailChangeSent: 'ada.new@example.com' } });
		await vi.waitFor(() => expect(mails.map((mail) => mail.to)).toEqual(['ada.new@example.com']));
		const link = linkTo('ada.new@example.com');
		expect(link.pathname).toBe('/account');
		expect(link.searchParams.get('email')).toBe('ada.new@example.com');
		expect(await adapter.getUser('ada')).toMatchObject({ email: 'ada@example.com' });
		// A mail scanner's GET changes nothing: only the page's POST uses the token.
		expect(await confirm(here, link)).toEqual({ redirect: '/account?changed=address' });
		expect(await adapter.getUser('ada')).toMatchObject({ email: 'ada.new@example.com', emailVerified: expect.any(Date) });
		expect(await authorizeWithPassword(adapter, { email: 'ada.new@example.com', password: 'ada has a good password' })).toMatchObject({ id: 'ada' });
		expect(await adapter.getAccount('ada@example.com', 'credentials')).toBeNull();
		await vi.waitFor(() => expect(mails.at(-1)).toMatchObject({ to: 'ada@example.com', subject: 'Your email address was changed on localhost' }));
		expect([await signedIn(here), await signedIn(there)]).toEqual([true, false]);
		// The link works once.
		expect(await confirm(here, link)).toMatchObject({ status: 400, data: { error: 'Verification' } });
	});

	it('refuses a forged token, one for another user, and one for another address: 400, nothing changed', async () => {
		const { adapter, event, here, signIn, linkTo, confirm } = await ada();
		await adapter.createUser({ id: 'eve', email: 'eve@example.com', emailVerified: new Date() });
		await actionOutcome(requestEmailChange, await event(here, '/account', { email: 'ada.new@example.com' }));
		await vi.waitFor(() => expect(() => linkTo('ada.new@example.com')).not.toThrow());
		const link = linkTo('ada.new@example.com');
		const forged = new URL(link);
		forged.searchParams.set('token', 'A'.repeat(43));
		const otherAddress = new URL(link);
		otherAddress.searchParams.set('email', 'eve.new@example.com');
		expect(await confirm(here, forged)).toMatchObject({ status: 400 });
		expect(await confirm(here, otherAddress)).toMatchObject({ status: 400 });
		// Eve, holding Ada's link (forwarded mail), signed in as herself: the token is bound to Ada.
		expect(await confirm(await signIn('eve', 'eve@example.com'), link)).toMatchObject({ status: 400, data: { error: 'Verification' } });
		expect((await adapter.getUser('ada'))!.email).toBe('ada@example.com');
		expect((await adapter.getUser('eve'))!.email).toBe('eve@example.com');
	});

	it('pre-hijacked accounts (USENIX Security 2022), unexpired email change: the address got an account before the link was used: 409, nothing changed', async () => {
		const { adapter, event, here, linkTo, confirm } = await ada();
		await actionOutcome(requestEmailChange, await event(here, '/account', { email: 'victim@example.com' }));
		await vi.waitFor(() => expect(() => linkTo('victim@example.com')).not.toThrow());
		await adapter.createUser({ id: 'victim', email: 'victim@example.com', emailVerified: new Date() });
		expect(await confirm(here, linkTo('victim@example.com'))).toMatchObject({ status: 409, data: { error: 'EmailInUse' } });
		expect((await adapter.getUser('ada'))!.email).toBe('ada@example.com');
	});

	it('answers an address that has an account as any other, and mails it nothing (no account enumeration)', async () => {
		const { adapter, mails, event, here } = await ada();
		await adapter.createUser({ id: 'eve', email: 'eve@example.com', emailVerified: new Date() });
		expect(await actionOutcome(requestEmailChange, await event(here, '/account', { email: 'eve@example.com' }))).toMatchObject({ status: 200, data: { emailChangeSent: 'eve@example.com' } });
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(mails).toEqual([]);
	});

	it('OWASP ASVS 5.0 7.5.1: past freshAge it asks for a new sign-in first, and sends nothing; a malformed or the same address is a 400', async () => {
		const { mails, event, here } = await ada();
		expect(await actionOutcome(requestEmailChange, await event(here, '/account', { email: 'not an address' }))).toMatchObject({ status: 400, data: { error: 'InvalidEmail' } });
		expect(await actionOutcome(requestEmailChange, await event(here, '/account', { email: 'ADA@example.com' }))).toMatchObject({ status: 400, data: { error: 'SameEmail' } });
		vi.setSystemTime(Date.parse('2026-11-28T10:05:01Z'));
		expect(await actionOutcome(requestEmailChange, await event(here, '/account', { email: 'ada.new@example.com' }))).toMatchObject({ status: 401, data: { error: 'ReauthenticationRequired' } });
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(mails).toEqual([]);
	});
});
