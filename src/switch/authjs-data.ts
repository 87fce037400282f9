import { CliError } from '../errors.js';
import { columnsFor, copyUser, findTable, inTransaction, insertRow, readRows, storedSessionKey, toDate, type CopyReport, type DataConnection } from './data.js';

/**
 * The tables of Auth.js's adapter schema: `@auth/pg-adapter`'s (`users`, `accounts`, `sessions`)
 * or `@auth/drizzle-adapter`'s defaults (`user`, `account`, `session`), and their fields, the
 * same in both (camelCase columns, the OAuth tokens snake_case as RFC 6749 names them).
 */
const TABLES = { user: ['users', 'user'], account: ['accounts', 'account'], session: ['sessions', 'session'] } as const;
const FIELDS = {
	user: ['id', 'name', 'email', 'emailVerified', 'image'],
	account: ['userId', 'type', 'provider', 'providerAccountId', 'refresh_token', 'access_token', 'expires_at', 'id_token', 'scope', 'session_state', 'token_type'],
	session: ['sessionToken', 'userId', 'expires']
} as const;

/**
 * Copies the users, linked accounts and unexpired sessions an Auth.js adapter kept into
 * create-auth's tables, in one transaction, so that every user signs in as before: the same
 * contract, so each row keeps its fields (ids as strings: `@auth/pg-adapter`'s are SERIAL);
 * addresses are lower-cased as create-auth compares them. A session is stored under
 * {@link storedSessionKey} of the token Auth.js stored raw and its cookie carries, where
 * `authjsSessions()` looks first. Expired sessions and verification tokens (links mailed and not
 * used) are left behind. Rows create-auth's tables already hold are kept, so a second run copies
 * nothing twice; Auth.js's tables are only read.
 *
 * @throws {CliError} `E_SWITCH_NO_TABLES` when Auth.js's user table or create-auth's `auth_users`
 *   is missing; the driver's error (after a rollback) when a statement fails
 */
export async function copyAuthjsData(connection: DataConnection, now = new Date()): Promise<CopyReport> {
	const tables = {
		user: await findTable(connection, TABLES.user),
		account: await findTable(connection, TABLES.account),
		session: await findTable(connection, TABLES.session)
	};
	if (!tables.user) {
		throw new CliError('E_SWITCH_NO_TABLES', "Auth.js's users table is not in this database.", "Point DATABASE_URL at the database Auth.js's adapter used, then switch again.");
	}
	return inTransaction(connection, async () => {
		const report: CopyReport = { users: 0, passwords: 0, oauthAccounts: 0, sessions: 0, conflicts: [] };
		const copied = new Set<string>();
		for await (const user of readRows(connection, tables.user!.name, columnsFor(tables.user!, FIELDS.user), ['id'])) {
			const id = String(user.id);
			const email = typeof user.email === 'string' && user.email.trim() ? user.email.trim().toLowerCase() : null;
			if (await copyUser(connection, { id, name: user.name, email, emailVerified: toDate(user.emailVerified) ?? null, image: user.image }, report)) copied.add(id);
		}
		if (tables.account) {
			for await (const account of readRows(connection, tables.account.name, columnsFor(tables.account, FIELDS.account), ['userId', 'provider', 'providerAccountId'])) {
				if (!copied.has(String(account.userId))) continue;
				await insertRow(connection, 'auth_accounts', {
					userId: String(account.userId),
					type: String(account.type),
					provider: String(account.provider),
					providerAccountId: String(account.providerAccountId),
					access_token: account.access_token ?? null,
					refresh_token: account.refresh_token ?? null,
					id_token: account.id_token ?? null,
					expires_at: account.expires_at === null || account.expires_at === undefined ? null : Number(account.expires_at),
					token_type: account.token_type ?? null,
					scope: account.scope ?? null,
					session_state: account.session_state ?? null
				});
				report.oauthAccounts++;
			}
		}
		if (tables.session) {
			for await (const session of readRows(connection, tables.session.name, columnsFor(tables.session, FIELDS.session), ['sessionToken'])) {
				const expires = toDate(session.expires);
				if (!copied.has(String(session.userId)) || typeof session.sessionToken !== 'string' || !expires || expires <= now) continue;
				await insertRow(connection, 'auth_sessions', { sessionToken: storedSessionKey(session.sessionToken), userId: String(session.userId), expires });
				report.sessions++;
			}
		}
		return report;
	});
}
