// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AccountLocked, RateLimited, RateLimitStoreError } from '../errors.js';

/**
 * One limit: at most `max` attempts per key within `windowSeconds`. The window is fixed: it
 * starts at a key's first attempt and the count is gone when it ends.
 */
export interface RateLimitRule {
	max: number;
	/** Seconds. */
	windowSeconds: number;
}

/**
 * Where the counters live. {@link memoryRateLimitStore} (the default) keeps them in this
 * process: right for one server. Several servers behind a load balancer share one Redis
 * (`redisRateLimitStore` in `rate-limit-redis.ts`), or each would allow the limit on its own.
 */
export interface RateLimitStore {
	/** Names the store in log lines. */
	readonly name: string;
	/** The counter of one rule; `name` keeps rules apart (a key prefix). */
	limiter(name: string, rule: RateLimitRule): Limiter;
}

/**
 * The limits of the sign-in and sign-up flows. Each rule may be `false` (off) or replaced;
 * what is not given keeps its default ({@link DEFAULT_RATE_LIMITS}).
 */
export interface RateLimitConfig {
	/** Default: {@link memoryRateLimitStore}. */
	store?: RateLimitStore;
	/**
	 * Failed credentials sign-ins (and wrong current passwords on the account page). Emails are
	 * trimmed and lowercased; counted whether or not the address has an account.
	 */
	signIn?: {
		/**
		 * Per email from one client address (`event.getClientAddress()`): what locks an address,
		 * for that client only, so guesses from elsewhere do not lock its owner out. Without a
		 * client address, every such attempt of an email shares one count. A successful sign-in
		 * clears it.
		 */
		perEmailAndClient?: RateLimitRule | false;
		/** Per client address, across emails. A successful sign-in gives its attempt back. */
		perClient?: RateLimitRule | false;
		/**
		 * Consecutive failures per email from every client: the account-wide cap of NIST SP
		 * 800-63B-4 §3.2.2 (at most 100). Cleared by a successful sign-in, password reset or
		 * password change.
		 */
		perAccount?: RateLimitRule | false;
		/**
		 * @deprecated The name before 0.2.0, when it locked an email from every client: now read as
		 * {@link perEmailAndClient} when that is not given (the account-wide bound is `perAccount`).
		 */
		perEmail?: RateLimitRule | false;
	};
	signUp?: {
		/** Accounts created per client address. */
		perClient?: RateLimitRule | false;
	};
	/** Sign-in and password-reset links sent by email. */
	emailLink?: {
		/** Links sent per address (trimmed, lowercased). */
		perEmail?: RateLimitRule | false;
		/** Links sent per client address. */
		perClient?: RateLimitRule | false;
	};
	/** Wrong second-factor codes (two-factor/), whatever the client. */
	twoFactor?: {
		/** Per pending sign-in (a first factor passed): past it, the user signs in again from the start. */
		perSignIn?: RateLimitRule | false;
		/** Consecutive failures per user (NIST SP 800-63B-4 §3.2.2: at most 100). Cleared by a right code. */
		perAccount?: RateLimitRule | false;
	};
}

/**
 * Failed sign-ins: 10 per email from one client address and 50 per client address in 15
 * minutes, 100 consecutive per email from all clients in 24 hours; 10 sign-ups per client
 * address in an hour; 5 emailed links per address and 20 per client address in an hour; 5 wrong
 * second-factor codes per pending sign-in, 100 consecutive per user in 24 hours. An
 * attempt counts when it starts (so a burst of parallel attempts is held too); a successful
 * sign-in gives its attempt back and clears its email's counts.
 */
export const DEFAULT_RATE_LIMITS = {
	signIn: {
		perEmailAndClient: { max: 10, windowSeconds: 15 * 60 },
		perClient: { max: 50, windowSeconds: 15 * 60 },
		perAccount: { max: 100, windowSeconds: 24 * 60 * 60 }
	},
	signUp: { perClient: { max: 10, windowSeconds: 60 * 60 } },
	emailLink: { perEmail: { max: 5, windowSeconds: 60 * 60 }, perClient: { max: 20, windowSeconds: 60 * 60 } },
	twoFactor: { perSignIn: { max: 5, windowSeconds: 15 * 60 }, perAccount: { max: 100, windowSeconds: 24 * 60 * 60 } }
} as const satisfies { signIn: Required<Omit<NonNullable<RateLimitConfig['signIn']>, 'perEmail'>> } & Required<Omit<RateLimitConfig, 'store' | 'signIn'>>;

/**
 * A store's limiters by rule: the same name and rule give the same counter, so a config
 * resolved per request (the function form of the config) keeps counting where it was.
 */
export function memoized(make: (name: string, rule: RateLimitRule) => Limiter): RateLimitStore['limiter'] {
	const limiters = new Map<string, Limiter>();
	return (name, rule) => {
		const id = `${name}:${rule.max}:${rule.windowSeconds}`;
		let limiter = limiters.get(id);
		if (!limiter) limiters.set(id, (limiter = make(name, rule)));
		return limiter;
	};
}

/** Counters in this process's memory; they expire with their window. */
export function memoryRateLimitStore(): RateLimitStore {
	return {
		name: 'memory',
		limiter: memoized((name, rule) => limiterOf(new RateLimiterMemory({ keyPrefix: name, points: rule.max, duration: rule.windowSeconds })))
	};
}

/** The store of configs that name none: one per process. */
let defaultStore: RateLimitStore | undefined;

/** The outcome of counting an attempt: allowed, or refused for `retryAfter` seconds. */
export type RateLimitResult = { ok: true } | { ok: false; retryAfter: number };

/** One rule's counter in its store. */
export interface Limiter {
	/**
	 * Counts one attempt for `key`.
	 * @throws the store's error when it cannot count (e.g. Redis is down): callers fail closed.
	 */
	consume(key: string): Promise<RateLimitResult>;
	/** Gives one attempt back (it succeeded). @throws the store's error. */
	refund(key: string): Promise<void>;
	/** Forgets `key`'s count. @throws the store's error. */
	reset(key: string): Promise<void>;
}

/** The limiters of the flows; a rule that is off has none. */
export interface RateLimits {
	store: string;
	/** Keyed by {@link emailClientKey}. */
	signInPerEmailAndClient?: Limiter;
	signInPerClient?: Limiter;
	/** Keyed by the email. */
	signInPerAccount?: Limiter;
	signUpPerClient?: Limiter;
	emailLinkPerEmail?: Limiter;
	emailLinkPerClient?: Limiter;
	/** Keyed by the pending sign-in's id. */
	twoFactorPerSignIn?: Limiter;
	/** Keyed by the user id. */
	twoFactorPerAccount?: Limiter;
}

/** Seconds until the window ends, at least 1 (for `Retry-After`, RFC 9110 section 10.2.3). */
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * A {@link Limiter} over a rate-limiter-flexible limiter; `ready` runs before each call (a store
 * that connects on first use).
 */
export function limiterOf(limiter: RateLimiterAbstract, ready: () => Promise<void> = async () => {}): Limiter {
	return {
		async consume(key) {
			await ready();
			try {
				await limiter.consume(key);
				return { ok: true };
			} catch (refusal) {
				// rate-limiter-flexible rejects with a RateLimiterRes when over the limit, an Error when the store fails.
				if (refusal instanceof RateLimiterRes) return { ok: false, retryAfter: seconds(refusal.msBeforeNext) };
				throw refusal;
			}
		},
		async refund(key) {
			await ready();
			await limiter.reward(key, 1);
		},
		async reset(key) {
			await ready();
			await limiter.delete(key);
		}
	};
}

/**
 * The limiters for a config: `false` turns every limit off (returns undefined); each rule
 * not given takes its default (`signIn.perEmail`, the name before 0.2.0, stands for
 * `signIn.perEmailAndClient` when that is not given). Without a store, the process's memory
 * store is used.
 */
export function createRateLimits(config: RateLimitConfig | false | undefined): RateLimits | undefined {
	if (config === false) return undefined;
	const store = config?.store ?? (defaultStore ??= memoryRateLimitStore());
	const make = (name: string, rule: RateLimitRule | false | undefined, fallback: RateLimitRule) =>
		rule === false ? undefined : store.limiter(name, rule ?? fallback);
	return {
		store: store.name,
		signInPerEmailAndClient: make(
			'signin-email-client',
			config?.signIn?.perEmailAndClient ?? config?.signIn?.perEmail,
			DEFAULT_RATE_LIMITS.signIn.perEmailAndClient
		),
		signInPerClient: make('signin-client', config?.signIn?.perClient, DEFAULT_RATE_LIMITS.signIn.perClient),
		signInPerAccount: make('signin-account', config?.signIn?.perAccount, DEFAULT_RATE_LIMITS.signIn.perAccount),
		signUpPerClient: make('signup-client', config?.signUp?.perClient, DEFAULT_RATE_LIMITS.signUp.perClient),
		emailLinkPerEmail: make('email-link-email', config?.emailLink?.perEmail, DEFAULT_RATE_LIMITS.emailLink.perEmail),
		emailLinkPerClient: make('email-link-client', config?.emailLink?.perClient, DEFAULT_RATE_LIMITS.emailLink.perClient),
		twoFactorPerSignIn: make('two-factor-signin', config?.twoFactor?.perSignIn, DEFAULT_RATE_LIMITS.twoFactor.perSignIn),
		twoFactorPerAccount: make('two-factor-account', config?.twoFactor?.perAccount, DEFAULT_RATE_LIMITS.twoFactor.perAccount)
	};
}

/**
 * Counts one attempt against each limiter with its key, in order (a check without a limiter or
 * a key is skipped).
 * @throws {RateLimited} a limit is reached; the later limiters are not counted.
 * @throws {RateLimitStoreError} the store could not count: callers refuse the attempt.
 */
export async function countAttempt(limits: RateLimits, checks: Array<[Limiter | undefined, string | undefined]>): Promise<void> {
	for (const [limiter, key] of checks) {
		if (!limiter || !key) continue;
		let result: RateLimitResult;
		try {
			result = await limiter.consume(key);
		} catch (err) {
			throw new RateLimitStoreError(`Counting an attempt in the ${limits.store} rate-limit store failed.`, { err: err as Error });
		}
		if (!result.ok) throw new RateLimited('Too many attempts.', result.retryAfter);
	}
}

/**
 * The key of {@link RateLimits.signInPerEmailAndClient}: the email and the client address, kept
 * apart unambiguously (JSON). Without a client address (`undefined`), the email's attempts from
 * unknown clients share one key.
 */
export function emailClientKey(email: string, client: string | undefined): string {
	return JSON.stringify([email, client ?? null]);
}

/**
 * Counts one password attempt for `email` (normalized; undefined counts only the client) from
 * `client`: per client, per email and client, then the account-wide cap.
 * @throws {AccountLocked} the account-wide cap (`signIn.perAccount`) is reached.
 * @throws {RateLimited} a per-client or per-email-and-client limit is reached.
 * @throws {RateLimitStoreError} the store could not count: callers refuse the attempt.
 */
export async function countPasswordAttempt(limits: RateLimits, email: string | undefined, client: string | undefined): Promise<void> {
	await countAttempt(limits, [
		[limits.signInPerClient, client],
		[limits.signInPerEmailAndClient, email && emailClientKey(email, client)]
	]);
	try {
		await countAttempt(limits, [[limits.signInPerAccount, email]]);
	} catch (err) {
		if (err instanceof RateLimited) throw new AccountLocked(`${email} reached the account-wide cap of failed sign-ins.`, err.retryAfter);
		throw err;
	}
}

/**
 * After the right password (a sign-in or a password change) or a password reset: `email`'s
 * failed attempts from `client` and account-wide are forgotten (NIST SP 800-63B-4 §3.2.2 counts
 * consecutive failures); other clients' counts stay.
 * @throws the store's error.
 */
export async function forgetPasswordAttempts(limits: RateLimits, email: string, client: string | undefined): Promise<void> {
	await Promise.all([limits.signInPerEmailAndClient?.reset(emailClientKey(email, client)), limits.signInPerAccount?.reset(email)]);
}

/** "15 minutes" / "24 hours": a wait in seconds, rounded up, in minutes up to two hours (at least one minute). */
function waitText(retryAfter: number): string {
	const minutes = Math.max(1, Math.ceil(retryAfter / 60));
	if (minutes <= 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
	return `${Math.ceil(minutes / 60)} hours`;
}

/** "Too many attempts. Try again in N minutes." (or hours, past two) for a wait in seconds. */
export function retryMessage(retryAfter: number): string {
	return `Too many attempts. Try again in ${waitText(retryAfter)}.`;
}

/**
 * What the sign-in page says to an attempt refused by the account-wide cap ({@link AccountLocked}):
 * how to get in now (a password reset, which this cap does not count), and when to try again.
 */
export function accountLockedMessage(retryAfter: number): string {
	return `Too many failed sign-ins for this email address. Reset your password to sign in now, or try again in ${waitText(retryAfter)}.`;
}
