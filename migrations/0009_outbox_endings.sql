-- Whether an outbox message announces the end of its game (a timeout's message to the
-- game's place): the adapter then attaches the game's record and animation and offers a
-- rematch, as it does for an end by a move or a resignation. Stored with the message, so
-- that a restart between queueing and delivery keeps it.
ALTER TABLE outbox ADD COLUMN ending INTEGER NOT NULL DEFAULT 0 CHECK (ending IN (0, 1));

-- Messages queued by an earlier version and not yet delivered: before this column, only
-- a timeout's public message carried the game's board (`board = 1`), and a timeout ends
-- its game, so those of games now over announce their end.
UPDATE outbox SET ending = 1
WHERE delivered_at IS NULL AND board = 1
  AND game_id IN (SELECT id FROM games WHERE status IN ('finished', 'aborted'));

-- The write trigger of migration 0005, now also writing whether a message announces the
-- end: messages are [[destination, text, board, ending]] (a missing fourth element is 0).
DROP TRIGGER game_writes_insert;

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
    UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
        accepted = COALESCE(j.value ->> 3, accepted)
    FROM json_each(NEW.seats) AS j
    WHERE seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.deadlines);
    INSERT INTO notices (game_id, seat, turn, kind, at)
    SELECT NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at
    WHERE NEW.notice_kind IS NOT NULL;
    INSERT INTO outbox (game_id, destination, text, board, ending, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, COALESCE(value ->> 3, 0), NEW.at
    FROM json_each(NEW.messages);
END;
