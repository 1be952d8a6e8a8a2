-- Each player's own settings (the `settings` command): the hours before a deadline at
-- which they are reminded (NULL: the server's `reminder_hours`; '' : none; else hours
-- separated by commas, e.g. '24,1'), and whether the referee claims a win on time for
-- them where the rules make it a claim (Chess#), 0 or 1.
ALTER TABLE users ADD COLUMN reminder_hours TEXT;
ALTER TABLE users ADD COLUMN auto_claim INTEGER NOT NULL DEFAULT 0;
