-- A more compact action log, and a write trigger of fewer statements.
--
-- An action `{"Move":"<text>"}` (nearly every entry: a variant's move, in its own words)
-- keeps just its text (`mv`), the JSON around it left out; any other action keeps its
-- JSON (`action`), so exactly one of the two is set. The text is kept only where the
-- JSON is exactly that wrapping of it (no character JSON escapes), so the action reads
-- back byte for byte. An action's time (`at`) is kept as seconds since its game was
-- created (`games.created_at`, which never changes): a small number where the absolute
-- time took six bytes. Reads add the two back (`Store::actions`).
DROP TRIGGER game_writes_insert;

DROP VIEW game_writes;

CREATE TABLE actions_packed (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    author TEXT,
    action TEXT,
    at INTEGER NOT NULL,
    event_id TEXT UNIQUE,
    mv TEXT,
    PRIMARY KEY (game_id, seq),
    CHECK ((mv IS NULL) <> (action IS NULL))
) WITHOUT ROWID;

INSERT INTO actions_packed (game_id, seq, seat, author, action, at, event_id, mv)
SELECT a.game_id, a.seq, a.seat, a.author,
    CASE WHEN m.text IS NULL THEN a.action END,
    a.at - g.created_at, a.event_id, m.text
FROM actions a
JOIN games g ON g.id = a.game_id
LEFT JOIN (
    SELECT game_id, seq, action ->> '$.Move' AS text FROM actions
    WHERE json_valid(action) AND json_type(action, '$.Move') = 'text'
) m ON m.game_id = a.game_id AND m.seq = a.seq
    AND instr(m.text, '"') = 0 AND instr(m.text, '\') = 0
    AND a.action = '{"Move":"' || m.text || '"}';

DROP TABLE actions;

ALTER TABLE actions_packed RENAME TO actions;

-- The view written to, with the move's text beside the action's JSON (one of the two).
CREATE VIEW game_writes AS SELECT
    NULL AS game_id, NULL AS expected_version, NULL AS at, NULL AS event_id,
    NULL AS status, NULL AS snapshot, NULL AS result, NULL AS reason, NULL AS score,
    NULL AS action_seat, NULL AS action_author, NULL AS action,
    NULL AS seats, NULL AS deadlines,
    NULL AS notice_seat, NULL AS notice_turn, NULL AS notice_kind,
    NULL AS messages, NULL AS action_move
WHERE 0;

-- The write trigger of migration 0019 with fewer statements, each doing something in a
-- move's write: the version and the duplicate-delivery checks are one statement, and a
-- move's event is checked by the unique key of `actions.event_id` itself (a second
-- delivery fails its insert, which the store reads as a duplicate), so the check reads
-- the table the event is not written to: `processed_events` for an action's event,
-- `actions` for another's. The notice and the outbox messages, which few writes carry,
-- are written by a second trigger that a move's write skips at once (`WHEN`).
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
    UPDATE games SET status = NEW.status, snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id;
    UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
        accepted = COALESCE(j.value ->> 3, accepted)
    FROM json_each(NEW.seats) AS j
    WHERE NEW.seats IS NOT NULL AND seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
    INSERT INTO processed_events (event_id, at)
    SELECT NEW.event_id, NEW.at
    WHERE NEW.event_id IS NOT NULL AND NEW.action IS NULL AND NEW.action_move IS NULL;
    INSERT INTO actions (game_id, seq, seat, author, action, at, event_id, mv)
    SELECT NEW.game_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id),
        NEW.action_seat,
        NULLIF(NEW.action_author,
            (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat)),
        NEW.action, NEW.at - g.created_at, NEW.event_id, NEW.action_move
    FROM games g
    WHERE g.id = NEW.game_id AND (NEW.action IS NOT NULL OR NEW.action_move IS NOT NULL);
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, NEW.at FROM json_each(NEW.deadlines);
END;

CREATE TRIGGER game_writes_notices INSTEAD OF INSERT ON game_writes
WHEN NEW.notice_kind IS NOT NULL OR NEW.messages <> '[]'
BEGIN
    INSERT INTO notices (game_id, seat, turn, kind, at)
    SELECT NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at
    WHERE NEW.notice_kind IS NOT NULL;
    INSERT INTO outbox (game_id, destination, text, board, ending, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, COALESCE(value ->> 3, 0), NEW.at
    FROM json_each(NEW.messages) WHERE NEW.messages <> '[]';
END;
