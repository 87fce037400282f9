// @ts-check
import { describe, expect, it } from 'vitest';
import { formatSpread, judge, paired, quantile, spread } from './stats.js';

describe('spread', () => {
	it('gives the median and the quartiles, interpolated between ranks, whatever the order', () => {
		expect(spread([7, 1, 3, 5, 2, 6, 4])).toEqual({ median: 4, low: 2.5, high: 5.5, n: 7 });
		expect(spread([30, 10, 20])).toEqual({ median: 20, low: 15, high: 25, n: 3 });
		expect(spread([4, 1, 3, 2])).toEqual({ median: 2.5, low: 1.75, high: 3.25, n: 4 });
	});

	it('is the value itself for one value, and NaN for none', () => {
		expect(spread([42])).toEqual({ median: 42, low: 42, high: 42, n: 1 });
		expect(spread([]).median).toBeNaN();
	});
});

describe('quantile', () => {
	it('interpolates between the two nearest ranks of sorted values', () => {
		const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
		expect(quantile(sorted, 0)).toBe(10);
		expect(quantile(sorted, 1)).toBe(100);
		expect(quantile(sorted, 0.9)).toBeCloseTo(91);
	});
});

describe('paired', () => {
	it('combines the values of the same repetition, not the medians', () => {
		// Each repetition the machine is slower or faster for both rows alike: the paired ratio is steady.
		const row = [90, 45, 180];
		const base = [100, 50, 200];
		expect(paired(row, base, (a, b) => a / b)).toEqual({ median: 0.9, low: 0.9, high: 0.9, n: 3 });
		expect(paired(row, base, (a, b) => a - b).median).toBe(-10);
	});

	it('uses the repetitions both have', () => {
		expect(paired([1, 2, 3], [1, 1], (a, b) => a - b).n).toBe(2);
	});
});

describe('judge', () => {
	it('calls a target met or missed only when the whole range is on one side of it', () => {
		expect(judge({ median: 0.97, low: 0.96, high: 0.98, n: 7 }, { atLeast: 0.95 })).toBe('met');
		expect(judge({ median: 0.9, low: 0.88, high: 0.93, n: 7 }, { atLeast: 0.95 })).toBe('missed');
		expect(judge({ median: 0.96, low: 0.93, high: 0.98, n: 7 }, { atLeast: 0.95 })).toBe('within noise');
		expect(judge({ median: 8, low: 6, high: 12, n: 7 }, { atMost: 10 })).toBe('within noise');
		expect(judge({ median: 8, low: 6, high: 9, n: 7 }, { atMost: 10 })).toBe('met');
	});

	it('says n/a when a figure is missing', () => {
		expect(judge(spread([]), { atLeast: 1 })).toBe('n/a');
	});
});

describe('formatSpread', () => {
	it('shows the range after the median, and no range for one value', () => {
		expect(formatSpread({ median: 0.912, low: 0.88, high: 0.951, n: 7 }, 2)).toBe('0.91 (0.88–0.95)');
		expect(formatSpread(spread([3]), 1)).toBe('3.0');
		expect(formatSpread(spread([]), 1)).toBe('n/a');
	});
});
