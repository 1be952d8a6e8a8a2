-- Each player's own settings, as SQLite's migration 0010: reminder hours (NULL: the
-- server's; '': none; '24,1') and whether wins on time are claimed for them.
ALTER TABLE users ADD COLUMN reminder_hours TEXT;
ALTER TABLE users ADD COLUMN auto_claim BIGINT NOT NULL DEFAULT 0;
