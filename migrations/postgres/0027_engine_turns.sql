-- Games against the engine, as SQLite's migration 0027: which process is computing which
-- engine's turn (the engine seat's deadline), one row per game.
CREATE TABLE engine_turns (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    turn BIGINT NOT NULL,
    claimed_by TEXT NOT NULL,
    claimed_until BIGINT NOT NULL
);
