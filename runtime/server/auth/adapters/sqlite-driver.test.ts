/**
 * The SQLite adapter when better-sqlite3's native addon cannot load on this server (issue 33: an
 * addon built for another Node). better-sqlite3 is replaced by a class whose constructor asks Node
 * to load a file that is no addon, so the error is Node's own `ERR_DLOPEN_FAILED`; the real
 * ABI mismatch runs in e2e/credentials.test.ts (a Kit 2 app built under Node 20, served by Node 22).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { actionOutcome, Jar, requestEvent } from '../../../test/event.js';
import { SvelteKitAuth } from '../kit.js';
import { authorizeWithPassword } from '../passwords/accounts.js';
import Credentials from '../providers/credentials.js';
import { DriverUnavailable } from '../errors.js';
import { STORE_MISCONFIGURED } from '../session/session.js';
import { SQLiteAdapter } from './sqlite.js';

/** How often the driver was asked to open a database, and the file it loads as its addon (each test its own: a message is logged once per process). */
const opened = vi.hoisted(() => ({ count: 0, addon: '' }));
vi.mock('better-sqlite3', () => ({
	default: class {
		constructor() {
			opened.count++;
			process.dlopen({ exports: {} }, opened.addon);
		}
	}
}));

const secret = 'd'.repeat(32);
const logger = { error: vi.fn() };
beforeEach(() => {
	logger.error.mockClear();
	opened.count = 0;
	opened.addon = '/etc/hostname';
});

function app() {
	const adapter = SQLiteAdapter({ filename: ':memory:' });
	const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter as never, fields) });
	return SvelteKitAuth({ secret, logger, adapter, providers: [credentials], session: { strategy: 'database' }, trustHost: true });
}

describe('a driver that cannot load', () => {
	it('answers sign-up with 503 saying the server is misconfigured (not "for a moment"), and logs one line naming better-sqlite3 once', async () => {
		const auth = app();
		for (let i = 0; i < 2; i++) {
			const outcome = await actionOutcome(auth.signUp, requestEvent('http://localhost/signup', new Jar(), { form: { email: `ada${i}@example.com`, password: 'correct horse battery' } }));
			expect(outcome).toMatchObject({ status: 503, data: { error: 'DriverUnavailable', message: 'Sign-up is not available: the server is misconfigured. Its log says what to fix.' } });
		}
		expect(logger.error).toHaveBeenCalledTimes(1);
		const [logged] = logger.error.mock.calls[0]!;
		expect(logged).toBeInstanceOf(DriverUnavailable);
		expect(logged.message).toMatch(/^better-sqlite3 cannot load: \/etc\/hostname: file too short\. Run npm rebuild better-sqlite3 .* with the Node that runs the app, then restart it/);
		// The addon is not asked again: it loads only at the next start.
		expect(opened.count).toBe(1);
	});

	it('is one line in the default log: the name and the message, no stack', async () => {
		const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		opened.addon = '/etc/passwd';
		try {
			const adapter = SQLiteAdapter({ filename: ':memory:' });
			const auth = SvelteKitAuth({ secret, adapter, providers: [], session: { strategy: 'database' }, trustHost: true });
			const jar = new Jar();
			jar.values.set('auth.session-token', `${'b'.repeat(43)}.1790000000`);
			for (let i = 0; i < 2; i++) {
				const event = requestEvent('http://localhost/', jar);
				await auth.handle({ event, resolve: async () => new Response('page') });
				await (event.locals as unknown as { auth(): Promise<unknown> }).auth().catch(() => undefined);
			}
			expect(printed.mock.calls).toEqual([[expect.stringMatching(/^DriverUnavailable: better-sqlite3 cannot load: \/etc\/passwd: invalid ELF header\. Run npm rebuild/)]]);
		} finally {
			printed.mockRestore();
		}
	});

	it('answers a password sign-in on /signin with 503 saying the server is misconfigured', async () => {
		const auth = app();
		const outcome = await actionOutcome(auth.signIn, requestEvent('http://localhost/signin', new Jar(), { form: { email: 'ada@example.com', password: 'correct horse battery' } }));
		expect(outcome).toMatchObject({ status: 503, data: { error: 'DriverUnavailable', message: 'Sign-in is not available: the server is misconfigured. Its log says what to fix.' } });
	});

	it('answers a database session read with 503 saying the server is misconfigured, keeping the cookie', async () => {
		const auth = app();
		const jar = new Jar();
		jar.values.set('auth.session-token', `${'a'.repeat(43)}.1790000000`);
		const event = requestEvent('http://localhost/', jar);
		await auth.handle({ event, resolve: async () => new Response('page') });
		await expect((event.locals as unknown as { auth(): Promise<unknown> }).auth()).rejects.toMatchObject({ status: 503, body: { message: STORE_MISCONFIGURED } });
		expect(jar.values.has('auth.session-token')).toBe(true);
	});
});
