-- A tournament's round is announced from the outbox, queued in the transaction that
-- starts it: a message that opens a game the referee started (`started`: an adapter that
-- gives games threads opens the game's thread, and the message calls on its players),
-- and the standings posted with it as a table (`standings`: the table's JSON, which an
-- adapter that sends images draws). Stored with the message, so that whoever delivers
-- it, after any restart, delivers it as the round's start it is.
ALTER TABLE outbox ADD COLUMN started INTEGER NOT NULL DEFAULT 0 CHECK (started IN (0, 1));
ALTER TABLE outbox ADD COLUMN standings TEXT;
