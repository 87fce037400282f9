import type { Answers } from '../answers.js';
import { deployTarget, lookupEnv, type Check, type EnvSources } from './check.js';

/** The runtime refuses a shorter secret (MissingSecret). */
export const MIN_SECRET_LENGTH = 32;

const ROTATE = 'Run npx create-auth secret to write a fresh one to .env.';

/**
 * `auth-secret` (error: unset or shorter than 32 characters, the runtime then refuses to
 * start), `auth-secret-1` (error: set but too short, which the runtime refuses too) and
 * `auth-secret-production`.
 *
 * `auth-secret-production` is always `ok`: it carries the reminder that a production server
 * does not read `.env`. Doctor runs where the app is developed and cannot see the production
 * environment; a `warn` there would fail every correct setup, so doctor could never pass.
 * When AUTH_SECRET comes from this process's environment, the message says so instead.
 */
export function secretChecks(input: { env: EnvSources; dependencies: Record<string, string>; answers?: Pick<Answers, 'twoFactor'> }): Check[] {
	const { env } = input;
	const secret = lookupEnv(env, 'AUTH_SECRET');
	const previous = lookupEnv(env, 'AUTH_SECRET_1');
	const checks: Check[] = [];

	if (!secret) {
		checks.push({
			id: 'auth-secret',
			status: 'error',
			message: 'AUTH_SECRET is not set (not in .env, .env.local or the environment): the auth runtime refuses to start (MissingSecret).',
			hint: ROTATE
		});
	} else if (secret.value.length < MIN_SECRET_LENGTH) {
		checks.push({
			id: 'auth-secret',
			status: 'error',
			message: `AUTH_SECRET (from ${secret.source}) has ${secret.value.length} characters; the auth runtime needs at least ${MIN_SECRET_LENGTH} and refuses to start (MissingSecret).`,
			hint: ROTATE
		});
	} else {
		checks.push({ id: 'auth-secret', status: 'ok', message: `AUTH_SECRET is set (from ${secret.source}, ${secret.value.length} characters).` });
	}

	if (!previous) {
		checks.push({ id: 'auth-secret-1', status: 'ok', message: 'AUTH_SECRET_1 is not set: no secret rotation under way.' });
	} else if (previous.value.length < MIN_SECRET_LENGTH) {
		checks.push({
			id: 'auth-secret-1',
			status: 'error',
			message: `AUTH_SECRET_1 (from ${previous.source}) has ${previous.value.length} characters; every secret needs at least ${MIN_SECRET_LENGTH}, so the auth runtime refuses to start (MissingSecret).`,
			hint: 'Set it to the previous AUTH_SECRET (npx create-auth secret does), or remove it.'
		});
	} else {
		checks.push({
			id: 'auth-secret-1',
			status: 'ok',
			message: `AUTH_SECRET_1 is set (from ${previous.source}): sessions sealed with the previous secret still open.`,
			hint: input.answers?.twoFactor
				? "Keep it until every user with two-factor on has signed in since the rotation: each one's authenticator key is sealed again with the new secret at their next sign-in, and still-old keys open only with AUTH_SECRET_1 (without it, those users need a recovery code)."
				: 'Remove it 30 days (the session maxAge) after the rotation.'
		});
	}

	const target = deployTarget(input.dependencies);
	const keys = previous ? 'AUTH_SECRET and AUTH_SECRET_1' : 'AUTH_SECRET';
	checks.push({
		id: 'auth-secret-production',
		status: 'ok',
		message:
			secret?.source === 'environment'
				? 'AUTH_SECRET comes from the environment: a production server started the same way sees it.'
				: target.kind === 'platform'
					? `A build does not carry .env: set ${keys} in the environment settings of your platform (${target.adapter}).`
					: `node build does not read .env: set ${keys} in the production server's environment.`
	});
	return checks;
}
