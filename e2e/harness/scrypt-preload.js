// @ts-check
/**
 * Inside an app server's Node, loaded before the app with `--import` (start() in ./app.js puts it
 * in the server's NODE_OPTIONS), around Node's scrypt:
 * - with {@link TEST_SCRYPT_N_ENV} set (start()'s default), a derivation at production cost (N of
 *   2^17 or more, what the runtime's hashPassword and verifyPassword spend on Node) runs at that N
 *   instead, as the unit suite's hashes do (runtime/test/scrypt-cost.ts). Hashing and verifying
 *   both go through it, so a hash keeps its `scrypt$131072$…` label and verifies in the same app;
 *   the runtime's code and cost module are the app's own, unchanged. Hashes of other libraries (Better
 *   Auth's N=2^14) are derived as they are;
 * - without it (an app of `hashAtProductionCost()`), each derivation at production cost appends
 *   one line to the file that {@link HASHES_ENV} names: the e2e ledger (./ledger.js,
 *   `fullCostHashes`) reads the lines.
 */
import { appendFileSync } from 'node:fs';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { HASHES_ENV } from './ledger.js';

/** The lowest N of the runtime's production cost on Node (runtime/server/auth/passwords/cost.ts). */
const FULL_COST_N = 2 ** 17;
/** The environment variable that gives the N a production-cost derivation runs at instead. */
export const TEST_SCRYPT_N_ENV = 'CREATE_AUTH_TEST_SCRYPT_N';

const file = process.env[HASHES_ENV];
const testN = Number(process.env[TEST_SCRYPT_N_ENV]) || undefined;
if (file || testN) {
	const { scrypt, scryptSync } = crypto;
	/**
	 * scrypt's options as they are, or at the test cost; counted when derived at production cost.
	 * @param {unknown} options  scrypt's options argument, when one is given
	 * @returns {unknown}
	 */
	const atCost = (options) => {
		if (typeof options !== 'object' || options === null) return options;
		const { N, cost } = /** @type {{ N?: number, cost?: number }} */ (options);
		const n = N ?? cost;
		if (typeof n !== 'number' || n < FULL_COST_N) return options;
		if (testN) {
			const { N: _N, cost: _cost, ...rest } = /** @type {Record<string, unknown>} */ (options);
			return { ...rest, N: testN };
		}
		if (file) appendFileSync(file, '1\n');
		return options;
	};
	crypto.scrypt = /** @type {typeof scrypt} */ (
		/** @param {any[]} args */
		(...args) => {
			if (args.length > 4) args[3] = atCost(args[3]);
			return Reflect.apply(scrypt, crypto, args);
		}
	);
	crypto.scryptSync = /** @type {typeof scryptSync} */ (
		/** @param {any[]} args */
		(...args) => {
			args[3] = atCost(args[3]);
			return Reflect.apply(scryptSync, crypto, args);
		}
	);
	// `import { scrypt } from 'node:crypto'` in the app reads the patched functions too.
	syncBuiltinESMExports();
}
