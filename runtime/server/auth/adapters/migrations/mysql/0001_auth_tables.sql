-- create-auth: the auth tables for MySQL 8 and MariaDB 10.5+ (InnoDB, for the foreign keys).
-- `create-auth migrate` applies each file once, in name order, and records it in auth_migrations.
-- Dates are DATETIME(3) in UTC. Ids and tokens compare byte for byte (ascii_bin / utf8mb4_bin):
-- MySQL's default collation would match a token that differs only in case.
CREATE TABLE IF NOT EXISTS auth_users (
	id VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
	name TEXT,
	email VARCHAR(255) UNIQUE,
	emailVerified DATETIME(3),
	image TEXT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS auth_accounts (
	userId VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	type VARCHAR(32) NOT NULL,
	provider VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
	providerAccountId VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
	refresh_token TEXT,
	access_token TEXT,
	expires_at BIGINT,
	token_type VARCHAR(255),
	scope TEXT,
	id_token TEXT,
	session_state TEXT,
	oauth_token TEXT,
	oauth_token_secret TEXT,
	password_hash TEXT,
	PRIMARY KEY (provider, providerAccountId),
	INDEX auth_accounts_user_id (userId),
	FOREIGN KEY (userId) REFERENCES auth_users (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS auth_sessions (
	sessionToken VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
	userId VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	expires DATETIME(3) NOT NULL,
	INDEX auth_sessions_user_id (userId),
	FOREIGN KEY (userId) REFERENCES auth_users (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS auth_verification_tokens (
	identifier VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
	token VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	expires DATETIME(3) NOT NULL,
	PRIMARY KEY (identifier, token)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- A WebAuthn credential id is at most 1023 bytes, 1364 characters of base64.
CREATE TABLE IF NOT EXISTS auth_authenticators (
	credentialID VARCHAR(1366) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
	userId VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	providerAccountId VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
	credentialPublicKey TEXT NOT NULL,
	counter BIGINT NOT NULL,
	credentialDeviceType VARCHAR(32) NOT NULL,
	credentialBackedUp BOOLEAN NOT NULL,
	transports VARCHAR(255),
	INDEX auth_authenticators_user_id (userId),
	FOREIGN KEY (userId) REFERENCES auth_users (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
