-- An outbox message that tells a game's players the time of one of them has run out and
-- that the others may claim the win: it carries the late seat, stored with the notice's
-- own write, so that its deliverer offers the Claim button (while the game is live)
-- without working anything out from the clock when it reads the message.
ALTER TABLE outbox ADD COLUMN claim_seat INTEGER CHECK (claim_seat >= 0);
