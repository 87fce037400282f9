-- create-auth: the auth tables for PostgreSQL. `create-auth migrate` applies each file once, in
-- name order, and records it in auth_migrations. Dates are timestamptz; camelCase names are quoted.
CREATE TABLE IF NOT EXISTS auth_users (
	id TEXT PRIMARY KEY,
	name TEXT,
	email TEXT UNIQUE,
	"emailVerified" TIMESTAMPTZ,
	image TEXT
);

CREATE TABLE IF NOT EXISTS auth_accounts (
	"userId" TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	provider TEXT NOT NULL,
	"providerAccountId" TEXT NOT NULL,
	refresh_token TEXT,
	access_token TEXT,
	expires_at BIGINT,
	token_type TEXT,
	scope TEXT,
	id_token TEXT,
	session_state TEXT,
	oauth_token TEXT,
	oauth_token_secret TEXT,
	password_hash TEXT,
	PRIMARY KEY (provider, "providerAccountId")
);
CREATE INDEX IF NOT EXISTS auth_accounts_user_id ON auth_accounts ("userId");

CREATE TABLE IF NOT EXISTS auth_sessions (
	"sessionToken" TEXT PRIMARY KEY,
	"userId" TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
	expires TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS auth_sessions_user_id ON auth_sessions ("userId");

CREATE TABLE IF NOT EXISTS auth_verification_tokens (
	identifier TEXT NOT NULL,
	token TEXT NOT NULL,
	expires TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (identifier, token)
);

CREATE TABLE IF NOT EXISTS auth_authenticators (
	"credentialID" TEXT PRIMARY KEY,
	"userId" TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
	"providerAccountId" TEXT NOT NULL,
	"credentialPublicKey" TEXT NOT NULL,
	counter BIGINT NOT NULL,
	"credentialDeviceType" TEXT NOT NULL,
	"credentialBackedUp" BOOLEAN NOT NULL,
	transports TEXT
);
CREATE INDEX IF NOT EXISTS auth_authenticators_user_id ON auth_authenticators ("userId");
