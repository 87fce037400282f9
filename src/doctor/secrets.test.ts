import { describe, expect, it } from 'vitest';
import { envSources, type EnvSources } from './check.js';
import { secretChecks } from './secrets.js';

const good = 'k'.repeat(32);
const node = { '@sveltejs/kit': '^2.0.0', '@sveltejs/adapter-node': '^5.0.0' };
const run = (env: Partial<EnvSources>, dependencies: Record<string, string> = node) => {
	const checks = secretChecks({ env: envSources(env), dependencies });
	return Object.fromEntries(checks.map((check) => [check.id, check]));
};

describe('secretChecks', () => {
	it('is ok with a 32-character AUTH_SECRET in .env, and says where it came from', () => {
		expect(run({ env: { AUTH_SECRET: good } })['auth-secret']).toEqual({ id: 'auth-secret', status: 'ok', message: 'AUTH_SECRET is set (from .env, 32 characters).' });
	});

	it.each([
		['unset', {}],
		['empty', { env: { AUTH_SECRET: '' } }]
	])('is an error when AUTH_SECRET is %s', (_, env) => {
		expect(run(env)['auth-secret']).toMatchObject({ status: 'error', message: expect.stringContaining('MissingSecret'), hint: expect.stringContaining('npx create-auth secret') });
	});

	it('is an error when AUTH_SECRET is shorter than 32 characters', () => {
		expect(run({ env: { AUTH_SECRET: 'k'.repeat(31) } })['auth-secret']).toMatchObject({ status: 'error', message: expect.stringContaining('has 31 characters') });
	});

	it('takes the environment over .env.local over .env, as Vite does', () => {
		expect(run({ process: { AUTH_SECRET: good }, env: { AUTH_SECRET: 'short' } })['auth-secret']?.status).toBe('ok');
		expect(run({ envLocal: { AUTH_SECRET: 'short' }, env: { AUTH_SECRET: good } })['auth-secret']?.status).toBe('error');
	});

	it('never prints a secret value', () => {
		const text = JSON.stringify(run({ env: { AUTH_SECRET: 'short-secret-value', AUTH_SECRET_1: 'other-short-value' } }));
		expect(text).not.toContain('short-secret-value');
		expect(text).not.toContain('other-short-value');
	});

	it('is ok without AUTH_SECRET_1, and with a long enough one', () => {
		expect(run({ env: { AUTH_SECRET: good } })['auth-secret-1']?.status).toBe('ok');
		expect(run({ env: { AUTH_SECRET: good, AUTH_SECRET_1: good } })['auth-secret-1']).toMatchObject({ status: 'ok', hint: expect.stringContaining('30 days') });
	});

	it('in an app with two-factor, says to keep AUTH_SECRET_1 until those users signed in, not 30 days', () => {
		const checks = secretChecks({ env: envSources({ env: { AUTH_SECRET: good, AUTH_SECRET_1: good } }), dependencies: node, answers: { twoFactor: true } });
		const hint = checks.find((check) => check.id === 'auth-secret-1')?.hint;
		expect(hint).toMatch(/until every user with two-factor on has signed in since the rotation/);
		expect(hint).not.toContain('30 days');
	});

	it('is an error when AUTH_SECRET_1 is set but too short (the runtime refuses every short secret)', () => {
		expect(run({ env: { AUTH_SECRET: good, AUTH_SECRET_1: 'old' } })['auth-secret-1']).toMatchObject({ status: 'error', message: expect.stringContaining('has 3 characters') });
	});

	it.each([
		['from .env, self-hosted', { env: { AUTH_SECRET: good } }, node, /node build does not read \.env: set AUTH_SECRET in/],
		['during a rotation', { env: { AUTH_SECRET: good, AUTH_SECRET_1: good } }, node, /AUTH_SECRET and AUTH_SECRET_1/],
		['on a platform', { env: { AUTH_SECRET: good } }, { '@sveltejs/adapter-vercel': '^5.0.0' }, /settings of your platform \(@sveltejs\/adapter-vercel\)/],
		['from the environment', { process: { AUTH_SECRET: good } }, node, /comes from the environment/]
	])('reminds that production needs the secret in its environment, as an ok (%s)', (_, env, dependencies, message) => {
		expect(run(env, dependencies)['auth-secret-production']).toMatchObject({ status: 'ok', message: expect.stringMatching(message) });
	});
});
