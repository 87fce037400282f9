import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Answers } from '../answers.js';
import { addEnvVariables } from '../edits/env-module.js';
import { authEnvVars } from '../env-vars.js';
import { envSources } from './check.js';
import { declaredVariables } from '../edits/env-module.js';
import { declaredEnvChecks, missingEnvChecks, readEnvKeys } from './env.js';

const answers = (providers: string[]): Answers => ({ providers, strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' });
const github = answers(['credentials', 'github']);
/** The `email-server` check of an app whose credentials email password-reset links, EMAIL_SERVER empty. */
const linksLogged = { id: 'email-server', status: 'ok', message: expect.stringMatching(/^EMAIL_SERVER is empty: emailed links/), hint: expect.any(String) };

describe('missingEnvChecks', () => {
	it("warns for each provider variable that is empty or missing, with the variable's description", () => {
		const checks = missingEnvChecks({ answers: github, env: envSources({ env: { AUTH_GITHUB_ID: '' } }) });
		expect(checks).toEqual([
			{
				id: 'env-missing:AUTH_GITHUB_ID',
				status: 'warn',
				message: 'AUTH_GITHUB_ID is empty or missing in .env: The client id of your GitHub OAuth app.',
				hint: 'Fill it in .env; sign-in with GitHub fails until it is set.'
			},
			expect.objectContaining({ id: 'env-missing:AUTH_GITHUB_SECRET', status: 'warn' }),
			linksLogged
		]);
	});

	it('is ok when each is set in .env or in the environment', () => {
		const env = envSources({ env: { AUTH_GITHUB_ID: 'id' }, process: { AUTH_GITHUB_SECRET: 'secret' } });
		expect(missingEnvChecks({ answers: github, env })).toEqual([{ id: 'env-missing', status: 'ok', message: expect.any(String) }, linksLogged]);
	});

	it('is ok for providers that read no variables', () => {
		expect(missingEnvChecks({ answers: answers(['credentials']), env: envSources() })[0]?.status).toBe('ok');
	});

	it('warns when REDIS_URL is empty or missing with the redis rate-limit store, and only then', () => {
		const redis: Answers = { ...answers(['credentials']), rateLimit: 'redis' };
		expect(missingEnvChecks({ answers: redis, env: envSources({ env: { REDIS_URL: '' } }) })).toEqual([
			{
				id: 'env-missing:REDIS_URL',
				status: 'warn',
				message: expect.stringMatching(/^REDIS_URL is empty or missing in \.env: Redis holding the sign-in and sign-up rate-limit counters/),
				hint: expect.stringContaining('sign-ins and sign-ups are refused')
			},
			linksLogged
		]);
		expect(missingEnvChecks({ answers: { ...github, rateLimit: 'redis' }, env: envSources() }).map((check) => check.id)).toEqual([
			'env-missing:AUTH_GITHUB_ID',
			'env-missing:AUTH_GITHUB_SECRET',
			'env-missing:REDIS_URL',
			'email-server'
		]);
		expect(missingEnvChecks({ answers: redis, env: envSources({ envLocal: { REDIS_URL: 'redis://cache.internal:6379' } }) })).toEqual([
			{ id: 'env-missing', status: 'ok', message: 'Every variable the providers and the rate-limit store read is set.' },
			linksLogged
		]);
		expect(missingEnvChecks({ answers: answers(['credentials']), env: envSources() })).toEqual([
			{ id: 'env-missing', status: 'ok', message: 'Every variable the providers read is set.' },
			linksLogged
		]);
	});

	it('says where emailed links go (email-server): to the server log while EMAIL_SERVER is empty, by SMTP once set; nothing for apps that email none', () => {
		for (const providers of [['credentials'], ['email'], ['github', 'email']]) {
			expect(missingEnvChecks({ answers: answers(providers), env: envSources({ env: { EMAIL_SERVER: '', AUTH_GITHUB_ID: 'x', AUTH_GITHUB_SECRET: 'y' } }) })).toEqual([
				expect.objectContaining({ id: 'env-missing', status: 'ok' }),
				linksLogged
			]);
		}
		const set = envSources({ env: { EMAIL_SERVER: 'smtp://mail.internal:587' } });
		expect(missingEnvChecks({ answers: answers(['email', 'credentials']), env: set })).toEqual([
			expect.objectContaining({ id: 'env-missing', status: 'ok' }),
			{ id: 'email-server', status: 'ok', message: 'EMAIL_SERVER is set: emailed links (sign-in, password reset) are sent by SMTP.' }
		]);
		expect(missingEnvChecks({ answers: answers(['github']), env: envSources() }).map((check) => check.id)).toEqual([
			'env-missing:AUTH_GITHUB_ID',
			'env-missing:AUTH_GITHUB_SECRET'
		]);
	});
});

const kit3Auth = `import { building, dev } from '$app/env';
import { AUTH_SQLITE_FILE, AUTH_GITHUB_ID, AUTH_GITHUB_SECRET, AUTH_SECRET, AUTH_SECRET_1, AUTH_TRUST_HOST, AUTH_URL } from '$app/env/private';
export const x = [AUTH_SQLITE_FILE, AUTH_GITHUB_ID, AUTH_GITHUB_SECRET, AUTH_SECRET, AUTH_SECRET_1, AUTH_TRUST_HOST, AUTH_URL];
`;
const template = readFileSync(new URL('../../templates/env.ts.hbs', import.meta.url), 'utf8');
const fullEnvModule = addEnvVariables(template, authEnvVars(github, '')).content;

describe('declaredEnvChecks', () => {
	const run = (files: Record<string, string | undefined>, explicitEnv = true) => declaredEnvChecks({ answers: github, explicitEnv, files });

	it('checks nothing on apps without explicit environment variables', () => {
		expect(run({ 'src/auth.ts': kit3Auth }, false)).toEqual([]);
	});

	it('is ok when src/env.ts declares every variable src/auth.ts reads', () => {
		expect(run({ 'src/auth.ts': kit3Auth, 'src/env.ts': fullEnvModule })).toEqual([
			{ id: 'env-declared', status: 'ok', message: 'src/env.ts declares every variable src/auth.ts reads.' }
		]);
	});

	it('is an error naming the variables src/env.js does not declare', () => {
		const partial = addEnvVariables(template, authEnvVars(answers(['credentials']), '')).content;
		expect(run({ 'src/auth.ts': kit3Auth, 'src/env.js': partial })).toEqual([
			expect.objectContaining({
				id: 'env-declared',
				status: 'error',
				message: 'src/env.js does not declare AUTH_GITHUB_ID, AUTH_GITHUB_SECRET, which src/auth.ts reads: SvelteKit does not provide undeclared variables.'
			})
		]);
	});

	it('is an error when there is no src/env.ts at all', () => {
		expect(run({ 'src/auth.ts': kit3Auth })[0]).toMatchObject({ status: 'error', message: expect.stringContaining('there is none') });
	});

	it("falls back to the answers' variables without a src/auth", () => {
		const declaredButGitHub = fullEnvModule.replace(/\tAUTH_GITHUB_SECRET: \{[^}]*\}/, '\tOTHER: {}');
		expect(run({ 'src/env.ts': declaredButGitHub })[0]).toMatchObject({ status: 'error', message: expect.stringMatching(/^src\/env\.ts does not declare AUTH_GITHUB_SECRET, which the generated code reads/) });
	});

	it('with the redis rate-limit store, is an error when src/env.ts does not declare REDIS_URL', () => {
		const redis: Answers = { ...github, rateLimit: 'redis' };
		const files = { 'src/env.ts': fullEnvModule };
		// Without a src/auth: the answers' variables, REDIS_URL among them.
		expect(declaredEnvChecks({ answers: redis, explicitEnv: true, files })[0]).toMatchObject({
			status: 'error',
			message: 'src/env.ts does not declare REDIS_URL, which the generated code reads: SvelteKit does not provide undeclared variables.'
		});
		// With one: what it imports.
		const auth = kit3Auth.replace('AUTH_URL } from', 'AUTH_URL, REDIS_URL } from');
		expect(declaredEnvChecks({ answers: redis, explicitEnv: true, files: { ...files, 'src/auth.ts': auth } })[0]).toMatchObject({
			status: 'error',
			message: expect.stringMatching(/^src\/env\.ts does not declare REDIS_URL, which src\/auth\.ts reads/)
		});
		const declared = addEnvVariables(template, authEnvVars(redis, '')).content;
		expect(declaredEnvChecks({ answers: redis, explicitEnv: true, files: { 'src/env.ts': declared, 'src/auth.ts': auth } })[0]).toMatchObject({ status: 'ok' });
	});

	it('warns when the variables of src/env.ts cannot be read', () => {
		expect(run({ 'src/auth.ts': kit3Auth, 'src/env.ts': 'export const variables = load();\n' })[0]).toMatchObject({ status: 'warn' });
	});
});

describe('readEnvKeys', () => {
	it('reads the names imported from $app/env/private', () => {
		expect(readEnvKeys(kit3Auth)).toEqual(['AUTH_SQLITE_FILE', 'AUTH_GITHUB_ID', 'AUTH_GITHUB_SECRET', 'AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_TRUST_HOST', 'AUTH_URL']);
	});

	it("reads env.X from $env/dynamic/private's env, under any local name", () => {
		const source = `import { env as e } from '$env/dynamic/private';\nconst a = e.AUTH_SECRET; const b = e['AUTH_URL']; const c = other.AUTH_NOPE;\n`;
		expect(readEnvKeys(source)).toEqual(['AUTH_SECRET', 'AUTH_URL']);
	});

	it('returns undefined for a module that does not parse', () => {
		expect(readEnvKeys('export const = ;')).toBeUndefined();
	});
});

describe('declaredVariables', () => {
	it.each([
		['defineEnvVars', `export const variables = defineEnvVars({ A: {}, 'B': {} });`],
		['a plain object with satisfies', `export const variables = { A: {}, B: {} } satisfies Vars;`]
	])('reads the keys of %s', (_, source) => {
		expect(declaredVariables(source)).toEqual(new Set(['A', 'B']));
	});

	it.each([
		['a spread', `export const variables = defineEnvVars({ ...base, A: {} });`],
		['no variables export', `export const other = {};`],
		['a call result', `export const variables = build();`]
	])('cannot tell with %s', (_, source) => {
		expect(declaredVariables(source)).toBeUndefined();
	});
});
