-- Several processes on one database, and games that belong to a server.

-- An outbox message is claimed by the process that delivers it (claimed_by, a random name
-- each process draws when it opens the database) until claimed_until (seconds since the
-- epoch, by the system clock): no other process hands it over meanwhile. A process that
-- stops cleanly releases its claims; one that dies holding messages loses them when the
-- lease runs out, and another process delivers them.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;

-- The server (Discord guild) a game was made in; NULL for a private message, the console
-- and games stored before this column. Someone not seated in a game reads it only from
-- the server it belongs to.
ALTER TABLE games ADD COLUMN server TEXT;

-- The challenges a user has waiting (counted against the limit when they challenge) and
-- the open challenges of a channel (`accept` without an id), found without reading
-- everyone else's.
CREATE INDEX games_by_challenger ON games(challenger, status);
CREATE INDEX games_by_channel ON games(channel, status);
