-- Engine analyses of finished games, as SQLite's migration 0025: the request stored
-- before it is acknowledged, claimed by one process, each position's evaluation stored as
-- it is made, and the outbox's mark of a message that reports one.
CREATE TABLE analyses (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
    destination TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    claimed_by TEXT,
    claimed_until BIGINT,
    error TEXT,
    finished_at BIGINT
);
CREATE INDEX analyses_queued ON analyses (requested_at) WHERE status = 'queued';
-- One position's evaluation: `ply` plies into the game (0, the start), from White's side:
-- `kind` 'cp' or 'mate', its `value`, and the engine's line from it in UCI.
CREATE TABLE analysis_positions (
    game_id BIGINT NOT NULL REFERENCES analyses(game_id),
    ply BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('cp', 'mate')),
    value BIGINT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
-- An outbox message that reports an analysis: its deliverer attaches the graph.
ALTER TABLE outbox ADD COLUMN analysis BIGINT NOT NULL DEFAULT 0 CHECK (analysis IN (0, 1));
