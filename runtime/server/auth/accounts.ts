// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { User } from '../../auth/types.js';
import type { AdapterAccount, AdapterUser } from './adapters/types.js';
import type { Account, ResolvedConfig } from './config.js';
import { OAuthAccountNotLinked } from './errors.js';
import { need } from './session.js';

const toUser = (user: AdapterUser): User => ({ id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null });

/**
 * Finds or creates the user an OAuth account signs in as. Without an adapter the profile's user
 * is used as is (its id is the provider's). With one:
 * 1. the account is already linked → its user;
 * 2. someone is signed in (`currentUserId`) → the account is linked to them;
 * 3. a user has the profile's email → linked only if the provider sets
 *    `allowDangerousEmailAccountLinking`, else {@link OAuthAccountNotLinked} (a profile without
 *    email, such as the social provider's over OAuth 2, skips this step);
 * 4. otherwise a new user (`emailVerified` null; `email` null when the profile has none) and
 *    the account linked to it.
 * @throws {OAuthAccountNotLinked} case 3 without the opt-in.
 * @throws {MissingAdapter} the adapter lacks a method this needs (the message names it).
 * @see spec/interface.md "Authentication" rule 9, "States and transitions" rule 4
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
	const email = profileUser.email?.toLowerCase();
	const sameEmail = email ? await need(config, 'getUserByEmail')(email) : null;
	if (sameEmail) {
		if (!options.allowDangerousEmailAccountLinking) {
			throw new OAuthAccountNotLinked(`${email} already has an account that did not sign in with ${provider}.`, { provider });
		}
		await link(sameEmail.id);
		return toUser(sameEmail);
	}
	const created = await need(config, 'createUser')({
		id: crypto.randomUUID(),
		email: email ?? null,
		emailVerified: null,
		name: profileUser.name ?? null,
		image: profileUser.image ?? null
	});
	await link(created.id);
	return toUser(created);
}
