//! Booster Chess's 36 cards (appendix A of the rulebook): one card per piece of a chess
//! set, plus the two sixes of each colour as checker cards. A card matches the pieces of
//! its kind and colour; a checker card matches every piece of its colour.

use crate::render::Suit;
use crate::rules::{Color, Piece, Role};
use serde::{Deserialize, Serialize};

/// A card's suit, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardSuit {
    /// Hearts: white.
    Hearts,
    /// Diamonds: white.
    Diamonds,
    /// Spades: black.
    Spades,
    /// Clubs: black.
    Clubs,
}

/// One card of the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Card {
    /// 2 to 10, 12 for the queen, 13 for the king.
    pub rank: u8,
    /// The suit.
    pub suit: CardSuit,
}

/// What a card stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    /// A piece of this colour and role.
    Piece(Piece),
    /// A checker card of this colour: any piece of the colour.
    Checker(Color),
}

impl Card {
    /// The colour of the pieces the card matches: red suits white, black suits black.
    pub fn color(self) -> Color {
        match self.suit {
            CardSuit::Hearts | CardSuit::Diamonds => Color::White,
            CardSuit::Spades | CardSuit::Clubs => Color::Black,
        }
    }

    /// What the card stands for (appendix A).
    pub fn kind(self) -> CardKind {
        let role = match self.rank {
            2..=5 => Role::Pawn,
            8 => Role::Knight,
            9 => Role::Bishop,
            10 => Role::Rook,
            12 => Role::Queen,
            13 => Role::King,
            _ => return CardKind::Checker(self.color()),
        };
        CardKind::Piece(Piece {
            color: self.color(),
            role,
        })
    }

    /// The short form players type: `9h`, `10d`, `Qs`, `6c`.
    pub fn code(self) -> String {
        let rank = match self.rank {
            12 => "Q".to_string(),
            13 => "K".to_string(),
            n => n.to_string(),
        };
        let suit = match self.suit {
            CardSuit::Hearts => 'h',
            CardSuit::Diamonds => 'd',
            CardSuit::Spades => 's',
            CardSuit::Clubs => 'c',
        };
        format!("{rank}{suit}")
    }

    /// The card in words: `9h (white bishop)`, `6s (black checker card)`.
    pub fn name(self) -> String {
        format!("{} ({})", self.code(), self.meaning())
    }

    /// What the card matches in words: `white bishop`, `black checker card`.
    pub fn meaning(self) -> String {
        match self.kind() {
            CardKind::Piece(p) => format!("{} {}", p.color.name().to_lowercase(), p.role.name()),
            CardKind::Checker(c) => format!("{} checker card", c.name().to_lowercase()),
        }
    }

    /// Reads a card as typed: a rank (`2`-`10`, `Q`, `K`; `T` for 10) and a suit letter
    /// (`h d s c`) or symbol (`♥ ♦ ♠ ♣`), in any case. Only cards of the deck are read.
    pub fn parse(text: &str) -> Option<Card> {
        let t = text.trim();
        let last = t.chars().last()?;
        let suit = match last.to_ascii_lowercase() {
            'h' | '♥' | '♡' => CardSuit::Hearts,
            'd' | '♦' | '♢' => CardSuit::Diamonds,
            's' | '♠' | '♤' => CardSuit::Spades,
            'c' | '♣' | '♧' => CardSuit::Clubs,
            _ => return None,
        };
        let rank_text = &t[..t.len() - last.len_utf8()];
        let rank = match rank_text.to_ascii_lowercase().as_str() {
            "q" => 12,
            "k" => 13,
            "t" => 10,
            n => n.parse::<u8>().ok()?,
        };
        let card = Card { rank, suit };
        deck().contains(&card).then_some(card)
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
}

/// The 36 cards in a fixed order: for each colour the pawns (2 to 5 of both suits), the
/// knights, bishops and rooks (8, 9, 10 of both suits), the queen and the king (first
/// suit only) and the checker cards (the sixes).
pub fn deck() -> Vec<Card> {
    let mut out = Vec::with_capacity(36);
    for suits in [
        [CardSuit::Hearts, CardSuit::Diamonds],
        [CardSuit::Spades, CardSuit::Clubs],
    ] {
        for rank in [2, 3, 4, 5, 8, 9, 10, 12, 13, 6] {
            let both = !matches!(rank, 12 | 13);
            for suit in suits.iter().take(if both { 2 } else { 1 }) {
                out.push(Card { rank, suit: *suit });
            }
        }
    }
    out
}

/// Cards in words, comma-separated, in the deck's order of sorting: `2h, 9h, 6s`.
pub fn list(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    cards
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_holds_the_36_cards_of_appendix_a() {
        let d = deck();
        assert_eq!(d.len(), 36);
        let mut sorted = d.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 36, "no card twice");
        for color in Color::ALL {
            let of = |role: Role| {
                d.iter()
                    .filter(|c| c.kind() == CardKind::Piece(Piece { color, role }))
                    .count()
            };
            assert_eq!(
                [
                    Role::Pawn,
                    Role::Knight,
                    Role::Bishop,
                    Role::Rook,
                    Role::Queen,
                    Role::King
                ]
                .map(of),
                [8, 2, 2, 2, 1, 1]
            );
            let checkers = d
                .iter()
                .filter(|c| c.kind() == CardKind::Checker(color))
                .count();
            assert_eq!(checkers, 2);
        }
    }

    #[test]
    fn cards_are_read_as_typed_and_written_back() {
        for c in deck() {
            assert_eq!(Card::parse(&c.code()), Some(c));
        }
        assert_eq!(
            Card::parse("QH"),
            Some(Card {
                rank: 12,
                suit: CardSuit::Hearts
            })
        );
        assert_eq!(Card::parse("t♠").map(|c| c.code()), Some("10s".into()));
        for bad in [
            "",
            "h",
            "7h",
            "Kd",
            "Qc",
            "11s",
            "9x",
            "99999999999999999999h",
        ] {
            assert_eq!(Card::parse(bad), None, "{bad}");
        }
        assert_eq!(Card::parse("6d").unwrap().meaning(), "white checker card");
    }
}
