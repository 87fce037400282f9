import { describe, expect, it, vi } from 'vitest';
import { hashPassword as betterAuthHash } from 'better-auth/crypto';
import { MemoryAdapter } from '../adapters/memory.js';
import { authorizeWithPassword, PASSWORD_PROVIDER } from './accounts.js';
import { verifyPassword } from './hashing.js';

// An app that never had Lucia has no @node-rs/argon2: importing it fails as Node's would.
vi.mock('@node-rs/argon2', () => {
	throw Object.assign(new Error("Cannot find package '@node-rs/argon2'"), { code: 'ERR_MODULE_NOT_FOUND' });
});

vi.setConfig({ testTimeout: 30_000 });
/** A Lucia hash of 'correct horse battery' (argon2id, m=19456, t=2, p=1), made by @node-rs/argon2 when this test was written. */
const LUCIA_HASH = '$argon2id$v=19$m=19456,t=2,p=1$CZ1oh6giDp2po1R+jQn/Mg$SXajSml8KI+kc3oJhQfMJi/ViVjeIIQDRnUjRtB30lA';

describe('an argon2 hash when @node-rs/argon2 is not installed', () => {
	it('fails closed: the sign-in is null, the hash stays, and one line naming the package is logged, with no secret', async () => {
		const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
		const adapter = MemoryAdapter();
		await adapter.createUser({ id: 'u-ada', email: 'ada@example.com', emailVerified: null, name: null, image: null });
		await adapter.linkAccount({ userId: 'u-ada', type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: 'ada@example.com', password_hash: LUCIA_HASH });
		expect(await authorizeWithPassword(adapter, { email: 'ada@example.com', password: 'correct horse battery' })).toBeNull();
		expect(await verifyPassword('correct horse battery', LUCIA_HASH)).toBe(false);
		expect((await adapter.getAccount('ada@example.com', PASSWORD_PROVIDER))?.password_hash).toBe(LUCIA_HASH);
		expect(consoleError).toHaveBeenCalledTimes(1);
		const logged = JSON.stringify(consoleError.mock.calls);
		expect(logged).toContain('@node-rs/argon2');
		expect(logged).not.toContain('correct horse battery');
		expect(logged).not.toContain('CZ1oh6gi');
	});

	it('leaves Better Auth’s hashes working', async () => {
		expect(await verifyPassword('correct horse battery', await betterAuthHash('correct horse battery'))).toBe(true);
	});
});
