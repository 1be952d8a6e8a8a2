//! How a variant's finished games count on a server's tables: rated by Glicko-2, kept as
//! best scores (a solitaire), or not counted (a cooperative game). Declared by each variant
//! as data; the referee reads it and names no variant.

/// How a variant's finished games count on a server's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Two sides of one player each: rated games change both players' Glicko-2 ratings
    /// in the variant's own family (its id). `points`: the games also score points per
    /// side (Chess#'s rule 12), which a points table adds up.
    Rated {
        /// Whether each game's score (points per side) is added up in a points table.
        points: bool,
    },
    /// One player alone: the best score of the player's won attempts is kept.
    BestScore,
    /// Not counted, with the reason (a cooperative game, a team game), said to a player
    /// who asks for `rated:yes` or its leaderboard.
    Unrated(&'static str),
}
