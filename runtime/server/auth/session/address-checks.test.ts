import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { resolveConfig } from '../config.js';
import { freezeDate } from '../../../test/clock.js';
import { Jar } from '../../../test/event.js';
import { ADDRESS_CHECKS_MAX, lastAddressCheck, rememberAddressCheck } from './address-checks.js';
import { encodeToken } from './jwt.js';
import { endSession, readSession } from './session.js';

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

describe('address checks of unproven JWT sessions, per process', () => {
	it('a client that ignores Set-Cookie is checked once per ADDRESS_CHECK_SECONDS, not on every request', async () => {
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

	it('pre-hijacked accounts (USENIX Security 2022): the session still ends within ADDRESS_CHECK_SECONDS of the owner proving the address', async () => {
		const { adapter, user, config, value } = await unprovenSession(61);
		expect((await replay(config, value)).session).not.toBeNull();
		await adapter.updateUser({ id: user.id, emailVerified: new Date() });
		vi.setSystemTime((start + 59) * 1000);
		// Checked 59 s ago: not asked yet (the same staleness a browser's re-issued cookie has).
		expect((await replay(config, value)).session).not.toBeNull();
		vi.setSystemTime((start + 60) * 1000);
		expect((await replay(config, value)).session).toBeNull();
	});

	it('is bounded: past ADDRESS_CHECKS_MAX values the oldest is forgotten', () => {
		rememberAddressCheck('oldest', start);
		for (let i = 0; i < ADDRESS_CHECKS_MAX; i++) rememberAddressCheck(`value-${i}`, start);
		expect(lastAddressCheck('oldest')).toBe(0);
		expect(lastAddressCheck(`value-${ADDRESS_CHECKS_MAX - 1}`)).toBe(start);
	});

	it('is forgotten at sign-out', async () => {
		const { config, value } = await unprovenSession(61);
		await replay(config, value);
		expect(lastAddressCheck(value)).toBe(start);
		const jar = new Jar();
		jar.values.set('auth.session-token', value);
		await endSession({ cookies: jar.cookies(), url }, config);
		expect(lastAddressCheck(value)).toBe(0);
	});

	it('signs no one in by itself: after the secret is rotated away, the remembered value reads as signed out', async () => {
		const { adapter, config, value } = await unprovenSession(61);
		await replay(config, value);
		expect(lastAddressCheck(value)).toBe(start);
		const rotated = resolveConfig({ providers: [], secret: 'b'.repeat(32), adapter });
		expect((await replay(rotated, value)).session).toBeNull();
	});
});
