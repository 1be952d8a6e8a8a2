//! What a viewer sees of a Gravity Chess game: the board image's content, the text
//! diagram, the FEN, the record and the PGN. Nobody sees a deck's order, not even its
//! holder: the decks show only how many cards they hold, and the FEN's brackets list the
//! pieces waiting in a fixed order (king first), never in the deck's.

use super::board::Score;
use super::cards::piece_name;
use super::fen;
use super::state::{Ended, Gravity, GravityEnd, Phase, Step, TurnRecord};
use crate::notation::san_among;
use crate::render::{BoardView, CardRow, Disc, Overlay};
use crate::rules::{Color, Role, Square};
use crate::variants::api::{Projection, Viewer};

impl Gravity {
    /// What `viewer` may see now. Every viewer sees the same board; a seat on its move
    /// phase also gets its moves, for suggestions.
    pub fn projection(&self, viewer: Viewer) -> Projection {
        let legal = match viewer {
            Viewer::Seat(s) if s.0 as usize == self.turn.index() => {
                let all = self.legal_moves();
                all.iter().map(|m| san_among(*m, &all)).collect()
            }
            _ => Vec::new(),
        };
        Projection {
            board: self.board_view(),
            diagram: self.diagram(),
            fen: self.fen(),
            last_move: self.last.map(|l| match l {
                crate::render::LastMove::Move { from, to } => format!("{from}{to}"),
                crate::render::LastMove::Drop { to } => {
                    let role = self.board.get(to).map_or(Role::Pawn, |p| p.role);
                    format!("{}@{to}", role.upper_char())
                }
            }),
            record: self.record.iter().map(turn_text).collect(),
            numbered: self.numbered(),
            legal,
            holdings: None,
            counters: Some(self.counters()),
            instructions: None,
        }
    }

    /// The FEN of the board now, the pieces waiting (the flipped one among them until it
    /// is added) in the brackets, in a fixed order.
    pub fn fen(&self) -> String {
        let mut waiting: [Vec<Role>; 2] = [Vec::new(), Vec::new()];
        for holder in Color::ALL {
            for c in self.decks[holder.index()].iter().chain(self.flipped.iter()) {
                let p = c.piece();
                if p.color != holder {
                    waiting[p.color.index()].push(p.role);
                }
            }
        }
        fen::write(&self.board, &waiting, self.turn, self.number)
    }

    /// What the player to move is doing, for the caption: `move all active pieces (2
    /// left)` or `add the black rook on rank 8`.
    pub fn phase_words(&self) -> Option<String> {
        if self.is_over() {
            return None;
        }
        Some(match self.phase {
            Phase::Move => format!(
                "move all active pieces{} ({} left)",
                if self.last_turn {
                    " for the last turn"
                } else {
                    ""
                },
                self.to_move().len()
            ),
            Phase::Add => format!(
                "add the {} on rank {}",
                self.to_add().map_or("piece".into(), piece_name),
                self.add_rank() + 1
            ),
        })
    }

    /// The board image's content: rank 1 always at the bottom; a black disc on each
    /// stacked piece, a white one numbered in order on each piece moved this turn (`-`
    /// for a piece that stays); the flipped card, both decks' sizes and the score as it
    /// stands below.
    pub fn board_view(&self) -> BoardView {
        let mut view = BoardView::empty(8, 8);
        for i in 0..64u8 {
            let sq = Square::from_index(i);
            view.pieces[sq.index()] = self.board.get(sq);
        }
        view.bottom = Color::White;
        view.fixed_bottom = true;
        view.last_move = self.last;
        view.caption.move_number = self.number;
        view.caption.to_move = (!self.is_over()).then_some(self.turn);
        view.caption.phase = self.phase_words();
        view.caption.result = self.banner();
        let mut discs: Vec<Disc> = self
            .board
            .stacked()
            .map(|square| Disc {
                square,
                color: Color::Black,
                label: None,
            })
            .collect();
        let mut n = 0;
        for (square, moved) in &self.done {
            if *moved {
                n += 1;
            }
            discs.push(Disc {
                square: *square,
                color: Color::White,
                label: Some(if *moved { n.to_string() } else { "-".into() }),
            });
        }
        view.overlays.push(Overlay::Discs(discs));
        let [w, b] = self.deck_sizes();
        let flipped = match self.flipped {
            Some(c) => format!("Flipped: {}", piece_name(c.piece())),
            None => "No card flipped".into(),
        };
        let [sw, sb] = Score::of(&self.board, self.captured).points;
        let label = format!("{flipped} · decks W {w}, B {b} · score W {sw}, B {sb}");
        view.overlays.push(Overlay::Cards(CardRow {
            label,
            cards: self.flipped.map(|c| c.face()).into_iter().collect(),
        }));
        view
    }

    /// The cards left, the pieces each side has taken and the score as it stands (rule 9:
    /// captures plus the rows of the stacked pieces), for every viewer during play:
    /// `cards left: White 12, Black 11; taken by White 1, by Black 0; score now: White 5, Black 3`.
    fn counters(&self) -> String {
        let [w, b] = self.deck_sizes();
        let score = Score::of(&self.board, self.captured);
        format!(
            "cards left: White {w}, Black {b}; taken by White {}, by Black {}; score now: White {}, Black {}",
            self.captured[0], self.captured[1], score.points[0], score.points[1]
        )
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
        Some(match (self.ended()?, &o.score) {
            (Ended::Rules(GravityEnd::Scored), Some(s)) if s.len() == 2 => {
                format!("{result} · {who} by score, {}-{}", s[0], s[1])
            }
            (Ended::Agreed, _) => format!("{result} · Draw by agreement"),
            _ => format!("{result} · {who} by {}", o.reason.words()),
        })
    }

    /// A text diagram: rank 8 at the top, `.` for an empty square, `*` after the board's
    /// rows marking stacked pieces' squares, and the decks and captures below.
    pub fn diagram(&self) -> String {
        let stacked = self.board.stacked();
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            out.push((b'1' + rank) as char);
            out.push(' ');
            for file in 0..8u8 {
                let sq = Square::new(file, rank);
                out.push(self.board.get(sq).map_or('.', |p| p.fen_char()));
            }
            let row: Vec<String> = (0..8u8)
                .map(|f| Square::new(f, rank))
                .filter(|s| stacked.contains(*s))
                .map(|s| s.to_string())
                .collect();
            if !row.is_empty() {
                out.push_str(&format!("  stacked: {}", row.join(" ")));
            }
            out.push('\n');
        }
        out.push_str("  abcdefgh\n");
        out.push_str(&self.counters());
        if let Some(c) = self.flipped {
            out.push_str(&format!("; flipped: {}", c.name()));
        }
        out
    }

    /// The record numbered as players read it: `1. bK: K@e8 1... wQ: Kd7 Q@a8`.
    pub fn numbered(&self) -> String {
        self.record
            .iter()
            .map(|t| format!("{}{} {}", t.number, dots(t), turn_text(t)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The game as PGN: the referee's tags, the variant, the starting FEN if any, and
    /// each turn as `N. {bR} Bf6 e7 {e8 stays} R@a8` (White's last turn `{last turn}`),
    /// the final score in a comment before the result.
    pub fn write_pgn(&self, tags: &[(String, String)]) -> String {
        let (mut out, result) = crate::variants::api::GameOutcome::record_header(
            self.outcome().as_ref(),
            tags,
            "Gravity Chess",
            self.start_fen.as_deref(),
        );
        let mut words: Vec<String> = Vec::new();
        for t in &self.record {
            words.push(format!("{}{}", t.number, dots(t)));
            words.push(match t.flip {
                Some(c) => format!("{{{}}}", card_short(c.piece())),
                None => "{last turn}".into(),
            });
            for s in &t.steps {
                words.push(match s {
                    Step::Moved(san) => san.clone(),
                    Step::Stayed(sq) => format!("{{{sq} stays}}"),
                });
            }
            words.extend(t.add.clone());
        }
        if self.ended() == Some(Ended::Rules(GravityEnd::Scored)) {
            let s = self.score();
            words.push(format!(
                "{{final score: White {}, Black {}}}",
                s.points[0], s.points[1]
            ));
        }
        words.push(result);
        // Lines of at most 80 characters, as PGN asks.
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

/// `.` after a White turn's number, `...` after a Black one's.
fn dots(t: &TurnRecord) -> &'static str {
    if t.seat.0 == 0 {
        "."
    } else {
        "..."
    }
}

/// A card by its piece: `bR`, `wP`.
fn card_short(p: crate::rules::Piece) -> String {
    format!(
        "{}{}",
        if p.color == Color::White { 'w' } else { 'b' },
        p.role.upper_char()
    )
}

/// One turn for people: `bR: Bf6 e7 (e8 stays) R@a8`, `last: Rg5`.
fn turn_text(t: &TurnRecord) -> String {
    let mut parts = vec![match t.flip {
        Some(c) => format!("{}:", card_short(c.piece())),
        None => "last:".into(),
    }];
    for s in &t.steps {
        parts.push(match s {
            Step::Moved(san) => san.clone(),
            Step::Stayed(sq) => format!("({sq} stays)"),
        });
    }
    parts.extend(t.add.clone());
    parts.join(" ")
}
