-- The messages whose buttons lapse when their game moves on, as SQLite's migration 0029:
-- one row per message, deleted when its buttons are taken off (the game's next turn in
-- that channel, or its end), at most a few per game and channel.
CREATE TABLE lapsing_buttons (
    game_id BIGINT NOT NULL REFERENCES games(id),
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (game_id, channel, message)
);
