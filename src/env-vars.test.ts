import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { authEnvVars, featureEnvVars, REDIS_URL } from './env-vars.js';

const keys = (answers = DEFAULT_ANSWERS) => authEnvVars(answers, 'secret').map((variable) => variable.key);

describe('authEnvVars and the rate-limit store', () => {
	it('adds no variable for the memory store', () => {
		expect(featureEnvVars({ rateLimit: 'memory' })).toEqual([]);
		expect(keys()).toEqual(['AUTH_SQLITE_FILE', 'EMAIL_SERVER', 'EMAIL_FROM', 'AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_TRUST_HOST', 'AUTH_URL']);
	});

	it('lists the EMAIL_* variables once, where the first provider that mails links reads them', () => {
		const mailing = (providers: string[]) => keys({ ...DEFAULT_ANSWERS, providers }).filter((key) => !key.startsWith('AUTH_SECRET'));
		expect(mailing(['github', 'credentials', 'email'])).toEqual([
			'AUTH_SQLITE_FILE',
			'AUTH_GITHUB_ID',
			'AUTH_GITHUB_SECRET',
			'EMAIL_SERVER',
			'EMAIL_FROM',
			'AUTH_TRUST_HOST',
			'AUTH_URL'
		]);
		expect(mailing(['github'])).toEqual(['AUTH_SQLITE_FILE', 'AUTH_GITHUB_ID', 'AUTH_GITHUB_SECRET', 'AUTH_TRUST_HOST', 'AUTH_URL']);
	});

	it('adds REDIS_URL for the redis store, last (src/auth.ts reads it in the config, after the providers)', () => {
		expect(keys({ ...DEFAULT_ANSWERS, rateLimit: 'redis' })).toEqual([
			'AUTH_SQLITE_FILE',
			'EMAIL_SERVER',
			'EMAIL_FROM',
			'AUTH_SECRET',
			'AUTH_SECRET_1',
			'AUTH_TRUST_HOST',
			'AUTH_URL',
			REDIS_URL
		]);
		expect(keys({ ...DEFAULT_ANSWERS, adapter: 'postgres', providers: ['github'], rateLimit: 'redis' })).toEqual([
			'DATABASE_URL',
			'AUTH_GITHUB_ID',
			'AUTH_GITHUB_SECRET',
			'AUTH_SECRET',
			'AUTH_SECRET_1',
			'AUTH_TRUST_HOST',
			'AUTH_URL',
			REDIS_URL
		]);
	});

	it("writes a local server's URL to .env and a placeholder to .env.example, like DATABASE_URL, whatever --database-url says", () => {
		const redis = authEnvVars({ ...DEFAULT_ANSWERS, adapter: 'postgres', rateLimit: 'redis' }, 'secret', 'postgres://db.internal/app').find(
			(variable) => variable.key === REDIS_URL
		);
		expect(redis).toEqual({
			key: REDIS_URL,
			description: expect.stringMatching(/^Redis holding the sign-in and sign-up rate-limit counters every server shares: redis:\/\//),
			value: 'redis://127.0.0.1:6379',
			example: 'redis://user:password@host:6379',
			hint: expect.stringContaining('Unset, src/auth uses a Redis on 127.0.0.1')
		});
	});
});
