import { hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword as betterAuthHash } from 'better-auth/crypto';
import type { Adapter } from '../server/auth/adapters/types.js';
import { authorizeWithPassword, PASSWORD_PROVIDER } from '../server/auth/passwords/accounts.js';

/**
 * A user of an app switched from another library, whose password account holds that library's
 * hash as it was copied over: the fixtures of the rehash at sign-in (`passwords/rehash.test.ts`
 * at the production cost, `passwords/rehash-keeps.test.ts` at the unit tests' low one). Imported
 * after a file's `vi.unmock` of `cost.js`, it hashes at the cost that file runs at.
 */
export const PASSWORD = 'correct horse battery';
export const EMAIL = 'ada@example.com';

/** Hashes of {@link PASSWORD} as the libraries an app may switch from made them. */
export const foreignHashes = {
	'Better Auth': () => betterAuthHash(PASSWORD),
	'Lucia (argon2id, as sv add lucia)': () => argon2Hash(PASSWORD, { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 })
};

/** A user whose password account holds `password_hash` as it was copied from the old library. */
export async function switchedUser(adapter: Adapter, password_hash: string): Promise<void> {
	await adapter.createUser!({ id: 'u-ada', email: EMAIL, emailVerified: new Date(0), name: 'Ada', image: null });
	await adapter.linkAccount!({ userId: 'u-ada', type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: EMAIL, password_hash });
}

/** The hash the user's password account holds now. */
export const storedHash = async (adapter: Adapter) => (await adapter.getAccount!(EMAIL, PASSWORD_PROVIDER))?.password_hash;

/** The user's sign-in with `password` (the right one by default). */
export const signIn = (adapter: Adapter, password = PASSWORD) => authorizeWithPassword(adapter as never, { email: EMAIL, password });
