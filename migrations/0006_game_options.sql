-- A game's options as its challenge gave them and its variant validated them (JSON object,
-- name to value: {"timer":"3"}), so that a replay of the action log starts from the same
-- setup. Games stored before this column have none: their options, if any, live in their
-- snapshot.
ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';

-- The game's state as it was set up, before any action: hidden draws (a deal, a pile)
-- come from the operating system's entropy and no seed gives them again, so a replay of
-- the action log starts from this. NULL for games stored before it: they replay from
-- their variant, position, options and seed.
ALTER TABLE games ADD COLUMN start_snapshot TEXT;
