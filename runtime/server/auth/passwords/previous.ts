// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomUUID } from 'node:crypto';
import type { User } from '../../../auth/types.js';
import { adapterMethod } from '../adapters/methods.js';
import type { Adapter, AdapterUser, Awaitable } from '../adapters/types.js';
import { normalizeEmail } from '../email/address.js';
import { AuthError, CredentialsSignin } from '../errors.js';
import { toUser } from '../session/session.js';
import { hashPassword } from './hashing.js';
import { PASSWORD_PROVIDER } from './provider.js';

/**
 * The `authorize` an app's credentials provider had before create-auth (Auth.js's
 * `Credentials({ authorize })`, carried by `create-auth switch`): it checks a password against
 * the app's own users, as it did. Given the posted fields (strings) and the request; returns the
 * user (`id`, `email`, `name`, `image`) or null / undefined when the password is wrong. Throwing
 * {@link CredentialsSignin} (or a subclass with its own `code`) refuses the sign-in with that code.
 */
export type PreviousAuthorize = (credentials: Partial<Record<string, unknown>>, request: Request) => Awaitable<User | null | undefined>;

/** The adapter methods {@link adoptPreviousUser} needs. */
export type AdoptingAdapter = Pick<Adapter, 'getUser' | 'getUserByEmail' | 'createUser' | 'linkAccount' | 'getAccount'>;

/**
 * Signs in a user the app's previous `authorize` knows and create-auth does not yet, and keeps
 * the user: from then on create-auth's password account answers, and `previous` is not asked
 * again for this address (a lazy migration, one user at a time, at the user's own sign-in).
 *
 * `previous` is asked only for an address that has no create-auth password account (the caller,
 * `authorizeWithPassword`, makes sure): an address that has one never falls back to the old
 * check, so a password changed or reset here is the only one that works. When `previous`
 * returns a user, the user is stored with its own id (so sessions carried over from the old
 * library and the app's own rows keyed by it still match) and its name and image, the address
 * unconfirmed, and a `credentials` account with {@link hashPassword}'s hash of `password`.
 *
 * Refused (null, a reason logged with `console.error`, nothing stored) when:
 * - the user `previous` returns has no address, or another than the one typed (create-auth keys
 *   password accounts by address);
 * - create-auth already has another user at that address, or another address under that id:
 *   a password checked by the old store never takes over an account made here, which could be
 *   an attacker's made in the victim's name (the pre-hijacking attacks of Sudhodanan and
 *   Paverd, USENIX Security 2022).
 * An error `previous` throws that is not an {@link AuthError} (its own lookup failed) is logged
 * and is a refusal too; an `AuthError` (`CredentialsSignin` with its `code`) is rethrown.
 * @param email the typed address, normalized (`normalizeEmail`)
 * @param password the typed password, as posted
 * @throws {AdapterError} naming the method, when create-auth's store fails
 * @throws {RateLimited} the password-hashing queue is full
 */
export async function adoptPreviousUser(
	store: AdoptingAdapter,
	previous: PreviousAuthorize,
	credentials: Partial<Record<string, unknown>>,
	request: Request,
	email: string,
	password: string
): Promise<User | null> {
	let found: User | null | undefined;
	try {
		found = await previous(credentials, request);
	} catch (err) {
		if (err instanceof AuthError) throw err;
		console.error(new CredentialsSignin("The app's previous authorize failed; the sign-in is refused.", { err: err as Error }));
		return null;
	}
	if (!found) return null;
	const refuse = (why: string) => {
		console.error(new CredentialsSignin(`The app's previous authorize signed in ${email}, but ${why}: refused, nothing stored.`));
		return null;
	};
	const address = typeof found.email === 'string' ? normalizeEmail(found.email) : '';
	if (address !== email) return refuse(`the user it returned has ${address ? `another address (${address})` : 'no address'}`);
	const adapter = {
		getUser: adapterMethod(store, 'getUser')!,
		getUserByEmail: adapterMethod(store, 'getUserByEmail')!,
		createUser: adapterMethod(store, 'createUser')!,
		linkAccount: adapterMethod(store, 'linkAccount')!,
		getAccount: adapterMethod(store, 'getAccount')!
	};
	const id = found.id ? String(found.id) : randomUUID();
	const [byEmail, byId] = await Promise.all([adapter.getUserByEmail(email), adapter.getUser(id)]);
	if (byEmail && byEmail.id !== id) return refuse('create-auth has another user at that address');
	if (byId && byId.email !== email) return refuse(`create-auth has a user with its id ${id} at another address`);
	const password_hash = await hashPassword(password);
	let user: AdapterUser;
	try {
		user = byId ?? (await adapter.createUser({ id, email, emailVerified: null, name: found.name ?? null, image: found.image ?? null }));
		await adapter.linkAccount({ userId: user.id, type: PASSWORD_PROVIDER, provider: PASSWORD_PROVIDER, providerAccountId: email, password_hash });
	} catch (err) {
		// A concurrent sign-in of the same user stored it first: its rows are the same.
		const [again, account] = await Promise.all([adapter.getUser(id), adapter.getAccount(email, PASSWORD_PROVIDER)]);
		if (!again || account?.userId !== id) throw err;
		user = again;
	}
	return toUser(user);
}
