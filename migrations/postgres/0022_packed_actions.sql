-- A more compact action log, as SQLite's migration 0022 (which says why): a move's text
-- without the JSON around it (`mv`, else the action's JSON in `action`), and an action's
-- time as seconds since its game was created.
ALTER TABLE actions ADD COLUMN mv TEXT;

ALTER TABLE actions ALTER COLUMN action DROP NOT NULL;

UPDATE actions SET mv = m.text, action = NULL
FROM (
    SELECT game_id, seq, action::jsonb ->> 'Move' AS text FROM actions
    WHERE action LIKE '{"Move":"%"}'
        AND jsonb_typeof(CASE WHEN action LIKE '{%' THEN action::jsonb -> 'Move' END) = 'string'
) m
WHERE actions.game_id = m.game_id AND actions.seq = m.seq
    AND strpos(m.text, '"') = 0 AND strpos(m.text, '\') = 0
    AND actions.action = '{"Move":"' || m.text || '"}';

UPDATE actions SET at = actions.at - g.created_at FROM games g WHERE g.id = actions.game_id;

ALTER TABLE actions ADD CONSTRAINT actions_move_or_action CHECK ((mv IS NULL) <> (action IS NULL));

-- The view written to, with the move's text beside the action's JSON (one of the two).
CREATE OR REPLACE VIEW game_writes AS SELECT
    NULL::BIGINT AS game_id, NULL::BIGINT AS expected_version, NULL::BIGINT AS at,
    NULL::TEXT AS event_id, NULL::TEXT AS status, NULL::TEXT AS snapshot,
    NULL::TEXT AS result, NULL::TEXT AS reason, NULL::TEXT AS score,
    NULL::BIGINT AS action_seat, NULL::TEXT AS action_author, NULL::TEXT AS action,
    NULL::TEXT AS seats, NULL::TEXT AS deadlines,
    NULL::BIGINT AS notice_seat, NULL::BIGINT AS notice_turn, NULL::TEXT AS notice_kind,
    NULL::TEXT AS messages, NULL::TEXT AS action_move
WHERE false;

-- The write function of migration 0019, storing the move's text or the action's JSON and
-- the action's time since the game's creation.
CREATE OR REPLACE FUNCTION game_writes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    acted BOOLEAN := NEW.action IS NOT NULL OR NEW.action_move IS NOT NULL;
    created BIGINT;
BEGIN
    UPDATE games SET status = NEW.status, snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id AND version = NEW.expected_version
    RETURNING created_at INTO created;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'postal: version conflict';
    END IF;
    -- The two tables are one set of events: an event in either is a duplicate. (Two
    -- deliveries of one event at once are the same command, which writes the same table,
    -- whose unique key then refuses the second.)
    IF NEW.event_id IS NOT NULL AND (
        EXISTS (SELECT 1 FROM actions WHERE event_id = NEW.event_id)
        OR EXISTS (SELECT 1 FROM processed_events WHERE event_id = NEW.event_id)) THEN
        RAISE EXCEPTION 'postal: duplicate event';
    END IF;
    IF NEW.seats IS NOT NULL THEN
        UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
            accepted = COALESCE((j.value ->> 3)::BIGINT, seats.accepted)
        FROM jsonb_array_elements(NEW.seats::jsonb) AS j(value)
        WHERE seats.game_id = NEW.game_id AND seats.seat = (j.value ->> 0)::BIGINT;
    END IF;
    IF acted THEN
        INSERT INTO actions (game_id, seq, seat, author, action, at, event_id, mv)
        SELECT NEW.game_id, COALESCE(MAX(seq), 0) + 1, NEW.action_seat,
            NULLIF(NEW.action_author,
                (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat)),
            NEW.action, NEW.at - created, NEW.event_id, NEW.action_move
        FROM actions WHERE game_id = NEW.game_id;
    ELSIF NEW.event_id IS NOT NULL THEN
        INSERT INTO processed_events (event_id, at) VALUES (NEW.event_id, NEW.at);
    END IF;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
    SELECT NEW.game_id, (value ->> 0)::BIGINT, (value ->> 1)::BIGINT, (value ->> 2)::BIGINT, NEW.at
    FROM jsonb_array_elements(COALESCE(NEW.deadlines, '[]')::jsonb) AS j(value);
    IF NEW.notice_kind IS NOT NULL THEN
        INSERT INTO notices (game_id, seat, turn, kind, at)
        VALUES (NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at);
    END IF;
    IF COALESCE(NEW.messages, '[]') <> '[]' THEN
        INSERT INTO outbox (game_id, destination, text, board, ending, created_at)
        SELECT NEW.game_id, value ->> 0, value ->> 1, (value ->> 2)::BIGINT,
            COALESCE((value ->> 3)::BIGINT, 0), NEW.at
        FROM jsonb_array_elements(NEW.messages::jsonb) AS j(value);
    END IF;
    RETURN NEW;
END;
$$;
