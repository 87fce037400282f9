-- create-auth, after 0.2.0: what the account page shows of a user's sessions and passkeys, and
-- the count a `jwt` session is checked against once the user ends every other session
-- (docs/api.md#ending-sessions). Existing rows keep NULL details (shown as unknown) and version 0.
ALTER TABLE auth_users ADD COLUMN IF NOT EXISTS "sessionVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS "createdAt" TIMESTAMPTZ;
ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS "userAgent" TEXT;
ALTER TABLE auth_sessions ADD COLUMN IF NOT EXISTS "ipAddress" TEXT;
ALTER TABLE auth_authenticators ADD COLUMN IF NOT EXISTS name TEXT;
ALTER TABLE auth_authenticators ADD COLUMN IF NOT EXISTS aaguid TEXT;
ALTER TABLE auth_authenticators ADD COLUMN IF NOT EXISTS "createdAt" TIMESTAMPTZ;
ALTER TABLE auth_authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" TIMESTAMPTZ;
