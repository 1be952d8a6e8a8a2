-- A move's chat event is stored once: in its action's row (`actions.event_id`, unique),
-- which the duplicate-delivery check reads beside `processed_events`. Before, every write
-- also inserted the event into `processed_events`, so each move's event was stored twice
-- (with an index each): 37% of the database in `postal bench service`.
-- `processed_events` keeps the events that changed something without adding an action
-- (a challenge, an acceptance, a forgetting).
DELETE FROM processed_events
WHERE event_id IN (SELECT event_id FROM actions WHERE event_id IS NOT NULL);

-- The action log clustered on its key (game, seq): a rowid table kept a second copy of
-- every key in the primary key's index. Same columns, same constraints.
DROP TRIGGER game_writes_insert;

CREATE TABLE actions_by_game (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    author TEXT NOT NULL,
    action TEXT NOT NULL,
    at INTEGER NOT NULL,
    event_id TEXT UNIQUE,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

INSERT INTO actions_by_game (game_id, seq, seat, author, action, at, event_id)
SELECT game_id, seq, seat, author, action, at, event_id FROM actions;

DROP TABLE actions;

ALTER TABLE actions_by_game RENAME TO actions;

-- The write trigger of migration 0009, writing the event id once: with the action when
-- there is one, else in `processed_events`. An event seen in either is a duplicate (the
-- two tables are one set of events: a unique key of each, and this check across them,
-- which SQLite's single writer makes exact). The parts a write leaves out (seats, notice,
-- messages) cost a guard each and touch no table.
CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
BEGIN
    SELECT RAISE(ABORT, 'postal: version conflict')
    WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
    SELECT RAISE(ABORT, 'postal: duplicate event')
    WHERE NEW.event_id IS NOT NULL
      AND (EXISTS (SELECT 1 FROM actions WHERE event_id = NEW.event_id)
        OR EXISTS (SELECT 1 FROM processed_events WHERE event_id = NEW.event_id));
    INSERT INTO processed_events (event_id, at)
    SELECT NEW.event_id, NEW.at WHERE NEW.event_id IS NOT NULL AND NEW.action IS NULL;
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
    WHERE NEW.seats IS NOT NULL AND seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.deadlines);
    INSERT INTO notices (game_id, seat, turn, kind, at)
    SELECT NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at
    WHERE NEW.notice_kind IS NOT NULL;
    INSERT INTO outbox (game_id, destination, text, board, ending, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, COALESCE(value ->> 3, 0), NEW.at
    FROM json_each(NEW.messages) WHERE NEW.messages <> '[]';
END;

-- The deadline check's questions about players, answered from the few who chose a
-- setting rather than by reading every user: the reminder hours chosen (how far ahead it
-- looks) and the players with a daily digest.
CREATE INDEX users_reminder_hours ON users(reminder_hours)
WHERE reminder_hours IS NOT NULL AND reminder_hours <> '';

CREATE INDEX users_digest_hour ON users(digest_hour) WHERE digest_hour IS NOT NULL;
