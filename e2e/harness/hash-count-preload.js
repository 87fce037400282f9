// @ts-check
/**
 * Inside an app server's Node, loaded before the app with `--import` (start() in ./app.js puts it
 * in the server's NODE_OPTIONS): counts the scrypt derivations at production cost (N of 2^17 or
 * more, what the runtime's hashPassword and verifyPassword spend on Node) by appending one line
 * per derivation to the file that the environment variable {@link HASHES_ENV} names. The e2e
 * ledger (./ledger.js, `fullCostHashes`) reads the lines. The derivation itself is Node's own.
 */
import { appendFileSync } from 'node:fs';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { HASHES_ENV } from './ledger.js';
/** The lowest N counted: the runtime's cost on Node (runtime/server/auth/passwords/cost.ts). */
const FULL_COST_N = 2 ** 17;

const file = process.env[HASHES_ENV];
if (file) {
	const { scrypt, scryptSync } = crypto;
	/** @param {unknown} options  scrypt's options argument, when one is given */
	const tally = (options) => {
		const n = typeof options === 'object' && options !== null ? /** @type {{ N?: number, cost?: number }} */ (options).N ?? /** @type {{ cost?: number }} */ (options).cost : undefined;
		if (typeof n === 'number' && n >= FULL_COST_N) appendFileSync(file, '1\n');
	};
	crypto.scrypt = /** @type {typeof scrypt} */ (
		/** @param {Parameters<typeof scrypt>} args */
		(...args) => {
			tally(args.length > 4 ? args[3] : undefined);
			return Reflect.apply(scrypt, crypto, args);
		}
	);
	crypto.scryptSync = /** @type {typeof scryptSync} */ (
		/** @param {Parameters<typeof scryptSync>} args */
		(...args) => {
			tally(args[3]);
			return Reflect.apply(scryptSync, crypto, args);
		}
	);
	// `import { scrypt } from 'node:crypto'` in the app reads the patched functions too.
	syncBuiltinESMExports();
}
