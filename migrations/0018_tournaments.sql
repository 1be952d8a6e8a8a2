-- Tournaments run by the bot (issue 37): a round robin or a Swiss of a two-player
-- variant, made in a server's channel by its creator. `format` is 'round-robin' or
-- 'swiss'; `double_round` (0 or 1) a double round robin; `rounds` a Swiss's number of rounds
-- (0 for a round robin, whose rounds follow from the field); `options` the variant's
-- options as a JSON object, with the referee's `rated`; `player_limit` and
-- `signup_until` (seconds since the epoch) may be NULL; `mode` 'together' (every round
-- of a round robin started at once) or 'sequential' (each round when the previous one
-- has ended); `state` its life; `current_round` the number of rounds started (0 before
-- the start). `version` counts the writes that change the state or the rounds: each
-- names the version it read, so a round is started once whatever the processes.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    server TEXT,
    channel TEXT,
    creator TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    double_round INTEGER NOT NULL CHECK (double_round IN (0, 1)),
    rounds INTEGER NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    days_per_move INTEGER NOT NULL CHECK (days_per_move > 0),
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    player_limit INTEGER,
    signup_until INTEGER,
    mode TEXT NOT NULL CHECK (mode IN ('together', 'sequential')),
    state TEXT NOT NULL CHECK (state IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    current_round INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE INDEX tournaments_by_server ON tournaments(server, state);

-- The entrants, by seed (0 first: the order they joined); `withdrawn_at` the round
-- count when they withdrew (NULL: still in).
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    seed INTEGER NOT NULL,
    joined_at INTEGER NOT NULL,
    withdrawn_at INTEGER,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, seed)
);

-- Each round's boards (from 1): White's and Black's seeds, or a bye (`black` NULL,
-- `white` the player who sits out), the game played on it, and a forfeit
-- ('white' or 'black': who scores the point; 'double': neither), which stands over the
-- game's result. A board's result is its game's: it ends in the game's own write.
CREATE TABLE tournament_boards (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    white INTEGER NOT NULL,
    black INTEGER,
    game_id INTEGER UNIQUE REFERENCES games(id),
    forfeit TEXT CHECK (forfeit IN ('white', 'black', 'double')),
    PRIMARY KEY (tournament_id, round, board)
);
