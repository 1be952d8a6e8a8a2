-- Where each challenge was posted, as SQLite's migration 0014: one row per channel or
-- private message holding a challenge, with the text it was sent with, so that the
-- message is edited once the challenge is answered or expires.
CREATE TABLE challenge_posts (
    game_id BIGINT NOT NULL REFERENCES games(id),
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, channel)
);
