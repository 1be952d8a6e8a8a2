-- Two more player settings and the digests sent, as SQLite's migration 0013: the UTC
-- hour of a player's daily digest (NULL: none), how boards sent to them privately are
-- turned ('own', 'white'; NULL: as the server draws them), and one row per player and
-- digest day sent.
ALTER TABLE users ADD COLUMN digest_hour BIGINT;
ALTER TABLE users ADD COLUMN orientation TEXT;

CREATE TABLE digests (
    user_id TEXT NOT NULL REFERENCES users(id),
    day BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (user_id, day)
);
