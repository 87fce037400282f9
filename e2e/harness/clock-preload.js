// @ts-check
/**
 * The test clock inside an app server's Node, loaded before the app with `--import` (start() puts
 * it in the server's NODE_OPTIONS; see ./clock.js): `Date.now()`, `new Date()` and `Date()` read
 * the real clock plus an offset in milliseconds, the number written in the file that the
 * environment variable named by {@link CLOCK_ENV} names. The file is read on every call, so a
 * test moves the server's clock at run time; a missing file or one that is not a number reads as
 * offset 0. Everything else is Date's own: `new Date(value)`, `Date.parse`, `Date.UTC`,
 * `instanceof Date`, subclasses.
 */
import { readFileSync } from 'node:fs';
import { CLOCK_ENV } from './clock.js';

const file = process.env[CLOCK_ENV];
const RealDate = Date;

/** Milliseconds the clock is ahead of the real one. */
function offset() {
	if (!file) return 0;
	try {
		const ms = Number(readFileSync(file, 'utf8'));
		return Number.isFinite(ms) ? ms : 0;
	} catch {
		return 0;
	}
}

/** The test clock's time, in milliseconds since the epoch. */
const now = () => RealDate.now() + offset();

/**
 * Date, with the test clock's time where Date reads the current time.
 * @param {...(string | number | Date)} args
 */
function TestDate(...args) {
	if (!new.target) return new RealDate(now()).toString();
	return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
}
Object.setPrototypeOf(TestDate, RealDate);
Object.defineProperties(TestDate, {
	name: { value: 'Date' },
	length: { value: RealDate.length },
	prototype: { value: RealDate.prototype, writable: false },
	now: { value: now, writable: true, configurable: true }
});
Object.defineProperty(RealDate.prototype, 'constructor', { value: TestDate, writable: true, configurable: true });
globalThis.Date = /** @type {DateConstructor} */ (/** @type {unknown} */ (TestDate));
