//! The piece cards of Secret Chesswords (rules 4 and 6): the deck of 24, the deal, which
//! cards a capture lets a player discard, and how cards are written.

use crate::rules::{Color, Role};
use crate::variants::api::random::{Random, SeededRng};
use serde::{Deserialize, Serialize};

/// How many cards of each role each colour has in the deck (the Los Alamos pieces).
pub const DECK_ROLES: [(Role, usize); 5] = [
    (Role::King, 1),
    (Role::Queen, 1),
    (Role::Rook, 2),
    (Role::Knight, 2),
    (Role::Pawn, 6),
];

/// Cards dealt to each player.
pub const HAND_SIZE: usize = 4;

/// Cards dealt face down to the draw pile.
pub const PILE_SIZE: usize = 6;

/// Mixed into the game's seed so that the deal is drawn from its own stream,
/// independent of the letters and the colours: the ASCII bytes of `CARDDEAL`.
pub const CARDS_STREAM: u64 = 0x4341_5244_4445_414C;

/// One piece card: a colour and a role. Written `white knight` (its name) or `wN` (its
/// short name), and stored as the short name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Card {
    /// The colour on the card.
    pub color: Color,
    /// The piece on the card.
    pub role: Role,
}

/// What to write instead of a card that is not understood.
const CARD_FORMS: &str = "write a card as 'white knight', 'black pawn' or in short 'wN', 'bP' \
     (white or black; king, queen, rook, knight or pawn)";

/// Why a text is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    /// Not a card in any form (the text shown, at most 30 characters).
    #[error("'{0}' is not a card: {forms}", forms = CARD_FORMS)]
    NotACard(String),
    /// A bishop, which the deck does not have (the text shown).
    #[error("'{0}': there are no bishops in the Chesswords deck (Los Alamos chess has none); the cards are kings, queens, rooks, knights and pawns")]
    Bishop(String),
}

impl Card {
    /// The card's name: `white knight`.
    pub fn name(self) -> String {
        format!("{} {}", self.color.name(), self.role.name())
    }

    /// The card's short name: `wN`, `bP`.
    pub fn short(self) -> String {
        let c = match self.color {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!("{c}{}", self.role.upper_char())
    }

    /// Reads a card, in either case: `white knight`, `white-knight`, `wN`, `bp`.
    pub fn parse(text: &str) -> Result<Card, CardError> {
        let shown: String = text.trim().chars().take(30).collect();
        let words: Vec<String> = text
            .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let (color, role) = match words.as_slice() {
            [short] if short.chars().count() == 2 => {
                let mut cs = short.chars();
                let (c, r) = (cs.next(), cs.next());
                let color = match c {
                    Some('w') => Color::White,
                    Some('b') => Color::Black,
                    _ => return Err(CardError::NotACard(shown)),
                };
                (color, r.and_then(Role::from_char))
            }
            [color, role] => {
                let color = match color.as_str() {
                    "white" | "w" => Color::White,
                    "black" | "b" => Color::Black,
                    _ => return Err(CardError::NotACard(shown)),
                };
                (color, Role::ALL.into_iter().find(|r| r.name() == role))
            }
            _ => return Err(CardError::NotACard(shown)),
        };
        match role {
            Some(Role::Bishop) => Err(CardError::Bishop(shown)),
            Some(role) => Ok(Card { color, role }),
            None => Err(CardError::NotACard(shown)),
        }
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl From<Card> for String {
    fn from(card: Card) -> String {
        card.short()
    }
}

impl TryFrom<String> for Card {
    type Error = CardError;

    fn try_from(text: String) -> Result<Card, CardError> {
        Card::parse(&text)
    }
}

/// The 24 cards: White's king, queen, two rooks, two knights and six pawns, then
/// Black's.
pub fn deck() -> Vec<Card> {
    Color::ALL
        .into_iter()
        .flat_map(|color| {
            DECK_ROLES
                .iter()
                .flat_map(move |&(role, n)| std::iter::repeat(Card { color, role }).take(n))
        })
        .collect()
}

/// The cards at the start of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    /// White's hand (`hands[0]`) and Black's (`hands[1]`).
    pub hands: [Vec<Card>; 2],
    /// The face-down draw pile, top card first.
    pub pile: Vec<Card>,
    /// The cards nobody plays with or sees.
    pub unused: Vec<Card>,
}

/// The deal of a game whose every draw is reproducible (the console's `--seed`, tests,
/// and every game dealt before deals were hidden draws): [`deal_from`] a stream of its
/// own of `seed`.
pub fn deal(seed: u64) -> Deal {
    deal_from(&mut SeededRng::new(seed ^ CARDS_STREAM))
}

/// A deal drawn from `rng`: the deck shuffled, then the first four cards to White, the
/// next four to Black, six to the pile (the first of them on top), the rest unused. On
/// the bot `rng` is the operating system's entropy, never the game's public seed.
pub fn deal_from(rng: &mut impl Random) -> Deal {
    let mut cards = deck();
    rng.shuffle(&mut cards);
    let mut rest = cards.into_iter();
    let mut take = |n: usize| rest.by_ref().take(n).collect::<Vec<Card>>();
    let white = take(HAND_SIZE);
    let black = take(HAND_SIZE);
    let pile = take(PILE_SIZE);
    let unused = take(usize::MAX);
    Deal {
        hands: [white, black],
        pile,
        unused,
    }
}

/// The distinct kinds of card in `hand`, in hand order, that its `holder` may discard
/// when the partner captures the holder's piece of role `captured` with a piece of role
/// `capturer` (rule 6): a card of the holder's colour and the captured role, or a card
/// of the partner's colour and the capturing role. A pawn that captures and promotes is
/// a pawn here.
pub fn qualifying(hand: &[Card], holder: Color, captured: Role, capturer: Role) -> Vec<Card> {
    let mut kinds: Vec<Card> = Vec::new();
    for &card in hand {
        let own = card.color == holder && card.role == captured;
        let partners = card.color == holder.opposite() && card.role == capturer;
        if (own || partners) && !kinds.contains(&card) {
            kinds.push(card);
        }
    }
    kinds
}

/// A hand as text: `white king, black pawn, black pawn`, or `no cards`.
pub fn hand_text(hand: &[Card]) -> String {
    if hand.is_empty() {
        return "no cards".into();
    }
    hand.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn card(short: &str) -> Card {
        Card::parse(short).unwrap()
    }

    fn cards(list: &str) -> Vec<Card> {
        list.split_whitespace().map(card).collect()
    }

    #[test]
    fn the_deck_has_the_los_alamos_pieces_of_both_colours() {
        let d = deck();
        assert_eq!(d.len(), 24);
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for c in &d {
            *count.entry(c.short()).or_default() += 1;
        }
        for colour in ["w", "b"] {
            for (role, n) in [("K", 1), ("Q", 1), ("R", 2), ("N", 2), ("P", 6), ("B", 0)] {
                let key = format!("{colour}{role}");
                assert_eq!(count.get(&key).copied().unwrap_or(0), n, "{key}");
            }
        }
    }

    #[test]
    fn the_deal_gives_four_four_six_and_ten_from_one_deck() {
        for seed in 0..50 {
            let d = deal(seed);
            assert_eq!(d.hands[0].len(), 4);
            assert_eq!(d.hands[1].len(), 4);
            assert_eq!(d.pile.len(), 6);
            assert_eq!(d.unused.len(), 10);
            // Disjoint and complete: together they are the deck, card for card.
            let mut all: Vec<Card> = d
                .hands
                .iter()
                .flatten()
                .chain(&d.pile)
                .chain(&d.unused)
                .copied()
                .collect();
            all.sort();
            let mut full = deck();
            full.sort();
            assert_eq!(all, full, "seed {seed}");
        }
    }

    #[test]
    fn the_deal_is_reproducible_and_differs_between_seeds() {
        assert_eq!(deal(8), deal(8));
        assert_ne!(deal(8).hands, deal(9).hands);
        // The letters and the cards use different streams of the same seed.
        let d = deal(0);
        let mut plain = deck();
        SeededRng::new(0).shuffle(&mut plain);
        assert_ne!(d.hands[0], plain[..4].to_vec());
    }

    #[test]
    fn cards_are_read_in_every_documented_form() {
        let wn = Card {
            color: Color::White,
            role: Role::Knight,
        };
        let bp = Card {
            color: Color::Black,
            role: Role::Pawn,
        };
        for text in [
            "white knight",
            "White Knight",
            "white-knight",
            "wN",
            "wn",
            " WN ",
        ] {
            assert_eq!(Card::parse(text), Ok(wn), "{text}");
        }
        for text in ["bP", "black pawn", "BLACK  PAWN", "b pawn"] {
            assert_eq!(Card::parse(text), Ok(bp), "{text}");
        }
        assert_eq!(wn.name(), "white knight");
        assert_eq!(wn.short(), "wN");
        assert_eq!(bp.short(), "bP");
        assert_eq!(card("bk").name(), "black king");
        assert_eq!(card("wq").to_string(), "white queen");
        assert_eq!(card("black rook").short(), "bR");
    }

    #[test]
    fn a_card_not_understood_is_refused_with_the_forms() {
        for text in [
            "",
            "knight",
            "red knight",
            "wX",
            "white",
            "white knight two",
            "xN",
        ] {
            let err = Card::parse(text).unwrap_err().to_string();
            assert!(
                err.contains("'white knight'") && err.contains("'wN'"),
                "{err}"
            );
        }
        for text in ["wB", "black bishop"] {
            let err = Card::parse(text).unwrap_err().to_string();
            assert!(err.contains("no bishops"), "{err}");
        }
    }

    #[test]
    fn cards_serialise_as_their_short_names() {
        let hand = cards("wK bP bP");
        let json = serde_json::to_value(&hand).unwrap();
        assert_eq!(json, serde_json::json!(["wK", "bP", "bP"]));
        let back: Vec<Card> = serde_json::from_value(json).unwrap();
        assert_eq!(back, hand);
        assert!(serde_json::from_value::<Card>(serde_json::json!("wB")).is_err());
        let d = deal(3);
        let back: Deal = serde_json::from_value(serde_json::to_value(&d).unwrap()).unwrap();
        assert_eq!(back, d);
    }

    #[test]
    fn a_card_of_the_holders_colour_matching_the_captured_piece_qualifies() {
        // Black's knight takes White's rook: White may discard a white rook.
        let hand = cards("wP wR bQ wN");
        assert_eq!(
            qualifying(&hand, Color::White, Role::Rook, Role::Knight),
            cards("wR")
        );
    }

    #[test]
    fn a_card_of_the_partners_colour_matching_the_capturing_piece_qualifies() {
        // White's queen takes Black's pawn: Black may discard a white queen.
        let hand = cards("bK wQ wR bN");
        assert_eq!(
            qualifying(&hand, Color::Black, Role::Pawn, Role::Queen),
            cards("wQ")
        );
    }

    #[test]
    fn identical_cards_are_one_kind() {
        let hand = cards("bP wK bP wN");
        assert_eq!(
            qualifying(&hand, Color::Black, Role::Pawn, Role::Rook),
            cards("bP")
        );
    }

    #[test]
    fn two_kinds_when_both_rules_apply_in_hand_order() {
        // Black's pawn takes White's knight: wN (own colour, captured) and bP (partner's
        // colour, capturing) both qualify; wR and the black knight do not.
        let hand = cards("bP wR bN wN bP");
        assert_eq!(
            qualifying(&hand, Color::White, Role::Knight, Role::Pawn),
            cards("bP wN")
        );
        // Same roles on both sides: wN and bN are two kinds.
        let hand = cards("wN bN");
        assert_eq!(
            qualifying(&hand, Color::White, Role::Knight, Role::Knight),
            cards("wN bN")
        );
    }

    #[test]
    fn no_card_qualifies_when_neither_rule_applies() {
        // A card of the partner's colour matching the captured role, or of the holder's
        // colour matching the capturer, does not qualify.
        let hand = cards("bR wQ bK wK");
        assert!(qualifying(&hand, Color::White, Role::Rook, Role::Queen).is_empty());
        assert!(qualifying(&[], Color::Black, Role::Pawn, Role::Pawn).is_empty());
    }

    #[test]
    fn a_hand_reads_as_names() {
        assert_eq!(
            hand_text(&cards("wK bP bP")),
            "white king, black pawn, black pawn"
        );
        assert_eq!(hand_text(&[]), "no cards");
    }
}
