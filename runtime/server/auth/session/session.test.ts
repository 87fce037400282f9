import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { freezeDate } from '../../../test/clock.js';
import { Jar } from '../../../test/event.js';
import { decodeToken, encodeToken } from './jwt.js';
import { readSession } from './session.js';

// readSession answers a repeat visitor's JWT cookie without a promise of its own (issue 30); these
// check that the quick answer is the one the full read gives, and that nothing it must run is skipped.
const secret = 'q'.repeat(32);
const url = new URL('http://localhost/account');
const start = Date.parse('2026-11-28T12:00:00Z') / 1000;

/** A cookie issued `age` seconds ago, already decrypted once by this process (as after a first visit). */
async function seenCookie(claims: Record<string, unknown>, age: number, maxAge = 3600) {
	const value = await encodeToken({ sub: 'u1', email: 'u1@example.com', ...claims }, secret, maxAge, start - age);
	await decodeToken(value, [secret]);
	return value;
}

async function read(value: string, options: Partial<SvelteKitAuthConfig> = {}) {
	const jar = new Jar();
	jar.values.set('auth.session-token', value);
	const session = await readSession({ cookies: jar.cookies(), url }, resolveConfig({ providers: [], secret, ...options }));
	return { session, writes: jar.writes.map((write) => `${write.name}=${write.value ? 'value' : ''}`) };
}

beforeEach(() => freezeDate('2026-11-28T12:00:00Z'));

describe('readSession of a cookie this process has read before', () => {
	it('answers a fresh session object each time, as the full read does, and sets nothing', async () => {
		const value = await seenCookie({}, 10);
		const first = await read(value);
		expect(first).toEqual({ session: { user: { id: 'u1', name: undefined, email: 'u1@example.com', image: undefined }, expires: new Date((start - 10 + 3600) * 1000).toISOString() }, writes: [] });
		first.session!.user!.email = 'changed@example.com';
		expect((await read(value)).session?.user?.email).toBe('u1@example.com');
	});

	it('still runs the app’s session and jwt callbacks on every read', async () => {
		const value = await seenCookie({}, 10);
		const session = vi.fn(({ session }) => ({ ...session, role: 'admin' }));
		const jwt = vi.fn(({ token }) => token);
		for (let i = 0; i < 3; i++) expect((await read(value, { callbacks: { session, jwt } })).session).toMatchObject({ role: 'admin' });
		expect(session).toHaveBeenCalledTimes(3);
		expect(jwt).toHaveBeenCalledTimes(3);
	});

	it('still re-issues the cookie once updateAge has passed', async () => {
		const value = await seenCookie({}, 2 * 24 * 3600, 30 * 24 * 3600);
		expect((await read(value)).writes).toEqual(['auth.session-token=value']);
	});

	it('still ends an expired one, deleting the cookie', async () => {
		const value = await seenCookie({}, 3600 + 60);
		expect(await read(value)).toEqual({ session: null, writes: ['auth.session-token='] });
	});
});
