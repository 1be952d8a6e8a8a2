-- The deadline check as range queries on indexes of due times, and a more compact store.
--
-- Each deadline keeps the time the check must next look at it (`check_at`): a reminder's
-- hour, the deadline itself, or NULL once nothing more can come of it until something
-- changes. A game's write sets it to the write's time for the deadlines it stores (the
-- trigger below); a player's change of settings or the end of their vacation sets it to 0
-- for their games' deadlines; the check moves it on after looking. The check then reads
-- `WHERE check_at <= now ORDER BY check_at LIMIT n` instead of every deadline within the
-- most distant reminder, and loads a game only when something is due.
ALTER TABLE deadlines ADD COLUMN check_at INTEGER;

UPDATE deadlines SET check_at = 0;

DROP INDEX deadlines_by_due;

CREATE INDEX deadlines_to_check ON deadlines(check_at) WHERE check_at IS NOT NULL;

-- A deadline moved by any other statement (an operator's fix by hand, say) is looked at
-- by the next check: `check_at` stays right on every write that changes `due_at`.
CREATE TRIGGER deadlines_due_changed AFTER UPDATE OF due_at ON deadlines
WHEN NEW.due_at IS NOT OLD.due_at
BEGIN
    UPDATE deadlines SET check_at = 0 WHERE game_id = NEW.game_id AND seat = NEW.seat;
END;

-- Each player with a daily digest keeps the time of their next one (0: at the next
-- check, which moves it on past a day already recorded).
ALTER TABLE users ADD COLUMN digest_next INTEGER;

UPDATE users SET digest_next = 0 WHERE digest_hour IS NOT NULL;

DROP INDEX users_digest_hour;

CREATE INDEX users_digest_next ON users(digest_next) WHERE digest_next IS NOT NULL;

-- The open challenges by the time they were made (their expiry), in place of the index
-- of every game by status, which no query needs any more (the leaderboard reads the
-- finished games, most of them, and the other questions have their own indexes).
DROP INDEX games_by_status;

CREATE INDEX games_challenged_at ON games(created_at) WHERE status = 'challenged';

-- The write trigger is made again below, over the tables rebuilt here.
DROP TRIGGER game_writes_insert;

-- The events that changed something without an action, clustered on their key: a rowid
-- table kept a second copy of every key in its primary key's index.
CREATE TABLE processed_events_by_id (
    event_id TEXT PRIMARY KEY,
    at INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO processed_events_by_id (event_id, at) SELECT event_id, at FROM processed_events;

DROP TABLE processed_events;

ALTER TABLE processed_events_by_id RENAME TO processed_events;

-- The action log with its author left out (NULL) where it is the seat's player, as for
-- nearly every action: reads take the seat's player (`COALESCE`). A seat's player is set
-- before its game starts and changes after only when a player is forgotten, whose label
-- then replaces them in the seat and in the authors written out alike.

CREATE TABLE actions_compact (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    author TEXT,
    action TEXT NOT NULL,
    at INTEGER NOT NULL,
    event_id TEXT UNIQUE,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

INSERT INTO actions_compact (game_id, seq, seat, author, action, at, event_id)
SELECT a.game_id, a.seq, a.seat,
    NULLIF(a.author, (SELECT s.user_id FROM seats s WHERE s.game_id = a.game_id AND s.seat = a.seat)),
    a.action, a.at, a.event_id
FROM actions a;

DROP TABLE actions;

ALTER TABLE actions_compact RENAME TO actions;

-- The write trigger of migration 0016, now setting the deadlines' `check_at` and leaving
-- out an action's author where it is the seat's player (the seats written first, so that
-- an action is compared with the seats as they are after the write).
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
    UPDATE seats SET user_id = j.value ->> 1, role = j.value ->> 2,
        accepted = COALESCE(j.value ->> 3, accepted)
    FROM json_each(NEW.seats) AS j
    WHERE NEW.seats IS NOT NULL AND seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
    INSERT INTO actions (game_id, seq, seat, author, action, at, event_id)
    SELECT NEW.game_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id),
        NEW.action_seat,
        NULLIF(NEW.action_author,
            (SELECT user_id FROM seats WHERE game_id = NEW.game_id AND seat = NEW.action_seat)),
        NEW.action, NEW.at, NEW.event_id
    WHERE NEW.action IS NOT NULL;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, NEW.at FROM json_each(NEW.deadlines);
    INSERT INTO notices (game_id, seat, turn, kind, at)
    SELECT NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at
    WHERE NEW.notice_kind IS NOT NULL;
    INSERT INTO outbox (game_id, destination, text, board, ending, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, COALESCE(value ->> 3, 0), NEW.at
    FROM json_each(NEW.messages) WHERE NEW.messages <> '[]';
END;
