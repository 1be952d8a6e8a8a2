-- Every chat event that changed something kept once, in `events`, by a compact key, as
-- SQLite's migration 0024 (which says why): `actions.event_id` and `processed_events`
-- go. A Discord id is a tag byte (1 for `msg:`, 2 for `int:`) and the snowflake's eight
-- bytes, most significant first (`int8send`), when the snowflake is written as Rust's
-- `i64` writes it; any other id is the byte 0 and its text in UTF-8.
CREATE TABLE events (
    key BYTEA PRIMARY KEY
);

INSERT INTO events (key)
SELECT CASE WHEN snowflake
    THEN (CASE substr(id, 1, 4) WHEN 'msg:' THEN '\x01'::BYTEA ELSE '\x02'::BYTEA END)
        || int8send(substr(id, 5)::BIGINT)
    ELSE '\x00'::BYTEA || convert_to(id, 'UTF8')
END
FROM (
    -- CASE, not AND: PostgreSQL may test an AND's terms in any order, and the number's
    -- cast is made only on digits.
    SELECT id, CASE WHEN substr(id, 1, 4) IN ('msg:', 'int:')
            AND substr(id, 5) ~ '^(0|[1-9][0-9]{0,18})$'
        THEN substr(id, 5)::NUMERIC <= 9223372036854775807
        ELSE false END AS snowflake
    FROM (
        SELECT event_id AS id FROM actions WHERE event_id IS NOT NULL
        UNION ALL SELECT event_id FROM processed_events
    ) ids
) keyed
ON CONFLICT (key) DO NOTHING;

-- The view's `event_id` becomes the key's bytes: the view is made again, and with it the
-- trigger that writes through it.
DROP VIEW game_writes CASCADE;

DROP TABLE processed_events;

-- The action log as a game's text in parts of about 768 bytes, an entry a line
-- (`{seat}{kind}{at} {text}`), and the authors who are not the seat's player beside it, as
-- SQLite's migration 0024.
CREATE TABLE game_logs (
    game_id BIGINT NOT NULL REFERENCES games(id),
    part BIGINT NOT NULL,
    log TEXT NOT NULL,
    PRIMARY KEY (game_id, part)
);

INSERT INTO game_logs (game_id, part, log)
SELECT game_id, 0, string_agg(
    seat || CASE WHEN mv IS NOT NULL THEN 'm' ELSE 'j' END || at || ' ' || COALESCE(mv, action)
        || E'\n', '' ORDER BY seq)
FROM actions GROUP BY game_id;

CREATE TABLE action_authors (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    author TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

INSERT INTO action_authors (game_id, seq, author)
SELECT game_id, seq, author FROM actions WHERE author IS NOT NULL;

DROP TABLE actions;

CREATE VIEW game_writes AS SELECT
    NULL::BIGINT AS game_id, NULL::BIGINT AS expected_version, NULL::BIGINT AS at,
    NULL::BYTEA AS event_id, NULL::TEXT AS status, NULL::TEXT AS snapshot,
    NULL::TEXT AS result, NULL::TEXT AS reason, NULL::TEXT AS score,
    NULL::BIGINT AS action_seat, NULL::TEXT AS action_author, NULL::TEXT AS action,
    NULL::TEXT AS seats, NULL::TEXT AS deadlines,
    NULL::BIGINT AS notice_seat, NULL::BIGINT AS notice_turn, NULL::TEXT AS notice_kind,
    NULL::TEXT AS messages, NULL::TEXT AS action_move
WHERE false;

-- The write function of migration 0022, the event's key inserted once the version is
-- checked (its primary key refuses a second delivery; two deliveries at once: the second
-- waits for the first's commit, then fails), the action appended to its game's log.
CREATE OR REPLACE FUNCTION game_writes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    acted BOOLEAN := NEW.action IS NOT NULL OR NEW.action_move IS NOT NULL;
    created BIGINT;
    entries BIGINT;
BEGIN
    UPDATE games SET status = NEW.status, snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id AND version = NEW.expected_version
    RETURNING created_at INTO created;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'postal: version conflict';
    END IF;
    IF NEW.event_id IS NOT NULL THEN
        INSERT INTO events (key) VALUES (NEW.event_id);
    END IF;
    IF NEW.seats IS NOT NULL THEN
        UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
            accepted = COALESCE((j.value ->> 3)::BIGINT, seats.accepted)
        FROM jsonb_array_elements(NEW.seats::jsonb) AS j(value)
        WHERE seats.game_id = NEW.game_id AND seats.seat = (j.value ->> 0)::BIGINT;
    END IF;
    IF acted THEN
        INSERT INTO game_logs AS l (game_id, part, log)
        VALUES (NEW.game_id,
            COALESCE((SELECT part + (length(log) >= 768)::INT FROM game_logs
                WHERE game_id = NEW.game_id ORDER BY part DESC LIMIT 1), 0),
            NEW.action_seat || CASE WHEN NEW.action_move IS NOT NULL THEN 'm' ELSE 'j' END
                || (NEW.at - created) || ' ' || COALESCE(NEW.action_move, NEW.action) || E'\n')
        ON CONFLICT (game_id, part) DO UPDATE SET log = l.log || excluded.log;
        IF NEW.action_author IS NOT NULL AND NEW.action_author IS DISTINCT FROM
            (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat) THEN
            SELECT sum(length(log) - length(replace(log, E'\n', ''))) INTO entries
            FROM game_logs WHERE game_id = NEW.game_id;
            INSERT INTO action_authors (game_id, seq, author)
            VALUES (NEW.game_id, entries, NEW.action_author);
        END IF;
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

CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
    FOR EACH ROW EXECUTE FUNCTION game_writes_insert();
