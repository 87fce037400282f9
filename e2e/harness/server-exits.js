// @ts-check
/**
 * An e2e setup file: after each test, a server of start() that exited on its own meanwhile fails
 * that test, with its exit and the end of its output (./app.js `takeUnexpectedExits`). Without it
 * the tests after it fail on a refused connection, which names no cause.
 */
import { afterEach } from 'vitest';
import { takeUnexpectedExits } from './app.js';

/** How many of a dead server's last output lines the failure shows. */
const OUTPUT_LINES = 40;

afterEach(() => {
	const exits = takeUnexpectedExits();
	if (exits.length === 0) return;
	const reports = exits.map(({ url, exit, output }) => {
		const printed = output().trimEnd().split('\n');
		const last = printed.filter((line) => line.trim() !== '').pop()?.trim() ?? '(no output)';
		const how = exit.signal ?? `code ${exit.code}`;
		return `the app server at ${url} exited on its own (${how}) during this test; its last line: ${last}\n--- its last output ---\n${printed.slice(-OUTPUT_LINES).join('\n')}`;
	});
	throw new Error(reports.join('\n'));
});
