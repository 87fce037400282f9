-- create-auth, after 0.2.0: two-factor authentication (docs/api.md#two-factor-authentication).
-- A user's TOTP secret (encrypted) and the last step a code was taken for; their recovery codes,
-- as SHA-256 hashes, each row deleted when its code is used. Both go with the user.
CREATE TABLE IF NOT EXISTS auth_two_factors (
	"userId" TEXT PRIMARY KEY REFERENCES auth_users (id) ON DELETE CASCADE,
	secret TEXT NOT NULL,
	"createdAt" TIMESTAMPTZ NOT NULL,
	"lastUsedStep" BIGINT
);
CREATE TABLE IF NOT EXISTS auth_recovery_codes (
	"userId" TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
	"codeHash" TEXT NOT NULL,
	PRIMARY KEY ("userId", "codeHash")
);
