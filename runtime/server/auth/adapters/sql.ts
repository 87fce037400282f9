// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type {
	Adapter,
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterTwoFactor,
	AdapterUser,
	VerificationToken
} from './types.js';

/** A row as a driver returns it: column name → value. */
export type Row = Record<string, unknown>;

/**
 * What one statement returned: its rows (none for writes) and how many rows it changed (D1
 * counts the rows a cascade changed too).
 */
export interface QueryResult {
	rows: Row[];
	changes: number;
}

/**
 * The little a SQL adapter needs from a driver. Statements are written once, in the spelling
 * below, and the dialect rewrites them for its driver (once per text, then cached).
 */
export interface SqlDialect {
	/** Runs one statement with positional parameters; a failure is a rejected promise. */
	query(text: string, params: readonly unknown[]): Promise<QueryResult>;
	/**
	 * Rewrites a statement written with `?` placeholders and `"double-quoted"` identifiers
	 * (the SQL standard's, which SQLite takes as is) into the driver's spelling: `$1` for
	 * PostgreSQL, backticks for MySQL.
	 */
	rewrite(text: string): string;
	/**
	 * A Date or boolean parameter as the driver binds it: SQLite stores epoch milliseconds and
	 * 0/1; the servers' drivers take both as they are.
	 */
	encode(value: Date | boolean): unknown;
}

/**
 * MySQL's spelling of a statement written with `"double-quoted"` identifiers: backticks, since
 * MySQL reads `"…"` as a string unless the server runs with ANSI_QUOTES.
 */
export const backtickIdentifiers = (text: string) => text.replaceAll('"', '`');

/** PostgreSQL's spelling of a statement written with `?` placeholders: `$1`, `$2`, … in order. */
export function numberedPlaceholders(text: string): string {
	let n = 0;
	return text.replace(/\?/g, () => `$${++n}`);
}

/** A Date or boolean as our SQLite tables store it: epoch milliseconds, and 0 or 1. */
export const sqliteValue = (value: Date | boolean) => (value instanceof Date ? value.getTime() : Number(value));

/** The tables, prefixed so they cannot clash with the app's own. */
const TABLES = {
	users: 'auth_users',
	accounts: 'auth_accounts',
	sessions: 'auth_sessions',
	verificationTokens: 'auth_verification_tokens',
	authenticators: 'auth_authenticators',
	twoFactors: 'auth_two_factors',
	recoveryCodes: 'auth_recovery_codes'
} as const;

/** Columns written per table; other fields of a record are not stored (the spec allows extras). */
const USER_COLUMNS = ['name', 'email', 'emailVerified', 'image', 'sessionVersion'] as const;
const ACCOUNT_COLUMNS = [
	'userId', 'type', 'provider', 'providerAccountId', 'refresh_token', 'access_token', 'expires_at',
	'token_type', 'scope', 'id_token', 'session_state', 'oauth_token', 'oauth_token_secret', 'password_hash'
] as const;
const SESSION_COLUMNS = ['sessionToken', 'userId', 'expires', 'createdAt', 'userAgent', 'ipAddress'] as const;
const AUTHENTICATOR_COLUMNS = [
	'credentialID', 'userId', 'providerAccountId', 'credentialPublicKey', 'counter',
	'credentialDeviceType', 'credentialBackedUp', 'transports', 'name', 'aaguid', 'createdAt', 'lastUsedAt'
] as const;
/** What `updateAuthenticator` may change. */
const AUTHENTICATOR_DETAILS = ['name', 'lastUsedAt'] as const;

const TWO_FACTOR_COLUMNS = ['userId', 'secret', 'createdAt', 'lastUsedStep'] as const;

/** A Date from what a driver returns for a date column: a Date, epoch ms, or a string of either. */
function toDate(value: unknown): Date {
	if (value instanceof Date) return value;
	return new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
}

/** A number from a BIGINT column, which PostgreSQL's driver returns as a string. */
const toNumber = (value: unknown) => (value === null || value === undefined ? value : Number(value));

/** Drops null columns: optional fields come back absent, as the types say. */
const present = (row: Row) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null && value !== undefined));

const toUser = (row: Row): AdapterUser => ({
	...row,
	id: row.id as string,
	name: (row.name ?? null) as string | null,
	email: (row.email ?? null) as string | null,
	emailVerified: row.emailVerified === null || row.emailVerified === undefined ? null : toDate(row.emailVerified),
	image: (row.image ?? null) as string | null,
	sessionVersion: Number(row.sessionVersion ?? 0)
});

const toAccount = (row: Row): AdapterAccount => {
	const account = present(row) as AdapterAccount;
	if (account.expires_at !== undefined) account.expires_at = toNumber(account.expires_at) as number;
	return account;
};

const toSession = (row: Row): AdapterSession => ({
	sessionToken: row.sessionToken as string,
	userId: row.userId as string,
	expires: toDate(row.expires),
	createdAt: row.createdAt === null || row.createdAt === undefined ? null : toDate(row.createdAt),
	userAgent: (row.userAgent ?? null) as string | null,
	ipAddress: (row.ipAddress ?? null) as string | null
});

const toVerificationToken = (row: Row): VerificationToken => ({
	identifier: row.identifier as string,
	token: row.token as string,
	expires: toDate(row.expires)
});

const toTwoFactor = (row: Row): AdapterTwoFactor => ({
	userId: row.userId as string,
	secret: row.secret as string,
	createdAt: toDate(row.createdAt),
	lastUsedStep: (toNumber(row.lastUsedStep) as number | null | undefined) ?? null,
	recoveryCodes: Number(row.recoveryCodes)
});

const toAuthenticator = (row: Row): AdapterAuthenticator => ({
	...(row as unknown as AdapterAuthenticator),
	counter: Number(row.counter),
	credentialBackedUp: row.credentialBackedUp === true || Number(row.credentialBackedUp) === 1,
	transports: (row.transports ?? null) as string | null,
	name: (row.name ?? null) as string | null,
	aaguid: (row.aaguid ?? null) as string | null,
	createdAt: row.createdAt === null || row.createdAt === undefined ? null : toDate(row.createdAt),
	lastUsedAt: row.lastUsedAt === null || row.lastUsedAt === undefined ? null : toDate(row.lastUsedAt)
});

/**
 * The spec's adapter over any SQL database, given its dialect: every method async, one query
 * per lookup (`getSessionAndUser` is one join), parameterized statements only.
 *
 * Deletes that return the deleted record read it first and return it only if their own DELETE
 * removed it, so of concurrent `useVerificationToken` calls for one token exactly one gets it,
 * on any database and without transactions; `useTotpStep` and `useRecoveryCode` are one
 * conditional statement each, for the same reason. The schema (tables {@link TABLES}, foreign
 * keys with ON DELETE CASCADE from accounts, sessions, authenticators, second factors and
 * recovery codes to users) comes from the dialect's migrations.
 * @see create-auth docs/api.md#adapter-methods
 */
export function sqlAdapter(dialect: SqlDialect): Required<Adapter> {
	const texts = new Map<string, string>();
	const run = (text: string, params: readonly unknown[]) => {
		let rewritten = texts.get(text);
		if (rewritten === undefined) texts.set(text, (rewritten = dialect.rewrite(text)));
		return dialect.query(rewritten, params);
	};
	const one = async (text: string, ...params: unknown[]) => (await run(text, params)).rows[0];
	/** A record's own values for `columns`, Dates as the dialect stores them. */
	const values = (record: object, columns: readonly string[]) =>
		columns
			.filter((column) => (record as Row)[column] !== undefined)
			.map((column) => {
				const value = (record as Row)[column];
				return [column, value instanceof Date || typeof value === 'boolean' ? dialect.encode(value) : value] as const;
			});
	const insert = (table: string, record: object, columns: readonly string[]) => {
		const pairs = values(record, columns);
		const names = pairs.map(([column]) => `"${column}"`).join(', ');
		const placeholders = pairs.map(() => '?').join(', ');
		return run(`INSERT INTO ${table} (${names}) VALUES (${placeholders})`, pairs.map(([, value]) => value));
	};
	const update = (table: string, key: string, record: Row, columns: readonly string[]) => {
		const pairs = values(record, columns);
		if (pairs.length === 0) return Promise.resolve({ rows: [], changes: 0 });
		const assignments = pairs.map(([column]) => `"${column}" = ?`).join(', ');
		return run(`UPDATE ${table} SET ${assignments} WHERE "${key}" = ?`, [...pairs.map(([, value]) => value), record[key]]);
	};
	/**
	 * Reads a row and deletes it; the row only when this call's DELETE removed it. Any change
	 * counts: D1 counts the rows a foreign key's ON DELETE CASCADE removed with it.
	 */
	const take = async (select: string, remove: string, params: unknown[]) => {
		const row = await one(select, ...params);
		if (!row) return undefined;
		return (await run(remove, params)).changes > 0 ? row : undefined;
	};

	const getUser = async (id: string) => {
		const row = await one(`SELECT * FROM ${TABLES.users} WHERE id = ?`, id);
		return row ? toUser(row) : null;
	};
	const getSession = async (sessionToken: string) => {
		const row = await one(`SELECT * FROM ${TABLES.sessions} WHERE "sessionToken" = ?`, sessionToken);
		return row ? toSession(row) : null;
	};
	const deleteTwoFactor = async (userId: string) => {
		await run(`DELETE FROM ${TABLES.recoveryCodes} WHERE "userId" = ?`, [userId]);
		await run(`DELETE FROM ${TABLES.twoFactors} WHERE "userId" = ?`, [userId]);
	};
	/** One statement for all of a user's codes (ten at a time). */
	const insertRecoveryCodes = async (userId: string, hashes: readonly string[]) => {
		if (hashes.length === 0) return;
		const rows = hashes.map(() => '(?, ?)').join(', ');
		await run(`INSERT INTO ${TABLES.recoveryCodes} ("userId", "codeHash") VALUES ${rows}`, hashes.flatMap((codeHash) => [userId, codeHash]));
	};
	const getAuthenticator = async (credentialID: string) => {
		const row = await one(`SELECT * FROM ${TABLES.authenticators} WHERE "credentialID" = ?`, credentialID);
		return row ? toAuthenticator(row) : null;
	};
	const accountKey = `WHERE provider = ? AND "providerAccountId" = ?`;

	return {
		async createUser(user) {
			await insert(TABLES.users, user, ['id', ...USER_COLUMNS]);
			return (await getUser(user.id))!;
		},
		getUser,
		async getUserByEmail(email) {
			const row = await one(`SELECT * FROM ${TABLES.users} WHERE email = ?`, email);
			return row ? toUser(row) : null;
		},
		async getUserByAccount({ provider, providerAccountId }) {
			const row = await one(
				`SELECT u.* FROM ${TABLES.users} u JOIN ${TABLES.accounts} a ON a."userId" = u.id
				 WHERE a.provider = ? AND a."providerAccountId" = ?`,
				provider,
				providerAccountId
			);
			return row ? toUser(row) : null;
		},
		async updateUser(user) {
			await update(TABLES.users, 'id', user, USER_COLUMNS);
			const updated = await getUser(user.id);
			if (!updated) throw new Error(`updateUser: no user with id ${user.id}`);
			return updated;
		},
		async deleteUser(userId) {
			const row = await take(`SELECT * FROM ${TABLES.users} WHERE id = ?`, `DELETE FROM ${TABLES.users} WHERE id = ?`, [userId]);
			return row ? toUser(row) : null;
		},
		async linkAccount(account) {
			await insert(TABLES.accounts, account, ACCOUNT_COLUMNS);
			return account;
		},
		async unlinkAccount({ provider, providerAccountId }) {
			const params = [provider, providerAccountId];
			const row = await take(`SELECT * FROM ${TABLES.accounts} ${accountKey}`, `DELETE FROM ${TABLES.accounts} ${accountKey}`, params);
			return row ? toAccount(row) : undefined;
		},
		async getAccount(providerAccountId, provider) {
			const row = await one(`SELECT * FROM ${TABLES.accounts} ${accountKey}`, provider, providerAccountId);
			return row ? toAccount(row) : null;
		},
		async listAccountsByUserId(userId) {
			const { rows } = await run(`SELECT * FROM ${TABLES.accounts} WHERE "userId" = ?`, [userId]);
			return rows.map(toAccount);
		},
		async createSession(session) {
			await insert(TABLES.sessions, session, SESSION_COLUMNS);
			return toSession(session as unknown as Row);
		},
		async getSessionAndUser(sessionToken) {
			const row = await one(
				`SELECT s."sessionToken" AS "s_sessionToken", s."userId" AS "s_userId", s.expires AS "s_expires",
				 s."createdAt" AS "s_createdAt", s."userAgent" AS "s_userAgent", s."ipAddress" AS "s_ipAddress", u.*
				 FROM ${TABLES.sessions} s JOIN ${TABLES.users} u ON u.id = s."userId" WHERE s."sessionToken" = ?`,
				sessionToken
			);
			if (!row) return null;
			const { s_sessionToken, s_userId, s_expires, s_createdAt, s_userAgent, s_ipAddress, ...user } = row;
			const session = toSession({ sessionToken: s_sessionToken, userId: s_userId, expires: s_expires, createdAt: s_createdAt, userAgent: s_userAgent, ipAddress: s_ipAddress });
			return { session, user: toUser(user) };
		},
		async updateSession(session) {
			await update(TABLES.sessions, 'sessionToken', session, ['userId', 'expires']);
			return getSession(session.sessionToken);
		},
		async deleteSession(sessionToken) {
			const row = await take(
				`SELECT * FROM ${TABLES.sessions} WHERE "sessionToken" = ?`,
				`DELETE FROM ${TABLES.sessions} WHERE "sessionToken" = ?`,
				[sessionToken]
			);
			return row ? toSession(row) : null;
		},
		async deleteUserSessions(userId) {
			await run(`DELETE FROM ${TABLES.sessions} WHERE "userId" = ?`, [userId]);
		},
		async listSessionsByUserId(userId) {
			const { rows } = await run(`SELECT * FROM ${TABLES.sessions} WHERE "userId" = ?`, [userId]);
			return rows.map(toSession);
		},
		async createVerificationToken(token) {
			await insert(TABLES.verificationTokens, token, ['identifier', 'token', 'expires']);
			return { identifier: token.identifier, token: token.token, expires: token.expires };
		},
		async useVerificationToken({ identifier, token }) {
			const key = 'WHERE identifier = ? AND token = ?';
			const row = await take(
				`SELECT * FROM ${TABLES.verificationTokens} ${key}`,
				`DELETE FROM ${TABLES.verificationTokens} ${key}`,
				[identifier, token]
			);
			const used = row && toVerificationToken(row);
			return used && used.expires.getTime() > Date.now() ? used : null;
		},
		async createAuthenticator(authenticator) {
			await insert(TABLES.authenticators, authenticator, AUTHENTICATOR_COLUMNS);
			return (await getAuthenticator(authenticator.credentialID))!;
		},
		getAuthenticator,
		async listAuthenticatorsByUserId(userId) {
			const { rows } = await run(`SELECT * FROM ${TABLES.authenticators} WHERE "userId" = ?`, [userId]);
			return rows.map(toAuthenticator);
		},
		async deleteAuthenticator(credentialID) {
			const key = `WHERE "credentialID" = ?`;
			const row = await take(`SELECT * FROM ${TABLES.authenticators} ${key}`, `DELETE FROM ${TABLES.authenticators} ${key}`, [credentialID]);
			return row ? toAuthenticator(row) : null;
		},
		async updateAuthenticator(authenticator) {
			await update(TABLES.authenticators, 'credentialID', authenticator as unknown as Row, AUTHENTICATOR_DETAILS);
			return getAuthenticator(authenticator.credentialID);
		},
		async updateAuthenticatorCounter(credentialID, newCounter) {
			await run(`UPDATE ${TABLES.authenticators} SET counter = ? WHERE "credentialID" = ?`, [newCounter, credentialID]);
			const updated = await getAuthenticator(credentialID);
			if (!updated) throw new Error(`updateAuthenticatorCounter: no authenticator ${credentialID}`);
			return updated;
		},
		async getTwoFactor(userId) {
			const row = await one(
				`SELECT t.*, (SELECT COUNT(*) FROM ${TABLES.recoveryCodes} r WHERE r."userId" = t."userId") AS "recoveryCodes" FROM ${TABLES.twoFactors} t WHERE t."userId" = ?`,
				userId
			);
			return row ? toTwoFactor(row) : null;
		},
		async createTwoFactor(twoFactor, recoveryCodeHashes) {
			await deleteTwoFactor(twoFactor.userId);
			await insert(TABLES.twoFactors, twoFactor, TWO_FACTOR_COLUMNS);
			await insertRecoveryCodes(twoFactor.userId, recoveryCodeHashes);
		},
		async updateTwoFactorSecret(userId, secret) {
			await run(`UPDATE ${TABLES.twoFactors} SET secret = ? WHERE "userId" = ?`, [secret, userId]);
		},
		deleteTwoFactor,
		async useTotpStep(userId, step) {
			const text = `UPDATE ${TABLES.twoFactors} SET "lastUsedStep" = ? WHERE "userId" = ? AND ("lastUsedStep" IS NULL OR "lastUsedStep" < ?)`;
			return (await run(text, [step, userId, step])).changes === 1;
		},
		async replaceRecoveryCodes(userId, recoveryCodeHashes) {
			await run(`DELETE FROM ${TABLES.recoveryCodes} WHERE "userId" = ?`, [userId]);
			await insertRecoveryCodes(userId, recoveryCodeHashes);
		},
		async useRecoveryCode(userId, recoveryCodeHash) {
			return (await run(`DELETE FROM ${TABLES.recoveryCodes} WHERE "userId" = ? AND "codeHash" = ?`, [userId, recoveryCodeHash])).changes === 1;
		}
	};
}
