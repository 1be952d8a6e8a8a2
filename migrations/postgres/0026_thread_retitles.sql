-- An outbox message that asks for its game's thread to be named again: a player of the
-- game was forgotten, and the thread's name still shows the name they had. It has no
-- text; an adapter that gives games threads names the thread again from the game as
-- stored (the label in the player's place), one that does not marks it delivered. Queued
-- by the transaction that forgets the player, so a restart does not lose it.
ALTER TABLE outbox ADD COLUMN retitle BIGINT NOT NULL DEFAULT 0 CHECK (retitle IN (0, 1));
