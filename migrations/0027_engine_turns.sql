-- Games against the engine (issue 60). The engine's seat is an ordinary seat held by the
-- bot's own user, and the game's options name its level (`engine`); nothing else about
-- the game differs. Its turn is queued work already: the deadline its seat gets in the
-- very write that commits the human's move. This table says which process is computing
-- which of those turns (`claimed_by` until `claimed_until`, as analyses are claimed), one
-- row per game, so that with several processes on one database one plays each turn, and
-- one that dies holding it loses it when its claim runs out.
CREATE TABLE engine_turns (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    turn INTEGER NOT NULL,
    claimed_by TEXT NOT NULL,
    claimed_until INTEGER NOT NULL
);
