import { describe, expect, it } from 'vitest';
import { timeAgo } from './time.js';

const now = Date.parse('2026-11-28T10:00:00Z');
const before = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe('timeAgo', () => {
	it('says how long ago, in the largest whole unit', () => {
		expect(timeAgo(before(20), now)).toBe('just now');
		expect(timeAgo(before(60), now)).toBe('1 minute ago');
		expect(timeAgo(before(5 * 60 + 59), now)).toBe('5 minutes ago');
		expect(timeAgo(before(3 * 3600), now)).toBe('3 hours ago');
		expect(timeAgo(before(24 * 3600), now)).toBe('yesterday');
		expect(timeAgo(before(15 * 24 * 3600), now)).toBe('2 weeks ago');
		expect(timeAgo(before(400 * 24 * 3600), now)).toBe('last year');
	});

	it('is "unknown" for a missing or malformed date, never a throw', () => {
		for (const value of [null, undefined, '', 'yesterday', '2026-13-45']) expect(timeAgo(value, now)).toBe('unknown');
	});
});
