// @ts-check
/**
 * A test clock for an app server that start() (./app.js) runs on Node: the server's Node loads
 * ./clock-preload.js first (`--import` in its NODE_OPTIONS), whose `Date.now()`, `new Date()` and
 * `Date()` read the real clock plus an offset kept in a file of this clock's; {@link TestClock}
 * `advance()` moves it forward while the server runs. The runtime decides freshness, revalidation
 * and token expiry with those, so a test moves the server's clock past an age instead of waiting
 * it out.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The environment variable that names a server's clock file (./clock-preload.js reads it). */
export const CLOCK_ENV = 'CREATE_AUTH_TEST_CLOCK';

/**
 * @typedef {object} TestClock
 * @property {Record<string, string>} env  what the server's environment needs: {@link CLOCK_ENV}, and
 *   NODE_OPTIONS with ./clock-preload.js's `--import` added to the options given
 * @property {(seconds: number) => Promise<void>} advance  moves the clock forward by `seconds` (a
 *   fraction allowed; kept to the millisecond); the server's next reading has it
 * @property {() => number} now  the server's clock, in milliseconds since the epoch
 * @property {() => Promise<void>} remove  deletes the clock's file
 */

/**
 * A clock at the real time, in a new temp folder `<tmpdir>/create-auth-clock-XXXXXX`.
 * @param {string | undefined} nodeOptions  the NODE_OPTIONS the server would have without the clock
 * @returns {Promise<TestClock>}
 */
export async function testClock(nodeOptions) {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-clock-'));
	const file = path.join(dir, 'offset-ms');
	const preload = new URL('./clock-preload.js', import.meta.url).href;
	let offsetMs = 0;
	return {
		env: { [CLOCK_ENV]: file, NODE_OPTIONS: [nodeOptions, `--import=${preload}`].filter(Boolean).join(' ') },
		async advance(seconds) {
			if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`advanceClock(${seconds}): the clock moves forward only, by a finite number of seconds`);
			offsetMs += Math.round(seconds * 1000);
			// Written aside and renamed, so the server never reads a half-written number.
			await fs.writeFile(`${file}.next`, String(offsetMs));
			await fs.rename(`${file}.next`, file);
		},
		now: () => Date.now() + offsetMs,
		remove: () => fs.rm(dir, { recursive: true, force: true })
	};
}
