import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { freezeDate } from '../../../test/clock.js';
import { Jar } from '../../../test/event.js';
import { decodeToken, encodeToken } from './jwt.js';
import { MemoryAdapter } from '../adapters/memory.js';
import { currentSession, readSession, startSession } from './session.js';

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

describe('currentSession of a database session, with an adapter whose sessions keep no sign-in time (as Auth.js adapters)', () => {
	async function signedIn() {
		const { listSessionsByUserId: _lists, ...adapter } = MemoryAdapter();
		await adapter.createUser!({ id: 'u1', email: 'u1@example.com', emailVerified: null });
		const config = resolveConfig({ providers: [], secret, adapter, session: { strategy: 'database' } });
		const jar = new Jar();
		await startSession({ cookies: jar.cookies(), url }, config, { id: 'u1', email: 'u1@example.com' }, { provider: 'credentials', type: 'credentials', providerAccountId: 'u1' });
		const token = jar.values.get('auth.session-token')!;
		const context = (value: string) => {
			const next = new Jar();
			next.values.set('auth.session-token', value);
			return { cookies: next.cookies(), url };
		};
		return { config, token, context };
	}

	it('counts the sign-in from the time its token carries', async () => {
		const { config, token, context } = await signedIn();
		vi.setSystemTime((start + 300) * 1000);
		expect(await currentSession(context(token), config)).toEqual({ storedKey: expect.any(String), authTime: start });
	});

	// OWASP ASVS 5.0 7.5.1: moving the time a stolen, old cookie carries would let it pass the
	// re-authentication check; the row is found by the whole token's hash, so it finds no session.
	it('finds no session for a token whose time was moved', async () => {
		const { config, token, context } = await signedIn();
		vi.setSystemTime((start + 3600) * 1000);
		const moved = token.replace(`.${start}`, `.${start + 3590}`);
		expect(moved).not.toBe(token);
		expect(await currentSession(context(moved), config)).toBeNull();
		expect(await readSession(context(moved), config)).toBeNull();
		expect(await currentSession(context(token), config)).toMatchObject({ authTime: start });
	});
});

describe('currentSession within one request', () => {
	it('reads a database session once however often the page asks, and again once a sign-in changed the cookie', async () => {
		const adapter = MemoryAdapter();
		await adapter.createUser!({ id: 'u1', email: 'u1@example.com', emailVerified: null });
		const config = resolveConfig({ providers: [], secret, adapter, session: { strategy: 'database' } });
		const context = { cookies: new Jar().cookies(), url };
		const account = { provider: 'credentials', type: 'credentials', providerAccountId: 'u1' } as const;
		await startSession(context, config, { id: 'u1', email: 'u1@example.com' }, account);
		const lookups = vi.spyOn(adapter, 'getSessionAndUser');
		const [first, second, third] = await Promise.all([currentSession(context, config), currentSession(context, config), currentSession(context, config)]);
		expect(lookups).toHaveBeenCalledTimes(1);
		expect(second).toEqual(first);
		expect(third).toEqual(first);

		await startSession(context, config, { id: 'u1', email: 'u1@example.com' }, account);
		const after = await currentSession(context, config);
		expect(lookups).toHaveBeenCalledTimes(2);
		expect(after?.storedKey).not.toBe(first?.storedKey);
	});
});
