import { describe, expect, it } from 'vitest';
import type { Answers } from '../answers.js';
import { envSources } from './check.js';
import { originChecks } from './origin.js';

const answers = (providers: string[]): Answers => ({ providers, strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' });
const node = { '@sveltejs/adapter-node': '^5.0.0' };
const auto = { '@sveltejs/adapter-auto': '^6.0.0' };
const run = (env: Record<string, string>, providers = ['github', 'credentials'], dependencies: Record<string, string> = node) =>
	Object.fromEntries(originChecks({ answers: answers(providers), env: envSources({ env }), dependencies }).map((check) => [check.id, check]));

describe('originChecks', () => {
	it.each(['not a url', '/relative', 'ftp://app.example.com', 'app.example.com'])('is an error for AUTH_URL %j', (url) => {
		expect(run({ AUTH_URL: url })['auth-url']).toMatchObject({ status: 'error', message: expect.stringContaining('not an absolute http(s) URL') });
	});

	it('is ok with an absolute https AUTH_URL, and without one', () => {
		expect(run({ AUTH_URL: 'https://app.example.com/some/path' })['auth-url']).toMatchObject({ status: 'ok', message: expect.stringContaining('https://app.example.com') });
		expect(run({})['auth-url']?.status).toBe('ok');
	});

	it.each([
		['adapter-node', node],
		['adapter-auto', auto],
		['no adapter', {}]
	])('warns with %s when neither AUTH_URL nor AUTH_TRUST_HOST is set, naming UntrustedHost and the fix', (_, dependencies) => {
		expect(run({}, ['github'], dependencies)['trusted-origin']).toMatchObject({
			status: 'warn',
			message: expect.stringContaining('UntrustedHost'),
			hint: expect.stringMatching(/AUTH_URL.*AUTH_TRUST_HOST=true/)
		});
	});

	it.each([
		['AUTH_URL', { AUTH_URL: 'https://app.example.com' }],
		['AUTH_TRUST_HOST=true', { AUTH_TRUST_HOST: 'true' }]
	])('is ok with %s', (_, env) => {
		expect(run(env)['trusted-origin']?.status).toBe('ok');
	});

	it('warns for an AUTH_TRUST_HOST other than true, which the generated code does not take for true', () => {
		expect(run({ AUTH_TRUST_HOST: '1' })['trusted-origin']).toMatchObject({ status: 'warn', message: expect.stringContaining('only the exact value true') });
	});

	it('only reminds (ok) on a platform adapter, whose environment doctor cannot see', () => {
		expect(run({}, ['github'], { '@sveltejs/adapter-netlify': '^5.0.0' })['trusted-origin']).toMatchObject({ status: 'ok', message: expect.stringContaining('UntrustedHost') });
	});

	it('checks the trusted origin for email sign-in links too, with no callback URL to register', () => {
		const checks = run({}, ['credentials', 'email']);
		expect(checks['trusted-origin']).toMatchObject({
			status: 'warn',
			message: expect.stringContaining('password reset and email sign-in work on the dev server and on localhost (vite preview, a local node build) only; on any other host they stop'),
			hint: expect.stringMatching(/AUTH_URL.*AUTH_TRUST_HOST=true/)
		});
		expect(checks['trusted-origin']!.message).toContain('no trusted origin for the password-reset and confirmation links and email sign-in links');
		expect(run({ AUTH_URL: 'https://app.example.com' }, ['email'])['trusted-origin']?.message).toBe("email sign-in links are built on AUTH_URL's origin, https://app.example.com.");
		expect(checks['callback-url:email']).toBeUndefined();
	});

	it("checks it for password-reset links and the passkeys' relying party, which production builds on it too", () => {
		expect(run({}, ['credentials'])['trusted-origin']).toMatchObject({
			status: 'warn',
			message: expect.stringContaining('password reset works on the dev server and on localhost (vite preview, a local node build) only; on any other host it stops with UntrustedHost')
		});
		expect(run({}, ['passkey'])['trusted-origin']?.message).toContain("passkey sign-in works on the dev server and on localhost (vite preview, a local node build) only; on any other host it stops with UntrustedHost (no trusted origin for the passkeys' relying party)");
		expect(run({ AUTH_URL: 'https://app.example.com' }, ['credentials'])['trusted-origin']).toMatchObject({ status: 'ok' });
	});

	it('gives each OAuth provider its callback URL on the dev server, with a production hint', () => {
		const checks = run({}, ['credentials', 'github', 'idp']);
		expect(checks['callback-url:github']).toMatchObject({ status: 'ok', message: 'GitHub: register the callback URL http://localhost:5173/auth/callback/github at the provider.', hint: expect.stringContaining('production') });
		expect(checks['callback-url:idp']?.message).toContain('http://localhost:5173/auth/callback/idp');
		expect(checks['callback-url:credentials']).toBeUndefined();
	});

	it("puts the callback URL on AUTH_URL's origin when set", () => {
		const check = run({ AUTH_URL: 'https://app.example.com/base/' })['callback-url:github'];
		expect(check?.message).toContain('https://app.example.com/auth/callback/github');
		expect(check?.hint).toBeUndefined();
	});

	it("puts the app's paths.base in the callback URL, or says where it goes when only the build knows it", () => {
		const checks = (base: string | null, env: Record<string, string> = {}) =>
			Object.fromEntries(originChecks({ answers: answers(['github']), env: envSources({ env }), dependencies: node, base }).map((check) => [check.id, check]));
		expect(checks('/base')['callback-url:github']).toMatchObject({
			message: 'GitHub: register the callback URL http://localhost:5173/base/auth/callback/github at the provider.',
			hint: 'In production, register <your public origin>/base/auth/callback/github too.'
		});
		expect(checks('/base', { AUTH_URL: 'https://app.example.com' })['callback-url:github']?.message).toContain('https://app.example.com/base/auth/callback/github');
		expect(checks(null, { AUTH_URL: 'https://app.example.com' })['callback-url:github']).toMatchObject({
			message: 'GitHub: register the callback URL https://app.example.com<paths.base>/auth/callback/github at the provider.',
			hint: expect.stringContaining("Put your app's paths.base where <paths.base> stands")
		});
	});
});
