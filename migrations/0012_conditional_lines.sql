-- Conditional moves (the `conditional` command): a player's stored lines for a game,
-- private to that player. `actions` is the line as a JSON array of the game's actions,
-- alternately the opponent's expected move and the player's answer; `typed` the same
-- moves as the player typed them (a JSON array of strings), for `conditional list`.
-- `version` is the game's version the line was stored (or last advanced) at: a line
-- whose version is not the game's when the opponent acts no longer applies.
CREATE TABLE conditional_lines (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    actions TEXT NOT NULL,
    typed TEXT NOT NULL
);

CREATE INDEX conditional_lines_by_game ON conditional_lines(game_id, user_id);
