import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter } from '../adapters/types.js';
import { requestConfig } from '../http/guards.js';
import { SvelteKitAuth } from '../kit.js';
import { startSession } from '../session/session.js';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { accountDeletion, deleteAccount } from './deletion.js';

const secret = 'a'.repeat(32);
const account = { type: 'credentials' as const, provider: 'credentials', providerAccountId: 'x' };

/** A user with a password account, a passkey and two browsers signed in (`jwt` sessions, revalidated each request). */
async function twoBrowsers(adapter: Adapter = MemoryAdapter()) {
	const mailer = vi.fn(async () => undefined);
	const auth = SvelteKitAuth({ adapter, secret, providers: [], trustHost: true, mailer, session: { freshAge: 300, revalidateAge: 0 } });
	const memory = adapter as Required<Adapter>;
	const user = await memory.createUser({ id: 'ada', email: 'ada@example.com', emailVerified: new Date() });
	await memory.linkAccount({ userId: 'ada', type: 'credentials', provider: 'credentials', providerAccountId: 'ada@example.com', password_hash: 'scrypt$x' });
	await memory.createAuthenticator({ credentialID: 'cred', credentialPublicKey: 'a2V5', counter: 0, credentialDeviceType: 'multiDevice', credentialBackedUp: true, providerAccountId: 'cred', userId: 'ada' });
	const event = async (jar: Jar, form?: Record<string, string>) => {
		const made = requestEvent('http://localhost/account', jar, form ? { form } : {});
		await auth.handle({ event: made, resolve: async () => new Response('page') });
		return made;
	};
	const jars = [new Jar(), new Jar()];
	for (const jar of jars) {
		const made = await event(jar);
		await startSession(made, await requestConfig(made), { id: user.id, email: user.email }, account);
	}
	const signedIn = async (jar: Jar) => (await ((await event(jar)).locals as unknown as { auth(): Promise<unknown> }).auth()) !== null;
	return { adapter: memory, event, jars, signedIn, mailer };
}

beforeEach(() => freezeDate('2026-11-28T10:00:00Z'));

describe('deleting the account', () => {
	it('deletes the user with their accounts, passkeys and sessions, signs every browser out, mails a notice and goes home', async () => {
		const { adapter, event, jars, signedIn, mailer } = await twoBrowsers();
		expect(await accountDeletion(await event(jars[0]!))).toEqual({ available: true, confirmation: 'ada@example.com', resume: false });
		expect(await actionOutcome(deleteAccount, await event(jars[0]!, { confirm: ' ADA@example.com ' }))).toEqual({ redirect: '/' });
		expect(await adapter.getUser('ada')).toBeNull();
		expect(await adapter.getAccount('ada@example.com', 'credentials')).toBeNull();
		expect(await adapter.getAuthenticator('cred')).toBeNull();
		expect(jars[0]!.values.has('auth.session-token')).toBe(false);
		// The other browser's JWT ends at its next revalidation: its user is gone.
		expect(await signedIn(jars[1]!)).toBe(false);
		expect(mailer).toHaveBeenCalledWith(expect.objectContaining({ to: 'ada@example.com', subject: 'Your account was deleted on localhost' }));
	});

	it('OWASP ASVS 5.0 7.5.1: past freshAge it asks for a new sign-in, which comes back offering it; nothing deleted before', async () => {
		const { adapter, event, jars } = await twoBrowsers();
		vi.setSystemTime(Date.parse('2026-11-28T10:05:01Z'));
		const refused = await actionOutcome(deleteAccount, await event(jars[0]!, { confirm: 'ada@example.com' }));
		expect(refused).toMatchObject({ status: 401, data: { action: 'deleteAccount', error: 'ReauthenticationRequired' } });
		expect(new URL(refused.data!.reauthenticate as string, 'http://localhost').searchParams.get('callbackUrl')).toBe('/account?resume=deleteAccount');
		expect(await adapter.getUser('ada')).not.toBeNull();
	});

	it('refuses without the typed confirmation (a forged or mistaken post): 400, nothing deleted', async () => {
		const { adapter, event, jars, signedIn } = await twoBrowsers();
		for (const confirm of ['', 'eve@example.com', 'delete']) {
			expect(await actionOutcome(deleteAccount, await event(jars[0]!, { confirm }))).toMatchObject({ status: 400, data: { error: 'ConfirmationMismatch', message: 'Type ada@example.com to confirm.' } });
		}
		expect(await adapter.getUser('ada')).not.toBeNull();
		expect(await signedIn(jars[1]!)).toBe(true);
	});

	it('with an adapter that cannot delete users: the section is not offered, and the action answers 501', async () => {
		const { deleteUser: _gone, ...adapter } = MemoryAdapter();
		const { event, jars } = await twoBrowsers(adapter);
		expect((await accountDeletion(await event(jars[0]!))).available).toBe(false);
		expect(await actionOutcome(deleteAccount, await event(jars[0]!, { confirm: 'ada@example.com' }))).toMatchObject({ status: 501, data: { error: 'Unsupported' } });
	});
});
