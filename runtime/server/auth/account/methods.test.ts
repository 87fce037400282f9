import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter, AdapterUser } from '../adapters/types.js';
import type { Provider } from '../config.js';
import { requestConfig } from '../http/guards.js';
import { SvelteKitAuth } from '../kit.js';
import { hashPassword } from '../passwords/hashing.js';
import { authorizeWithPassword } from '../passwords/accounts.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';
import GitHub from '../providers/github.js';
import Passkey from '../providers/passkey.js';
import { startSession } from '../session/session.js';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { listSignInMethods, removeSignInMethod, renameSignInMethod } from './methods.js';

const secret = 'a'.repeat(32);
const GOOGLE_PASSWORD_MANAGER = 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4';

/** An app over a memory adapter with `providers(adapter)`, and one browser signed in as a new user. */
async function signedIn(providers: (adapter: Required<Adapter>) => Provider[], session: { freshAge?: number } = {}) {
	const adapter = MemoryAdapter();
	const auth = SvelteKitAuth({ adapter, secret, providers: providers(adapter), trustHost: true, session });
	const user: AdapterUser = await adapter.createUser({ id: crypto.randomUUID(), email: 'ada@example.com', emailVerified: new Date() });
	const jar = new Jar();
	const event = async (options: Parameters<typeof requestEvent>[2] = {}, path = '/account') => {
		const made = requestEvent(`http://localhost${path}`, jar, options);
		await auth.handle({ event: made, resolve: async () => new Response('page') });
		return made;
	};
	const first = await event();
	await startSession(first, await requestConfig(first), { id: user.id, email: user.email }, { type: 'oauth', provider: 'github', providerAccountId: 'x' });
	return { adapter, user, event, auth };
}

const passwordUsers = (adapter: Required<Adapter>) => Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter, fields) });
const github = () => GitHub({ clientId: 'id', clientSecret: 'secret' });

/** A passkey of `userId` as a registration stores it, with its `webauthn` account. */
async function addPasskey(adapter: Required<Adapter>, userId: string, fields: { aaguid?: string; name?: string } = {}) {
	const credentialID = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
	await adapter.linkAccount({ userId, type: 'webauthn', provider: 'passkey', providerAccountId: credentialID });
	await adapter.createAuthenticator({
		credentialID,
		credentialPublicKey: 'a2V5',
		counter: 0,
		credentialDeviceType: 'multiDevice',
		credentialBackedUp: true,
		transports: 'internal',
		providerAccountId: credentialID,
		userId,
		createdAt: new Date('2026-11-01T00:00:00Z'),
		...fields
	});
	return Buffer.from(credentialID, 'base64').toString('base64url');
}

beforeEach(() => freezeDate('2026-11-28T10:00:00Z'));

describe('the account page’s sign-in methods', () => {
	it('lists a passkey by its model from the AAGUID list, a linked OAuth account, the email link; offers to set a password and to link what is not linked', async () => {
		const { adapter, user, event } = await signedIn((adapter) => [passwordUsers(adapter), github(), Passkey(), Email({ server: 'smtp://127.0.0.1:1' })]);
		const passkey = await addPasskey(adapter, user.id, { aaguid: GOOGLE_PASSWORD_MANAGER });
		const listed = await listSignInMethods(await event());
		expect(listed).toMatchObject({ canSetPassword: true, linkable: [{ id: 'github', name: 'GitHub' }], recentSignIn: true });
		expect(listed.methods).toMatchObject([
			{ provider: 'passkey', kind: 'passkey', id: passkey, label: 'Google Password Manager', synced: true, createdAt: '2026-11-01T00:00:00.000Z', removable: true, renamable: true, signal: { rpId: 'localhost', userId: Buffer.from(user.id).toString('base64url') } },
			{ provider: 'email', kind: 'email', id: 'email', detail: 'A sign-in link to ada@example.com', removable: false }
		]);
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: '583231' });
		await adapter.linkAccount({ userId: user.id, type: 'credentials', provider: 'credentials', providerAccountId: 'ada@example.com', password_hash: await hashPassword('an old passphrase here') });
		const again = await listSignInMethods(await event());
		expect(again).toMatchObject({ canSetPassword: false, linkable: [] });
		expect(again.methods.map((method) => `${method.kind}:${method.label}`)).toEqual(['password:Password', 'oauth:GitHub', 'passkey:Google Password Manager', 'email:Email link']);
	});

	it('removes a passkey and unlinks an account of the user’s own; the last way to sign in is refused with 409, nothing removed', async () => {
		const { adapter, user, event } = await signedIn(() => [github(), Passkey()]);
		const passkey = await addPasskey(adapter, user.id);
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: '583231' });
		const removed = await actionOutcome(removeSignInMethod, await event({ form: { provider: 'passkey', method: passkey } }));
		expect(removed).toMatchObject({ status: 200, data: { removed: { kind: 'passkey', id: passkey, signal: { rpId: 'localhost' } } } });
		expect(await adapter.listAuthenticatorsByUserId(user.id)).toEqual([]);
		expect((await adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(['github']);

		const last = await actionOutcome(removeSignInMethod, await event({ form: { provider: 'github', method: '583231' } }));
		expect(last).toMatchObject({ status: 409, data: { error: 'LastSignInMethod', message: 'This is your only way to sign in. Add another before you remove it.' } });
		expect(await adapter.getAccount('583231', 'github')).not.toBeNull();
	});

	it('refuses another user’s passkey or account by its id (insecure direct object reference, OWASP ASVS 5.0 8.2.2): 404, nothing removed or renamed', async () => {
		const { adapter, user, event } = await signedIn(() => [github(), Passkey()]);
		await addPasskey(adapter, user.id);
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: 'mine' });
		const eve = await adapter.createUser({ id: 'eve', email: 'eve@example.com', emailVerified: new Date() });
		const theirs = await addPasskey(adapter, eve.id, { name: 'Eve’s phone' });
		await adapter.linkAccount({ userId: eve.id, type: 'oauth', provider: 'github', providerAccountId: 'theirs' });
		for (const form of [{ provider: 'passkey', method: theirs }, { provider: 'github', method: 'theirs' }, { provider: 'passkey', method: 'made-up' }, { provider: 'nope', method: 'x' }]) {
			expect(await actionOutcome(removeSignInMethod, await event({ form })), JSON.stringify(form)).toMatchObject({ status: 404, data: { error: 'UnknownSignInMethod' } });
		}
		expect(await actionOutcome(renameSignInMethod, await event({ form: { provider: 'passkey', method: theirs, name: 'Mine now' } }))).toMatchObject({ status: 404 });
		expect(await adapter.listAuthenticatorsByUserId(eve.id)).toMatchObject([{ name: 'Eve’s phone' }]);
		expect(await adapter.getAccount('theirs', 'github')).toMatchObject({ userId: 'eve' });
	});

	it('OWASP ASVS 5.0 7.5.1: past freshAge, removing asks for a new sign-in, which comes back offering it; nothing removed before', async () => {
		const { adapter, user, event } = await signedIn(() => [github(), Passkey()], { freshAge: 300 });
		const passkey = await addPasskey(adapter, user.id);
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: '583231' });
		vi.setSystemTime(Date.parse('2026-11-28T10:05:01Z'));
		const refused = await actionOutcome(removeSignInMethod, await event({ form: { provider: 'passkey', method: passkey } }));
		expect(refused).toMatchObject({ status: 401, data: { action: 'removeSignInMethod', error: 'ReauthenticationRequired' } });
		const back = new URL(refused.data!.reauthenticate as string, 'http://localhost').searchParams.get('callbackUrl')!;
		expect(back).toBe(`/account?resume=removeSignInMethod&provider=passkey&method=${encodeURIComponent(passkey)}`);
		expect(await adapter.listAuthenticatorsByUserId(user.id)).toHaveLength(1);
		// Not offered while the sign-in is old; offered after a new one.
		expect((await listSignInMethods(await event({}, back))).resume).toBeUndefined();
		const fresh = await event({}, back);
		await startSession(fresh, await requestConfig(fresh), { id: user.id, email: user.email }, { type: 'webauthn', provider: 'passkey', providerAccountId: 'x' });
		expect((await listSignInMethods(await event({}, back))).resume).toMatchObject({ action: 'removeSignInMethod', method: { id: passkey } });
	});

	it('renames a passkey (1 to 64 characters, trimmed); the name shows in place of its model', async () => {
		const { adapter, user, event } = await signedIn(() => [Passkey()]);
		const passkey = await addPasskey(adapter, user.id, { aaguid: GOOGLE_PASSWORD_MANAGER });
		for (const name of ['', '   ', 'x'.repeat(65)]) {
			expect(await actionOutcome(renameSignInMethod, await event({ form: { provider: 'passkey', method: passkey, name } }))).toMatchObject({ status: 400, data: { error: 'InvalidName' } });
		}
		expect(await actionOutcome(renameSignInMethod, await event({ form: { provider: 'passkey', method: passkey, name: '  Work phone ' } }))).toMatchObject({ status: 200, data: { renamed: { label: 'Work phone' } } });
		expect((await listSignInMethods(await event())).methods).toMatchObject([{ label: 'Work phone' }]);
	});
});

describe('the account page’s sign-in methods on an untrusted host (no AUTH_URL)', () => {
	it('still lists the passkeys, without what the Signal API needs (the relying party cannot be told)', async () => {
		const adapter = MemoryAdapter();
		const auth = SvelteKitAuth({ adapter, secret, providers: [Passkey()], trustHost: false });
		const user = await adapter.createUser({ id: 'ada', email: 'ada@example.com', emailVerified: new Date() });
		await addPasskey(adapter, user.id);
		const jar = new Jar();
		const event = async () => {
			const made = requestEvent('http://app.example/account', jar);
			await auth.handle({ event: made, resolve: async () => new Response('page') });
			return made;
		};
		const first = await event();
		await startSession(first, await requestConfig(first), { id: user.id, email: user.email }, { type: 'webauthn', provider: 'passkey', providerAccountId: 'x' });
		const { methods } = await listSignInMethods(await event());
		expect(methods).toMatchObject([{ kind: 'passkey', label: 'Passkey' }]);
		expect(methods[0]!.signal).toBeUndefined();
	});
});
