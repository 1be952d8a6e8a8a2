-- The deadline check as range queries on indexes of due times, and an action's author left
-- out where it is the seat's player, as SQLite's migration 0019 (which says why).
ALTER TABLE deadlines ADD COLUMN check_at BIGINT;

UPDATE deadlines SET check_at = 0;

DROP INDEX deadlines_by_due;

CREATE INDEX deadlines_to_check ON deadlines(check_at) WHERE check_at IS NOT NULL;

-- A deadline moved by any other statement is looked at by the next check.
CREATE FUNCTION deadlines_due_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.check_at := 0;
    RETURN NEW;
END;
$$;

CREATE TRIGGER deadlines_due_changed BEFORE UPDATE OF due_at ON deadlines
    FOR EACH ROW WHEN (NEW.due_at IS DISTINCT FROM OLD.due_at)
    EXECUTE FUNCTION deadlines_due_changed();

ALTER TABLE users ADD COLUMN digest_next BIGINT;

UPDATE users SET digest_next = 0 WHERE digest_hour IS NOT NULL;

DROP INDEX users_digest_hour;

CREATE INDEX users_digest_next ON users(digest_next) WHERE digest_next IS NOT NULL;

DROP INDEX games_by_status;

CREATE INDEX games_challenged_at ON games(created_at) WHERE status = 'challenged';

ALTER TABLE actions ALTER COLUMN author DROP NOT NULL;

UPDATE actions a SET author = NULL
FROM seats s
WHERE s.game_id = a.game_id AND s.seat = a.seat AND s.user_id = a.author;

-- The write function of migration 0016, now setting the deadlines' `check_at` and leaving
-- out an action's author where it is the seat's player (the seats written first).
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
    IF NEW.seats IS NOT NULL THEN
        UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
            accepted = COALESCE((j.value ->> 3)::BIGINT, seats.accepted)
        FROM jsonb_array_elements(NEW.seats::jsonb) AS j(value)
        WHERE seats.game_id = NEW.game_id AND seats.seat = (j.value ->> 0)::BIGINT;
    END IF;
    IF NEW.action IS NOT NULL THEN
        INSERT INTO actions (game_id, seq, seat, author, action, at, event_id)
        SELECT NEW.game_id, COALESCE(MAX(seq), 0) + 1, NEW.action_seat,
            NULLIF(NEW.action_author,
                (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat)),
            NEW.action, NEW.at, NEW.event_id
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
