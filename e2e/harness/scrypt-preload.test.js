// @ts-check
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { HASHES_ENV } from './ledger.js';
import { TEST_SCRYPT_N_ENV } from './scrypt-preload.js';

const PRELOAD = new URL('./scrypt-preload.js', import.meta.url).href;
const MAXMEM = 256 * 1024 * 1024;

/**
 * What an app does, in a Node with the preload: its scrypt at production cost (callback and sync,
 * imported as the runtime imports it) and at Better Auth's N=2^14, as hex.
 */
const APP = `import { scrypt, scryptSync } from 'node:crypto';
const options = { N: 2 ** 17, r: 8, p: 1, maxmem: ${MAXMEM} };
const derived = await new Promise((resolve, reject) => scrypt('pw', 'salt', 32, options, (error, key) => (error ? reject(error) : resolve(key))));
console.log(JSON.stringify({
	callback: derived.toString('hex'),
	sync: scryptSync('pw', 'salt', 32, options).toString('hex'),
	foreign: scryptSync('pw', 'salt', 32, { N: 2 ** 14, r: 16, p: 1, maxmem: ${MAXMEM} }).toString('hex')
}));
`;

/** @param {Record<string, string>} env */
async function runApp(env) {
	const { stdout } = await promisify(execFile)(process.execPath, [`--import=${PRELOAD}`, '--input-type=module', '-e', APP], { env: { ...process.env, ...env } });
	return /** @type {{ callback: string, sync: string, foreign: string }} */ (JSON.parse(stdout));
}

const hex = (/** @type {number} */ N, r = 8) => crypto.scryptSync('pw', 'salt', 32, { N, r, p: 1, maxmem: MAXMEM }).toString('hex');

describe('scrypt-preload', () => {
	const dir = os.tmpdir();
	const tally = path.join(dir, `create-auth-scrypt-preload-test-${process.pid}`);
	afterAll(() => fs.rm(tally, { force: true }));

	it('derives production-cost hashes at the test N, and leaves a lower cost as it is', async () => {
		const derived = await runApp({ [TEST_SCRYPT_N_ENV]: '1024' });
		expect(derived).toEqual({ callback: hex(1024), sync: hex(1024), foreign: hex(2 ** 14, 16) });
	});

	it('without a test N, derives at production cost and counts each such hash', async () => {
		const derived = await runApp({ [HASHES_ENV]: tally });
		expect(derived).toEqual({ callback: hex(2 ** 17), sync: hex(2 ** 17), foreign: hex(2 ** 14, 16) });
		expect(await fs.readFile(tally, 'utf8')).toBe('1\n1\n');
	});
});
