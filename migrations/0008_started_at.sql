-- When a game started (seconds since the epoch): the moment its last seat accepted and
-- it became active, written by the trigger below in the same statement as that change.
-- PGN exports date a game by it (`[Date]`, `[UTCDate]`, `[UTCTime]`). Games that started
-- before this column carry the time their challenge was made, the nearest the database
-- kept (a challenge is accepted within its expiry, so the date is at most days early).
ALTER TABLE games ADD COLUMN started_at INTEGER;

UPDATE games SET started_at = created_at
WHERE status NOT IN ('challenged', 'declined', 'cancelled');

CREATE TRIGGER game_started AFTER UPDATE OF status ON games
WHEN OLD.status = 'challenged' AND NEW.status = 'active' AND NEW.started_at IS NULL
BEGIN
    UPDATE games SET started_at = NEW.updated_at WHERE id = NEW.id;
END;
