-- A tournament's round announced from the outbox, as SQLite's migration 0020: a message
-- that opens a game the referee started (`started`), and the standings table posted with
-- it (`standings`, the table's JSON), queued in the transaction that starts the round.
ALTER TABLE outbox ADD COLUMN started BIGINT NOT NULL DEFAULT 0 CHECK (started IN (0, 1));
ALTER TABLE outbox ADD COLUMN standings TEXT;
