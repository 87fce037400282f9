// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { need } from '../adapters/methods.js';
import type { AccountMethods, ProviderConfig } from '../config.js';

/**
 * The account page's part of an OAuth provider (OAuth 2 and 1.0a alike): the user's accounts
 * linked through it, each removable (`unlinkAccount`). Linking another is signing in with the
 * provider while signed in (`userForAccount`).
 * @see create-auth docs/api.md#sign-in-methods
 */
export const linkedAccounts: AccountMethods<ProviderConfig> = {
	linkable: true,
	async list(user, config, provider) {
		const accounts = await need(config, 'listAccountsByUserId')(user.id);
		return accounts
			.filter((account) => account.provider === provider.id)
			.map((account) => ({
				provider: provider.id,
				kind: 'oauth' as const,
				id: account.providerAccountId,
				label: provider.name,
				detail: `Account ${account.providerAccountId}`,
				removable: true,
				renamable: false
			}));
	},
	async remove(user, config, provider, id) {
		const account = await need(config, 'getAccount')(id, provider.id);
		if (account?.userId !== user.id) return false;
		await need(config, 'unlinkAccount')({ provider: provider.id, providerAccountId: id });
		return true;
	}
};
