// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from './types.js';
import { HostedDbClient, HostedDbError, hostedDbSchema, type AccountsRecord, type SessionsRecord, type UsersRecord } from './hosted-db-client.js';

// The app's src/auth.ts makes the client and the adapter from this one module.
export { HostedDbClient, HostedDbError, type BaseClientOptions } from './hosted-db-client.js';

/** The second factor's adapter methods: the hosted schema has no table for them. */
type TwoFactorMethods = 'getTwoFactor' | 'createTwoFactor' | 'updateTwoFactorSecret' | 'deleteTwoFactor' | 'useTotpStep' | 'replaceRecoveryCodes' | 'useRecoveryCode';

/** The adapter methods that {@link HostedDbAdapter} has: all but the authenticator and two-factor ones. */
export type HostedDbAdapterMethods = Required<
	Omit<
		Adapter,
		'createAuthenticator' | 'getAuthenticator' | 'listAuthenticatorsByUserId' | 'updateAuthenticatorCounter' | 'deleteAuthenticator' | 'updateAuthenticator' | TwoFactorMethods
	>
>;

/** Account fields kept in `authlib_accounts` (`userId` is the `user` link); other fields are not stored. */
const ACCOUNT_COLUMNS = [
	'type', 'provider', 'providerAccountId', 'access_token', 'refresh_token', 'id_token', 'scope', 'token_type',
	'expires_at', 'session_state', 'oauth_token', 'oauth_token_secret', 'password_hash'
] as const satisfies readonly (keyof AccountsRecord & keyof AdapterAccount)[];

/** The given keys of `record` whose value is not undefined. */
function defined<T extends object, C extends keyof T>(record: T, keys: readonly C[]): Partial<Pick<T, C>> {
	const picked: Partial<Pick<T, C>> = {};
	for (const key of keys) if (record[key] !== undefined) picked[key] = record[key];
	return picked;
}

/**
 * A record id made from a key of several strings: hex SHA-256 of `[kind, ...parts]`. Accounts,
 * sessions and verification tokens use it, so their id is their key: a second account for one
 * provider account is refused (409) like a unique key, and a lookup or delete is one request by id.
 */
async function keyId(kind: string, ...parts: unknown[]): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([kind, ...parts])));
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const toUser = (record: UsersRecord): AdapterUser => ({
	id: record.id,
	email: record.email ?? null,
	emailVerified: record.emailVerified ?? null,
	name: record.name ?? null,
	image: record.image ?? null
});

/** Unset (null) columns are left out, as the account types say. */
function toAccount(record: AccountsRecord): AdapterAccount {
	const account: Record<string, unknown> = { userId: record.user?.id };
	for (const column of ACCOUNT_COLUMNS) if (record[column] !== null && record[column] !== undefined) account[column] = record[column];
	return account as AdapterAccount;
}

// The adapter writes every session and token column, so they are present when read.
const toSession = (record: SessionsRecord, userId = record.user?.id): AdapterSession => ({
	sessionToken: record.sessionToken!,
	userId: userId!,
	expires: record.expires!
});

/** Records a paginated delete reads at a time. */
const PAGE = 200;

/**
 * The spec's adapter over a hosted database's record API ({@link HostedDbClient}), with the
 * semantics of the SQL adapters: every method async (failures are rejected promises, often a
 * {@link HostedDbError}), null for what is absent, Dates as `Date`.
 *
 * - Accounts, sessions and verification tokens have ids derived from their keys ({@link keyId});
 *   each account and session also has a row of the same id in `authlib_users_accounts` /
 *   `authlib_users_sessions`, inserted with it in one transaction and deleted just before it.
 *   `getUserByAccount` and `getSessionAndUser` read through those link tables, one query each.
 * - `linkAccount` rejects (409) an account that is linked already; `createUser` rejects (409) an
 *   email that exists, through the unique column of {@link hostedDbSchema}.
 * - `deleteUser` deletes the user's accounts, sessions and their link rows, then the user;
 *   `deleteUserSessions` the sessions alone.
 * - `useVerificationToken` is one DELETE: of concurrent uses exactly one gets the token, and an
 *   expired one is deleted and answers null.
 *
 * The spec's hosted schema has no authenticator table, so the WebAuthn methods
 * (`createAuthenticator`, `getAuthenticator`, `listAuthenticatorsByUserId`,
 * `updateAuthenticatorCounter`, and create-auth's `deleteAuthenticator`) are absent, and a flow that needs them fails as the spec's
 * "Errors" table says for a missing adapter method; so are the two-factor methods (no table either).
 * @see create-auth docs/api.md#adapter-methods, #hosted-database-schema
 */
export function HostedDbAdapter(client: HostedDbClient): HostedDbAdapterMethods {
	const { db } = client;
	const accountId = (provider: string, providerAccountId: string) => keyId('account', provider, providerAccountId);
	const sessionId = (sessionToken: string) => keyId('session', sessionToken);
	const tokenId = (identifier: string, token: string) => keyId('verificationToken', identifier, token);
	/** Deletes an account (its link row first); resolves with it when this call deleted it. */
	const removeAccount = async (id: string) => {
		await db.authlib_users_accounts.delete(id);
		return db.authlib_accounts.delete(id);
	};
	const removeSession = async (id: string) => {
		await db.authlib_users_sessions.delete(id);
		return db.authlib_sessions.delete(id);
	};
	const removeUserSessions = async (userId: string) => {
		let sessions: SessionsRecord[];
		while ((sessions = await db.authlib_sessions.filter({ user: userId }).getMany({ size: PAGE })).length > 0) {
			await Promise.all(sessions.map(({ id }) => removeSession(id)));
		}
	};

	return {
		async createUser(user) {
			const { id, email, emailVerified, name = null, image = null } = user;
			return toUser(await db.authlib_users.create({ id, email: email ?? null, emailVerified: emailVerified ?? null, name, image }));
		},
		async getUser(id) {
			const record = await db.authlib_users.read(id);
			return record && toUser(record);
		},
		async getUserByEmail(email) {
			const record = await db.authlib_users.filter({ email }).getFirst();
			return record && toUser(record);
		},
		async getUserByAccount({ provider, providerAccountId }) {
			const row = await db.authlib_users_accounts
				.filter({ 'account.provider': provider, 'account.providerAccountId': providerAccountId })
				.select(['user.*'])
				.getFirst();
			return row?.user ? toUser(row.user) : null;
		},
		async updateUser(user) {
			const updated = await db.authlib_users.update(user.id, defined(user, ['email', 'emailVerified', 'name', 'image']));
			if (!updated) throw new Error(`updateUser: no user with id ${user.id}`);
			return toUser(updated);
		},
		async deleteUser(userId) {
			let accounts: AccountsRecord[];
			while ((accounts = await db.authlib_accounts.filter({ user: userId }).getMany({ size: PAGE })).length > 0) {
				await Promise.all(accounts.map(({ id }) => removeAccount(id)));
			}
			await removeUserSessions(userId);
			const deleted = await db.authlib_users.delete(userId);
			return deleted && toUser(deleted);
		},
		async linkAccount(account) {
			const id = await accountId(account.provider, account.providerAccountId);
			await client.transactions.run([
				{ insert: { table: 'authlib_accounts', record: { id, user: account.userId, ...defined(account, ACCOUNT_COLUMNS) } } },
				{ insert: { table: 'authlib_users_accounts', record: { id, user: account.userId, account: id } } }
			]);
			return account;
		},
		async unlinkAccount({ provider, providerAccountId }) {
			const removed = await removeAccount(await accountId(provider, providerAccountId));
			return removed ? toAccount(removed) : undefined;
		},
		async getAccount(providerAccountId, provider) {
			const record = await db.authlib_accounts.read(await accountId(provider, providerAccountId));
			return record && toAccount(record);
		},
		async listAccountsByUserId(userId) {
			// A user has a handful of accounts; one page holds them.
			return (await db.authlib_accounts.filter({ user: userId }).getMany({ size: PAGE })).map(toAccount);
		},
		async createSession({ sessionToken, userId, expires }) {
			const id = await sessionId(sessionToken);
			await client.transactions.run([
				{ insert: { table: 'authlib_sessions', record: { id, sessionToken, expires, user: userId } } },
				{ insert: { table: 'authlib_users_sessions', record: { id, user: userId, session: id } } }
			]);
			return { sessionToken, userId, expires };
		},
		async getSessionAndUser(sessionToken) {
			const row = await db.authlib_users_sessions
				.filter({ 'session.sessionToken': sessionToken })
				.select(['session.*', 'user.*'])
				.getFirst();
			if (!row?.session || !row.user) return null;
			return { session: toSession(row.session, row.user.id), user: toUser(row.user) };
		},
		async updateSession({ sessionToken, expires, userId }) {
			const id = await sessionId(sessionToken);
			const updated = await db.authlib_sessions.update(id, defined({ expires, user: userId }, ['expires', 'user']));
			if (!updated) return null;
			if (userId !== undefined) await db.authlib_users_sessions.update(id, { user: userId });
			return toSession(updated);
		},
		async deleteSession(sessionToken) {
			const removed = await removeSession(await sessionId(sessionToken));
			return removed && toSession(removed);
		},
		async deleteUserSessions(userId) {
			await removeUserSessions(userId);
		},
		async listSessionsByUserId(userId) {
			// The record schema has no sign-in details (the account page says less); one page, up to 200, is listed.
			return (await db.authlib_sessions.filter({ user: userId }).getMany({ size: PAGE })).map((record) => toSession(record, userId));
		},
		async createVerificationToken({ identifier, token, expires }) {
			await db.authlib_verificationTokens.create({ id: await tokenId(identifier, token), identifier, token, expires });
			return { identifier, token, expires };
		},
		async useVerificationToken({ identifier, token }) {
			const used = await db.authlib_verificationTokens.delete(await tokenId(identifier, token));
			if (!used?.expires || used.expires.getTime() <= Date.now()) return null;
			return { identifier, token, expires: used.expires };
		}
	};
}
