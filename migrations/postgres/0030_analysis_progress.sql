-- An analysis's progress message, as SQLite's migration 0030: the outbox's updates of it
-- carry where the analysis stands, and where it was posted is kept per game and
-- destination, so that a restarted analysis edits the same message.
ALTER TABLE outbox ADD COLUMN progress TEXT;
CREATE TABLE analysis_posts (
    game_id BIGINT NOT NULL REFERENCES games(id),
    destination TEXT NOT NULL,
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (game_id, destination)
);
