-- A game's options as its challenge gave them and its variant validated them (JSON object,
-- name to value: {"timer":"3"}), so that a replay of the action log starts from the same
-- setup. Games stored before this column have none: their options, if any, live in their
-- snapshot.
ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
