import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { adaptersFor } from './adapters.js';
import { answersFromFlags, askMissing } from './ask.js';
import { hostOf } from './hosts.js';

const ENTER = '\r';
const CTRL_C = '\x03';
const UP = '\x1b[A';
const DOWN = '\x1b[B';

/** Prompt streams whose input types `keys` one at a time, after each prompt has drawn. */
function scripted(keys: string[]) {
	const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
	const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24 });
	let screen = '';
	output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
	const timer = setInterval(() => {
		const key = keys.shift();
		if (key === undefined) clearInterval(timer);
		else input.write(key);
	}, 20);
	return { streams: { input, output }, screen: () => screen, stop: () => clearInterval(timer) };
}

describe('askMissing', () => {
	it('asks only what the flags left out, and Enter accepts the defaults', async () => {
		const session = scripted([ENTER, ENTER, ENTER]);
		const answers = await askMissing({ providers: 'credentials', strategy: 'jwt' }, { adapters: adaptersFor({}) }, session.streams);
		session.stop();
		expect(answers).toEqual(DEFAULT_ANSWERS);
		expect(session.screen()).toContain('Where do users and accounts live?');
		expect(session.screen()).toContain('Which path prefixes need a signed-in user?');
		expect(session.screen()).not.toContain('Session strategy?');
	});

	it('takes typed prefixes', async () => {
		const session = scripted([ENTER, ENTER, ENTER, ENTER, ...',/admin', ENTER]);
		const answers = await askMissing({}, { adapters: adaptersFor({}) }, session.streams);
		session.stop();
		expect(answers.protect).toEqual(['/account', '/admin']);
	});

	it('offers Drizzle, preselected, only to an app that has a Drizzle setup', async () => {
		const without = scripted([ENTER, ENTER, ENTER]);
		await askMissing({ providers: 'credentials', strategy: 'database' }, { adapters: adaptersFor({}) }, without.streams);
		without.stop();
		expect(without.screen()).not.toContain('Drizzle');
		const withDrizzle = scripted([ENTER, ENTER, ENTER]);
		const drizzle = { config: 'drizzle.config.ts', dialect: 'sqlite', schema: 'src/lib/server/db/schema.ts', db: 'server/db/index' } as const;
		const answers = await askMissing({ providers: 'credentials', strategy: 'database' }, { adapters: adaptersFor({ drizzle }) }, withDrizzle.streams);
		withDrizzle.stop();
		expect(withDrizzle.screen()).toContain("your app's Drizzle db and schema");
		expect(answers.adapter).toBe('drizzle');
	});

	it('without prompts, gives what Enter at every prompt gives: Drizzle in a Drizzle app, SQLite elsewhere', () => {
		const drizzle = { config: 'drizzle.config.ts', dialect: 'postgres', schema: 'src/lib/server/db/schema.ts', db: 'server/db/index' } as const;
		expect(answersFromFlags({}, { adapters: adaptersFor({}) })).toEqual(DEFAULT_ANSWERS);
		expect(answersFromFlags({}, { adapters: adaptersFor({ drizzle }) })).toEqual({ ...DEFAULT_ANSWERS, adapter: 'drizzle' });
		expect(answersFromFlags({ adapter: 'postgres' }, { adapters: adaptersFor({ drizzle }) }).adapter).toBe('postgres');
	});

	it('on a serverless host (adapter-vercel, adapter-netlify), defaults to PostgreSQL and Redis: a SQLite file and memory do not last there', () => {
		for (const adapter of ['@sveltejs/adapter-vercel', '@sveltejs/adapter-netlify']) {
			const host = hostOf([adapter]);
			expect(answersFromFlags({}, { adapters: adaptersFor({}), host })).toEqual({ ...DEFAULT_ANSWERS, adapter: 'postgres', rateLimit: 'redis' });
			expect(answersFromFlags({ adapter: 'sqlite', rateLimit: 'memory' }, { adapters: adaptersFor({}), host })).toMatchObject({ adapter: 'sqlite', rateLimit: 'memory' });
		}
		expect(answersFromFlags({}, { adapters: adaptersFor({}), host: hostOf(['@sveltejs/adapter-node']) })).toEqual(DEFAULT_ANSWERS);
		expect(answersFromFlags({}, { adapters: adaptersFor({}), host: hostOf(['@sveltejs/adapter-auto']) })).toEqual(DEFAULT_ANSWERS);
	});

	it('on Cloudflare (adapter-cloudflare), offers D1 and defaults to it, its rate-limit counters in D1 too; elsewhere D1 is not offered', () => {
		const host = hostOf(['@sveltejs/adapter-cloudflare']);
		expect(adaptersFor({ host }).map(({ id }) => id)).toContain('d1');
		expect(adaptersFor({ host: hostOf(['@sveltejs/adapter-node']) }).map(({ id }) => id)).not.toContain('d1');
		expect(answersFromFlags({}, { adapters: adaptersFor({ host }), host })).toEqual({ ...DEFAULT_ANSWERS, adapter: 'd1', rateLimit: 'd1' });
		// Another adapter given: the counters cannot live in D1, so they stay in memory (doctor warns).
		expect(answersFromFlags({ adapter: 'postgres' }, { adapters: adaptersFor({ host }), host }).rateLimit).toBe('memory');
	});

	it('on Cloudflare, preselects D1 among every adapter; choosing SQLite instead keeps the counters in memory', async () => {
		const host = hostOf(['@sveltejs/adapter-cloudflare']);
		// Two-factor: no; up from D1 to SQLite (past MySQL and PostgreSQL).
		const session = scripted([ENTER, UP, UP, UP, ENTER]);
		const answers = await askMissing({ providers: 'credentials', strategy: 'jwt', protect: '/account' }, { adapters: adaptersFor({ host }), host }, session.streams);
		session.stop();
		expect(answers).toMatchObject({ adapter: 'sqlite', rateLimit: 'memory' });
		expect(session.screen()).toContain('its native driver does not load on Workers');
	});

	it('on Vercel, preselects PostgreSQL and says why SQLite does not fit', async () => {
		// Two-factor: no; up to SQLite, whose hint then shows, and down again to the preselected one.
		const session = scripted([ENTER, UP, DOWN, ENTER]);
		const answers = await askMissing({ providers: 'credentials', strategy: 'jwt', protect: '/account' }, { adapters: adaptersFor({}), host: hostOf(['@sveltejs/adapter-vercel']) }, session.streams);
		session.stop();
		expect(answers).toMatchObject({ adapter: 'postgres', rateLimit: 'redis' });
		expect(session.screen()).toContain('its file does not last on Vercel');
	});

	it('takes --rate-limit as given, defaults it to memory, and never prompts for it', async () => {
		expect(answersFromFlags({ rateLimit: 'redis' }, { adapters: adaptersFor({}) }).rateLimit).toBe('redis');
		expect(answersFromFlags({}, { adapters: adaptersFor({}) }).rateLimit).toBe('memory');
		// An unknown store is kept as given, for validateAnswers to refuse with its code.
		expect(answersFromFlags({ rateLimit: 'valkey' }, { adapters: adaptersFor({}) }).rateLimit).toBe('valkey');
		const session = scripted([ENTER, ENTER]);
		const answers = await askMissing({ providers: 'credentials', strategy: 'jwt', adapter: 'sqlite', rateLimit: 'redis' }, { adapters: adaptersFor({}) }, session.streams);
		session.stop();
		expect(answers).toEqual({ ...DEFAULT_ANSWERS, rateLimit: 'redis' });
		expect(session.screen()).not.toMatch(/rate.limit|redis/i);
	});

	it('asks about two-factor authentication after a password or email provider (y turns it on), not after passkeys alone, nor with --two-factor', async () => {
		const asked = scripted(['y', ENTER, ENTER, ENTER]);
		const answers = await askMissing({ providers: 'credentials,passkey', strategy: 'jwt' }, { adapters: adaptersFor({}) }, asked.streams);
		asked.stop();
		expect(asked.screen()).toContain('two-factor authentication');
		expect(answers.twoFactor).toBe(true);
		// An adapter that cannot store second factors is not offered then.
		expect(asked.screen()).not.toContain('Hosted database');

		const passkeysOnly = scripted([ENTER, ENTER]);
		expect((await askMissing({ providers: 'passkey', strategy: 'jwt' }, { adapters: adaptersFor({}) }, passkeysOnly.streams)).twoFactor).toBeUndefined();
		passkeysOnly.stop();
		expect(passkeysOnly.screen()).not.toContain('two-factor');

		const flagged = scripted([ENTER, ENTER]);
		expect((await askMissing({ providers: 'credentials', strategy: 'jwt', twoFactor: true }, { adapters: adaptersFor({}) }, flagged.streams)).twoFactor).toBe(true);
		flagged.stop();
		expect(flagged.screen()).not.toContain('two-factor');
		expect(answersFromFlags({ twoFactor: true }, { adapters: adaptersFor({}) }).twoFactor).toBe(true);
	});

	it('turns a cancelled prompt into E_CANCELLED', async () => {
		const session = scripted([CTRL_C]);
		await expect(askMissing({}, { adapters: adaptersFor({}) }, session.streams)).rejects.toMatchObject({ code: 'E_CANCELLED' });
		session.stop();
	});
});
