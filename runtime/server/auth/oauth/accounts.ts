// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { User } from '../../../auth/types.js';
import type { Adapter, AdapterAccount, AdapterUser } from '../adapters/types.js';
import type { Account, ResolvedConfig } from '../config.js';
import { OAuthAccountNotLinked } from '../errors.js';
import { need } from '../adapters/methods.js';
import { toUser } from '../session/session.js';

/**
 * Finds or creates the user an OAuth account signs in as. Without an adapter the profile's user
 * is used as is (its id is the provider's). With one:
 * 1. the account is already linked → its user;
 * 2. someone is signed in (`currentUserId`) → the account is linked to them;
 * 3. a user has the profile's email → linked only if the provider sets
 *    `allowDangerousEmailAccountLinking`, else {@link OAuthAccountNotLinked} (a profile without
 *    email, such as the social provider's over OAuth 2, skips this step);
 * 4. otherwise a new user (`emailVerified` null; `email` null when the profile has none) and
 *    the account linked to it. Concurrent first sign-ins of one account make one user, on one
 *    server and across servers (see {@link firstSignIn}).
 * @throws {OAuthAccountNotLinked} case 3 without the opt-in.
 * @throws {MissingAdapter} the adapter lacks a method this needs (the message names it).
 * @see create-auth docs/api.md#account-linking
 */
export async function userForAccount(
	config: ResolvedConfig,
	profileUser: User,
	account: Account,
	options: { allowDangerousEmailAccountLinking?: boolean; currentUserId?: string }
): Promise<User> {
	if (!config.adapter) return profileUser;
	const { provider, providerAccountId } = account;
	const linked = await need(config, 'getUserByAccount')({ provider, providerAccountId });
	if (linked) return toUser(linked);

	const link = async (userId: string) => {
		const { type, ...rest } = account;
		await need(config, 'linkAccount')({ ...rest, type: type as AdapterAccount['type'], userId } as AdapterAccount);
	};
	if (options.currentUserId) {
		await link(options.currentUserId);
		const current = await need(config, 'getUser')(options.currentUserId);
		return current ? toUser(current) : profileUser;
	}
	// A first sign-in. Concurrent ones for the same account (a double click, two tabs) share the
	// first one's work, so this server makes one user of them.
	const key = JSON.stringify([provider, providerAccountId]);
	let flights = firstSignIns.get(config.adapter);
	if (!flights) firstSignIns.set(config.adapter, (flights = new Map()));
	let flight = flights.get(key);
	if (!flight) {
		const done = flights;
		flight = firstSignIn(config, profileUser, account, link, options).finally(() => done.delete(key));
		flights.set(key, flight);
	}
	return flight;
}

/** First sign-ins in flight, per adapter, by account. */
const firstSignIns = new WeakMap<Adapter, Map<string, Promise<User>>>();

/**
 * Steps 3 and 4 of {@link userForAccount}. Another server of the app may be signing the same
 * account in at the same moment: the database's unique keys then refuse the loser's user or
 * link, and the loser signs in as the winner's user, deleting the user it made.
 */
async function firstSignIn(
	config: ResolvedConfig,
	profileUser: User,
	account: Account,
	link: (userId: string) => Promise<void>,
	options: { allowDangerousEmailAccountLinking?: boolean }
): Promise<User> {
	const { provider, providerAccountId } = account;
	const linked = () => need(config, 'getUserByAccount')({ provider, providerAccountId });
	const winner = async (error: unknown) => {
		const user = await linked();
		if (!user) throw error;
		return toUser(user);
	};
	// A flight that ended between the caller's lookup and this one has linked the account.
	const linkedMeanwhile = await linked();
	if (linkedMeanwhile) return toUser(linkedMeanwhile);
	const email = profileUser.email?.toLowerCase();
	const sameEmail = email ? await need(config, 'getUserByEmail')(email) : null;
	if (sameEmail) {
		if (!options.allowDangerousEmailAccountLinking) {
			throw new OAuthAccountNotLinked(`${email} already has an account that did not sign in with ${provider}.`, { provider });
		}
		await link(sameEmail.id);
		return toUser(sameEmail);
	}
	let created: AdapterUser;
	try {
		created = await need(config, 'createUser')({
			id: crypto.randomUUID(),
			email: email ?? null,
			emailVerified: null,
			name: profileUser.name ?? null,
			image: profileUser.image ?? null
		});
	} catch (error) {
		return winner(error);
	}
	try {
		await link(created.id);
	} catch (error) {
		const user = await winner(error);
		await config.adapter?.deleteUser?.(created.id);
		return user;
	}
	return toUser(created);
}
