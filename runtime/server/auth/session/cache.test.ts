import { describe, expect, it } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { SessionCache, sessionCacheFor } from './cache.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const entry = (token: string, userId: string) => ({
	session: { sessionToken: token, userId, expires: new Date(T0 + 86_400_000) },
	user: { id: userId, email: `${userId}@example.com`, emailVerified: null }
});

describe('SessionCache', () => {
	it('serves an entry for maxAge seconds from when it was read', () => {
		const cache = new SessionCache(10);
		cache.set('t1', entry('t1', 'u1'), T0);
		expect(cache.get('t1', T0 + 9_999)).toEqual(entry('t1', 'u1'));
		expect(cache.get('t1', T0 + 10_000)).toBeUndefined();
	});

	it('forgets every session of one user, and only theirs', () => {
		const cache = new SessionCache(10);
		cache.set('a1', entry('a1', 'ada'), T0);
		cache.set('a2', entry('a2', 'ada'), T0);
		cache.set('e1', entry('e1', 'eve'), T0);
		cache.deleteUser('ada');
		expect([cache.get('a1', T0), cache.get('a2', T0), cache.get('e1', T0)?.user.id]).toEqual([undefined, undefined, 'eve']);
	});

	it('keeps at most 4096 entries, dropping the oldest', () => {
		const cache = new SessionCache(10);
		for (let i = 0; i <= 4096; i++) cache.set(`t${i}`, entry(`t${i}`, 'u1'), T0);
		expect(cache.get('t0', T0)).toBeUndefined();
		expect(cache.get('t1', T0)).toBeDefined();
		expect(cache.get('t4096', T0)).toBeDefined();
	});
});

describe('sessionCacheFor', () => {
	it('is off for 0, a negative or NaN maxAge and without an adapter, shared per adapter object, and replaced for a new maxAge', () => {
		const adapter = MemoryAdapter();
		expect([sessionCacheFor(adapter, 0), sessionCacheFor(adapter, -5), sessionCacheFor(adapter, Number.NaN)]).toEqual([undefined, undefined, undefined]);
		expect(sessionCacheFor(undefined, 30)).toBeUndefined();
		const cache = sessionCacheFor(adapter, 30);
		expect(sessionCacheFor(adapter, 30)).toBe(cache);
		expect(sessionCacheFor(MemoryAdapter(), 30)).not.toBe(cache);
		expect(sessionCacheFor(adapter, 60)?.maxAge).toBe(60);
	});
});
