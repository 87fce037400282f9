import type { Readable, Writable } from 'node:stream';
import * as prompts from '@clack/prompts';
import { findAdapter, unmetNeed, type AdapterScaffold } from './adapters.js';
import { DEFAULT_ANSWERS, splitList, STRATEGIES, type AdapterId, type Answers, type RateLimitStoreId, type Strategy } from './answers.js';
import { CliError } from './errors.js';
import type { Host } from './hosts.js';
import { featuresFor } from './features/index.js';
import { twoFactorOffered } from './features/two-factor.js';
import { findProvider, PROVIDERS } from './providers/index.js';

/** Answers given as flags; anything undefined is asked (or defaulted without a TTY). */
export interface GivenAnswers {
	providers?: string;
	strategy?: string;
	adapter?: string;
	protect?: string;
	/** `--rate-limit`: never prompted for (memory, the default, suits one server). */
	rateLimit?: string;
	/** `--two-factor`: true when given; asked otherwise, where the providers include a password or email links. */
	twoFactor?: boolean;
}

const STRATEGY_HINTS: Record<Strategy, string> = {
	jwt: 'an encrypted cookie: no database read per request',
	database: 'a row per session: sign-out ends it everywhere; one query per request'
};

/**
 * What of the app decides the defaults and what is offered: the adapters that fit it
 * (`adaptersFor`, in prompt order) and where it deploys (`Project.host`).
 */
export interface AnswerContext {
	adapters: readonly AdapterScaffold[];
	host?: Host;
}

/**
 * The adapter chosen when none is given: the app's own Drizzle `db` or Prisma Client when one is
 * among the adapters (one connection, one migration story); else the host's (PostgreSQL on a
 * serverless host, where a SQLite file does not last); else the embedded SQLite default.
 */
export function defaultAdapter({ adapters, host }: AnswerContext): AdapterId {
	return adapters.find((scaffold) => scaffold.drizzle || scaffold.prisma)?.id ?? host?.defaults?.adapter ?? DEFAULT_ANSWERS.adapter;
}

/**
 * The rate-limit store chosen when none is given: the host's (Redis on a serverless host, whose
 * memory does not last between requests; D1 on Cloudflare) when `adapter` can hold it (D1's
 * counters live in the D1 adapter's database), else memory.
 */
export function defaultRateLimit(host: AnswerContext['host'], adapter: string): RateLimitStoreId {
	const store = host?.defaults?.rateLimit;
	const scaffold = findAdapter(adapter);
	if (!store || !scaffold) return DEFAULT_ANSWERS.rateLimit;
	return unmetNeed(scaffold, featuresFor({ rateLimit: store })) ? DEFAULT_ANSWERS.rateLimit : store;
}

/**
 * Fills what the flags did not say with defaults, without prompting: the same answers a person
 * who pressed Enter at every prompt would give; the rate-limit store by {@link defaultRateLimit}.
 */
export function answersFromFlags(given: GivenAnswers, context: AnswerContext): Answers {
	const adapter = (given.adapter ?? defaultAdapter(context)) as AdapterId;
	return {
		providers: given.providers === undefined ? DEFAULT_ANSWERS.providers : splitList(given.providers),
		strategy: (given.strategy ?? DEFAULT_ANSWERS.strategy) as Strategy,
		adapter,
		protect: given.protect === undefined ? DEFAULT_ANSWERS.protect : splitList(given.protect),
		rateLimit: (given.rateLimit ?? defaultRateLimit(context.host, adapter)) as RateLimitStoreId,
		...(given.twoFactor ? { twoFactor: true } : {})
	};
}

/** Where prompts read keypresses and draw; the process's stdin/stdout unless given (tests script them). */
export interface PromptStreams {
	input?: Readable;
	output?: Writable;
}

/**
 * Asks, with @clack/prompts, for every answer the flags did not give, except the rate-limit
 * store: `--rate-limit` or the default for the adapter chosen ({@link defaultRateLimit}).
 *
 * @param context the adapters offered, in prompt order, and the host; the default adapter
 *   ({@link defaultAdapter}) is preselected; on a serverless host, SQLite's hint says its file does not last there
 * @throws {CliError} `E_CANCELLED` when the user cancels a prompt (Ctrl-C / Esc); nothing has
 *   been written at that point
 */
export async function askMissing(given: GivenAnswers, context: AnswerContext, streams: PromptStreams = {}): Promise<Answers> {
	const defaults = answersFromFlags(given, context);
	const { adapters, host } = context;
	const providers =
		given.providers !== undefined
			? defaults.providers
			: answered(
					await prompts.multiselect({
						...streams,
						message: 'Which sign-in methods?',
						options: PROVIDERS.map((p) => ({ value: p.id, label: p.label, hint: p.hint })),
						initialValues: DEFAULT_ANSWERS.providers,
						required: true
					})
				);
	const twoFactor =
		given.twoFactor ??
		(twoFactorOffered(providers.flatMap((id) => findProvider(id) ?? [])) &&
			answered(await prompts.confirm({ ...streams, message: 'Let users turn on two-factor authentication?', initialValue: false })));
	const strategy =
		given.strategy !== undefined
			? defaults.strategy
			: answered(
					await prompts.select<Strategy>({
						...streams,
						message: 'Session strategy?',
						options: STRATEGIES.map((value) => ({ value, label: value, hint: STRATEGY_HINTS[value] })),
						initialValue: DEFAULT_ANSWERS.strategy
					})
				);
	const adapter =
		given.adapter !== undefined
			? defaults.adapter
			: answered(
					await prompts.select<AdapterId>({
						...streams,
						message: 'Where do users and accounts live?',
						// Only adapters that store what the chosen providers need (passkeys: authenticators), and
						// a --rate-limit given (d1: the D1 adapter); a default store follows the adapter chosen.
						options: adapters
							.filter((candidate) => !unmetNeed(candidate, [...providers.flatMap((id) => findProvider(id) ?? []), ...featuresFor({ rateLimit: given.rateLimit ?? 'memory', twoFactor })]))
							.map(({ id, label, hint, file }) => ({ value: id, label, hint: file && host?.serverless ? fileHint(host) : hint })),
						initialValue: defaultAdapter(context)
					})
				);
	const protect =
		given.protect !== undefined
			? defaults.protect
			: splitList(
					answered(
						await prompts.text({
						...streams,
							message: 'Which path prefixes need a signed-in user? (comma separated)',
							initialValue: DEFAULT_ANSWERS.protect.join(','),
							placeholder: '/account'
						})
					) ?? ''
				);
	const rateLimit = (given.rateLimit ?? defaultRateLimit(host, adapter)) as RateLimitStoreId;
	return { providers, strategy, adapter, protect, rateLimit, ...(twoFactor ? { twoFactor: true } : {}) };
}

/** Why a database in a file (SQLite) does not fit a serverless host. */
const fileHint = (host: Host) => (host.cloudflare ? 'its native driver does not load on Workers' : `its file does not last on ${host.name}`);

function answered<T>(value: T): Exclude<T, symbol> {
	if (prompts.isCancel(value) || typeof value === 'symbol') {
		throw new CliError('E_CANCELLED', 'Cancelled. Nothing was written.');
	}
	return value as Exclude<T, symbol>;
}
