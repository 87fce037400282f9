import { ADAPTERS, ADAPTER_IDS, findAdapter, unmetNeed, type AdapterId, type AdapterScaffold } from './adapters.js';
import { CliError } from './errors.js';
import { featuresFor } from './features/index.js';
import { findProvider, PROVIDERS } from './providers/index.js';
import type { Descriptor, FeatureDescriptor, ProviderScaffold } from './providers/types.js';
import { AUTH_LIBRARIES, type AuthLibraryId } from './existing-auth.js';

/**
 * Session strategies of the spec: `jwt` (an encrypted cookie, the default) or `database` (a
 * row per session through the adapter, its token in the cookie).
 */
export const STRATEGIES = ['jwt', 'database'] as const;

export type Strategy = (typeof STRATEGIES)[number];
export type { AdapterId };

/**
 * Where the sign-in and sign-up rate-limit counters live: `memory` (in the server's process, the
 * default: right for one server) or `redis` (shared by every server behind a load balancer, at
 * `REDIS_URL`).
 */
export const RATE_LIMIT_STORES = ['memory', 'redis', 'd1'] as const;

export type RateLimitStoreId = (typeof RATE_LIMIT_STORES)[number];

/** The user's choices: what the CLI asks, what the manifest records, what the plan renders. */
export interface Answers {
	/** Provider ids in the order given, without duplicates. */
	providers: string[];
	strategy: Strategy;
	adapter: AdapterId;
	/** Path prefixes guarded by the authorization handle: leading `/`, no trailing `/`. */
	protect: string[];
	/** Where rate-limit counters live; manifests written before it existed read as `memory`. */
	rateLimit: RateLimitStoreId;
	/**
	 * The auth library the app used before create-auth (`create-auth switch`), whose session
	 * cookies the runtime still honours (`previousSessions` in `src/auth.ts`): at most one.
	 * Absent (as in every manifest written before it existed): none.
	 */
	previous?: AuthLibraryId[];
	/**
	 * Two-factor authentication (`--two-factor`, `create-auth add-feature two-factor`): users may
	 * turn on a second factor on the account page. Absent (as in manifests written before it existed): off.
	 */
	twoFactor?: boolean;
}

/** Used for anything not given under `--yes` or without a TTY. */
export const DEFAULT_ANSWERS: Answers = {
	providers: ['credentials'],
	strategy: 'jwt',
	adapter: 'sqlite',
	protect: ['/account'],
	rateLimit: 'memory'
};

/** Pages the CLI generates; a protected prefix covering them would loop on the redirect. */
const AUTH_PAGES = ['/signin', '/signup', '/signout'];

/** Splits a comma list (`"a, b,,c"` → `['a', 'b', 'c']`), keeping first occurrences only. */
export function splitList(value: string): string[] {
	return [...new Set(value.split(',').map((item) => item.trim()).filter(Boolean))];
}

/**
 * Checks and normalises answers from flags or prompts.
 *
 * @throws {CliError} `E_UNKNOWN_PROVIDER` (unknown id or empty list),
 *   `E_UNSUPPORTED_STRATEGY`, `E_UNKNOWN_ADAPTER`, `E_UNSUPPORTED_ADAPTER` (passkeys or
 *   two-factor on an adapter without their tables), `E_INVALID_PROTECT` (a prefix without a
 *   leading `/`, `/` itself, or one that would cover the sign-in pages),
 *   `E_UNKNOWN_RATE_LIMIT_STORE`, `E_SWITCH_UNSUPPORTED` (`previous` names more than one library, or
 *   one `create-auth switch` does not move apps off)
 */
export function validateAnswers(answers: Answers): Answers {
	const known = PROVIDERS.map((provider) => provider.id).join(', ');
	if (answers.providers.length === 0) {
		throw new CliError('E_UNKNOWN_PROVIDER', 'Choose at least one provider.', `Known providers: ${known}.`);
	}
	for (const id of answers.providers) {
		if (!findProvider(id)) {
			throw new CliError('E_UNKNOWN_PROVIDER', `Unknown provider "${id}".`, `Known providers: ${known}.`);
		}
	}
	if (!(STRATEGIES as readonly string[]).includes(answers.strategy)) {
		throw new CliError(
			'E_UNSUPPORTED_STRATEGY',
			`Unsupported session strategy "${answers.strategy}".`,
			`Supported: ${STRATEGIES.join(', ')}.`
		);
	}
	if (!(ADAPTER_IDS as readonly string[]).includes(answers.adapter)) {
		throw new CliError('E_UNKNOWN_ADAPTER', `Unknown adapter "${answers.adapter}".`, `Known adapters: ${ADAPTER_IDS.join(', ')}.`);
	}
	const need = unmetNeed(findAdapter(answers.adapter)!, [...answers.providers.map((id) => findProvider(id)!), ...featuresFor(answers)]);
	if (need) {
		const others = ADAPTERS.filter((adapter) => adapter.supports.includes(need.capability)).map(({ id }) => id);
		const leaveOut = answers.providers.includes(need.of) ? `leave ${need.of} out of --providers` : `leave out ${need.of}`;
		throw new CliError(
			'E_UNSUPPORTED_ADAPTER',
			`The ${answers.adapter} adapter cannot ${need.why}.`,
			`Choose another --adapter (${others.length > 1 ? `${others.slice(0, -1).join(', ')} or ${others.at(-1)}` : others.join('')}), or ${leaveOut}.`
		);
	}
	if (!(RATE_LIMIT_STORES as readonly string[]).includes(answers.rateLimit)) {
		throw new CliError(
			'E_UNKNOWN_RATE_LIMIT_STORE',
			`Unknown rate-limit store "${answers.rateLimit}".`,
			'Known stores: memory (one server; the default), redis (several servers sharing the counters at REDIS_URL), d1 (Cloudflare: the D1 adapter\'s database).'
		);
	}
	const previous = answers.previous ?? [];
	if (previous.length > 1 || previous.some((id) => !(AUTH_LIBRARIES as readonly string[]).includes(id))) {
		throw new CliError('E_SWITCH_UNSUPPORTED', `create-auth honours the sessions of one previous library, one of ${AUTH_LIBRARIES.join(', ')}; not ${previous.join(', ')}.`);
	}
	return { ...answers, protect: answers.protect.map(normalizePrefix) };
}

/**
 * Answers with their ids looked up once: what the planner, the renderer and the next steps
 * read instead of bare ids.
 */
export interface ResolvedAnswers {
	answers: Answers;
	/** The chosen providers' descriptors, in the order given (the order of `src/auth.ts`'s `providers`). */
	providers: ProviderScaffold[];
	/** The features the answers choose (`featuresFor`). */
	features: FeatureDescriptor[];
	adapter: AdapterScaffold;
	/**
	 * Every chosen descriptor in registry order, the providers' (`PROVIDERS`) then the features'
	 * (`FEATURES`): the order their page sections, exports and config entries appear in.
	 */
	parts: Descriptor[];
}

/**
 * Looks the answers' ids up in the registries. Meant for answers {@link validateAnswers} passed
 * (or a manifest recorded): a provider id the registry does not know is left out rather than
 * refused, and an unknown adapter id reads as the default adapter's.
 */
export function resolveAnswers(answers: Answers): ResolvedAnswers {
	const providers = answers.providers.flatMap((id) => findProvider(id) ?? []);
	const features = featuresFor(answers);
	return {
		answers,
		providers,
		features,
		adapter: findAdapter(answers.adapter) ?? findAdapter(DEFAULT_ANSWERS.adapter)!,
		parts: [...PROVIDERS.filter((provider) => providers.includes(provider)), ...features]
	};
}

function normalizePrefix(prefix: string): string {
	const trimmed = prefix.replace(/\/+$/, '');
	const invalid = (why: string) =>
		new CliError('E_INVALID_PROTECT', `Cannot protect "${prefix}": ${why}.`, 'Give path prefixes such as /account,/admin.');
	if (!prefix.startsWith('/')) throw invalid('a path prefix starts with "/"');
	if (trimmed === '') throw invalid('it would cover the sign-in page too; guard pages one by one instead');
	if (/[?#\s]/.test(trimmed)) throw invalid('a path prefix has no query, fragment or spaces');
	const covered = AUTH_PAGES.find((page) => page === trimmed || page.startsWith(`${trimmed}/`));
	if (covered) throw invalid(`it would cover ${covered}, which signed-out users must reach`);
	return trimmed;
}

/** The one-line command that repeats these answers without prompts. */
export function equivalentCommand(answers: Answers): string {
	return [
		'npx create-auth --yes',
		`--providers ${answers.providers.join(',')}`,
		`--strategy ${answers.strategy}`,
		`--adapter ${answers.adapter}`,
		`--protect ${answers.protect.join(',')}`,
		`--rate-limit ${answers.rateLimit}`,
		...(answers.twoFactor ? ['--two-factor'] : [])
	].join(' ');
}
