-- Players' vacations (the `vacation` command): one row per vacation. While it runs
-- (`ended_at` NULL) the player's clocks stop in every game; when it ends (`ended_at`
-- set: early, by a move or `vacation end`, or at `planned_end`) each deadline of theirs
-- that ran during it is extended, in each game's own write with a log entry, and the row
-- is then `settled` (0 or 1). `days` counts against the yearly allowance of the year the
-- vacation started: the planned days while it runs, the whole days begun (at least 1)
-- once it ended. A player has at most one vacation not settled.
CREATE TABLE vacations (
    user_id TEXT NOT NULL REFERENCES users(id),
    started_at INTEGER NOT NULL,
    planned_end INTEGER NOT NULL,
    ended_at INTEGER,
    days INTEGER NOT NULL,
    settled INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, started_at)
);

CREATE UNIQUE INDEX vacations_unsettled ON vacations(user_id) WHERE settled = 0;
