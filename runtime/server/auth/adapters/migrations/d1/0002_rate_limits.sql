-- create-auth: the rate-limit counters of d1RateLimitStore (limits/d1.ts), shared by every isolate
-- of the Worker. One row per rule and key; `expires` is epoch milliseconds, the end of its window.
CREATE TABLE IF NOT EXISTS auth_rate_limits (
	key TEXT PRIMARY KEY NOT NULL,
	points INTEGER NOT NULL,
	expires INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS auth_rate_limits_expires ON auth_rate_limits(expires);
