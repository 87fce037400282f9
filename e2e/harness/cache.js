// @ts-check
/**
 * The machine's cache for the test suite: what is costly to make and the same for every clone
 * of this repository on the machine (Node installs from npm, native addons compiled per Node
 * ABI, the per-Node copies scripts/ci-node.js installs into). It lives outside the clone, so a
 * clean clone (CI's) finds what an earlier clone on the machine already made.
 */
import os from 'node:os';
import path from 'node:path';

/**
 * `$CREATE_AUTH_TEST_CACHE` when set, else `$XDG_CACHE_HOME/create-auth-tests`, else
 * `~/.cache/create-auth-tests`. Absolute; the folder may not exist yet.
 */
export const machineCacheDir = path.resolve(
	process.env.CREATE_AUTH_TEST_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'create-auth-tests')
);
