-- An analysis's progress message (issue 59). An outbox message that updates it carries
-- where the analysis stands (`progress`, JSON: positions done, of how many, and whether it
-- runs, is done or failed); its deliverer posts the progress message once and edits it
-- for every later update. Where it was posted is kept per game and destination
-- (`analysis_posts`), so that a restarted analysis edits the same message rather than
-- posting a second.
ALTER TABLE outbox ADD COLUMN progress TEXT;
CREATE TABLE analysis_posts (
    game_id INTEGER NOT NULL REFERENCES games(id),
    destination TEXT NOT NULL,
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (game_id, destination)
);
