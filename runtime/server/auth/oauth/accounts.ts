// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { User } from '../../../auth/types.js';
import type { Adapter, AdapterAccount, AdapterUser } from '../adapters/types.js';
import type { Account, ResolvedConfig } from '../config.js';
import { OAuthAccountNotLinked } from '../errors.js';
import { need } from '../adapters/methods.js';
import { nothingRemoved, proveAddress, type ProofRemovals } from '../email/proof.js';
import { toUser, type SessionContext } from '../session/session.js';

/**
 * Finds or creates the user an OAuth account signs in as, with what linking it removed (nothing
 * but in case 3). Without an adapter the profile's user is used as is (its id is the provider's).
 * With one:
 * 1. the account is already linked → its user; when the provider vouches for the address
 *    (`emailVerified`) and it is the user's, never proven before, it is marked proven. Nothing is
 *    removed: an account linked to an identity vouched for this address was linked by someone
 *    signed in to the account who held that identity, its owner;
 * 2. someone is signed in (`currentUserId`) → the account is linked to them;
 * 3. a user has the profile's email → linked only if the provider sets
 *    `allowDangerousEmailAccountLinking` AND vouches for the address, else
 *    {@link OAuthAccountNotLinked} (a provider that does not say `email_verified: true` never
 *    links by email: anyone can claim an address there). Linking proves the address: what was set
 *    up on an account whose address was never proven is removed (pre-hijacked accounts, USENIX
 *    Security 2022, the classic-federated merge). A profile without email, such as the social
 *    provider's over OAuth 2, skips this step;
 * 4. otherwise a new user (`emailVerified` now when the provider vouched for the address, else
 *    null; `email` null when the profile has none) and the account linked to it. Concurrent first
 *    sign-ins of one account make one user, on one server and across servers (see {@link firstSignIn}).
 * @param context the request's cookies and URL: a proof ends the user's sessions.
 * @throws {OAuthAccountNotLinked} case 3 without the opt-in or without the provider vouching.
 * @throws {MissingAdapter} the adapter lacks a method this needs (the message names it).
 * @see create-auth docs/api.md#account-linking, #pre-hijacked-accounts
 */
export async function userForAccount(
	context: SessionContext,
	config: ResolvedConfig,
	profileUser: User,
	account: Account,
	options: LinkOptions & { currentUserId?: string }
): Promise<AccountUser> {
	if (!config.adapter) return { user: profileUser, removed: nothingRemoved() };
	const { provider, providerAccountId } = account;
	const linked = await need(config, 'getUserByAccount')({ provider, providerAccountId });
	if (linked) {
		const vouched = options.emailVerified && !linked.emailVerified && linked.email !== null && linked.email === profileUser.email?.toLowerCase();
		const user = vouched ? await need(config, 'updateUser')({ id: linked.id, emailVerified: new Date() }) : linked;
		return { user: toUser(user), removed: nothingRemoved() };
	}

	const link = async (userId: string) => {
		const { type, ...rest } = account;
		await need(config, 'linkAccount')({ ...rest, type: type as AdapterAccount['type'], userId } as AdapterAccount);
	};
	if (options.currentUserId) {
		await link(options.currentUserId);
		const current = await need(config, 'getUser')(options.currentUserId);
		return { user: current ? toUser(current) : profileUser, removed: nothingRemoved() };
	}
	// A first sign-in. Concurrent ones for the same account (a double click, two tabs) share the
	// first one's work, so this server makes one user of them.
	const key = JSON.stringify([provider, providerAccountId]);
	let flights = firstSignIns.get(config.adapter);
	if (!flights) firstSignIns.set(config.adapter, (flights = new Map()));
	let flight = flights.get(key);
	if (!flight) {
		const done = flights;
		flight = firstSignIn(context, config, profileUser, account, link, options).finally(() => done.delete(key));
		flights.set(key, flight);
	}
	return flight;
}

/** The user an OAuth account signs in as, and what linking it removed from an unproven account ({@link proveAddress}). */
export interface AccountUser {
	user: User;
	removed: ProofRemovals;
}

/**
 * How an OAuth sign-in may link by email: `allowDangerousEmailAccountLinking` (the provider's
 * opt-in) and `emailVerified` (the provider vouched for the profile's address: `email_verified: true`).
 */
export interface LinkOptions {
	allowDangerousEmailAccountLinking?: boolean;
	emailVerified?: boolean;
}

/** First sign-ins in flight, per adapter, by account. */
const firstSignIns = new WeakMap<Adapter, Map<string, Promise<AccountUser>>>();

/**
 * Steps 3 and 4 of {@link userForAccount}. Another server of the app may be signing the same
 * account in at the same moment: the database's unique keys then refuse the loser's user or
 * link, and the loser signs in as the winner's user, deleting the user it made.
 */
async function firstSignIn(
	context: SessionContext,
	config: ResolvedConfig,
	profileUser: User,
	account: Account,
	link: (userId: string) => Promise<void>,
	options: LinkOptions
): Promise<AccountUser> {
	const { provider, providerAccountId } = account;
	const linked = () => need(config, 'getUserByAccount')({ provider, providerAccountId });
	const winner = async (error: unknown): Promise<AccountUser> => {
		const user = await linked();
		if (!user) throw error;
		return { user: toUser(user), removed: nothingRemoved() };
	};
	// A flight that ended between the caller's lookup and this one has linked the account.
	const linkedMeanwhile = await linked();
	if (linkedMeanwhile) return { user: toUser(linkedMeanwhile), removed: nothingRemoved() };
	const email = profileUser.email?.toLowerCase();
	const sameEmail = email ? await need(config, 'getUserByEmail')(email) : null;
	if (sameEmail) {
		if (!options.allowDangerousEmailAccountLinking) {
			throw new OAuthAccountNotLinked(`${email} already has an account that did not sign in with ${provider}.`, { provider });
		}
		if (!options.emailVerified) {
			throw new OAuthAccountNotLinked(`${provider} does not vouch for ${email} (no email_verified): not linked to its account.`, { provider });
		}
		await link(sameEmail.id);
		const { user, removed } = await proveAddress(context, config, sameEmail, account);
		return { user: toUser(user), removed };
	}
	let created: AdapterUser;
	try {
		created = await need(config, 'createUser')({
			id: crypto.randomUUID(),
			email: email ?? null,
			emailVerified: email && options.emailVerified ? new Date() : null,
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
	return { user: toUser(created), removed: nothingRemoved() };
}
