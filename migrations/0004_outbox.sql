-- The outbox of the deadline check, and a game's change as one statement.

-- Messages the deadline check produced (reminders, "time has run out", timeouts), stored
-- in the same transaction as the notice or the game's change that caused them and kept
-- until the adapter says it delivered them; on start-up the undelivered ones are sent.
-- destination: 'channel:ID' or 'dm:USER'; board: 1 to attach the game's public board as
-- stored (a timeout's message, whose game no longer changes).
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER REFERENCES games(id),
    destination TEXT NOT NULL,
    text TEXT NOT NULL,
    board INTEGER NOT NULL DEFAULT 0 CHECK (board IN (0, 1)),
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
);

CREATE INDEX outbox_undelivered ON outbox(id) WHERE delivered_at IS NULL;

-- A change to a game is one INSERT into this view: the trigger below checks the version
-- and writes the event id, the game row, the action, the seats, the deadlines, the notice
-- and the outbox messages. One statement is atomic (a failed check or a duplicate key
-- backs out all of it) and costs one round trip to the database, where a transaction of
-- separate statements costs one per statement. JSON columns are arrays of arrays:
-- seats [[seat, user, role]], deadlines [[seat, turn, due_at]],
-- messages [[destination, text, board]]; NULL for none (the seats are then unchanged).
CREATE VIEW game_writes AS SELECT
    NULL AS game_id, NULL AS expected_version, NULL AS at, NULL AS event_id,
    NULL AS status, NULL AS snapshot, NULL AS result, NULL AS reason, NULL AS score,
    NULL AS action_seat, NULL AS action_author, NULL AS action,
    NULL AS seats, NULL AS deadlines,
    NULL AS notice_seat, NULL AS notice_turn, NULL AS notice_kind,
    NULL AS messages
WHERE 0;

CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
BEGIN
    SELECT RAISE(ABORT, 'postal: version conflict')
    WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
    INSERT INTO processed_events (event_id, at)
    SELECT NEW.event_id, NEW.at WHERE NEW.event_id IS NOT NULL;
    UPDATE games SET status = NEW.status, snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id;
    INSERT INTO actions (game_id, seq, seat, author, action, at, event_id)
    SELECT NEW.game_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id),
        NEW.action_seat, NEW.action_author, NEW.action, NEW.at, NEW.event_id
    WHERE NEW.action IS NOT NULL;
    UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2
    FROM json_each(NEW.seats) AS j
    WHERE seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.deadlines);
    INSERT INTO notices (game_id, seat, turn, kind, at)
    SELECT NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at
    WHERE NEW.notice_kind IS NOT NULL;
    INSERT INTO outbox (game_id, destination, text, board, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, NEW.at FROM json_each(NEW.messages);
END;
