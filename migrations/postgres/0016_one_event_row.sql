-- A move's chat event is stored once, as SQLite's migration 0016: in its action's row
-- (`actions.event_id`, unique), which the duplicate-delivery check reads beside
-- `processed_events`; `processed_events` keeps the events that changed something without
-- adding an action (a challenge, an acceptance, a forgetting).
DELETE FROM processed_events
WHERE event_id IN (SELECT event_id FROM actions WHERE event_id IS NOT NULL);

-- The write function of migration 0009, writing the event id once.
CREATE OR REPLACE FUNCTION game_writes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET status = NEW.status, snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id AND version = NEW.expected_version;
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
    IF NEW.action IS NOT NULL THEN
        INSERT INTO actions (game_id, seq, seat, author, action, at, event_id)
        SELECT NEW.game_id, COALESCE(MAX(seq), 0) + 1, NEW.action_seat, NEW.action_author,
            NEW.action, NEW.at, NEW.event_id
        FROM actions WHERE game_id = NEW.game_id;
    ELSIF NEW.event_id IS NOT NULL THEN
        INSERT INTO processed_events (event_id, at) VALUES (NEW.event_id, NEW.at);
    END IF;
    IF NEW.seats IS NOT NULL THEN
        UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
            accepted = COALESCE((j.value ->> 3)::BIGINT, seats.accepted)
        FROM jsonb_array_elements(NEW.seats::jsonb) AS j(value)
        WHERE seats.game_id = NEW.game_id AND seats.seat = (j.value ->> 0)::BIGINT;
    END IF;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at)
    SELECT NEW.game_id, (value ->> 0)::BIGINT, (value ->> 1)::BIGINT, (value ->> 2)::BIGINT
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

-- The deadline check's questions about players, answered from the few who chose a
-- setting rather than by reading every user, as SQLite's migration 0016.
CREATE INDEX users_reminder_hours ON users(reminder_hours)
WHERE reminder_hours IS NOT NULL AND reminder_hours <> '';

CREATE INDEX users_digest_hour ON users(digest_hour) WHERE digest_hour IS NOT NULL;
