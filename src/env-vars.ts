import type { Answers } from './answers.js';
import { DATABASE_URL, findAdapter } from './adapters.js';
import { findProvider } from './providers/index.js';

/** An environment variable the generated code reads. */
export interface AuthEnvVar {
	key: string;
	/** One sentence: the comment in `.env` / `.env.example`, the `description` in `src/env.ts`. */
	description: string;
	/** What a first run writes to `.env`; undefined: the variable is only documented in `.env.example`. */
	value?: string;
	/** What `.env.example` shows; never a secret. */
	example: string;
}

/** The variable of the Redis server's URL, read by the `redis` rate-limit store. */
export const REDIS_URL = 'REDIS_URL';

/**
 * The variables the answers' rate-limit store reads: `REDIS_URL` for `redis` (a first run writes
 * a local server's URL to `.env`), none for `memory`.
 */
export function rateLimitEnvVars(answers: Pick<Answers, 'rateLimit'>): AuthEnvVar[] {
	if (answers.rateLimit !== 'redis') return [];
	return [
		{
			key: REDIS_URL,
			description: 'Redis holding the sign-in and sign-up rate-limit counters every server shares: redis://user:password@host:6379 (rediss:// for TLS)',
			value: 'redis://127.0.0.1:6379',
			example: 'redis://user:password@host:6379'
		}
	];
}

/**
 * Every variable the generated `src/auth.ts` reads for these answers, once each, in the order
 * it first reads them (the adapter and the providers are declared before the config, the
 * rate-limit store's `REDIS_URL` is read last, in it; a provider's variables are written empty
 * to `.env`, for the user to fill in; credentials and email read the same `EMAIL_*` ones). One list serves `.env`, `.env.example`, `src/env.ts` (explicit environment
 * variables) and the names imported from `$app/env/private`, so they cannot disagree; and
 * `sv migrate sveltekit-3`, which imports the names in the order they are used, rewrites a
 * SvelteKit 2 `src/auth.ts` into exactly the SvelteKit 3 one.
 *
 * @param authSecret the fresh secret for `.env` (only written when `.env` has no AUTH_SECRET)
 * @param databaseUrl the adapter's `DATABASE_URL` for `.env` (`--database-url`); default: a
 *   local server's (only written when `.env` has no DATABASE_URL)
 */
export function authEnvVars(answers: Answers, authSecret: string, databaseUrl?: string): AuthEnvVar[] {
	const adapterEnv = findAdapter(answers.adapter)?.env ?? [];
	return [
		...adapterEnv.map((variable) => ({ ...variable, value: (variable.key === DATABASE_URL && databaseUrl) || variable.value })),
		...answers.providers.flatMap((id) =>
			(findProvider(id)?.env ?? []).map(({ key, description }) => ({ key, description, value: '', example: '' }))
		),
		{
			key: 'AUTH_SECRET',
			description: 'Encrypts session cookies; at least 32 random characters. Keep it secret.',
			value: authSecret,
			example: ''
		},
		{
			key: 'AUTH_SECRET_1',
			description: 'The previous AUTH_SECRET after a rotation (create-auth secret): still opens existing sessions, never seals new ones.',
			example: ''
		},
		{
			key: 'AUTH_TRUST_HOST',
			description: 'Set to true behind a proxy or on a host you set up yourself, to trust the Host header.',
			example: ''
		},
		{
			key: 'AUTH_URL',
			description: 'The public URL of the app, when requests reach it on another origin (behind a proxy).',
			example: ''
		},
		...rateLimitEnvVars(answers)
	].filter((variable, index, all) => all.findIndex(({ key }) => key === variable.key) === index);
}
