-- Best-score competitions of the one-seat variants, as SQLite's migration 0021: the
-- mark of a tournament that is a competition (`tournaments.format` keeps 'round-robin',
-- `rounds` the number of deals; the store reads the format as 'competition'), and each
-- deal's secret seed, never shown, exported or sent.
CREATE TABLE competitions (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments(id)
);

CREATE TABLE competition_deals (
    tournament_id BIGINT NOT NULL REFERENCES competitions(tournament_id),
    deal BIGINT NOT NULL CHECK (deal > 0),
    seed BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, deal)
);
