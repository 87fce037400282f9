// @ts-check
/**
 * The e2e project's setup file: when a test file ends, its costs (./ledger.js) are compared with
 * its line in `e2e/ledger.json` and handed to the run's report (scripts/test-report.js, through the
 * file's task meta).
 * - A count above the ledger's fails the file, whichever of its tests ran: a new build, install,
 *   server or wait lands only with the ledger line that says so.
 * - When the file ran whole and passed (no `-t` filter, no failure), any other difference fails it
 *   too (a cost that went away is taken off the ledger), as does a file missing from the ledger.
 * With `CREATE_AUTH_LEDGER=write`, a file that ran whole and passed writes its line instead
 * (`CREATE_AUTH_LEDGER=write npx vitest run --project e2e <file>`), for the commit that changes it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { repoRoot } from './app.js';
import { ledgerDifferences, ledgerSoFar } from './ledger.js';

/** `e2e/ledger.json`: `{ "<file from the repo root>": { <cost>: <count>, … } }`. */
export const LEDGER_FILE = path.join(repoRoot, 'e2e', 'ledger.json');

/**
 * Whether the file ran as a whole run runs it: no name filter (`-t`), and every test either
 * passed or was skipped by its declaration (`it.skipIf`, `it.runIf`, which hold for the machine,
 * as on every run there), none skipped while running (`context.skip()`) nor failed. Vitest's
 * worker state holds the filter; without it, the file counts as filtered.
 * @param {Readonly<import('vitest').RunnerTestFile | import('vitest').RunnerTestSuite>} suite
 * @returns {boolean}
 */
function ranWhole(suite) {
	const worker = /** @type {{ __vitest_worker__?: { config?: { testNamePattern?: RegExp } } }} */ (globalThis).__vitest_worker__;
	return Boolean(worker?.config) && !worker?.config?.testNamePattern && tasksRanWhole(suite);
}

/**
 * @param {Readonly<import('vitest').RunnerTestFile | import('vitest').RunnerTestSuite>} suite
 * @returns {boolean}
 */
function tasksRanWhole(suite) {
	return suite.tasks.every((task) =>
		task.type === 'suite' ? tasksRanWhole(task) : task.mode === 'skip' || task.mode === 'todo' || (task.mode === 'run' && task.result?.state === 'pass')
	);
}

afterAll(({}, suite) => {
	const file = /** @type {import('vitest').RunnerTestFile} */ (suite);
	const name = path.relative(repoRoot, file.filepath);
	const { counts, steps } = ledgerSoFar();
	/** @type {Record<string, unknown>} */ (file.meta).ledger = { counts, steps };
	/** @type {Record<string, Record<string, number>>} */
	const ledger = JSON.parse(readFileSync(LEDGER_FILE, 'utf8'));
	const whole = ranWhole(file);
	if (process.env.CREATE_AUTH_LEDGER === 'write') {
		if (!whole) throw new Error(`${name}: CREATE_AUTH_LEDGER=write writes a file's line only when every test of it ran and passed`);
		ledger[name] = counts;
		const sorted = Object.fromEntries(Object.entries(ledger).sort(([a], [b]) => a.localeCompare(b)));
		writeFileSync(LEDGER_FILE, `${JSON.stringify(sorted, null, '\t')}\n`);
		return;
	}
	const differences = ledgerDifferences(counts, ledger[name], whole);
	if (differences.length > 0) {
		throw new Error(
			`${name} costs other than e2e/ledger.json says: ${differences.join('; ')}. ` +
				`If the change is meant, set its line to ${JSON.stringify(counts)} in the same commit.`
		);
	}
});
