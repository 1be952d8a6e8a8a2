-- The PostgreSQL schema, equal in tables and columns to what the SQLite migrations
-- 0001 to 0007 build (a test compares the two). Numbered 0007 so that a later change is
-- one migration of the same number in each folder. Integers are BIGINT (the store reads
-- them as i64 on both backends); flags are 0 or 1, as in SQLite.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    variant TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('challenged', 'active', 'finished', 'aborted', 'declined', 'cancelled')),
    days_per_move BIGINT NOT NULL CHECK (days_per_move > 0),
    colour TEXT NOT NULL,
    challenger TEXT NOT NULL REFERENCES users(id),
    channel TEXT,
    seed BIGINT NOT NULL,
    result TEXT,
    reason TEXT,
    score TEXT,
    snapshot TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    start_fen TEXT,
    options TEXT NOT NULL DEFAULT '{}',
    start_snapshot TEXT,
    server TEXT
);

CREATE INDEX games_by_status ON games(status);
CREATE INDEX games_by_challenger ON games(challenger, status);
CREATE INDEX games_by_channel ON games(channel, status);

CREATE TABLE seats (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    user_id TEXT REFERENCES users(id),
    role TEXT NOT NULL,
    accepted BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX seats_by_user ON seats(user_id);

CREATE TABLE actions (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    author TEXT NOT NULL,
    action TEXT NOT NULL,
    at BIGINT NOT NULL,
    event_id TEXT UNIQUE,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE processed_events (
    event_id TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);

CREATE TABLE deadlines (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    turn BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX deadlines_by_due ON deadlines(due_at);

CREATE TABLE notices (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    turn BIGINT NOT NULL,
    kind TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat, turn, kind)
);

CREATE TABLE held_messages (
    id BIGSERIAL PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL
);

CREATE INDEX held_by_user ON held_messages(user_id);

CREATE TABLE dm_closed (
    user_id TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);

CREATE TABLE game_threads (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    thread TEXT NOT NULL UNIQUE,
    parent TEXT NOT NULL
);

CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT REFERENCES games(id),
    destination TEXT NOT NULL,
    text TEXT NOT NULL,
    board BIGINT NOT NULL DEFAULT 0 CHECK (board IN (0, 1)),
    created_at BIGINT NOT NULL,
    delivered_at BIGINT,
    claimed_by TEXT,
    claimed_until BIGINT
);

CREATE INDEX outbox_undelivered ON outbox(id) WHERE delivered_at IS NULL;

-- A change to a game is one INSERT into this view, as on SQLite (migration 0004 there):
-- the function below, run instead of the insert, writes the game row first, guarded by
-- the version. Under READ COMMITTED a second writer of the same game waits for the
-- first's row lock and then finds the version changed, so of two writers computed from
-- one version exactly one wins; the loser's statement raises and writes nothing.
CREATE VIEW game_writes AS SELECT
    NULL::BIGINT AS game_id, NULL::BIGINT AS expected_version, NULL::BIGINT AS at,
    NULL::TEXT AS event_id, NULL::TEXT AS status, NULL::TEXT AS snapshot,
    NULL::TEXT AS result, NULL::TEXT AS reason, NULL::TEXT AS score,
    NULL::BIGINT AS action_seat, NULL::TEXT AS action_author, NULL::TEXT AS action,
    NULL::TEXT AS seats, NULL::TEXT AS deadlines,
    NULL::BIGINT AS notice_seat, NULL::BIGINT AS notice_turn, NULL::TEXT AS notice_kind,
    NULL::TEXT AS messages
WHERE false;

CREATE FUNCTION game_writes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET status = NEW.status, snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id AND version = NEW.expected_version;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'postal: version conflict';
    END IF;
    IF NEW.event_id IS NOT NULL THEN
        INSERT INTO processed_events (event_id, at) VALUES (NEW.event_id, NEW.at);
    END IF;
    IF NEW.action IS NOT NULL THEN
        INSERT INTO actions (game_id, seq, seat, author, action, at, event_id)
        SELECT NEW.game_id, COALESCE(MAX(seq), 0) + 1, NEW.action_seat, NEW.action_author,
            NEW.action, NEW.at, NEW.event_id
        FROM actions WHERE game_id = NEW.game_id;
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
    INSERT INTO outbox (game_id, destination, text, board, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, (value ->> 2)::BIGINT, NEW.at
    FROM jsonb_array_elements(COALESCE(NEW.messages, '[]')::jsonb) AS j(value);
    RETURN NEW;
END;
$$;

CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
    FOR EACH ROW EXECUTE FUNCTION game_writes_insert();
