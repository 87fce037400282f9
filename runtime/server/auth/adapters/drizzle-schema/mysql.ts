// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import {
	bigint,
	boolean,
	customType,
	datetime,
	foreignKey,
	index,
	int,
	mysqlTable,
	primaryKey,
	text,
	varchar
} from 'drizzle-orm/mysql-core';

/*
 * The auth tables for MySQL 8 and MariaDB 10.5+ as Drizzle tables, for apps whose drizzle-kit
 * owns their schema (the app's schema file re-exports this module). They are the tables of
 * migrations/mysql/0001_auth_tables.sql, column for column, with the names MySQL gives that
 * file's keys and constraints. Drizzle cannot state the file's table options (InnoDB, which is
 * the servers' default engine; DEFAULT CHARSET utf8mb4): columns without a collation of their
 * own take the database's default character set. Column names are given explicitly: a
 * drizzle-kit `casing` option must not rename them, since DrizzleAdapter's statements use them.
 */

/**
 * Ids and tokens, compared byte for byte: MySQL's default collation would match a token that
 * differs only in case. Drizzle's `varchar` takes no character set or collation, so the type is
 * spelled out.
 */
const asciiBinary = customType<{ data: string; driverData: string; config: { length: number }; configRequired: true }>({
	dataType: ({ length }) => `varchar(${length}) CHARACTER SET ascii COLLATE ascii_bin`
});

/** Provider names and provider account ids (any Unicode), compared byte for byte. */
const utf8Binary = customType<{ data: string; driverData: string; config: { length: number }; configRequired: true }>({
	dataType: ({ length }) => `varchar(${length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`
});

/** Dates: DATETIME(3), in UTC. */
const date = (name: string) => datetime(name, { mode: 'date', fsp: 3 });

/** Users. `email` is unique when present (any number of users have none). */
export const authUsers = mysqlTable('auth_users', {
	id: asciiBinary('id', { length: 255 }).primaryKey(),
	name: text('name'),
	email: varchar('email', { length: 255 }).unique('email'),
	emailVerified: date('emailVerified'),
	image: text('image'),
	sessionVersion: int('sessionVersion').notNull().default(0)
});

/** Accounts linked to a user, one per provider account; OAuth fields in snake_case. */
export const authAccounts = mysqlTable(
	'auth_accounts',
	{
		userId: asciiBinary('userId', { length: 255 }).notNull(),
		type: varchar('type', { length: 32 }).notNull(),
		provider: utf8Binary('provider', { length: 255 }).notNull(),
		providerAccountId: utf8Binary('providerAccountId', { length: 255 }).notNull(),
		refresh_token: text('refresh_token'),
		access_token: text('access_token'),
		/** Epoch seconds. */
		expires_at: bigint('expires_at', { mode: 'number' }),
		token_type: varchar('token_type', { length: 255 }),
		scope: text('scope'),
		id_token: text('id_token'),
		session_state: text('session_state'),
		oauth_token: text('oauth_token'),
		oauth_token_secret: text('oauth_token_secret'),
		password_hash: text('password_hash')
	},
	(table) => [
		primaryKey({ columns: [table.provider, table.providerAccountId] }),
		index('auth_accounts_user_id').on(table.userId),
		foreignKey({ name: 'auth_accounts_ibfk_1', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')
	]
);

/** `database`-strategy sessions. */
export const authSessions = mysqlTable(
	'auth_sessions',
	{
		sessionToken: asciiBinary('sessionToken', { length: 255 }).primaryKey(),
		userId: asciiBinary('userId', { length: 255 }).notNull(),
		expires: date('expires').notNull(),
		createdAt: date('createdAt'),
		userAgent: text('userAgent'),
		ipAddress: varchar('ipAddress', { length: 64 })
	},
	(table) => [
		index('auth_sessions_user_id').on(table.userId),
		foreignKey({ name: 'auth_sessions_ibfk_1', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')
	]
);

/** One-time email sign-in tokens (`token` hashed). */
export const authVerificationTokens = mysqlTable(
	'auth_verification_tokens',
	{
		identifier: utf8Binary('identifier', { length: 255 }).notNull(),
		token: asciiBinary('token', { length: 255 }).notNull(),
		expires: date('expires').notNull()
	},
	(table) => [primaryKey({ columns: [table.identifier, table.token] })]
);

/** WebAuthn credentials. A credential id is at most 1023 bytes, 1364 characters of base64. */
export const authAuthenticators = mysqlTable(
	'auth_authenticators',
	{
		credentialID: asciiBinary('credentialID', { length: 1366 }).primaryKey(),
		userId: asciiBinary('userId', { length: 255 }).notNull(),
		providerAccountId: utf8Binary('providerAccountId', { length: 255 }).notNull(),
		credentialPublicKey: text('credentialPublicKey').notNull(),
		counter: bigint('counter', { mode: 'number' }).notNull(),
		credentialDeviceType: varchar('credentialDeviceType', { length: 32 }).notNull(),
		credentialBackedUp: boolean('credentialBackedUp').notNull(),
		transports: varchar('transports', { length: 255 }),
		name: varchar('name', { length: 255 }),
		aaguid: varchar('aaguid', { length: 36 }),
		createdAt: date('createdAt'),
		lastUsedAt: date('lastUsedAt')
	},
	(table) => [
		index('auth_authenticators_user_id').on(table.userId),
		foreignKey({ name: 'auth_authenticators_ibfk_1', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')
	]
);

/** Each user's second factor: the TOTP secret (encrypted) and the last step a code was taken for. */
export const authTwoFactors = mysqlTable(
	'auth_two_factors',
	{
		userId: asciiBinary('userId', { length: 255 }).primaryKey(),
		secret: text('secret').notNull(),
		createdAt: date('createdAt').notNull(),
		lastUsedStep: bigint('lastUsedStep', { mode: 'number' })
	},
	(table) => [foreignKey({ name: 'auth_two_factors_ibfk_1', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')]
);

/** Each user's unused recovery codes, as SHA-256 hashes. */
export const authRecoveryCodes = mysqlTable(
	'auth_recovery_codes',
	{
		userId: asciiBinary('userId', { length: 255 }).notNull(),
		codeHash: asciiBinary('codeHash', { length: 64 }).notNull()
	},
	(table) => [
		primaryKey({ columns: [table.userId, table.codeHash] }),
		foreignKey({ name: 'auth_recovery_codes_ibfk_1', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')
	]
);
