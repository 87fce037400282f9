// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { bigint, boolean, foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/*
 * The auth tables for PostgreSQL as Drizzle tables, for apps whose drizzle-kit owns their schema
 * (the app's schema file re-exports this module). They are the tables of
 * migrations/postgres/0001_auth_tables.sql, column for column, with the names PostgreSQL gives
 * that file's keys and constraints, so drizzle-kit finds nothing to change in a database that
 * `create-auth migrate` made. Column names are given explicitly: a drizzle-kit `casing` option
 * must not rename them, since DrizzleAdapter's statements use these names.
 */

/** Users. `email` is unique when present (any number of users have none). */
export const authUsers = pgTable('auth_users', {
	id: text('id').primaryKey(),
	name: text('name'),
	email: text('email').unique('auth_users_email_key'),
	emailVerified: timestamp('emailVerified', { withTimezone: true, mode: 'date' }),
	image: text('image'),
	sessionVersion: integer('sessionVersion').notNull().default(0)
});

/** Accounts linked to a user, one per provider account; OAuth fields in snake_case. */
export const authAccounts = pgTable(
	'auth_accounts',
	{
		userId: text('userId').notNull(),
		type: text('type').notNull(),
		provider: text('provider').notNull(),
		providerAccountId: text('providerAccountId').notNull(),
		refresh_token: text('refresh_token'),
		access_token: text('access_token'),
		/** Epoch seconds. */
		expires_at: bigint('expires_at', { mode: 'number' }),
		token_type: text('token_type'),
		scope: text('scope'),
		id_token: text('id_token'),
		session_state: text('session_state'),
		oauth_token: text('oauth_token'),
		oauth_token_secret: text('oauth_token_secret'),
		password_hash: text('password_hash')
	},
	(table) => [
		primaryKey({ name: 'auth_accounts_pkey', columns: [table.provider, table.providerAccountId] }),
		foreignKey({ name: 'auth_accounts_userId_fkey', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade'),
		index('auth_accounts_user_id').on(table.userId)
	]
);

/** `database`-strategy sessions. */
export const authSessions = pgTable(
	'auth_sessions',
	{
		sessionToken: text('sessionToken').primaryKey(),
		userId: text('userId').notNull(),
		expires: timestamp('expires', { withTimezone: true, mode: 'date' }).notNull(),
		createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }),
		userAgent: text('userAgent'),
		ipAddress: text('ipAddress')
	},
	(table) => [
		foreignKey({ name: 'auth_sessions_userId_fkey', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade'),
		index('auth_sessions_user_id').on(table.userId)
	]
);

/** One-time email sign-in tokens (`token` hashed). */
export const authVerificationTokens = pgTable(
	'auth_verification_tokens',
	{
		identifier: text('identifier').notNull(),
		token: text('token').notNull(),
		expires: timestamp('expires', { withTimezone: true, mode: 'date' }).notNull()
	},
	(table) => [primaryKey({ name: 'auth_verification_tokens_pkey', columns: [table.identifier, table.token] })]
);

/** WebAuthn credentials. */
export const authAuthenticators = pgTable(
	'auth_authenticators',
	{
		credentialID: text('credentialID').primaryKey(),
		userId: text('userId').notNull(),
		providerAccountId: text('providerAccountId').notNull(),
		credentialPublicKey: text('credentialPublicKey').notNull(),
		counter: bigint('counter', { mode: 'number' }).notNull(),
		credentialDeviceType: text('credentialDeviceType').notNull(),
		credentialBackedUp: boolean('credentialBackedUp').notNull(),
		transports: text('transports'),
		name: text('name'),
		aaguid: text('aaguid'),
		createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }),
		lastUsedAt: timestamp('lastUsedAt', { withTimezone: true, mode: 'date' })
	},
	(table) => [
		foreignKey({ name: 'auth_authenticators_userId_fkey', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade'),
		index('auth_authenticators_user_id').on(table.userId)
	]
);

/** Each user's second factor: the TOTP secret (encrypted) and the last step a code was taken for. */
export const authTwoFactors = pgTable(
	'auth_two_factors',
	{
		userId: text('userId').primaryKey(),
		secret: text('secret').notNull(),
		createdAt: timestamp('createdAt', { withTimezone: true, mode: 'date' }).notNull(),
		lastUsedStep: bigint('lastUsedStep', { mode: 'number' })
	},
	(table) => [foreignKey({ name: 'auth_two_factors_userId_fkey', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')]
);

/** Each user's unused recovery codes, as SHA-256 hashes. */
export const authRecoveryCodes = pgTable(
	'auth_recovery_codes',
	{
		userId: text('userId').notNull(),
		codeHash: text('codeHash').notNull()
	},
	(table) => [
		primaryKey({ name: 'auth_recovery_codes_pkey', columns: [table.userId, table.codeHash] }),
		foreignKey({ name: 'auth_recovery_codes_userId_fkey', columns: [table.userId], foreignColumns: [authUsers.id] }).onDelete('cascade')
	]
);
