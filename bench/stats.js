// @ts-check
/**
 * Figures that stay readable on a noisy machine: a median with its interquartile range, figures
 * paired per repetition (each repetition loads every row back to back, so a row and its base in
 * the same repetition saw the same machine), and a verdict that says "within noise" when the
 * range straddles the target instead of calling it met or missed.
 */

/**
 * @typedef {object} Spread
 * @property {number} median
 * @property {number} low  the lower quartile
 * @property {number} high  the upper quartile
 * @property {number} n  how many values
 */

/**
 * The `p` quantile (0 ≤ p ≤ 1) of sorted values, interpolated linearly between the two nearest
 * ranks (the usual definition: with 3 values the quartiles lie halfway between the middle one and
 * each end).
 * @param {number[]} sorted  ascending, not empty
 * @param {number} p
 */
export function quantile(sorted, p) {
	const h = (sorted.length - 1) * p;
	const below = /** @type {number} */ (sorted[Math.floor(h)]);
	const above = /** @type {number} */ (sorted[Math.ceil(h)]);
	return below + (h - Math.floor(h)) * (above - below);
}

/**
 * @param {number[]} values  not empty
 * @returns {number}
 */
export function median(values) {
	return spread(values).median;
}

/**
 * Median and quartiles of `values`; NaN throughout when there are none.
 * @param {number[]} values
 * @returns {Spread}
 */
export function spread(values) {
	if (values.length === 0) return { median: Number.NaN, low: Number.NaN, high: Number.NaN, n: 0 };
	const sorted = [...values].sort((a, b) => a - b);
	return { median: quantile(sorted, 0.5), low: quantile(sorted, 0.25), high: quantile(sorted, 0.75), n: values.length };
}

/**
 * The spread of `combine(a[i], b[i])` over the repetitions both have: a row against its base
 * measured in the same repetition (`(row, base) => row / base` for a ratio, `row - base` for an
 * excess).
 * @param {number[]} a
 * @param {number[]} b
 * @param {(a: number, b: number) => number} combine
 * @returns {Spread}
 */
export function paired(a, b, combine) {
	const n = Math.min(a.length, b.length);
	return spread(Array.from({ length: n }, (_, i) => combine(/** @type {number} */ (a[i]), /** @type {number} */ (b[i]))));
}

/**
 * Judges a spread against a target: `met` when the whole interquartile range meets it, `missed`
 * when none of it does, `within noise` when the range straddles it (or a figure is NaN: `n/a`).
 * @param {Spread} s
 * @param {{ atLeast?: number, atMost?: number }} target  one bound or both
 * @returns {'met' | 'missed' | 'within noise' | 'n/a'}
 */
export function judge(s, { atLeast, atMost }) {
	if (![s.low, s.high].every(Number.isFinite)) return 'n/a';
	/** @param {number} x */
	const ok = (x) => (atLeast === undefined || x >= atLeast) && (atMost === undefined || x <= atMost);
	const meets = [s.low, s.median, s.high].filter(ok).length;
	return meets === 3 ? 'met' : meets === 0 ? 'missed' : 'within noise';
}

/**
 * `0.912 (0.88–0.95)`: a spread as text, the range after the median (omitted for one value).
 * @param {Spread} s
 * @param {number} digits
 */
export function formatSpread(s, digits) {
	if (!Number.isFinite(s.median)) return 'n/a';
	const f = (/** @type {number} */ x) => x.toFixed(digits);
	return s.n > 1 ? `${f(s.median)} (${f(s.low)}–${f(s.high)})` : f(s.median);
}
