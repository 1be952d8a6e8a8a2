-- Tournaments run by the bot, as SQLite's migration 0018: the tournament (format,
-- variant, options, days per move, rated, limit, sign-up deadline, together or
-- sequential rounds, state, rounds started, version), its entrants by seed, and each
-- round's boards with their game or forfeit.
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    server TEXT,
    channel TEXT,
    creator TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    double_round BIGINT NOT NULL CHECK (double_round IN (0, 1)),
    rounds BIGINT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    days_per_move BIGINT NOT NULL CHECK (days_per_move > 0),
    rated BIGINT NOT NULL CHECK (rated IN (0, 1)),
    player_limit BIGINT,
    signup_until BIGINT,
    mode TEXT NOT NULL CHECK (mode IN ('together', 'sequential')),
    state TEXT NOT NULL CHECK (state IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    current_round BIGINT NOT NULL,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX tournaments_by_server ON tournaments(server, state);

-- The entrants, by seed (0 first: the order they joined); `withdrawn_at` the round
-- count when they withdrew (NULL: still in).
CREATE TABLE tournament_entrants (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    seed BIGINT NOT NULL,
    joined_at BIGINT NOT NULL,
    withdrawn_at BIGINT,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, seed)
);

-- Each round's boards (from 1): White's and Black's seeds, or a bye (`black` NULL,
-- `white` the player who sits out), the game played on it, and a forfeit
-- ('white' or 'black': who scores the point; 'double': neither), which stands over the
-- game's result. A board's result is its game's: it ends in the game's own write.
CREATE TABLE tournament_boards (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    white BIGINT NOT NULL,
    black BIGINT,
    game_id BIGINT UNIQUE REFERENCES games(id),
    forfeit TEXT CHECK (forfeit IN ('white', 'black', 'double')),
    PRIMARY KEY (tournament_id, round, board)
);
