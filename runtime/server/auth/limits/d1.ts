// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { d1Database, type D1AdapterOptions, type D1Binding } from '../adapters/d1.js';
import { memoized, type Limiter, type RateLimitRule, type RateLimitStore } from './rate-limit.js';

/** Where the counters live: the D1 database of the app's adapter, as `D1Adapter` takes it. */
export type D1RateLimitStoreOptions = D1AdapterOptions;

/**
 * One count of `points` (1 for an attempt, −1 for one given back) for a key, in one statement,
 * so concurrent counts never lose one: a new row, or a row whose window has ended, starts a
 * window of its own at `points` (never below 0); a live one adds them. Answers the count and
 * the window's end. ?1 key, ?2 points, ?3 the new window's end, ?4 now (epoch ms).
 */
const COUNT = `INSERT INTO auth_rate_limits (key, points, expires) VALUES (?1, max(?2, 0), ?3)
ON CONFLICT (key) DO UPDATE SET
	points = CASE WHEN expires <= ?4 THEN max(?2, 0) ELSE max(points + ?2, 0) END,
	expires = CASE WHEN expires <= ?4 THEN ?3 ELSE expires END
RETURNING points, expires`;

/** About one count in this many also deletes the rows whose window has ended. */
const SWEEP_EVERY = 100;

/**
 * Rate-limit counters in Cloudflare D1 (the `auth_rate_limits` table of `migrations/d1`), shared
 * by every isolate of the Worker, where memory counts would start from zero in each: fixed
 * windows, one conditional upsert per count. A database that cannot be reached fails the count
 * (the sign-in and sign-up flows then refuse: "fail closed"), as Redis's store does.
 * @see create-auth docs/api.md#rate-limits
 */
export function d1RateLimitStore(options: D1RateLimitStoreOptions): RateLimitStore {
	const database = d1Database(options);
	return { name: 'd1', limiter: memoized((name, rule) => d1Limiter(database, name, rule)) };
}

function d1Limiter(database: () => D1Binding, name: string, rule: RateLimitRule): Limiter {
	const windowMs = rule.windowSeconds * 1000;
	const count = async (key: string, points: number) => {
		const now = Date.now();
		const { results } = await database().prepare(COUNT).bind(`${name}:${key}`, points, now + windowMs, now).all();
		if (Math.random() * SWEEP_EVERY < 1) await database().prepare('DELETE FROM auth_rate_limits WHERE expires <= ?').bind(now).all();
		const row = results[0]!;
		return { points: Number(row.points), expires: Number(row.expires) };
	};
	return {
		async consume(key) {
			const { points, expires } = await count(key, 1);
			return points <= rule.max ? { ok: true } : { ok: false, retryAfter: Math.max(1, Math.ceil((expires - Date.now()) / 1000)) };
		},
		async refund(key) {
			await count(key, -1);
		},
		async reset(key) {
			await database().prepare('DELETE FROM auth_rate_limits WHERE key = ?').bind(`${name}:${key}`).all();
		}
	};
}
