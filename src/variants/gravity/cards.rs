//! Gravity Chess's cards: one playing card per piece (appendix A of the rulebook), and the
//! face-down decks each player flips for the opponent.
//!
//! White's pieces are red cards and Black's black ones: the king, the queen, the 10s
//! (rooks), the 9s (bishops), the 8s (knights), and for the four pawns the 2s and 3s of
//! both suits (appendix A offers the 2 to 5; the game uses four pawns a side, and which
//! four cards stand for them changes nothing).

use crate::render::Suit;
use crate::rules::{Color, Piece, Role};
use serde::{Deserialize, Serialize};

/// A card's suit, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardSuit {
    /// Hearts: White's pieces.
    Hearts,
    /// Diamonds: White's pieces.
    Diamonds,
    /// Spades: Black's pieces.
    Spades,
    /// Clubs: Black's pieces.
    Clubs,
}

/// One playing card of the game's 24.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// 2 to 10, 12 for the queen, 13 for the king.
    pub rank: u8,
    /// The suit.
    pub suit: CardSuit,
}

/// The cards of one side's pieces, `(rank, role)`, each in both of the side's suits
/// except the queen and the king (the first suit only).
const RANKS: [(u8, Role); 7] = [
    (13, Role::King),
    (12, Role::Queen),
    (10, Role::Rook),
    (9, Role::Bishop),
    (8, Role::Knight),
    (2, Role::Pawn),
    (3, Role::Pawn),
];

impl Card {
    /// The piece the card stands for.
    pub fn piece(self) -> Piece {
        let color = match self.suit {
            CardSuit::Hearts | CardSuit::Diamonds => Color::White,
            CardSuit::Spades | CardSuit::Clubs => Color::Black,
        };
        let role = RANKS
            .iter()
            .find(|(r, _)| *r == self.rank)
            .map_or(Role::Pawn, |(_, role)| *role);
        Piece { color, role }
    }

    /// The card as the renderer draws it.
    pub fn face(self) -> crate::render::Card {
        crate::render::Card::Face {
            rank: self.rank,
            suit: match self.suit {
                CardSuit::Hearts => Suit::Hearts,
                CardSuit::Diamonds => Suit::Diamonds,
                CardSuit::Spades => Suit::Spades,
                CardSuit::Clubs => Suit::Clubs,
            },
        }
    }

    /// The card in words: `the 10 of spades (black rook)`.
    pub fn name(self) -> String {
        let rank = match self.rank {
            12 => "queen".to_string(),
            13 => "king".to_string(),
            n => n.to_string(),
        };
        let suit = match self.suit {
            CardSuit::Hearts => "hearts",
            CardSuit::Diamonds => "diamonds",
            CardSuit::Spades => "spades",
            CardSuit::Clubs => "clubs",
        };
        format!("the {rank} of {suit} ({})", piece_name(self.piece()))
    }
}

/// A piece in words: `black rook`.
pub fn piece_name(p: Piece) -> String {
    format!("{} {}", p.color.name().to_lowercase(), p.role.name())
}

/// The twelve cards of `color`'s pieces, in a fixed order (king first).
pub fn cards_of(color: Color) -> Vec<Card> {
    let suits = match color {
        Color::White => [CardSuit::Hearts, CardSuit::Diamonds],
        Color::Black => [CardSuit::Spades, CardSuit::Clubs],
    };
    let mut out = Vec::with_capacity(12);
    for (rank, role) in RANKS {
        let both = !matches!(role, Role::King | Role::Queen);
        for suit in suits.iter().take(if both { 2 } else { 1 }) {
            out.push(Card { rank, suit: *suit });
        }
    }
    out
}

/// The cards standing for `pieces` (pieces of one side not yet added), each piece its own
/// card, in the fixed order of [`cards_of`]; `None` if the side has no card left for one
/// of them (more pieces of a kind than the set holds).
pub fn cards_for(color: Color, pieces: &[Role]) -> Option<Vec<Card>> {
    let mut left = cards_of(color);
    let mut out = Vec::with_capacity(pieces.len());
    for role in pieces {
        let i = left.iter().position(|c| c.piece().role == *role)?;
        out.push(left.remove(i));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_has_twelve_cards_one_per_piece_of_its_set() {
        for color in Color::ALL {
            let cards = cards_of(color);
            assert_eq!(cards.len(), 12);
            let count = |role| cards.iter().filter(|c| c.piece().role == role).count();
            assert_eq!(
                [
                    Role::King,
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight,
                    Role::Pawn
                ]
                .map(count),
                [1, 1, 2, 2, 2, 4]
            );
            assert!(cards.iter().all(|c| c.piece().color == color));
            for (i, a) in cards.iter().enumerate() {
                assert!(!cards[i + 1..].contains(a), "{a:?} twice");
            }
        }
    }

    #[test]
    fn appendix_a_red_cards_are_white_pieces_and_black_cards_black_pieces() {
        let ten_spades = Card {
            rank: 10,
            suit: CardSuit::Spades,
        };
        assert_eq!(ten_spades.name(), "the 10 of spades (black rook)");
        let king = Card {
            rank: 13,
            suit: CardSuit::Hearts,
        };
        assert_eq!(king.name(), "the king of hearts (white king)");
        assert_eq!(
            Card {
                rank: 8,
                suit: CardSuit::Diamonds
            }
            .piece(),
            Piece {
                color: Color::White,
                role: Role::Knight
            }
        );
    }

    #[test]
    fn cards_for_pieces_left_take_each_card_once() {
        let c = cards_for(Color::Black, &[Role::Pawn, Role::Pawn, Role::Rook]).unwrap();
        assert_eq!(c.len(), 3);
        assert_ne!(c[0], c[1]);
        assert!(cards_for(Color::Black, &[Role::Queen, Role::Queen]).is_none());
    }
}
