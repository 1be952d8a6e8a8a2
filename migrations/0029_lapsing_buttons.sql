-- The Discord adapter's messages whose buttons lapse when their game moves on (Booster's
-- Done, a draw offer's answers, a Claim on time): kept here rather than in memory, so that
-- after a restart the next turn of the game still takes them off its old message. A row
-- is deleted when its buttons are taken off (the game's next turn in that channel, or its
-- end); at most a few are kept per game and channel, the newest.
CREATE TABLE lapsing_buttons (
    game_id INTEGER NOT NULL REFERENCES games(id),
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (game_id, channel, message)
);
