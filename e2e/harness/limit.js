// @ts-check
/**
 * Bounded concurrency for test setup: an e2e file can start the apps it needs ahead of the
 * describes that use them (one installs while another builds, or while the tests of an earlier
 * app run), without starting them all at once on a 2-core machine.
 */

/**
 * A gate that lets at most `width` tasks run at once; the others wait and start in the order they
 * were given, each as soon as a slot is free. A task that throws (or rejects) frees its slot too.
 * @param {number} width  how many tasks may run at once (an integer >= 1)
 * @returns {<T>(task: () => Promise<T>) => Promise<T>}  runs `task` when a slot is free; settles as it does
 * @throws {RangeError} `width` is not an integer >= 1
 */
export function limit(width) {
	if (!Number.isInteger(width) || width < 1) throw new RangeError(`limit: width must be an integer >= 1, not ${width}`);
	let running = 0;
	/** @type {Array<() => void>} */
	const waiting = [];
	/** A finished task's slot passes straight to the first waiting one, if any. */
	const release = () => {
		const next = waiting.shift();
		if (next) next();
		else running--;
	};
	return async (task) => {
		if (running >= width) await new Promise((resolve) => waiting.push(() => resolve(undefined)));
		else running++;
		try {
			return await task();
		} finally {
			release();
		}
	};
}
