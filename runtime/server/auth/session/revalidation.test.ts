import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { resolveConfig } from '../config.js';
import { freezeDate } from '../../../test/clock.js';
import { Jar } from '../../../test/event.js';
import { REVALIDATIONS_MAX, lastRevalidation, rememberRevalidation } from './revalidation.js';
import { decodeToken, encodeToken } from './jwt.js';
import { endOtherSessions, endSession, raiseSessionVersion, readSession } from './session.js';

const secret = 'a'.repeat(32);
const url = new URL('http://localhost/account');
const start = Date.parse('2026-11-28T10:00:00Z') / 1000;

/** A JWT session of an unproven address issued `age` seconds ago, and the adapter holding its user. */
async function unprovenSession(age: number) {
	const adapter = MemoryAdapter();
	const user = await adapter.createUser({ id: 'user-1', email: 'new@example.com', emailVerified: null });
	const getUser = vi.spyOn(adapter, 'getUser');
	const config = resolveConfig({ providers: [], secret, adapter });
	const value = await encodeToken({ sub: user.id, email: user.email, email_verified: false }, secret, config.maxAge, start - age);
	return { adapter, user, getUser, config, value };
}

/** One request of a client that sends `value` and ignores whatever the response sets. */
async function replay(config: ReturnType<typeof resolveConfig>, value: string) {
	const jar = new Jar();
	jar.values.set('auth.session-token', value);
	const session = await readSession({ cookies: jar.cookies(), url }, config);
	return { session, reissued: jar.setSince(0).includes('auth.session-token') };
}

beforeEach(() => freezeDate('2026-11-28T10:00:00Z'));

describe('revalidation of JWT sessions, per process', () => {
	it('a client that ignores Set-Cookie is revalidated once per revalidateAge (60 s), not on every request', async () => {
		const { config, value, getUser } = await unprovenSession(61);
		// The first request is due: the adapter is asked and the cookie re-issued.
		expect(await replay(config, value)).toMatchObject({ session: { user: { email: 'new@example.com' } }, reissued: true });
		expect(getUser).toHaveBeenCalledTimes(1);
		// The same old value again and again within the minute: no lookup, no seal, no Set-Cookie.
		for (let i = 0; i < 20; i++) expect(await replay(config, value)).toMatchObject({ session: { user: { email: 'new@example.com' } }, reissued: false });
		expect(getUser).toHaveBeenCalledTimes(1);
		// A minute after the check, it is due again.
		vi.setSystemTime((start + 60) * 1000);
		expect(await replay(config, value)).toMatchObject({ reissued: true });
		expect(getUser).toHaveBeenCalledTimes(2);
	});

	it('pre-hijacked accounts (USENIX Security 2022): the session still ends within revalidateAge of the owner proving the address', async () => {
		const { adapter, user, config, value } = await unprovenSession(61);
		expect((await replay(config, value)).session).not.toBeNull();
		await adapter.updateUser({ id: user.id, emailVerified: new Date() });
		vi.setSystemTime((start + 59) * 1000);
		// Checked 59 s ago: not asked yet (the same staleness a browser's re-issued cookie has).
		expect((await replay(config, value)).session).not.toBeNull();
		vi.setSystemTime((start + 60) * 1000);
		expect((await replay(config, value)).session).toBeNull();
	});

	it('is bounded: past REVALIDATIONS_MAX values the oldest is forgotten', () => {
		rememberRevalidation('oldest', start);
		for (let i = 0; i < REVALIDATIONS_MAX; i++) rememberRevalidation(`value-${i}`, start);
		expect(lastRevalidation('oldest')).toBe(0);
		expect(lastRevalidation(`value-${REVALIDATIONS_MAX - 1}`)).toBe(start);
	});

	it('is forgotten at sign-out', async () => {
		const { config, value } = await unprovenSession(61);
		await replay(config, value);
		expect(lastRevalidation(value)).toBe(start);
		const jar = new Jar();
		jar.values.set('auth.session-token', value);
		await endSession({ cookies: jar.cookies(), url }, config);
		expect(lastRevalidation(value)).toBe(0);
	});

	it('signs no one in by itself: after the secret is rotated away, the remembered value reads as signed out', async () => {
		const { adapter, config, value } = await unprovenSession(61);
		await replay(config, value);
		expect(lastRevalidation(value)).toBe(start);
		const rotated = resolveConfig({ providers: [], secret: 'b'.repeat(32), adapter });
		expect((await replay(rotated, value)).session).toBeNull();
	});

	it('OWASP ASVS 5.0 7.4.3: once the user\'s other sessions are ended (sessionVersion raised), a stolen JWT reads as signed out within revalidateAge, and the current one stays', async () => {
		const { adapter, user, config } = await unprovenSession(0);
		await adapter.updateUser({ id: user.id, emailVerified: new Date() });
		const value = await encodeToken({ sub: user.id, email: user.email, auth_time: start }, secret, config.maxAge, start);
		const stolen = await encodeToken({ sub: user.id, email: user.email, auth_time: start }, secret, config.maxAge, start);
		expect((await replay(config, stolen)).session).not.toBeNull();
		// From this browser: "End all other sessions".
		const jar = new Jar();
		jar.values.set('auth.session-token', value);
		expect(await endOtherSessions({ cookies: jar.cookies(), url }, config, user.id)).toBe(0);
		const renewed = jar.values.get('auth.session-token')!;
		expect(renewed).not.toBe(value);
		vi.setSystemTime((start + 59) * 1000);
		expect((await replay(config, stolen)).session).not.toBeNull();
		vi.setSystemTime((start + 61) * 1000);
		expect((await replay(config, stolen)).session).toBeNull();
		expect((await replay(config, renewed)).session).toMatchObject({ user: { id: user.id } });
	});

	it('a deleted user\'s JWT session reads as signed out at its next revalidation', async () => {
		const { adapter, user, config } = await unprovenSession(0);
		const value = await encodeToken({ sub: user.id, email: user.email, session_version: 0 }, secret, config.maxAge, start - 61);
		await adapter.deleteUser(user.id);
		expect((await replay(config, value)).session).toBeNull();
	});

	it('keeps the session of a user the adapter never kept (an authorize with users of its own), revalidated or not', async () => {
		const { config } = await unprovenSession(0);
		const value = await encodeToken({ sub: 'their-own-user-7', email: 'seven@example.com' }, secret, config.maxAge, start - 61);
		for (const later of [0, 61, 122]) {
			vi.setSystemTime((start + later) * 1000);
			expect((await replay(config, value)).session, `${later} s`).toMatchObject({ user: { id: 'their-own-user-7' } });
		}
	});

	it('keeps auth_time and session_version when a jwt callback builds a new token', async () => {
		const { adapter, user } = await unprovenSession(0);
		await raiseSessionVersion(resolveConfig({ providers: [], secret, adapter }), user.id);
		const config = resolveConfig({ providers: [], secret, adapter, callbacks: { jwt: ({ token }) => ({ sub: token.sub, role: 'admin' }) } });
		const value = await encodeToken({ sub: user.id, auth_time: start - 100, session_version: 1 }, secret, config.maxAge, start - 61);
		const jar = new Jar();
		jar.values.set('auth.session-token', value);
		expect(await readSession({ cookies: jar.cookies(), url }, config)).not.toBeNull();
		expect(await decodeToken(jar.values.get('auth.session-token')!, [secret])).toMatchObject({ role: 'admin', auth_time: start - 100, session_version: 1 });
	});

	it('raiseSessionVersion refuses with MissingAdapter when the adapter does not store sessionVersion (an Auth.js adapter)', async () => {
		const { adapter, user } = await unprovenSession(0);
		const forgetful = { ...adapter, updateUser: async (fields: { id: string }) => (await adapter.getUser(fields.id))! };
		await expect(raiseSessionVersion(resolveConfig({ providers: [], secret, adapter: forgetful }), user.id)).rejects.toThrow(/sessionVersion/);
	});
});
