-- Two more of each player's own settings (the `settings` command): the hour of the day
-- (UTC, 0 to 23) of their daily digest, which then replaces the direct messages and
-- pings that tell them it is their turn (NULL: no digest); and how the boards sent to
-- them privately are turned ('own': their side at the bottom, 'white': White at the
-- bottom; NULL: as the server draws them).
ALTER TABLE users ADD COLUMN digest_hour INTEGER;
ALTER TABLE users ADD COLUMN orientation TEXT;

-- The digests sent (or found empty), one row per player and digest day, so that a
-- restart neither repeats nor skips one: the row and the digest's message in the outbox
-- are written in one transaction. `day` counts days since 1970-01-01 from the player's
-- digest hour (day d's digest is due at d * 86400 + digest_hour * 3600).
CREATE TABLE digests (
    user_id TEXT NOT NULL REFERENCES users(id),
    day INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);
