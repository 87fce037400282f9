// @ts-check
/**
 * A vitest reporter beside the default one: at the end of every run it prints where the time went
 * (the slowest files and tests, with seconds; for e2e files, the slowest harness steps and each
 * file's costs, from e2e/harness/ledger.js) and what failed, one line each, the first failure
 * again last, so that the last lines of a long log (all a CI record keeps) name them. With
 * `CREATE_AUTH_TEST_FAILURES` set to a file path, it also appends the failures there (`.ci/run`
 * prints that file last, after every step).
 */
import { appendFileSync } from 'node:fs';

/** How many of the slowest files and tests are listed. */
const SLOWEST = 10;

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

/** @param {unknown} error  a serialized error's first line */
const firstLine = (error) => String(/** @type {{ message?: unknown }} */ (error)?.message ?? error).split('\n')[0];

/** @typedef {import('vitest/node').Reporter} Reporter */

/** @implements {Reporter} */
export default class TestReport {
	/**
	 * @param {ReadonlyArray<import('vitest/node').TestModule>} testModules
	 * @param {ReadonlyArray<import('vitest/node').SerializedError>} unhandledErrors
	 */
	onTestRunEnd(testModules, unhandledErrors) {
		const files = testModules.map((module) => ({ name: `${module.project.name}: ${module.relativeModuleId}`, ms: module.diagnostic().duration }));
		const tests = testModules.flatMap((module) =>
			[...module.children.allTests()].map((test) => ({ module, test, ms: test.diagnostic()?.duration ?? 0 }))
		);
		/** @type {string[]} */
		const failures = [];
		for (const module of testModules) {
			const failedTests = [...module.children.allTests('failed')];
			for (const test of failedTests) failures.push(`${module.relativeModuleId} > ${test.fullName}: ${firstLine(test.result().errors?.[0])}`);
			const hookErrors = [...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())];
			for (const error of hookErrors) failures.push(`${module.relativeModuleId} (outside a test): ${firstLine(error)}`);
			if (module.state() === 'failed' && failedTests.length === 0 && hookErrors.length === 0) failures.push(`${module.relativeModuleId}: failed`);
		}
		for (const error of unhandledErrors) failures.push(`unhandled error: ${firstLine(error)}`);

		const total = files.reduce((sum, file) => sum + file.ms, 0);
		const lines = [`slowest files (${files.length} files, ${seconds(total).trim()} in all):`];
		for (const file of [...files].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) lines.push(`${seconds(file.ms)}  ${file.name}`);
		const ledgers = testModules.flatMap((module) => {
			const ledger = /** @type {{ ledger?: { counts: Record<string, number>, steps: { step: string, ms: number }[] } }} */ (module.meta()).ledger;
			return ledger ? [{ module, ...ledger }] : [];
		});
		if (ledgers.length > 0) {
			const steps = ledgers.flatMap(({ module, steps }) => steps.map((step) => ({ ...step, module })));
			lines.push(`slowest e2e steps (${steps.length} steps):`);
			for (const { module, step, ms } of steps.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) lines.push(`${seconds(ms)}  ${module.relativeModuleId}: ${step}`);
			lines.push('e2e costs (e2e/ledger.json):');
			for (const { module, counts } of ledgers) {
				lines.push(`  ${module.relativeModuleId}: ${Object.entries(counts).map(([cost, n]) => `${n} ${cost}`).join(', ')}`);
			}
		}
		lines.push(`slowest tests (${tests.length} tests):`);
		for (const { module, test, ms } of [...tests].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) lines.push(`${seconds(ms)}  ${module.relativeModuleId} > ${test.fullName}`);
		lines.push(failures.length === 0 ? 'failed: none' : `failed (${failures.length}):`, ...failures.map((failure) => `  ${failure}`));
		// The later failures of a file often follow from its first (a server gone, a page left open).
		if (failures.length > 1) lines.push(`first failed: ${failures[0]}`);
		console.log(`\n${lines.join('\n')}\n`);

		const file = process.env.CREATE_AUTH_TEST_FAILURES;
		if (file && failures.length > 0) appendFileSync(file, failures.map((failure) => `${failure}\n`).join(''));
	}
}
