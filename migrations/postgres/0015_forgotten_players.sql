-- Players forgotten at their request, as SQLite's migration 0015: one row each, whose
-- number names the neutral label ("Former player 3") that replaces the player's key in
-- the records of their past games.
CREATE TABLE forgotten_players (
    id BIGSERIAL PRIMARY KEY,
    at BIGINT NOT NULL
);
