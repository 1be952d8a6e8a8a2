-- Players forgotten at their request (`forget-me`, or the operator's `postal forget-user`):
-- one row each, numbered, and nothing else about them. In the records of their past
-- games the player's key is replaced by the neutral label this number gives ("Former
-- player 3"), which has a `users` row of its own; their own row, settings, vacations,
-- digests and private messages are deleted in the same transaction.
CREATE TABLE forgotten_players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL
);
