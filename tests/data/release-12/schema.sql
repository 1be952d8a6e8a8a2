PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
);
INSERT INTO _sqlx_migrations VALUES(1,'referee','2026-11-27 07:54:44',1,X'310b4bdff1808f5b9a10941d376d32cc9ed8b1a809742df3a805938a33054b0377c01980532c8e99cc4c23efa62939af',3475008);
INSERT INTO _sqlx_migrations VALUES(2,'start position','2026-11-27 07:54:44',1,X'9fca01c452eaf8b1b956630fbfb335524a4481c72ad66f18c490860a4cadbccd44d5c0bf1f66a17c1eb2b15704d5c1c2',906340);
INSERT INTO _sqlx_migrations VALUES(3,'discord','2026-11-27 07:54:44',1,X'0faf828a0e4afa953c0fab0b598393106108a530ea73045da384f7e4b82547131f767e7ea561bbe871f35f1d758344de',1092299);
INSERT INTO _sqlx_migrations VALUES(4,'outbox','2026-11-27 07:54:44',1,X'50eed30ab96e7ce796aff3402f302e75e8ec1e4d65a6738eee2c708363b077bd7bbbfbe5f8c826b9daa6997800e80423',1746786);
INSERT INTO _sqlx_migrations VALUES(5,'seat acceptance','2026-11-27 07:54:44',1,X'0679aa5b3ad6a463b1bb6a33114a008740e92ac74a46bb16d959f779f5d2cec45e900b77cbe3a9d19043ffe7ebeb3226',1778166);
INSERT INTO _sqlx_migrations VALUES(6,'game options','2026-11-27 07:54:44',1,X'5dc4701f037123de50deb7021025f4509c867811ca196a1a93806f13bd4866afb9b68b18670294d1cd73d2d7b97f7ce4',1990343);
INSERT INTO _sqlx_migrations VALUES(7,'claims and servers','2026-11-27 07:54:44',1,X'd17f55b191cbef21416d489d1bf6f67c44a0ab751ca5ee81c73199c272aa154bf9b3ac7dfe9d03d6f451bbb5ed056202',3110716);
INSERT INTO _sqlx_migrations VALUES(8,'started at','2026-11-27 07:54:44',1,X'7f91c5379607d6441f041cc39497f0219031caa03f0bd568abf080f867f569fd5acd6fd95f5fad6f97dec3357f9f392b',1482300);
INSERT INTO _sqlx_migrations VALUES(9,'outbox endings','2026-11-27 07:54:44',1,X'325e8c4b540d71681a6f24b0f40f6fc532fa1d08c6e25edbdfc00d73ed35b8a650ceee6ddd9138c0299a4dd94db4384f',2186932);
INSERT INTO _sqlx_migrations VALUES(10,'player settings','2026-11-27 07:54:44',1,X'e2e98405447343c9dbd614464bb0af1d79903280bfd73c736e4a0bc732224538919859286a4329458cd941767bec0fce',2064773);
INSERT INTO _sqlx_migrations VALUES(11,'vacations','2026-11-27 07:54:44',1,X'6efb0ff238960cad229cd8a4f6a612bbfaec882bec4a3a9b91961981f6be4eda3e9e481de44e9182edec00e51b66c690',779262);
INSERT INTO _sqlx_migrations VALUES(12,'conditional lines','2026-11-27 07:54:44',1,X'ad1ad76de5769741e4d6463b2703defd0a9b9714a7a44fd85f104263d76a872986ea3429180db69f8d50130f7ccfb2ef',841739);
INSERT INTO _sqlx_migrations VALUES(13,'digest and orientation','2026-11-27 07:54:44',1,X'd663a8e81fb6a596a0189e79b0a2e2709601af4edc512b6f331e5673df55d2978a9745d583f4411a30ec97ff906f2486',2338596);
INSERT INTO _sqlx_migrations VALUES(14,'challenge posts','2026-11-27 07:54:44',1,X'631895a1398465da1ba01ed5bccd3784ce729f75e5812dea2d07544f4413b95706718925e1cb32a7f62beaad2594e975',601388);
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
, reminder_hours TEXT, auto_claim INTEGER NOT NULL DEFAULT 0, digest_hour INTEGER, orientation TEXT);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('challenged', 'active', 'finished', 'aborted', 'declined', 'cancelled')),
    days_per_move INTEGER NOT NULL CHECK (days_per_move > 0),
    colour TEXT NOT NULL,
    challenger TEXT NOT NULL REFERENCES users(id),
    channel TEXT,
    seed INTEGER NOT NULL,
    result TEXT,
    reason TEXT,
    score TEXT,
    snapshot TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
, start_fen TEXT, options TEXT NOT NULL DEFAULT '{}', start_snapshot TEXT, server TEXT, started_at INTEGER);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    user_id TEXT REFERENCES users(id),
    role TEXT NOT NULL, accepted INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    author TEXT NOT NULL,
    action TEXT NOT NULL,
    at INTEGER NOT NULL,
    event_id TEXT UNIQUE,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE processed_events (
    event_id TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);
CREATE TABLE deadlines (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE notices (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, turn, kind)
);
CREATE TABLE held_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE dm_closed (
    user_id TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);
CREATE TABLE game_threads (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    thread TEXT NOT NULL UNIQUE,
    parent TEXT NOT NULL
);
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER REFERENCES games(id),
    destination TEXT NOT NULL,
    text TEXT NOT NULL,
    board INTEGER NOT NULL DEFAULT 0 CHECK (board IN (0, 1)),
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
, claimed_by TEXT, claimed_until INTEGER, ending INTEGER NOT NULL DEFAULT 0 CHECK (ending IN (0, 1)));
CREATE TABLE vacations (
    user_id TEXT NOT NULL REFERENCES users(id),
    started_at INTEGER NOT NULL,
    planned_end INTEGER NOT NULL,
    ended_at INTEGER,
    days INTEGER NOT NULL,
    settled INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, started_at)
);
CREATE TABLE conditional_lines (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    actions TEXT NOT NULL,
    typed TEXT NOT NULL
);
CREATE TABLE digests (
    user_id TEXT NOT NULL REFERENCES users(id),
    day INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);
CREATE TABLE challenge_posts (
    game_id INTEGER NOT NULL REFERENCES games(id),
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, channel)
);
DELETE FROM sqlite_sequence;
CREATE INDEX games_by_status ON games(status);
CREATE INDEX seats_by_user ON seats(user_id);
CREATE INDEX deadlines_by_due ON deadlines(due_at);
CREATE INDEX held_by_user ON held_messages(user_id);
CREATE INDEX outbox_undelivered ON outbox(id) WHERE delivered_at IS NULL;
CREATE VIEW game_writes AS SELECT
    NULL AS game_id, NULL AS expected_version, NULL AS at, NULL AS event_id,
    NULL AS status, NULL AS snapshot, NULL AS result, NULL AS reason, NULL AS score,
    NULL AS action_seat, NULL AS action_author, NULL AS action,
    NULL AS seats, NULL AS deadlines,
    NULL AS notice_seat, NULL AS notice_turn, NULL AS notice_kind,
    NULL AS messages
WHERE 0;
CREATE INDEX games_by_challenger ON games(challenger, status);
CREATE INDEX games_by_channel ON games(channel, status);
CREATE TRIGGER game_started AFTER UPDATE OF status ON games
WHEN OLD.status = 'challenged' AND NEW.status = 'active' AND NEW.started_at IS NULL
BEGIN
    UPDATE games SET started_at = NEW.updated_at WHERE id = NEW.id;
END;
CREATE TRIGGER game_writes_insert INSTEAD OF INSERT ON game_writes
BEGIN
    SELECT RAISE(ABORT, 'postal: version conflict')
    WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
    INSERT INTO processed_events (event_id, at)
    SELECT NEW.event_id, NEW.at WHERE NEW.event_id IS NOT NULL;
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
    WHERE seats.game_id = NEW.game_id AND seats.seat = j.value ->> 0;
    DELETE FROM deadlines WHERE game_id = NEW.game_id;
    INSERT INTO deadlines (game_id, seat, turn, due_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.deadlines);
    INSERT INTO notices (game_id, seat, turn, kind, at)
    SELECT NEW.game_id, NEW.notice_seat, NEW.notice_turn, NEW.notice_kind, NEW.at
    WHERE NEW.notice_kind IS NOT NULL;
    INSERT INTO outbox (game_id, destination, text, board, ending, created_at)
    SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, COALESCE(value ->> 3, 0), NEW.at
    FROM json_each(NEW.messages);
END;
CREATE UNIQUE INDEX vacations_unsettled ON vacations(user_id) WHERE settled = 0;
CREATE INDEX conditional_lines_by_game ON conditional_lines(game_id, user_id);
COMMIT;
