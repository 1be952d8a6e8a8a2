-- A move's write without the temporary tables SQLite built for it (each one a b-tree
-- opened, a page allocated and zeroed, closed again: about a sixth of a move's cost).
--
-- * `games.status` is set by a statement of its own, only when it changes: SQLite checks
--   a CHECK constraint only when a column it names is set, and the CHECK of `status`
--   (`IN` a list of six) builds a temporary table each time; the indexes that hold the
--   status are then left alone too, and `game_started` (AFTER UPDATE OF status) fires
--   only on that statement.
-- * The seats' update (`UPDATE ... FROM`, which gathers its rows in a temporary table)
--   runs in a trigger of its own, only for a write that carries seats.
-- * The action's insert is a single row of `VALUES` in a trigger of its own, only for a
--   write that carries an action: an `INSERT ... SELECT` that reads the table it inserts
--   into (the next `seq`) first copies its rows to a temporary table.
--
-- SQLite fires a statement's triggers newest first, so they run in the order the one
-- trigger ran its statements: the main one, made last, checks the version and the
-- delivery before anything is written, then the seats are updated, then the action is
-- inserted (its author compared with the seat's player after the update). A failure
-- anywhere undoes the whole statement.
DROP TRIGGER game_writes_insert;

CREATE TRIGGER game_writes_action INSTEAD OF INSERT ON game_writes
WHEN NEW.action IS NOT NULL OR NEW.action_move IS NOT NULL
BEGIN
    INSERT INTO actions (game_id, seq, seat, author, action, at, event_id, mv)
    VALUES (NEW.game_id,
        (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id),
        NEW.action_seat,
        NULLIF(NEW.action_author,
            (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat)),
        NEW.action,
        NEW.at - (SELECT created_at FROM games WHERE id = NEW.game_id),
        NEW.event_id, NEW.action_move);
END;

CREATE TRIGGER game_writes_seats INSTEAD OF INSERT ON game_writes
WHEN NEW.seats IS NOT NULL
BEGIN
    UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
        accepted = COALESCE(j.value ->> 3, accepted)
    FROM json_each(NEW.seats) AS j
    WHERE seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
END;

CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
BEGIN
    SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version)
            THEN RAISE(ABORT, 'postal: version conflict')
        WHEN NEW.event_id IS NOT NULL AND (NEW.action IS NOT NULL OR NEW.action_move IS NOT NULL)
            AND EXISTS (SELECT 1 FROM processed_events WHERE event_id = NEW.event_id)
            THEN RAISE(ABORT, 'postal: duplicate event')
        WHEN NEW.event_id IS NOT NULL AND NEW.action IS NULL AND NEW.action_move IS NULL
            AND EXISTS (SELECT 1 FROM actions WHERE event_id = NEW.event_id)
            THEN RAISE(ABORT, 'postal: duplicate event')
    END;
    UPDATE games SET snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id;
    UPDATE games SET status = NEW.status WHERE id = NEW.game_id AND status <> NEW.status;
    INSERT INTO processed_events (event_id, at)
    SELECT NEW.event_id, NEW.at
    WHERE NEW.event_id IS NOT NULL AND NEW.action IS NULL AND NEW.action_move IS NULL;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, NEW.at FROM json_each(NEW.deadlines);
END;
