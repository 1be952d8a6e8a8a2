-- When a game started, as SQLite's migration 0008: the moment its last seat accepted and it
-- became active, set by a trigger in the same statement; older games carry their
-- challenge's time.
ALTER TABLE games ADD COLUMN started_at BIGINT;

UPDATE games SET started_at = created_at
WHERE status NOT IN ('challenged', 'declined', 'cancelled');

CREATE FUNCTION game_started() RETURNS trigger AS $$
BEGIN
    IF OLD.status = 'challenged' AND NEW.status = 'active' AND NEW.started_at IS NULL THEN
        NEW.started_at := NEW.updated_at;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER game_started BEFORE UPDATE OF status ON games
FOR EACH ROW EXECUTE FUNCTION game_started();
