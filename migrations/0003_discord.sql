-- The Discord adapter's bookkeeping: private messages held for users whose DMs are closed
-- (fetched with /private), and which users refused DMs (not retried until they interact).

CREATE TABLE held_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL
);

CREATE INDEX held_by_user ON held_messages(user_id);

CREATE TABLE dm_closed (
    user_id TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);

-- The public thread each game was given when its challenge was accepted (games.channel
-- then names the thread; parent is the channel the challenge was made in).
CREATE TABLE game_threads (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    thread TEXT NOT NULL UNIQUE,
    parent TEXT NOT NULL
);
