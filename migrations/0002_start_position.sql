-- A game may start from a position given as FEN (for testing and teaching); NULL means
-- the variant's own starting position. Replaying the action log starts from here.
ALTER TABLE games ADD COLUMN start_fen TEXT;
