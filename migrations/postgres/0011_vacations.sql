-- Players' vacations, as SQLite's migration 0011: one row per vacation; `days` counts
-- against the allowance of the year it started; at most one vacation per player is not
-- settled (its deadlines not yet extended).
CREATE TABLE vacations (
    user_id TEXT NOT NULL REFERENCES users(id),
    started_at BIGINT NOT NULL,
    planned_end BIGINT NOT NULL,
    ended_at BIGINT,
    days BIGINT NOT NULL,
    settled BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, started_at)
);

CREATE UNIQUE INDEX vacations_unsettled ON vacations(user_id) WHERE settled = 0;
