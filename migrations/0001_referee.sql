-- The referee's tables: users, games with their state snapshot, seats, the action log,
-- processed chat events, deadlines, and the reminders/timeouts already sent.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('challenged', 'active', 'finished', 'aborted', 'declined', 'cancelled')),
    days_per_move INTEGER NOT NULL CHECK (days_per_move > 0),
    colour TEXT NOT NULL,
    challenger TEXT NOT NULL REFERENCES users(id),
    channel TEXT,
    seed INTEGER NOT NULL,
    result TEXT,
    reason TEXT,
    score TEXT,
    snapshot TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE INDEX games_by_status ON games(status);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    user_id TEXT REFERENCES users(id),
    role TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX seats_by_user ON seats(user_id);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    author TEXT NOT NULL,
    action TEXT NOT NULL,
    at INTEGER NOT NULL,
    event_id TEXT UNIQUE,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE processed_events (
    event_id TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);

CREATE TABLE deadlines (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX deadlines_by_due ON deadlines(due_at);

CREATE TABLE notices (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, turn, kind)
);
