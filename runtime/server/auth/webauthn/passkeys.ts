// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { adapterMethod, need } from '../adapters/methods.js';
import type { AdapterAuthenticator } from '../adapters/types.js';
import type { AccountMethods, SignInMethod } from '../config.js';
import { UntrustedHost } from '../errors.js';
import type { WebAuthnConfig } from '../providers/types.js';
import { relyingParty, toBase64, toBase64Url } from './ceremonies.js';
import { authenticatorModel } from './models.js';


/** One of the user's passkeys, for the account page. */
async function passkeyMethod(stored: AdapterAuthenticator, provider: WebAuthnConfig, signal: SignInMethod['signal'], renamable: boolean): Promise<SignInMethod> {
	return {
		provider: provider.id,
		kind: 'passkey',
		id: toBase64Url(stored.credentialID),
		label: stored.name || (await authenticatorModel(stored.aaguid)) || 'Passkey',
		detail: stored.credentialBackedUp ? 'Synced passkey' : 'Passkey on one device',
		createdAt: stored.createdAt?.toISOString() ?? null,
		lastUsedAt: stored.lastUsedAt?.toISOString() ?? null,
		synced: stored.credentialBackedUp,
		signal,
		removable: true,
		renamable
	};
}

/**
 * What the page's Signal API calls need, or undefined where the relying party cannot be told (no
 * `AUTH_URL` and an untrusted host: the list still shows, without the signals).
 */
function signalsOf(url: URL, config: Parameters<AccountMethods['list']>[1], provider: WebAuthnConfig, userId: string): SignInMethod['signal'] {
	try {
		return { rpId: relyingParty(url, config, provider).id, userId: Buffer.from(userId).toString('base64url') };
	} catch (err) {
		if (err instanceof UntrustedHost) return undefined;
		throw err;
	}
}

/**
 * The user's passkey `id` (base64url), when it is theirs.
 * @throws {AdapterError} the adapter failed.
 */
async function ownPasskey(config: Parameters<AccountMethods['list']>[1], userId: string, id: string): Promise<AdapterAuthenticator | undefined> {
	const stored = await need(config, 'getAuthenticator')(toBase64(id));
	return stored?.userId === userId ? stored : undefined;
}

/**
 * The account page's part of the passkey provider: the user's passkeys (name, model from the
 * AAGUID, when added and last used, synced or device-bound), removed (`deleteAuthenticator` and
 * the `webauthn` account) or renamed (`updateAuthenticator`). Each carries what the page's
 * WebAuthn Signal API calls need: the relying party id and the user handle the passkey was made
 * with (the user id's UTF-8, base64url).
 * @see create-auth docs/api.md#sign-in-methods
 */
export const passkeyMethods: AccountMethods<WebAuthnConfig> = {
	async list(user, config, provider, url) {
		const stored = await need(config, 'listAuthenticatorsByUserId')(user.id);
		const signal = signalsOf(url, config, provider, user.id);
		const renamable = Boolean(config.adapter?.updateAuthenticator);
		return Promise.all(stored.map((passkey) => passkeyMethod(passkey, provider, signal, renamable)));
	},
	async remove(user, config, provider, id) {
		const stored = await ownPasskey(config, user.id, id);
		if (!stored) return false;
		await need(config, 'deleteAuthenticator')(stored.credentialID);
		await adapterMethod(config.adapter, 'unlinkAccount')?.({ provider: provider.id, providerAccountId: stored.credentialID });
		return true;
	},
	async rename(user, config, _provider, id, name) {
		const stored = await ownPasskey(config, user.id, id);
		if (!stored) return false;
		await need(config, 'updateAuthenticator')({ credentialID: stored.credentialID, name });
		return true;
	}
};
