-- create-auth, after 0.2.0: two-factor authentication (docs/api.md#two-factor-authentication).
-- A user's TOTP secret (encrypted) and the last step a code was taken for; their recovery codes,
-- as SHA-256 hashes, each row deleted when its code is used. Both go with the user.
CREATE TABLE IF NOT EXISTS auth_two_factors (
	userId VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
	secret TEXT NOT NULL,
	createdAt DATETIME(3) NOT NULL,
	lastUsedStep BIGINT,
	FOREIGN KEY (userId) REFERENCES auth_users (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
CREATE TABLE IF NOT EXISTS auth_recovery_codes (
	userId VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	codeHash VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	PRIMARY KEY (userId, codeHash),
	FOREIGN KEY (userId) REFERENCES auth_users (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
