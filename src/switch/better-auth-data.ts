import { CliError } from '../errors.js';
import { columnsFor, copyUser, findTable, inTransaction, insertRow, readRows, storedSessionKey, toDate, truthy, type CopyReport, type DataConnection, type FoundTable } from './data.js';

/**
 * Better Auth's tables (its default model names, singular or `usePlural`) and, per field, the
 * column names it may have: camelCase as its Kysely migrations create them, snake_case as its
 * Drizzle generator (`npx auth generate`, which `sv add better-auth` runs) writes them.
 */
const TABLES = { user: ['user', 'users'], account: ['account', 'accounts'], session: ['session', 'sessions'] } as const;
const FIELDS = {
	user: ['id', 'name', 'email', 'emailVerified', 'image', 'createdAt', 'updatedAt'],
	account: ['accountId', 'providerId', 'userId', 'accessToken', 'refreshToken', 'idToken', 'accessTokenExpiresAt', 'scope', 'password'],
	session: ['token', 'userId', 'expiresAt']
} as const;

/**
 * Copies Better Auth's users, accounts and unexpired sessions into create-auth's tables
 * (`auth_users`, `auth_accounts`, `auth_sessions`; docs/architecture.md "Switching from another
 * library"), in one transaction, so that every user signs in as before:
 * - a user keeps its id, name, address (lower-cased, as both libraries compare them) and image;
 *   a verified address (`emailVerified` true) is dated by the row's `updatedAt`;
 * - an email-and-password account (`providerId` `credential`) becomes a `credentials` account
 *   keyed by the address, its `password_hash` Better Auth's `salt:key` scrypt hash unchanged
 *   (the runtime verifies that format and replaces it with its own at the next sign-in);
 * - any other account becomes an OAuth account of the same provider id and account id, with its
 *   tokens (`expires_at` in epoch seconds);
 * - a session becomes a row under {@link storedSessionKey} of its token, so the token Better
 *   Auth's cookie carries finds it; expired sessions and verification values (pending links) are
 *   left behind.
 * Rows create-auth's tables already hold (a run before) are kept as they are, so a second run
 * copies nothing twice. Better Auth's tables are only read.
 *
 * @throws {CliError} `E_SWITCH_NO_TABLES` when Better Auth's user table or create-auth's
 *   `auth_users` is missing; the driver's error (after a rollback) when a statement fails
 */
export async function copyBetterAuthData(connection: DataConnection, now = new Date()): Promise<CopyReport> {
	const tables = {
		user: await findTable(connection, TABLES.user),
		account: await findTable(connection, TABLES.account),
		session: await findTable(connection, TABLES.session)
	};
	if (!tables.user) {
		throw new CliError(
			'E_SWITCH_NO_TABLES',
			"Better Auth's user table is not in this database.",
			"Point DATABASE_URL at the database Better Auth's users are in. If Better Auth never made its tables (sv's npm run auth:schema and npm run db:push), make them, then switch: there is nothing to copy."
		);
	}
	const rows = (table: FoundTable, fields: readonly string[], orderBy: readonly string[]) => readRows(connection, table.name, columnsFor(table, fields), orderBy);
	return inTransaction(connection, async () => {
		const report: CopyReport = { users: 0, passwords: 0, oauthAccounts: 0, sessions: 0, conflicts: [] };
		const copied = new Map<string, string>();
		for await (const user of rows(tables.user!, FIELDS.user, ['id'])) {
			const email = typeof user.email === 'string' ? user.email.trim().toLowerCase() : null;
			const verified = truthy(user.emailVerified) ? (toDate(user.updatedAt ?? user.createdAt) ?? now) : null;
			if (await copyUser(connection, { id: String(user.id), name: user.name, email, emailVerified: verified, image: user.image }, report)) copied.set(String(user.id), email ?? '');
		}
		if (tables.account) {
			for await (const account of rows(tables.account, FIELDS.account, ['userId', 'providerId', 'accountId'])) {
				const email = copied.get(String(account.userId));
				if (email === undefined) continue;
				if (account.providerId === 'credential') {
					if (typeof account.password !== 'string' || !email) continue;
					await insertRow(connection, 'auth_accounts', { userId: String(account.userId), type: 'credentials', provider: 'credentials', providerAccountId: email, password_hash: account.password });
					report.passwords++;
					continue;
				}
				const expires = toDate(account.accessTokenExpiresAt);
				await insertRow(connection, 'auth_accounts', {
					userId: String(account.userId),
					type: account.idToken ? 'oidc' : 'oauth',
					provider: String(account.providerId),
					providerAccountId: String(account.accountId),
					access_token: account.accessToken ?? null,
					refresh_token: account.refreshToken ?? null,
					id_token: account.idToken ?? null,
					expires_at: expires ? Math.floor(expires.getTime() / 1000) : null,
					token_type: account.accessToken ? 'bearer' : null,
					scope: account.scope ?? null
				});
				report.oauthAccounts++;
			}
		}
		if (tables.session) {
			for await (const session of rows(tables.session, FIELDS.session, ['token'])) {
				const expires = toDate(session.expiresAt);
				if (!copied.has(String(session.userId)) || typeof session.token !== 'string' || !expires || expires <= now) continue;
				await insertRow(connection, 'auth_sessions', { sessionToken: storedSessionKey(session.token), userId: String(session.userId), expires });
				report.sessions++;
			}
		}
		return report;
	});
}
