-- Every chat event that changed something kept once, in `events`, by a compact key
-- (`src/store/event_key.rs`): a Discord id (`msg:<snowflake>`, `int:<snowflake>`) is a tag
-- byte (1, 2) and the snowflake's eight bytes, most significant first, where its text
-- took 23 bytes; any other id is the byte 0 and its text. The key's primary key is the
-- duplicate-delivery check: a second delivery fails its insert. Before, a move's event
-- was kept in its action's row (`actions.event_id`) and again in that column's unique
-- index, another change's in `processed_events`, each id as text: two thirds of a
-- finished game's bytes were event ids. Nothing read an action's event but that check.
--
-- The conversion is exact, not a hash: the snowflake must be written as Rust's `i64`
-- writes it (digits alone, no sign, no leading zero, at most 2^63 - 1), else the id is
-- kept as text. `||` of blobs gives text in SQLite, so each key is written in hex first
-- and `unhex` makes it bytes.
CREATE TABLE events (
    key BLOB PRIMARY KEY
) WITHOUT ROWID;

INSERT OR IGNORE INTO events (key)
SELECT unhex(CASE
    WHEN substr(id, 1, 4) IN ('msg:', 'int:') AND substr(id, 5) GLOB '[0-9]*'
        AND CAST(CAST(substr(id, 5) AS INTEGER) AS TEXT) = substr(id, 5)
        THEN (CASE substr(id, 1, 4) WHEN 'msg:' THEN '01' ELSE '02' END)
            || printf('%016x', CAST(substr(id, 5) AS INTEGER))
    ELSE '00' || hex(id)
END)
FROM (
    SELECT event_id AS id FROM actions WHERE event_id IS NOT NULL
    UNION ALL SELECT event_id FROM processed_events
);

DROP TRIGGER game_writes_insert;

DROP TRIGGER game_writes_action;

DROP TRIGGER game_writes_seats;

DROP TABLE processed_events;

-- The action log as a game's text (`game_logs.log`), an entry a line:
--
--     {seat}{kind}{at} {text}\n
--
-- `kind` is `m` for a move, whose `text` is its bare text (`actions.mv`), or `j` for any
-- other action, whose `text` is its JSON (`actions.action`); `at` is the seconds since the
-- game's creation, as in 0022; an entry's number in the log (`seq`) is its line's. Neither
-- a move's text nor JSON as the store writes it holds a line break (`src/store/packing.rs`).
-- A row a move cost its key, its header and its cell (about 20 bytes beside a 4-byte
-- move); a line costs its text and five. The text is kept in parts (`part`, from 0) of
-- about 768 bytes: an action is appended to the last part, or begins the next one once the
-- last has 768 bytes, so that a move rewrites a part that fits in a page whatever the
-- game's length (a whole log past about 980 bytes would continue on overflow pages, all
-- written again by every move). The rare author who is not the seat's player (the
-- referee, a moderator) is kept beside it, by entry (`action_authors`), where forgetting a
-- player relabels them as before.
CREATE TABLE game_logs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    part INTEGER NOT NULL,
    log TEXT NOT NULL,
    PRIMARY KEY (game_id, part)
);

INSERT INTO game_logs (game_id, part, log)
SELECT game_id, 0, group_concat(
    seat || CASE WHEN mv IS NOT NULL THEN 'm' ELSE 'j' END || at || ' ' || COALESCE(mv, action)
        || char(10), '' ORDER BY seq)
FROM actions GROUP BY game_id;

CREATE TABLE action_authors (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    author TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

INSERT INTO action_authors (game_id, seq, author)
SELECT game_id, seq, author FROM actions WHERE author IS NOT NULL;

DROP TABLE actions;

-- The action's entry appended to its game's last part (the first action, or a last part
-- of 768 bytes, begins a part), and its author kept where it is not the seat's player:
-- the entry's number is then the log's count of lines.
CREATE TRIGGER game_writes_action INSTEAD OF INSERT ON game_writes
WHEN NEW.action IS NOT NULL OR NEW.action_move IS NOT NULL
BEGIN
    INSERT INTO game_logs (game_id, part, log)
    VALUES (NEW.game_id,
        COALESCE((SELECT part + (length(log) >= 768) FROM game_logs
            WHERE game_id = NEW.game_id ORDER BY part DESC LIMIT 1), 0),
        NEW.action_seat || CASE WHEN NEW.action_move IS NOT NULL THEN 'm' ELSE 'j' END
            || (NEW.at - (SELECT created_at FROM games WHERE id = NEW.game_id)) || ' '
            || COALESCE(NEW.action_move, NEW.action) || char(10))
    ON CONFLICT (game_id, part) DO UPDATE SET log = log || excluded.log;
    INSERT INTO action_authors (game_id, seq, author)
    SELECT NEW.game_id,
        (SELECT sum(length(log) - length(replace(log, char(10), ''))) FROM game_logs
            WHERE game_id = NEW.game_id),
        NEW.action_author
    WHERE NEW.action_author IS NOT NULL AND NEW.action_author IS NOT
        (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat);
END;

-- The seats' update of migration 0023, unchanged: made again after the action's insert
-- so that it still runs before it (the action's author is compared with the seat's
-- player once the seats are written).
CREATE TRIGGER game_writes_seats INSTEAD OF INSERT ON game_writes
WHEN NEW.seats IS NOT NULL
BEGIN
    UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
        accepted = COALESCE(j.value ->> 3, accepted)
    FROM json_each(NEW.seats) AS j
    WHERE seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
END;

-- The main write of migration 0023, made last so that it runs first (SQLite fires a
-- statement's triggers newest first): the version is checked, then the event's key
-- inserted (a second delivery fails here, before anything else is written).
CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
BEGIN
    SELECT RAISE(ABORT, 'postal: version conflict')
    WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
    INSERT INTO events (key) SELECT NEW.event_id WHERE NEW.event_id IS NOT NULL;
    UPDATE games SET snapshot = NEW.snapshot, result = NEW.result,
        reason = NEW.reason, score = NEW.score, version = version + 1, updated_at = NEW.at
    WHERE id = NEW.game_id;
    UPDATE games SET status = NEW.status WHERE id = NEW.game_id AND status <> NEW.status;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, NEW.at FROM json_each(NEW.deadlines);
END;
