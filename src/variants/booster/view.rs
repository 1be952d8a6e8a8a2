//! What a viewer sees of a Booster Chess game: the board image's content (a disc under
//! each stacked piece, its colour the checkers' and its number their count), the text
//! diagram, the FEN with its stacks, the record, the PGN, the public counters. Only a
//! seat's own projection holds its hand; nobody's holds the pile's order.

use super::cards;
use super::fen;
use super::state::{seat_of, step_text, Booster, BoosterEnd, Ended, Phase};
use crate::notation::san_among;
use crate::render::{BoardView, CardRow, Disc, LastMove, Overlay};
use crate::rules::{Color, Square};
use crate::variants::api::{command_mark, Projection, Seat, Viewer};

/// Discarded cards drawn under the board, the latest last.
const SHOWN_DISCARDS: usize = 6;

impl Booster {
    /// What `viewer` may see now.
    pub fn projection(&self, viewer: Viewer) -> Projection {
        let seat = match viewer {
            Viewer::Seat(s) if s.0 < 2 => Some(s),
            _ => None,
        };
        let mover = seat.filter(|s| *s == seat_of(self.turn()) && !self.is_over());
        Projection {
            board: self.board_view(),
            diagram: self.diagram(),
            fen: fen::write(&self.pos),
            last_move: self.last.map(|(a, b)| format!("{a}{b}")),
            record: self.record.iter().map(|t| t.text()).collect(),
            numbered: self.numbered(),
            legal: mover.map(|_| self.typed_options()).unwrap_or_default(),
            holdings: seat.map(|s| self.hand_words(s)),
            counters: Some(self.counters()),
            instructions: mover.and_then(|_| self.instructions()),
        }
    }

    /// `your hand: 9h (white bishop), 6s (black checker card)`.
    fn hand_words(&self, seat: Seat) -> String {
        let c = if seat.0 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut hand = self.hand(c).to_vec();
        hand.sort();
        format!(
            "your hand ({}): {}",
            super::state::plural(hand.len(), "card"),
            cards::list(&hand)
        )
    }

    /// Checkers in front of each player, cards in each hand, the piles.
    pub fn counters(&self) -> String {
        let p = &self.pos;
        format!(
            "checkers in front: White {}, Black {}; cards in hand: White {}, Black {}; draw pile {}; discard pile: {}",
            p.reserve(Color::White),
            p.reserve(Color::Black),
            self.hand(Color::White).len(),
            self.hand(Color::Black).len(),
            self.pile_len(),
            if self.discards().is_empty() {
                "empty".to_string()
            } else {
                self.discards().iter().map(|c| c.code()).collect::<Vec<_>>().join(" ")
            }
        )
    }

    /// What the mover may type now, as they would type it: moves in SAN in the move
    /// phase; then steps (`boost g5`), card plays (`card 9h on c4`) and `done`.
    pub fn typed_options(&self) -> Vec<String> {
        match self.phase() {
            Phase::Move => {
                let all = self.legal_moves();
                all.iter().map(|m| san_among(*m, &all)).collect()
            }
            _ => {
                let mut out: Vec<String> = self
                    .legal_steps()
                    .into_iter()
                    .map(|s| format!("boost {}", step_text(s)))
                    .collect();
                out.extend(self.card_plays());
                out.push("done".into());
                out
            }
        }
    }

    /// Every card play the mover may make now, as typed.
    fn card_plays(&self) -> Vec<String> {
        if !self.card_open() {
            return Vec::new();
        }
        let mut hand = self.hand(self.turn()).to_vec();
        hand.sort();
        hand.dedup();
        let mut out = Vec::new();
        for c in hand {
            for sq in self.card_targets(c) {
                if self.card_play(c, sq).is_ok() {
                    out.push(format!("card {} on {sq}", c.code()));
                }
            }
        }
        out
    }

    /// The mover's private instructions in the steps and card phases.
    fn instructions(&self) -> Option<String> {
        if self.phase() == Phase::Move {
            return None;
        }
        let mut parts = Vec::new();
        if let Some(at) = self.stepping() {
            let steps: Vec<String> = self.legal_steps().into_iter().map(step_text).collect();
            if !steps.is_empty() {
                parts.push(format!(
                    "the piece on {at} may step to {} ({}; {} left)",
                    steps.join(" "),
                    command_mark("boost SQUARE"),
                    self.pos.boost(at)
                ));
            }
        }
        let plays: Vec<String> = self
            .card_plays()
            .iter()
            .filter_map(|p| p.strip_prefix("card ")?.split_once(" on "))
            .map(|(card, sq)| command_mark(&format!("add {sq} with {card}")))
            .collect();
        if !plays.is_empty() {
            parts.push(format!("you may play {}", plays.join(", ")));
        }
        parts.push(format!("{} ends your turn", command_mark("done")));
        Some(parts.join("; "))
    }

    /// The public fields of an export.
    pub fn public_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let p = &self.pos;
        let mut m = serde_json::Map::new();
        m.insert(
            "checkers_in_front".into(),
            serde_json::json!({"white": p.reserve(Color::White), "black": p.reserve(Color::Black)}),
        );
        m.insert(
            "cards_in_hand".into(),
            serde_json::json!({"white": self.hand(Color::White).len(), "black": self.hand(Color::Black).len()}),
        );
        m.insert("draw_pile".into(), serde_json::json!(self.pile_len()));
        m.insert(
            "discard_pile".into(),
            serde_json::json!(self.discards().iter().map(|c| c.code()).collect::<Vec<_>>()),
        );
        m.insert("stacks".into(), serde_json::json!(fen::stacks_field(p)));
        m
    }

    /// What the mover is doing, for the caption.
    fn phase_words(&self) -> Option<String> {
        if self.is_over() {
            return None;
        }
        Some(match self.phase() {
            Phase::Move => "to move".into(),
            Phase::Steps(_) => "booster steps, a card or done".into(),
            Phase::Card => "a card or done".into(),
        })
    }

    /// The board image's content: the pieces, a disc in the corner of each stacked
    /// piece's square (the checkers' colour, their count written on it), the last move,
    /// a king in check, the discard pile and the public counts below.
    pub fn board_view(&self) -> BoardView {
        let p = &self.pos;
        let mut view = BoardView::empty(8, 8);
        for i in 0..64u8 {
            let sq = Square::from_index(i);
            view.pieces[sq.index()] = p.piece(sq);
        }
        view.bottom = Color::White;
        view.last_move = self.last.map(|(from, to)| LastMove::Move { from, to });
        view.check = p.king(p.turn).filter(|k| p.attacked(*k, p.turn.opposite()));
        view.caption.move_number = p.fullmoves;
        view.caption.to_move = (!self.is_over()).then_some(p.turn);
        view.caption.phase = self.phase_words().filter(|_| self.phase() != Phase::Move);
        view.caption.result = self.banner();
        let discs: Vec<Disc> = (0..64u8)
            .map(Square::from_index)
            .filter(|s| p.stack(*s) != 0)
            .map(|square| {
                let n = p.stack(square);
                Disc {
                    square,
                    color: if n > 0 { Color::White } else { Color::Black },
                    label: Some(n.unsigned_abs().to_string()),
                }
            })
            .collect();
        if !discs.is_empty() {
            view.overlays.push(Overlay::Discs(discs));
        }
        let d = self.discards();
        view.overlays.push(Overlay::Cards(CardRow {
            label: format!(
                "Checkers: W {}, B {} · hands: W {}, B {} · pile {} · discards {}",
                p.reserve(Color::White),
                p.reserve(Color::Black),
                self.hand(Color::White).len(),
                self.hand(Color::Black).len(),
                self.pile_len(),
                d.len()
            ),
            cards: d[d.len().saturating_sub(SHOWN_DISCARDS)..]
                .iter()
                .map(|c| c.face())
                .collect(),
        }));
        view
    }

    /// The result banner once the game is over.
    fn banner(&self) -> Option<String> {
        let o = self.outcome()?;
        let who = match o.result.as_str() {
            "1-0" => "White wins",
            "0-1" => "Black wins",
            _ => "Draw",
        };
        let result = if o.result == "1/2-1/2" {
            "½-½"
        } else {
            o.result.as_str()
        };
        Some(format!("{result} · {who} by {}", o.reason))
    }

    /// A text diagram: rank 8 at the top, `.` for an empty square, the stacks of each
    /// rank after it (`e4:w2` two white checkers under e4), the counters below.
    pub fn diagram(&self) -> String {
        let p = &self.pos;
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            out.push((b'1' + rank) as char);
            out.push(' ');
            let mut stacks = Vec::new();
            for file in 0..8u8 {
                let sq = Square::new(file, rank);
                out.push(p.piece(sq).map_or('.', |q| q.fen_char()));
                let n = p.stack(sq);
                if n != 0 {
                    stacks.push(format!("{sq}:{}{}", if n > 0 { 'w' } else { 'b' }, n.abs()));
                }
            }
            if !stacks.is_empty() {
                out.push_str(&format!("  stacks {}", stacks.join(" ")));
            }
            out.push('\n');
        }
        out.push_str("  abcdefgh\n");
        out.push_str(&self.counters());
        out
    }

    /// The record numbered as players read it: `1. e4 boost e5 2. ...`.
    pub fn numbered(&self) -> String {
        let first_black = self
            .start_fen
            .as_deref()
            .is_some_and(|f| f.split_whitespace().nth(1) == Some("b"));
        let start_no: u32 = self
            .start_fen
            .as_deref()
            .and_then(|f| f.split_whitespace().nth(5))
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        let mut words = Vec::new();
        for (i, t) in self.record.iter().enumerate() {
            let ply = i + usize::from(first_black);
            let no = start_no as usize + ply / 2;
            if ply % 2 == 0 {
                words.push(format!("{no}."));
            } else if i == 0 {
                words.push(format!("{no}..."));
            }
            words.push(t.text());
        }
        words.join(" ")
    }

    /// The game as PGN: the referee's tags, the variant, the starting FEN if any, each
    /// turn's move with its steps and card in a comment, and the result.
    pub fn write_pgn(&self, tags: &[(String, String)]) -> String {
        let (mut out, result) = crate::variants::api::GameOutcome::record_header(
            self.outcome().as_ref(),
            tags,
            "Booster Chess",
            self.start_fen.as_deref(),
        );
        let mut words: Vec<String> = Vec::new();
        for w in self.numbered().split(' ').filter(|w| !w.is_empty()) {
            words.push(w.to_string());
        }
        if let Some(Ended::Rules(BoosterEnd::Repetition | BoosterEnd::FiftyMoves)) = self.ended() {
            words.push(format!(
                "{{{}}}",
                self.outcome()
                    .map(|o| o.reason.name().to_string())
                    .unwrap_or_default()
            ));
        }
        words.push(result);
        out.push_str(&crate::notation::pgn::wrap_movetext(words));
        out.push('\n');
        out
    }

    /// The same game with `owner`'s hand exchanged for cards from deep in the draw pile
    /// (below the six any one turn of the opponent could draw): what the opponent and the
    /// public know is the same, only `owner`'s secret differs. `None` once the game is
    /// over, when `owner` holds no card, or when the pile is too short to swap with.
    pub fn disguise(&self, owner: Seat) -> Option<Booster> {
        if self.is_over() || owner.0 > 1 {
            return None;
        }
        let i = owner.0 as usize;
        let deep = self.pile.len().saturating_sub(6);
        let n = self.hands[i].len().min(deep);
        if n == 0 {
            return None;
        }
        let mut g = self.clone();
        let at = g.pile.len() - n;
        let from_pile: Vec<_> = g.pile.drain(at..).collect();
        let from_hand: Vec<_> = g.hands[i].drain(..n).collect();
        g.hands[i].extend(from_pile);
        g.pile.extend(from_hand);
        if g.hands[i].iter().all(|c| self.hands[i].contains(c)) {
            return None;
        }
        Some(g)
    }
}
