import type { RequestEvent } from '@sveltejs/kit';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import type { Adapter, AdapterUser } from '../adapters/types.js';
import type { SvelteKitAuthConfig } from '../config.js';
import { requestConfig } from '../http/guards.js';
import { SvelteKitAuth } from '../kit.js';
import { startSession } from '../session/session.js';
import { storedSessionKey } from '../session/stored-key.js';
import { freezeDate } from '../../../test/clock.js';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { listSessions, revokeOtherSessions, revokeSession } from './sessions.js';

const secret = 'a'.repeat(32);
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const account = { type: 'credentials' as const, provider: 'credentials', providerAccountId: 'x' };

/** An app over a memory adapter, and what it takes to act as one browser of it. */
function app(strategy: 'jwt' | 'database', session: SvelteKitAuthConfig['session'] = {}) {
	const adapter = MemoryAdapter();
	const auth = SvelteKitAuth({ adapter, secret, providers: [], trustHost: true, session: { strategy, ...session } });
	/** An event of `jar`'s browser that went through the auth handle, as a page's load or action sees it. */
	const event = async (jar: Jar, options: Parameters<typeof requestEvent>[2] & { userAgent?: string } = {}) => {
		const made = requestEvent('http://localhost/account', jar, { ...options, headers: { 'user-agent': options.userAgent ?? FIREFOX_WINDOWS, ...options.headers } });
		await auth.handle({ event: made, resolve: async () => new Response('page') });
		return made;
	};
	/** Signs `user` in on a new browser (a jar), from `userAgent` at `clientAddress`. */
	const signIn = async (user: AdapterUser, userAgent = FIREFOX_WINDOWS, clientAddress = '203.0.113.7', jar = new Jar()) => {
		const made = await event(jar, { userAgent, clientAddress });
		await startSession(made, await requestConfig(made), { id: user.id, email: user.email }, account);
		return jar;
	};
	return { adapter: adapter as Required<Adapter>, event, signIn };
}

const user = (adapter: Required<Adapter>, id: string) => adapter.createUser({ id, email: `${id}@example.com`, emailVerified: new Date() });

/** Whether `jar`'s browser reads as signed in. */
async function signedIn(event: (jar: Jar) => Promise<RequestEvent>, jar: Jar): Promise<boolean> {
	return (await ((await event(jar)).locals as unknown as { auth: () => Promise<unknown> }).auth()) !== null;
}

beforeEach(() => freezeDate('2026-11-28T10:00:00Z'));

describe('the account page’s sessions, database strategy', () => {
	it('lists the user’s unexpired sessions, this browser first, with device, sign-in time and address; no one else’s', async () => {
		const { adapter, event, signIn } = app('database');
		const [ada, eve] = [await user(adapter, 'ada'), await user(adapter, 'eve')];
		const phone = await signIn(ada, SAFARI_IPHONE, '198.51.100.2');
		vi.setSystemTime(Date.parse('2026-11-28T10:05:00Z'));
		const laptop = await signIn(ada);
		await signIn(eve);
		await adapter.createSession({ sessionToken: 'expired', userId: ada.id, expires: new Date(Date.now() - 1000), createdAt: new Date(0) });

		const { sessions, canEndOthers, recentSignIn } = await listSessions(await event(laptop));
		expect({ canEndOthers, recentSignIn }).toEqual({ canEndOthers: true, recentSignIn: true });
		expect(sessions).toMatchObject([
			{ current: true, device: { label: 'Firefox on Windows', type: 'desktop' }, ipAddress: '203.0.113.7', signedInAt: '2026-11-28T10:05:00.000Z' },
			{ current: false, device: { label: 'Safari on iOS', type: 'mobile' }, ipAddress: '198.51.100.2', signedInAt: '2026-11-28T10:00:00.000Z' }
		]);
		// The ids are not the rows' keys: those never reach a page.
		const keys = (await adapter.listSessionsByUserId(ada.id)).map((row) => row.sessionToken);
		expect(sessions.map((session) => session.id).some((id) => keys.includes(id))).toBe(false);
		expect(await signedIn(event, phone)).toBe(true);
	});

	it('OWASP ASVS 5.0 7.2.4: a sign-in in a browser that had a session replaces it: the old row is deleted', async () => {
		const { adapter, signIn } = app('database');
		const ada = await user(adapter, 'ada');
		const jar = await signIn(ada);
		const first = jar.values.get('auth.session-token')!;
		await signIn(ada, FIREFOX_WINDOWS, '203.0.113.7', jar);
		expect(jar.values.get('auth.session-token')).not.toBe(first);
		expect(await adapter.getSessionAndUser(storedSessionKey(first))).toBeNull();
		expect(await adapter.listSessionsByUserId(ada.id)).toHaveLength(1);
	});

	it('ends one other session of the user: that browser is signed out, this one and the rest stay', async () => {
		const { adapter, event, signIn } = app('database');
		const ada = await user(adapter, 'ada');
		const [phone, tablet, laptop] = [await signIn(ada, SAFARI_IPHONE), await signIn(ada), await signIn(ada)];
		const { sessions } = await listSessions(await event(laptop));
		const phoneId = sessions.find((session) => session.device.type === 'mobile')!.id;
		const outcome = await actionOutcome(revokeSession, await event(laptop, { form: { session: phoneId } }));
		expect(outcome).toMatchObject({ status: 200, data: { sessionsEnded: 1 } });
		expect([await signedIn(event, phone), await signedIn(event, tablet), await signedIn(event, laptop)]).toEqual([false, true, true]);
	});

	it('refuses to end another user’s session by its id (insecure direct object reference, OWASP ASVS 5.0 8.2.2): 404, nothing ended', async () => {
		const { adapter, event, signIn } = app('database');
		const [ada, eve] = [await user(adapter, 'ada'), await user(adapter, 'eve')];
		const adas = await signIn(ada);
		const eves = await signIn(eve);
		const adaId = (await listSessions(await event(adas))).sessions[0]!.id;
		const outcome = await actionOutcome(revokeSession, await event(eves, { form: { session: adaId } }));
		expect(outcome).toMatchObject({ status: 404, data: { error: 'UnknownSession' } });
		expect(await signedIn(event, adas)).toBe(true);
		// Nor this browser's own (signing out does that), nor a made-up id.
		for (const session of [(await listSessions(await event(eves))).sessions[0]!.id, 'made-up']) {
			expect(await actionOutcome(revokeSession, await event(eves, { form: { session } }))).toMatchObject({ status: 404 });
		}
		expect(await signedIn(event, eves)).toBe(true);
	});

	it('OWASP ASVS 5.0 7.5.1: past freshAge, ending sessions asks for a new sign-in that resumes the action, and ends nothing', async () => {
		const { adapter, event, signIn } = app('database', { freshAge: 300 });
		const ada = await user(adapter, 'ada');
		const phone = await signIn(ada, SAFARI_IPHONE);
		const laptop = await signIn(ada);
		const phoneId = (await listSessions(await event(laptop))).sessions[1]!.id;
		vi.setSystemTime(Date.parse('2026-11-28T10:05:01Z'));
		expect((await listSessions(await event(laptop))).recentSignIn).toBe(false);
		const one = await actionOutcome(revokeSession, await event(laptop, { form: { session: phoneId } }));
		expect(one).toMatchObject({ status: 401, data: { action: 'revokeSession', error: 'ReauthenticationRequired', message: expect.stringContaining('5 minutes') } });
		// Not offered to resume while the sign-in is not recent.
		const stale = await event(laptop);
		Object.defineProperty(stale, 'url', { value: new URL(`http://localhost/account?resume=revokeSession&session=${phoneId}`) });
		expect((await listSessions(stale)).resume).toBeUndefined();
		const resume = new URL(one.data!.reauthenticate as string, 'http://localhost');
		expect(resume.pathname).toBe('/signin');
		expect(resume.searchParams.get('callbackUrl')).toBe(`/account?resume=revokeSession&session=${phoneId}`);
		const others = await actionOutcome(revokeOtherSessions, await event(laptop, { form: {} }));
		expect(others).toMatchObject({ status: 401, data: { error: 'ReauthenticationRequired' } });
		expect(await signedIn(event, phone)).toBe(true);

		// Signed in again on the laptop, back at the URL the refusal gave: the page offers the action again.
		await signIn(ada, FIREFOX_WINDOWS, '203.0.113.7', laptop);
		const back = await event(laptop);
		Object.defineProperty(back, 'url', { value: new URL(resume.searchParams.get('callbackUrl')!, 'http://localhost') });
		expect((await listSessions(back)).resume).toMatchObject({ action: 'revokeSession', session: { id: phoneId, device: { label: 'Safari on iOS' } } });
		expect(await actionOutcome(revokeOtherSessions, await event(laptop, { form: {} }))).toMatchObject({ status: 200, data: { sessionsEnded: 'others' } });
		expect([await signedIn(event, phone), await signedIn(event, laptop)]).toEqual([false, true]);
	});

	it('a session whose sign-in time is unknown (a row from before the upgrade) is not a recent sign-in', async () => {
		const { adapter, event } = app('database');
		const ada = await user(adapter, 'ada');
		const jar = new Jar();
		jar.values.set('auth.session-token', 'x'.repeat(43));
		await adapter.createSession({ sessionToken: storedSessionKey('x'.repeat(43)), userId: ada.id, expires: new Date(Date.now() + 3_600_000) });
		const listed = await listSessions(await event(jar));
		expect(listed).toMatchObject({ recentSignIn: false, sessions: [{ current: true, signedInAt: null, device: { label: 'Unknown device' } }] });
	});
});

describe('the account page’s sessions, jwt strategy', () => {
	it('lists this browser only; "End all other sessions" ends the others within revalidateAge, this one stays', async () => {
		const { adapter, event, signIn } = app('jwt', { revalidateAge: 30 });
		const ada = await user(adapter, 'ada');
		const phone = await signIn(ada, SAFARI_IPHONE);
		const laptop = await signIn(ada);
		expect(await listSessions(await event(laptop))).toMatchObject({ canEndOthers: true, recentSignIn: true, sessions: [{ current: true, device: { label: 'Firefox on Windows' }, signedInAt: '2026-11-28T10:00:00.000Z' }] });
		expect(await actionOutcome(revokeOtherSessions, await event(laptop, { form: {} }))).toMatchObject({ status: 200, data: { sessionsEnded: 'others' } });
		vi.setSystemTime(Date.parse('2026-11-28T10:00:31Z'));
		expect([await signedIn(event, phone), await signedIn(event, laptop)]).toEqual([false, true]);
		// Ending one session by id is for database sessions: a JWT has none to name.
		expect(await actionOutcome(revokeSession, await event(laptop, { form: { session: 'current' } }))).toMatchObject({ status: 404 });
	});

	it('says "End all other sessions" cannot work with an adapter whose users have no sessionVersion, and refuses it with 501', async () => {
		const memory = MemoryAdapter();
		// An Auth.js adapter: its users are what the spec lists, no more.
		const plain = (found: AdapterUser | null): AdapterUser | null => found && { id: found.id, email: found.email, emailVerified: found.emailVerified };
		const adapter: Adapter = {
			...memory,
			getUser: async (id) => plain(await memory.getUser(id)),
			updateUser: async (fields) => plain(await memory.updateUser(fields))!
		};
		const errors: unknown[] = [];
		const auth = SvelteKitAuth({ adapter, secret, providers: [], trustHost: true, logger: { error: (err) => errors.push(err) } });
		await memory.createUser({ id: 'ada', email: 'ada@example.com', emailVerified: new Date() });
		const jar = new Jar();
		const event = async () => {
			const made = requestEvent('http://localhost/account', jar, { form: {} });
			await auth.handle({ event: made, resolve: async () => new Response('page') });
			return made;
		};
		const first = await event();
		await startSession(first, await requestConfig(first), { id: 'ada', email: 'ada@example.com' }, account);
		expect((await listSessions(await event())).canEndOthers).toBe(false);
		expect(await actionOutcome(revokeOtherSessions, await event())).toMatchObject({ status: 501, data: { error: 'Unsupported' } });
		expect(errors).toHaveLength(1);
	});
});
