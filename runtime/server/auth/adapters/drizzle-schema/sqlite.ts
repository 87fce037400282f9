// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/*
 * The auth tables for SQLite as Drizzle tables, for apps whose drizzle-kit owns their schema
 * (the app's schema file re-exports this module). They are the tables SQLiteAdapter creates
 * (SCHEMA in ../sqlite.ts), column for column: dates as epoch milliseconds, booleans as 0/1,
 * foreign keys to auth_users with ON DELETE CASCADE (which SQLite enforces only on connections
 * that turn foreign keys on; DrizzleAdapter turns them on for the app's). Column names are
 * given explicitly: a drizzle-kit `casing` option must not rename them, since DrizzleAdapter's
 * statements use these names.
 */

/** Users. `email` is unique when present (any number of users have none). */
export const authUsers = sqliteTable('auth_users', {
	id: text('id').primaryKey(),
	name: text('name'),
	email: text('email').unique(),
	emailVerified: integer('emailVerified', { mode: 'timestamp_ms' }),
	image: text('image'),
	sessionVersion: integer('sessionVersion').notNull().default(0)
});

/** Accounts linked to a user, one per provider account; OAuth fields in snake_case. */
export const authAccounts = sqliteTable(
	'auth_accounts',
	{
		userId: text('userId')
			.notNull()
			.references(() => authUsers.id, { onDelete: 'cascade' }),
		type: text('type').notNull(),
		provider: text('provider').notNull(),
		providerAccountId: text('providerAccountId').notNull(),
		refresh_token: text('refresh_token'),
		access_token: text('access_token'),
		/** Epoch seconds. */
		expires_at: integer('expires_at'),
		token_type: text('token_type'),
		scope: text('scope'),
		id_token: text('id_token'),
		session_state: text('session_state'),
		oauth_token: text('oauth_token'),
		oauth_token_secret: text('oauth_token_secret'),
		password_hash: text('password_hash')
	},
	(table) => [primaryKey({ columns: [table.provider, table.providerAccountId] }), index('auth_accounts_userId').on(table.userId)]
);

/** `database`-strategy sessions. */
export const authSessions = sqliteTable(
	'auth_sessions',
	{
		sessionToken: text('sessionToken').primaryKey(),
		userId: text('userId')
			.notNull()
			.references(() => authUsers.id, { onDelete: 'cascade' }),
		expires: integer('expires', { mode: 'timestamp_ms' }).notNull(),
		createdAt: integer('createdAt', { mode: 'timestamp_ms' }),
		userAgent: text('userAgent'),
		ipAddress: text('ipAddress')
	},
	(table) => [index('auth_sessions_userId').on(table.userId)]
);

/** One-time email sign-in tokens (`token` hashed). */
export const authVerificationTokens = sqliteTable(
	'auth_verification_tokens',
	{
		identifier: text('identifier').notNull(),
		token: text('token').notNull(),
		expires: integer('expires', { mode: 'timestamp_ms' }).notNull()
	},
	(table) => [primaryKey({ columns: [table.identifier, table.token] })]
);

/** WebAuthn credentials. */
export const authAuthenticators = sqliteTable(
	'auth_authenticators',
	{
		credentialID: text('credentialID').primaryKey(),
		userId: text('userId')
			.notNull()
			.references(() => authUsers.id, { onDelete: 'cascade' }),
		providerAccountId: text('providerAccountId').notNull(),
		credentialPublicKey: text('credentialPublicKey').notNull(),
		counter: integer('counter').notNull(),
		credentialDeviceType: text('credentialDeviceType').notNull(),
		credentialBackedUp: integer('credentialBackedUp', { mode: 'boolean' }).notNull(),
		transports: text('transports'),
		name: text('name'),
		aaguid: text('aaguid'),
		createdAt: integer('createdAt', { mode: 'timestamp_ms' }),
		lastUsedAt: integer('lastUsedAt', { mode: 'timestamp_ms' })
	},
	(table) => [index('auth_authenticators_userId').on(table.userId)]
);

/** Each user's second factor: the TOTP secret (encrypted) and the last step a code was taken for. */
export const authTwoFactors = sqliteTable('auth_two_factors', {
	userId: text('userId')
		.primaryKey()
		.references(() => authUsers.id, { onDelete: 'cascade' }),
	secret: text('secret').notNull(),
	createdAt: integer('createdAt', { mode: 'timestamp_ms' }).notNull(),
	lastUsedStep: integer('lastUsedStep')
});

/** Each user's unused recovery codes, as SHA-256 hashes. */
export const authRecoveryCodes = sqliteTable(
	'auth_recovery_codes',
	{
		userId: text('userId')
			.notNull()
			.references(() => authUsers.id, { onDelete: 'cascade' }),
		codeHash: text('codeHash').notNull()
	},
	(table) => [primaryKey({ columns: [table.userId, table.codeHash] })]
);
