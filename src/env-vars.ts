import { resolveAnswers, type Answers } from './answers.js';
import { DATABASE_URL } from './adapters.js';
import { featuresFor } from './features/index.js';
import type { ProviderEnvVar } from './providers/types.js';

/** An environment variable the generated code reads. */
export interface AuthEnvVar {
	key: string;
	/** One sentence: the comment in `.env` / `.env.example`, the `description` in `src/env.ts`. */
	description: string;
	/** What a first run writes to `.env`; undefined: the variable is only documented in `.env.example`. */
	value?: string;
	/** What `.env.example` shows; never a secret. */
	example: string;
	/** A feature's variable: what `create-auth doctor` says to do when it is empty or missing. */
	hint?: string;
}

export { REDIS_URL } from './features/rate-limit-redis.js';

/** A descriptor's variable as `.env` gets it: empty unless it says what a first run writes. */
const asAuthEnvVar = ({ key, description, value, example, hint }: ProviderEnvVar): AuthEnvVar => ({ key, description, value: value ?? '', example: example ?? '', ...(hint ? { hint } : {}) });

/**
 * The variables the answers' features read: the rate-limit store's `REDIS_URL` for `redis`
 * (where a first run writes a local server's URL to `.env`), the previous library's secret after
 * a switch (`BETTER_AUTH_SECRET`, kept as `.env` has it); none for the defaults.
 */
export function featureEnvVars(answers: Pick<Answers, 'rateLimit' | 'previous'>): AuthEnvVar[] {
	return featuresFor(answers).flatMap(({ env }) => env.map(asAuthEnvVar));
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
	const { adapter, providers } = resolveAnswers(answers);
	return [
		...adapter.env.map((variable) => ({ ...variable, value: (variable.key === DATABASE_URL && databaseUrl) || variable.value })),
		...providers.flatMap(({ env }) => env.map(asAuthEnvVar)),
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
			description: 'true trusts the Host header (behind a proxy that sets it). Not needed on localhost: the dev server, vite preview.',
			example: ''
		},
		{
			key: 'AUTH_URL',
			description: "The app's public URL (https://app.example.com) in production: OAuth redirects, emailed links and passkeys are built on it. Not needed on localhost.",
			example: ''
		},
		...featureEnvVars(answers)
	].filter((variable, index, all) => all.findIndex(({ key }) => key === variable.key) === index);
}
