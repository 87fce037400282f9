import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from '../answers.js';
import { hostOf } from '../hosts.js';
import { hostChecks } from './host.js';

const vercel = hostOf(['@sveltejs/adapter-vercel']);

describe('hostChecks', () => {
	it('on Vercel, warns about a SQLite file and in-memory rate limits, which do not last there', () => {
		const [storage, rateLimit] = hostChecks({ answers: DEFAULT_ANSWERS, host: vercel });
		expect(storage).toMatchObject({ id: 'host-storage', status: 'warn', message: expect.stringContaining('on Vercel each function instance has its own short-lived disk') });
		expect(rateLimit).toMatchObject({ id: 'host-rate-limit', status: 'warn', hint: 'Run npx create-auth regenerate --rate-limit redis, then set REDIS_URL in the settings.' });
	});

	it('is ok on Netlify with PostgreSQL and Redis', () => {
		const checks = hostChecks({ answers: { ...DEFAULT_ANSWERS, adapter: 'postgres', rateLimit: 'redis' }, host: hostOf(['@sveltejs/adapter-netlify']) });
		expect(checks.map(({ id, status }) => [id, status])).toEqual([
			['host-storage', 'ok'],
			['host-rate-limit', 'ok']
		]);
	});

	it('says nothing on a Node server or adapter-auto', () => {
		expect(hostChecks({ answers: DEFAULT_ANSWERS, host: hostOf(['@sveltejs/adapter-node']) })).toEqual([]);
		expect(hostChecks({ answers: DEFAULT_ANSWERS, host: hostOf(['@sveltejs/adapter-auto']) })).toEqual([]);
	});
});
