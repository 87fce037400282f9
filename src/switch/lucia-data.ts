import { CliError } from '../errors.js';
import { columnsFor, copyUser, findTable, inTransaction, insertRow, readRows, toDate, type CopyReport, type DataConnection } from './data.js';

/**
 * The tables of Lucia's session guide as `sv add lucia` makes them (`user`, `session`), or plural,
 * and their fields: a column is the field's name or its snake_case (`password_hash`, `user_id`,
 * `expires_at`, as sv's Drizzle schema names them).
 */
const TABLES = { user: ['user', 'users'], session: ['session', 'sessions'] } as const;
const FIELDS = { user: ['id', 'username', 'email', 'passwordHash'], session: ['id', 'userId', 'expiresAt'] } as const;

/** A session id as Lucia's guide stores it: the lowercase hex SHA-256 of the cookie's token. */
const SESSION_ID = /^[0-9a-f]{64}$/;

/**
 * The key create-auth's runtime stores the session of a Lucia session id under: Lucia's id is
 * the hex SHA-256 of the token its cookie holds, the runtime's key `sha256.` and the same 32
 * bytes in base64url (`storedSessionKey` of the token), so `luciaSessions()` finds it by the
 * cookie (docs/api.md "Switching from …").
 */
export function luciaSessionKey(sessionId: string): string {
	return `sha256.${Buffer.from(sessionId, 'hex').toString('base64url')}`;
}

/**
 * Copies the users, password hashes and unexpired sessions of an app made after Lucia's guide
 * (`sv add lucia`) into create-auth's tables, in one transaction, so that every user signs in
 * as before:
 * - a user keeps its id; its `username` becomes its name, its `email` (when the table has one)
 *   its address, lower-cased and unverified;
 * - a password hash (argon2id, as `@node-rs/argon2` wrote it) becomes a `credentials` account
 *   keyed by the address, or by the username for users without one (they sign in with it in the
 *   address field); the runtime verifies it and replaces it with its own at the next sign-in;
 * - a session becomes a row under {@link luciaSessionKey} of its id; expired sessions and ids
 *   that are not a hex SHA-256 are left behind.
 * Rows create-auth's tables already hold are kept, so a second run copies nothing twice. Lucia's
 * tables are only read.
 *
 * @throws {CliError} `E_SWITCH_NO_TABLES` when Lucia's user table (with `username` or `email`)
 *   or create-auth's `auth_users` is missing; the driver's error (after a rollback) when a
 *   statement fails
 */
export async function copyLuciaData(connection: DataConnection, now = new Date()): Promise<CopyReport> {
	const userTable = await findTable(connection, TABLES.user);
	const sessionTable = await findTable(connection, TABLES.session);
	const userColumns = userTable && columnsFor(userTable, FIELDS.user);
	if (!userTable || !userColumns || !userColumns.id || (!userColumns.username && !userColumns.email)) {
		throw new CliError(
			'E_SWITCH_NO_TABLES',
			"Lucia's user table (id, and username or email) is not in this database.",
			"Point DATABASE_URL at the database Lucia's users are in (sv's npm run db:push makes the tables), then switch again."
		);
	}
	return inTransaction(connection, async () => {
		const report: CopyReport = { users: 0, passwords: 0, oauthAccounts: 0, sessions: 0, conflicts: [] };
		const copied = new Set<string>();
		for await (const user of readRows(connection, userTable.name, userColumns, ['id'])) {
			const id = String(user.id);
			const email = typeof user.email === 'string' && user.email.trim() ? user.email.trim().toLowerCase() : null;
			const username = typeof user.username === 'string' && user.username.trim() ? user.username.trim() : null;
			if (!(await copyUser(connection, { id, name: username, email, emailVerified: null, image: null }, report))) continue;
			copied.add(id);
			const key = email ?? username?.toLowerCase();
			if (typeof user.passwordHash !== 'string' || !user.passwordHash || !key) continue;
			await insertRow(connection, 'auth_accounts', { userId: id, type: 'credentials', provider: 'credentials', providerAccountId: key, password_hash: user.passwordHash });
			report.passwords++;
		}
		if (sessionTable) {
			for await (const session of readRows(connection, sessionTable.name, columnsFor(sessionTable, FIELDS.session), ['id'])) {
				const expires = toDate(session.expiresAt);
				const id = String(session.id);
				if (!copied.has(String(session.userId)) || !SESSION_ID.test(id) || !expires || expires <= now) continue;
				await insertRow(connection, 'auth_sessions', { sessionToken: luciaSessionKey(id), userId: String(session.userId), expires });
				report.sessions++;
			}
		}
		return report;
	});
}
