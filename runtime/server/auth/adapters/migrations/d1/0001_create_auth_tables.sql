-- create-auth: the auth tables for Cloudflare D1 (SQLite). `wrangler d1 migrations apply <binding>`
-- applies each file once, in name order, and records it in d1_migrations. Dates are epoch
-- milliseconds, booleans 0/1: the same tables SQLiteAdapter makes for a file.
CREATE TABLE IF NOT EXISTS auth_users (
	id TEXT PRIMARY KEY NOT NULL,
	name TEXT,
	email TEXT UNIQUE,
	emailVerified INTEGER,
	image TEXT,
	sessionVersion INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS auth_accounts (
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	provider TEXT NOT NULL,
	providerAccountId TEXT NOT NULL,
	refresh_token TEXT,
	access_token TEXT,
	expires_at INTEGER,
	token_type TEXT,
	scope TEXT,
	id_token TEXT,
	session_state TEXT,
	oauth_token TEXT,
	oauth_token_secret TEXT,
	password_hash TEXT,
	PRIMARY KEY (provider, providerAccountId)
);
CREATE INDEX IF NOT EXISTS auth_accounts_userId ON auth_accounts(userId);
CREATE TABLE IF NOT EXISTS auth_sessions (
	sessionToken TEXT PRIMARY KEY NOT NULL,
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	expires INTEGER NOT NULL,
	createdAt INTEGER,
	userAgent TEXT,
	ipAddress TEXT
);
CREATE INDEX IF NOT EXISTS auth_sessions_userId ON auth_sessions(userId);
CREATE TABLE IF NOT EXISTS auth_verification_tokens (
	identifier TEXT NOT NULL,
	token TEXT NOT NULL,
	expires INTEGER NOT NULL,
	PRIMARY KEY (identifier, token)
);
CREATE TABLE IF NOT EXISTS auth_authenticators (
	credentialID TEXT PRIMARY KEY NOT NULL,
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	providerAccountId TEXT NOT NULL,
	credentialPublicKey TEXT NOT NULL,
	counter INTEGER NOT NULL,
	credentialDeviceType TEXT NOT NULL,
	credentialBackedUp INTEGER NOT NULL,
	transports TEXT,
	name TEXT,
	aaguid TEXT,
	createdAt INTEGER,
	lastUsedAt INTEGER
);
CREATE INDEX IF NOT EXISTS auth_authenticators_userId ON auth_authenticators(userId);
CREATE TABLE IF NOT EXISTS auth_two_factors (
	userId TEXT PRIMARY KEY NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	secret TEXT NOT NULL,
	createdAt INTEGER NOT NULL,
	lastUsedStep INTEGER
);
CREATE TABLE IF NOT EXISTS auth_recovery_codes (
	userId TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
	codeHash TEXT NOT NULL,
	PRIMARY KEY (userId, codeHash)
);
