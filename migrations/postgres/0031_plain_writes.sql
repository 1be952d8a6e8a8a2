-- A game's write as one statement of plain SQL, as SQLite's migration 0031 (which says
-- why): a chain of data-modifying CTEs reading the version-checked update's row
-- (`src/store/write_sql.rs`), in place of an insert into the `game_writes` view and its
-- `plpgsql` trigger function.
DROP VIEW game_writes CASCADE;

DROP FUNCTION game_writes_insert();

-- The write sets the status every time (one UPDATE of the game row per statement): the
-- start of a game is told by the trigger's condition, so that its function is called only
-- where a challenge becomes active, not at every move.
DROP TRIGGER game_started ON games;

CREATE TRIGGER game_started BEFORE UPDATE OF status ON games
    FOR EACH ROW
    WHEN (OLD.status = 'challenged' AND NEW.status = 'active' AND NEW.started_at IS NULL)
    EXECUTE FUNCTION game_started();
