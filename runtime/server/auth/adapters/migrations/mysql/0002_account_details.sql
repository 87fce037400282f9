-- create-auth, after 0.2.0: what the account page shows of a user's sessions and passkeys, and
-- the count a `jwt` session is checked against once the user ends every other session
-- (docs/api.md#ending-sessions). Existing rows keep NULL details (shown as unknown) and version 0.
-- One statement per table, without IF NOT EXISTS (MySQL 8 lacks it; `create-auth migrate`
-- applies this file once).
ALTER TABLE auth_users ADD COLUMN sessionVersion INT NOT NULL DEFAULT 0;
ALTER TABLE auth_sessions ADD COLUMN createdAt DATETIME(3), ADD COLUMN userAgent TEXT, ADD COLUMN ipAddress VARCHAR(64);
ALTER TABLE auth_authenticators ADD COLUMN name VARCHAR(255), ADD COLUMN aaguid VARCHAR(36), ADD COLUMN createdAt DATETIME(3), ADD COLUMN lastUsedAt DATETIME(3);
