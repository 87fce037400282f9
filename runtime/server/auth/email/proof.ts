// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { AdapterAccount, AdapterUser, ProviderAccount } from '../adapters/types.js';
import type { ResolvedConfig } from '../config.js';
import { MissingAdapter } from '../errors.js';
import { adapterMethod, need } from '../adapters/methods.js';
import { appBase } from '../http/app-paths.js';
import { requestConfig } from '../http/guards.js';
import { authCookie } from '../session/cookies.js';
import { endUserSessions, type SessionContext } from '../session/session.js';

/**
 * What proving an address took away from an account whose address had never been proven: the
 * password set before (`password`), the passkeys registered before (`passkeys`, a count), and
 * the providers whose sign-ins had been linked before (`providers`, their ids).
 */
export interface ProofRemovals {
	password: boolean;
	passkeys: number;
	providers: string[];
}

/** What a proof of an address proven before removes: nothing. */
export const nothingRemoved = (): ProofRemovals => ({ password: false, passkeys: 0, providers: [] });

/** A user whose address a flow has just proven, and what that took away. */
export interface ProvenAddress {
	user: AdapterUser;
	removed: ProofRemovals;
}

/**
 * The `password_hash` of a password account whose password was removed: no scrypt string, so
 * it verifies no password, and the account stays for the owner's next password reset.
 */
export const REMOVED_PASSWORD = '';

/** How long the account page can still tell the user what a proof removed: seconds. */
const NOTICE_MAX_AGE = 10 * 60;

/**
 * Marks `user`'s address proven: an email sign-in link, an address confirmation, a password
 * reset, or an OAuth sign-in whose provider vouches for the address (`email_verified`). When it
 * had never been proven (`emailVerified` null), whatever was set up on the account before could
 * be someone else's, who registered the address first: account pre-hijacking (Sudhodanan &
 * Paverd, "Pre-hijacked accounts", USENIX Security 2022). So, before `emailVerified` is set:
 * - the password (the account holding a `password_hash`) is removed ({@link REMOVED_PASSWORD}),
 *   unless `keep` is that account (a reset, whose new password the owner just chose);
 * - every other account but `keep` is unlinked (OAuth and OIDC links, passkeys' accounts), and
 *   the passkeys deleted (`listAccountsByUserId`, `deleteAuthenticator`; an adapter without them
 *   leaves them, logged as {@link MissingAdapter}). An account of an email sign-in cannot be
 *   there: that sign-in would have proven the address;
 * - every session of the user ends ({@link endUserSessions}; JWT sessions issued before carry
 *   `email_verified: false` and end at their next check, see docs/api.md#pre-hijacked-accounts).
 * A user whose address was proven before is returned as is, nothing removed.
 * @param keep the account the proof came through (the `email` account, the OAuth account being
 *   linked, the `credentials` account of a reset), left in place.
 * @throws {AdapterError} the adapter failed; {@link MissingAdapter} it lacks `updateUser`.
 * @see create-auth docs/api.md#pre-hijacked-accounts
 */
export async function proveAddress(
	context: SessionContext,
	config: ResolvedConfig,
	user: AdapterUser,
	keep: ProviderAccount
): Promise<ProvenAddress> {
	const removed = nothingRemoved();
	if (user.emailVerified) return { user, removed };
	const kept = (account: ProviderAccount) => account.provider === keep.provider && account.providerAccountId === keep.providerAccountId;

	const accounts = await accountsOf(config, user);
	const passkeys = await passkeysOf(config, user.id);
	const passkeyAccounts = new Set(passkeys);
	const unlink = need(config, 'unlinkAccount');
	for (const account of accounts) {
		if (kept(account)) continue;
		if (typeof account.password_hash === 'string') {
			// The password account stays, emptied, for the owner's next "Forgot password".
			if (account.password_hash === REMOVED_PASSWORD) continue;
			await unlink(account);
			await need(config, 'linkAccount')({ ...account, password_hash: REMOVED_PASSWORD });
			removed.password = true;
			continue;
		}
		await unlink(account);
		// A passkey's account is named by its credential id; passkeys are counted apart.
		const passkey = passkeyAccounts.has(account.providerAccountId);
		if (!passkey && !removed.providers.includes(account.provider)) removed.providers.push(account.provider);
	}
	removed.passkeys = await deletePasskeys(config, user.id, passkeys);
	await endUserSessions(context, config, user.id);
	const proven = await need(config, 'updateUser')({ id: user.id, emailVerified: new Date() });
	if (afterProof(context, config, removed, undefined)) setNotice(context, config, removed);
	return { user: proven, removed };
}

/**
 * The user's accounts, through `listAccountsByUserId`. An adapter without it (an Auth.js one)
 * cannot say which accounts a user has: none is removed, and that is logged.
 */
async function accountsOf(config: ResolvedConfig, user: AdapterUser): Promise<AdapterAccount[]> {
	const list = adapterMethod(config.adapter, 'listAccountsByUserId');
	if (list) return list(user.id);
	config.logger.error(
		new MissingAdapter(`The adapter has no listAccountsByUserId() method: the password and OAuth links of user ${user.id} set up before the address was proven stay.`)
	);
	return [];
}

/** The credential ids of the user's passkeys (none when the adapter cannot list them). */
async function passkeysOf(config: ResolvedConfig, userId: string): Promise<string[]> {
	const list = adapterMethod(config.adapter, 'listAuthenticatorsByUserId');
	return list ? (await list(userId)).map(({ credentialID }) => credentialID) : [];
}

/** Deletes the user's passkeys; returns how many it deleted. */
async function deletePasskeys(config: ResolvedConfig, userId: string, credentialIDs: string[]): Promise<number> {
	if (credentialIDs.length === 0) return 0;
	const remove = adapterMethod(config.adapter, 'deleteAuthenticator');
	if (!remove) {
		config.logger.error(new MissingAdapter(`The adapter has no deleteAuthenticator() method: the passkeys of user ${userId} made before the address was proven stay.`));
		return 0;
	}
	for (const credentialID of credentialIDs) await remove(credentialID);
	return credentialIDs.length;
}

/** The cookie that carries what a proof removed to the account page (see {@link takeProofNotice}). */
const noticeCookie = ({ url }: SessionContext, config: ResolvedConfig) => authCookie(url, config.useSecureCookies, 'address-proven');

function setNotice(context: SessionContext, config: ResolvedConfig, removed: ProofRemovals): void {
	const { name, options } = noticeCookie(context, config);
	context.cookies.set(name, JSON.stringify(removed), { ...options, maxAge: NOTICE_MAX_AGE });
}

/**
 * What the last proof of this browser's address removed, once: the cookie is deleted as it is
 * read. Null when there is none, or it is malformed.
 */
export function takeProofNotice(context: SessionContext, config: ResolvedConfig): ProofRemovals | null {
	const { name, options } = noticeCookie(context, config);
	const value = context.cookies.get(name);
	if (!value) return null;
	context.cookies.delete(name, options);
	try {
		const parsed = JSON.parse(value) as Partial<ProofRemovals>;
		const providers = Array.isArray(parsed.providers) ? parsed.providers.filter((id): id is string => typeof id === 'string') : [];
		return { password: parsed.password === true, passkeys: Number.isSafeInteger(parsed.passkeys) ? Number(parsed.passkeys) : 0, providers };
	} catch {
		return null;
	}
}

/** A list in words: `a`, `a and b`, `a, b and c`. */
const inWords = (items: string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The sentence the account page shows after a proof removed something (English); `providers` as they should read (names). */
export function proofNoticeText(removed: ProofRemovals): string {
	const parts = [
		...(removed.password ? ['a password'] : []),
		...(removed.passkeys > 0 ? [removed.passkeys === 1 ? 'a passkey' : `${removed.passkeys} passkeys`] : []),
		...(removed.providers.length > 0 ? [`sign-in with ${inWords(removed.providers)}`] : [])
	];
	const again = removed.password ? ' To sign in with a password, choose a new one with “Forgot password”.' : '';
	return `Your email address is confirmed. ${capitalize(inWords(parts))} had been set up on this account before it was, possibly by someone else, and ${parts.length === 1 ? 'was' : 'were'} removed; every other session was signed out.${again}`;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * For the account page's `load`: the sentence saying what the last sign-in that proved this
 * browser's address removed ({@link proofNoticeText}, providers by their names), once; null when
 * it removed nothing.
 * @throws {Error} the request did not pass through the auth handle (`hooks.server.ts`).
 * @see create-auth docs/api.md#pre-hijacked-accounts
 */
export async function addressProvenNotice(event: RequestEvent): Promise<string | null> {
	const config = await requestConfig(event);
	const removed = takeProofNotice(event, config);
	if (!removed) return null;
	// Providers by the name their buttons show (GitHub), where the config still has them.
	const named = removed.providers.map((id) => config.providers.find((provider) => provider.id === id)?.name ?? id);
	return proofNoticeText({ ...removed, providers: named });
}

/**
 * Where a sign-in that proved an address goes: the account page (`pages.account`, under
 * SvelteKit's `paths.base`) when the proof removed something, so the user reads what; else
 * `target`.
 */
export function afterProof(context: SessionContext, config: ResolvedConfig, removed: ProofRemovals, target: string | undefined): string | undefined {
	const anything = removed.password || removed.passkeys > 0 || removed.providers.length > 0;
	return anything ? `${appBase(context.url, config)}${config.pages.account}` : target;
}
