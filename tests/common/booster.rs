//! Booster Chess helpers shared by the service and Discord tests.

/// A square Booster card `card` (`9h`, `10s`) matches once White has played e4 and Black
/// e5: a square of the piece it names (white for hearts and diamonds, black for clubs and
/// spades), the pawn on e4 or e5 for the pawn cards.
pub fn square_for(card: &str) -> &'static str {
    let (value, suit) = card.split_at(card.len() - 1);
    let (white, black) = match value {
        "2" | "3" | "4" | "5" => ("e4", "e5"),
        "8" => ("b1", "b8"),
        "9" => ("c1", "c8"),
        "10" => ("a1", "a8"),
        "Q" => ("d1", "d8"),
        _ => ("e1", "e8"),
    };
    if matches!(suit, "h" | "d") {
        white
    } else {
        black
    }
}
