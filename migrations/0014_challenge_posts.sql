-- The Discord adapter's record of where each challenge was posted (a channel's message,
-- or each challenged player's private message), so that the message can be edited when
-- the challenge is accepted, declined, withdrawn or expires: its buttons taken off and
-- the outcome written under its text (kept here as it was sent).
CREATE TABLE challenge_posts (
    game_id INTEGER NOT NULL REFERENCES games(id),
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, channel)
);
