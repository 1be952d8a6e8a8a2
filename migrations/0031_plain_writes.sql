-- A game's write as plain statements in one transaction (`src/store/write_sql.rs`), in
-- place of an insert into the `game_writes` view and its four triggers: the
-- version-checked update of the game row checks the version, the event key's insert the
-- duplicate delivery, and the log's line, the seats, the deadlines, the notice and the
-- outbox messages are each a statement of their own, made only for a write that carries
-- them. Each trigger program's frame was allocated, zeroed and freed at every write, the
-- two whose `WHEN` was false for a move as well. Nothing else wrote through the view.
--
-- `deadlines_due_changed` stays: a game's write deletes its deadlines and inserts the new
-- ones with `check_at` set to the write's time (the deadline check then looks at them),
-- and never updates `due_at`; the trigger gives `check_at` 0 to a deadline moved by any
-- other statement. `game_started` stays too: the write's status, set by a statement of its
-- own only when it changes, fires it as before.
DROP TRIGGER game_writes_insert;

DROP TRIGGER game_writes_seats;

DROP TRIGGER game_writes_action;

DROP TRIGGER game_writes_notices;

DROP VIEW game_writes;
