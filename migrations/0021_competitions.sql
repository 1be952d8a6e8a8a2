-- Best-score competitions of the one-seat variants (the solitaires, issue 37): every
-- entrant plays the same deals. A competition is a tournament (its row in `tournaments`
-- keeps the creator, variant, options, days per move, state and version, `rounds` its
-- number of deals) marked by its row in `competitions`; `tournaments.format` keeps
-- 'round-robin' there, since migration 0018's CHECK names only the two pairing formats
-- and SQLite cannot widen a CHECK without rebuilding the table the entrants and boards
-- reference. The store reads such a tournament's format as 'competition'.
CREATE TABLE competitions (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id)
);

-- Each deal's secret seed (from 1), drawn from the operating system's entropy when the
-- competition starts: every entrant's game of that deal is dealt from it, so all deal
-- the same cards. Never shown, exported or sent: it would tell every card of the deal.
-- An entrant's game of deal `d` is the board (`round` = d, `board` = the entrant's
-- place by seed, from 1, `white` their seed, `black` NULL) in `tournament_boards`.
CREATE TABLE competition_deals (
    tournament_id INTEGER NOT NULL REFERENCES competitions(tournament_id),
    deal INTEGER NOT NULL CHECK (deal > 0),
    seed INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, deal)
);
