// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { ON_WORKERS } from '../platform/workers.js';

/**
 * The scrypt cost of every new password hash (RFC 7914: `N` the CPU/memory cost, a power of
 * two; `r` the block size; `p` the parallelization; 128 · N · r bytes of memory). OWASP Password
 * Storage Cheat Sheet: N=2^17, r=8, p=1 (128 MiB). On Workers, its equally strong N=2^15, r=8,
 * p=3 (32 MiB), since 128 MiB is all an isolate has. Fixed: neither the config nor the
 * environment changes it, and it is frozen.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 * @see https://www.rfc-editor.org/rfc/rfc7914
 */
export const COST: Readonly<{ N: number; r: number; p: number }> = Object.freeze(ON_WORKERS ? { N: 2 ** 15, r: 8, p: 3 } : { N: 2 ** 17, r: 8, p: 1 });

/**
 * Verified against when no account exists, so the response time does not reveal that: a hash of
 * a random password at {@link COST}, the cost every new hash has, in `hashPassword`'s format.
 */
export const DUMMY_HASH: string = ON_WORKERS
	? 'scrypt$32768$8$3$HugJNLEW7saatsCucBr7GA$6yViWJC1hhj-lDZJ-U-t_vCo28XiYQUcxONpCfHHPls'
	: 'scrypt$131072$8$1$OoTck3Tn8Zh8UIa3iAnJtw$x2kh6rLUl_pB5zPEHxXd6E5n8HDEQpYxi3vw4KBM00I';
