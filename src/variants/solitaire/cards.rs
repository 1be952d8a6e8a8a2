//! Playing cards as the solitaires use them: the 16 piece cards of appendix A (no pawns)
//! and Neighbour Chess Solitaire's 20 position cards, and a face-down pile drawn from
//! the top.
//!
//! Appendix A (`docs/rules/parade.md` cites it): a red card is a white piece, a black
//! card a black piece; 8 is a knight, 9 a bishop, 10 a rook, the queen a queen and the
//! king a king.

use crate::render::{Card, Suit};
use crate::rules::{Color, Piece, Role};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The four suits, in the order the decks are built.
const SUITS: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Spades, Suit::Clubs];

/// One playing card. Stored as its short name (`9h`, `10s`, `qd`), so a snapshot reads
/// as the cards do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct PlayingCard {
    /// 1 (ace) to 13 (king).
    pub rank: u8,
    /// The suit.
    pub suit: Suit,
}

impl PlayingCard {
    /// The piece this card stands for by appendix A (a red card is white), if any.
    pub fn piece(self) -> Option<Piece> {
        let role = match self.rank {
            8 => Role::Knight,
            9 => Role::Bishop,
            10 => Role::Rook,
            12 => Role::Queen,
            13 => Role::King,
            _ => return None,
        };
        let color = if self.suit.is_red() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The card as an image shows it, face up.
    pub fn face(self) -> Card {
        Card::Face {
            rank: self.rank,
            suit: self.suit,
        }
    }

    /// The card's name with its piece, if it stands for one (`9♥ (white bishop)`).
    pub fn describe(self) -> String {
        match self.piece() {
            Some(p) => format!("{self} ({} {})", p.color.name(), p.role.name()),
            None => self.to_string(),
        }
    }
}

impl fmt::Display for PlayingCard {
    /// `9♥`, `10♠`, `Q♦`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = match self.rank {
            1 => "A".to_string(),
            11 => "J".to_string(),
            12 => "Q".to_string(),
            13 => "K".to_string(),
            n => n.to_string(),
        };
        let suit = match self.suit {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        };
        write!(f, "{rank}{suit}")
    }
}

impl From<PlayingCard> for String {
    fn from(c: PlayingCard) -> String {
        let rank = match c.rank {
            1 => "a".to_string(),
            11 => "j".to_string(),
            12 => "q".to_string(),
            13 => "k".to_string(),
            n => n.to_string(),
        };
        let suit = match c.suit {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
            Suit::Diamonds => 'd',
            Suit::Clubs => 'c',
        };
        format!("{rank}{suit}")
    }
}

impl TryFrom<String> for PlayingCard {
    type Error = super::StoredError;

    fn try_from(s: String) -> Result<PlayingCard, super::StoredError> {
        let bad = || super::StoredError::NotACard(s.clone());
        let (rank, suit) = s.split_at(s.len().checked_sub(1).ok_or_else(bad)?);
        let suit = match suit {
            "s" => Suit::Spades,
            "h" => Suit::Hearts,
            "d" => Suit::Diamonds,
            "c" => Suit::Clubs,
            _ => return Err(bad()),
        };
        let rank = match rank {
            "a" => 1,
            "j" => 11,
            "q" => 12,
            "k" => 13,
            n => n
                .parse::<u8>()
                .ok()
                .filter(|n| (2..=10).contains(n))
                .ok_or_else(bad)?,
        };
        Ok(PlayingCard { rank, suit })
    }
}

/// The 16 piece cards of appendix A without the pawns: the knights (8s), bishops (9s)
/// and rooks (10s) of every suit, and the queen and king of hearts and of spades.
pub fn piece_deck() -> Vec<PlayingCard> {
    let mut deck = Vec::with_capacity(16);
    for suit in SUITS {
        for rank in [8, 9, 10] {
            deck.push(PlayingCard { rank, suit });
        }
    }
    for suit in [Suit::Hearts, Suit::Spades] {
        for rank in [12, 13] {
            deck.push(PlayingCard { rank, suit });
        }
    }
    deck
}

/// Neighbour Chess Solitaire's position cards: 2 to 6 of every suit (20 cards).
pub fn position_deck() -> Vec<PlayingCard> {
    SUITS
        .iter()
        .flat_map(|&suit| (2..=6).map(move |rank| PlayingCard { rank, suit }))
        .collect()
}

/// A face-down pile, drawn from the top. Its order is the game's secret: only the number
/// of cards left ever leaves the game before a card is turned.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pile(Vec<PlayingCard>);

impl Pile {
    /// A pile of these cards, the first on top.
    pub fn new(cards: Vec<PlayingCard>) -> Pile {
        Pile(cards)
    }

    /// How many cards are left.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the pile is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Takes the top card.
    pub fn draw(&mut self) -> Option<PlayingCard> {
        (!self.0.is_empty()).then(|| self.0.remove(0))
    }

    /// The pile as a row of card backs, for an image.
    pub fn backs(&self) -> Vec<Card> {
        vec![Card::Back; self.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_piece_deck_is_appendix_a_without_pawns() {
        let deck = piece_deck();
        assert_eq!(deck.len(), 16);
        for color in Color::ALL {
            let count = |role: Role| {
                deck.iter()
                    .filter(|c| c.piece() == Some(Piece { color, role }))
                    .count()
            };
            assert_eq!(
                [
                    Role::King,
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight
                ]
                .map(count),
                [1, 1, 2, 2, 2]
            );
        }
        let nine_hearts = PlayingCard {
            rank: 9,
            suit: Suit::Hearts,
        };
        assert_eq!(nine_hearts.describe(), "9♥ (white bishop)");
        let ten_clubs = PlayingCard {
            rank: 10,
            suit: Suit::Clubs,
        };
        assert_eq!(ten_clubs.describe(), "10♣ (black rook)");
    }

    #[test]
    fn the_position_deck_is_two_to_six_of_every_suit() {
        let deck = position_deck();
        assert_eq!(deck.len(), 20);
        assert!(deck
            .iter()
            .all(|c| (2..=6).contains(&c.rank) && c.piece().is_none()));
    }

    #[test]
    fn cards_are_stored_by_their_short_names() {
        for card in piece_deck().into_iter().chain(position_deck()) {
            let json = serde_json::to_value(card).unwrap();
            assert_eq!(serde_json::from_value::<PlayingCard>(json).unwrap(), card);
        }
        let queen = PlayingCard {
            rank: 12,
            suit: Suit::Diamonds,
        };
        assert_eq!(serde_json::to_string(&queen).unwrap(), "\"qd\"");
        assert!(serde_json::from_str::<PlayingCard>("\"1x\"").is_err());
        assert!(serde_json::from_str::<PlayingCard>("\"\"").is_err());
    }

    #[test]
    fn a_pile_is_drawn_from_the_top() {
        let mut pile = Pile::new(piece_deck());
        assert_eq!(pile.draw(), piece_deck().first().copied());
        assert_eq!(pile.len(), 15);
        assert_eq!(pile.backs().len(), 15);
        let mut empty = Pile::default();
        assert!(empty.is_empty() && empty.draw().is_none());
    }
}
