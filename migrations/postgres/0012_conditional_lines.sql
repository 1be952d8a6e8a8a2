-- Conditional moves, as SQLite's migration 0012: each player's stored lines for a game
-- (JSON arrays of actions and of the moves as typed), with the game's version they
-- apply at.
CREATE TABLE conditional_lines (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    actions TEXT NOT NULL,
    typed TEXT NOT NULL
);

CREATE INDEX conditional_lines_by_game ON conditional_lines(game_id, user_id);
