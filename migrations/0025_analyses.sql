-- Engine analyses of finished games (issue 59). A request is stored here before the bot
-- acknowledges it; a process claims it (`claimed_by` until `claimed_until`, as the outbox
-- is claimed) and stores each position's evaluation as it goes (`analysis_positions`),
-- so that a restart resumes it where it was. No user is named: the result is posted in
-- the game's own place (`destination`, the service's key).
CREATE TABLE analyses (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
    destination TEXT NOT NULL,
    requested_at INTEGER NOT NULL,
    claimed_by TEXT,
    claimed_until INTEGER,
    error TEXT,
    finished_at INTEGER
);
CREATE INDEX analyses_queued ON analyses (requested_at) WHERE status = 'queued';
-- One position's evaluation: `ply` plies into the game (0, the start), from White's side:
-- `kind` 'cp' or 'mate', its `value`, and the engine's line from it in UCI.
CREATE TABLE analysis_positions (
    game_id INTEGER NOT NULL REFERENCES analyses(game_id),
    ply INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('cp', 'mate')),
    value INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
-- An outbox message that reports an analysis: its deliverer attaches the graph.
ALTER TABLE outbox ADD COLUMN analysis INTEGER NOT NULL DEFAULT 0 CHECK (analysis IN (0, 1));
