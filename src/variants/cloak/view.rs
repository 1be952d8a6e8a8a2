//! What a viewer sees of a Cloak and Dagger game: the board image's content (a checker
//! whose identity the viewer may not know is a numbered disc on an empty square; one
//! they know is its piece with a small numbered disc while it stays cloaked), the text
//! diagram, the FEN (`X`/`x` for an unknown checker), the record as that viewer reads
//! it, the PGN (every identity in a comment, once the game is over) and each player's
//! back rank and deduction grid, privately.

use super::board::home_rank;
use super::record::{dots, move_text, turn_text, Event};
use super::state::{color, Cloak, CloakEnd, Ended, Step};
use crate::notation::san_among;
use crate::render::{BoardView, Disc, LastMove, Overlay, ReserveSlot, ReserveView};
use crate::rules::{Color, Piece, Role, Square};
use crate::variants::api::{Projection, Viewer};

impl Cloak {
    /// Whether `viewer` knows the identity of `c`'s checker `id`: its owner once set up,
    /// everyone once it is public or the game is over.
    pub fn sees(&self, viewer: Viewer, c: Color, id: u8) -> bool {
        id == 0
            || self.is_over()
            || self.known[c.index()][id as usize]
            || (viewer == Viewer::Seat(crate::variants::api::Seat(c.index() as u8))
                && self.setups[c.index()].is_some())
    }

    /// What `viewer` may see now.
    pub fn projection(&self, viewer: Viewer) -> Projection {
        let legal = match viewer {
            Viewer::Seat(s) if s.0 == self.turn && !self.is_over() => {
                let all = self.moves_now();
                all.iter().map(|m| san_among(*m, &all)).collect()
            }
            _ => Vec::new(),
        };
        let sees = |c: Color, id: u8| self.sees(viewer, c, id);
        Projection {
            board: self.board_view(viewer),
            diagram: self.diagram(viewer),
            fen: self.fen(viewer),
            last_move: self.last.map(|(f, t)| {
                if f == t {
                    format!("P@{}", Square::from_index(t))
                } else {
                    format!("{}{}", Square::from_index(f), Square::from_index(t))
                }
            }),
            record: self.record.iter().map(|t| turn_text(t, &sees)).collect(),
            numbered: self.numbered(viewer),
            legal,
            holdings: match viewer {
                Viewer::Seat(s) if s.0 < 2 => Some(self.holdings(s.0)),
                _ => None,
            },
            counters: self.counters(),
            instructions: None,
        }
    }

    /// Owed bonus moves and pawns to drop back, in words.
    pub fn counters(&self) -> Option<String> {
        let mut parts = Vec::new();
        for (i, name) in ["White", "Black"].iter().enumerate() {
            if self.owed[i] {
                parts.push(format!("{name} is owed a bonus move"));
            }
        }
        parts.push(format!(
            "pawns to drop back: White {}, Black {}",
            self.hand[0], self.hand[1]
        ));
        Some(parts.join("; "))
    }

    /// What the player of `seat` is told privately: their back rank and the deduction
    /// grid of what they have learnt (and of what their opponent has learnt of theirs),
    /// each grid in a code block.
    pub fn holdings(&self, seat: u8) -> String {
        let c = color(seat);
        let mine = match self.arrangement(seat) {
            Some(a) => format!(
                "your back rank: {}",
                super::record::arrangement_words(&a, c)
            ),
            None => concat!(
                "your back rank is not set up yet: ",
                crate::variants::api::command_mark_str!("setup RNBQKBNR"),
                " or ",
                crate::variants::api::command_mark_str!("setup random")
            )
            .into(),
        };
        // Each grid in a code block, so that its columns line up in a chat's
        // proportional font.
        format!(
            "{mine}\nyour opponent's checkers, as you know them:\n```\n{}\n```\nyour checkers, as your opponent knows them:\n```\n{}\n```",
            self.grid(c.opposite()),
            self.grid(c)
        )
    }

    /// The deduction grid of `c`'s checkers as the public knows them: a row per role, a
    /// column per checker; `O` a known identity, `X` a role ruled out (a wrong guess, the
    /// identity known to be another, or every checker of that role already known: one
    /// king, one queen, two of each other), `-` captured, `.` still open.
    pub fn grid(&self, c: Color) -> String {
        let i = c.index();
        let known_as = |r: Role| {
            (1..=8u8)
                .filter(|&id| self.known[i][id as usize] && self.true_role(c, id) == Some(r))
                .count()
        };
        let mut out = String::from("   1 2 3 4 5 6 7 8\n");
        let roles = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ];
        for r in roles {
            out.push_str(&format!("{}  ", r.upper_char()));
            let all_found = known_as(r) >= checkers_of(r);
            for id in 1..=8u8 {
                let on_board = self.board.find(c, id).is_some();
                let known = self.known[i][id as usize];
                let truth = self.true_role(c, id);
                let cell = if known && truth == Some(r) {
                    'O'
                } else if known || all_found || self.crosses[i][id as usize] & (1 << r.index()) != 0
                {
                    'X'
                } else if !on_board {
                    '-'
                } else {
                    '.'
                };
                out.push(cell);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.pop();
        out
    }

    /// The true role of `c`'s checker `id`, on the board or captured (from the record).
    fn true_role(&self, c: Color, id: u8) -> Option<Role> {
        if let Some((_, m)) = self.checker(c, id) {
            return Some(m.role);
        }
        self.record.iter().find_map(|t| {
            t.events.iter().find_map(|e| match e {
                Event::Move(p) if color(t.seat) != c => match p.capture {
                    Some((cid, role)) if cid == id => Role::from_char(role),
                    _ => None,
                },
                _ => None,
            })
        })
    }

    /// The board image's content for `viewer`.
    pub fn board_view(&self, viewer: Viewer) -> BoardView {
        let mut view = BoardView::empty(8, 8);
        let mut discs = Vec::new();
        for (sq, m) in self.board.men() {
            let label = (m.id > 0 && m.cloaked).then(|| m.id.to_string());
            if !m.cloaked || self.sees(viewer, m.color, m.id) {
                view.pieces[sq.index()] = Some(Piece {
                    color: m.color,
                    role: m.role,
                });
            }
            if let Some(label) = label {
                discs.push(Disc {
                    square: sq,
                    color: m.color,
                    label: Some(label),
                });
            }
        }
        view.overlays.push(Overlay::Discs(discs));
        view.bottom = match viewer {
            Viewer::Seat(s) => color(s.0),
            Viewer::Public => color(self.turn),
        };
        view.last_move = self.last.map(|(f, t)| {
            if f == t {
                LastMove::Drop {
                    to: Square::from_index(t),
                }
            } else {
                LastMove::Move {
                    from: Square::from_index(f),
                    to: Square::from_index(t),
                }
            }
        });
        if let Some((sq, _)) = self.board.king(color(self.turn)).filter(|_| {
            self.board
                .in_check(color(self.turn), false, &self.knowledge())
        }) {
            view.check = Some(sq);
        }
        for c in Color::ALL {
            view.reserves[c.index()] = Some(ReserveView {
                slots: vec![ReserveSlot {
                    role: Role::Pawn,
                    count: self.hand[c.index()],
                    locked: false,
                }],
            });
        }
        view.caption.move_number = self.number;
        view.caption.to_move = (!self.is_over()).then(|| color(self.turn));
        view.caption.phase = self.phase_words();
        view.caption.result = self.banner();
        view
    }

    /// What the player to move is doing, for captions and prompts.
    pub fn phase_words(&self) -> Option<String> {
        if self.is_over() {
            return None;
        }
        Some(
            match self.step {
                Step::Setup => "set up the back ranks",
                Step::Owed => "make the owed bonus move or skip",
                Step::Start => "move (may guess or uncloak first)",
                Step::Bonus => "make the bonus move or skip",
            }
            .into(),
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
        Some(match self.ended()? {
            Ended::Rules(CloakEnd::KingCaptured(_)) => format!("{result} · {who}: king captured"),
            _ => format!("{result} · {who} by {}", o.reason),
        })
    }

    /// The cell of `sq` as `viewer` sees it: ` N`, ` p`, `w3` (White's unknown
    /// checker 3), ` .`.
    fn cell(&self, viewer: Viewer, sq: Square) -> String {
        match self.board.get(sq) {
            None => " .".into(),
            Some(m) if m.cloaked && !self.sees(viewer, m.color, m.id) => format!(
                "{}{}",
                if m.color == Color::White { 'w' } else { 'b' },
                m.id
            ),
            Some(m) => format!(
                "{}{}",
                if m.cloaked { '*' } else { ' ' },
                Piece {
                    color: m.color,
                    role: m.role
                }
                .fen_char()
            ),
        }
    }

    /// A text diagram for `viewer`: rank 8 at the top; `w3`/`b3` an unknown checker,
    /// `*N` a known piece still cloaked.
    pub fn diagram(&self, viewer: Viewer) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            out.push((b'1' + rank) as char);
            for file in 0..8u8 {
                out.push(' ');
                out.push_str(&self.cell(viewer, Square::new(file, rank)));
            }
            out.push('\n');
        }
        out.push_str("   a  b  c  d  e  f  g  h\n");
        out.push_str(&self.counters().unwrap_or_default());
        out
    }

    /// The position as FEN for `viewer`: an unknown checker is `X` (White) or `x`
    /// (Black); castling rights are not shown (they depend on identities); the pawns to
    /// drop back in brackets.
    pub fn fen(&self, viewer: Viewer) -> String {
        let placement = crate::notation::fen::placement(8, 8, |sq| {
            self.board.get(sq).map(|m| {
                if m.cloaked && !self.sees(viewer, m.color, m.id) {
                    // A placeholder, replaced by X/x below.
                    Piece {
                        color: m.color,
                        role: Role::Pawn,
                    }
                } else {
                    Piece {
                        color: m.color,
                        role: m.role,
                    }
                }
            })
        });
        // The placement wrote unknown checkers as pawns: mark them X/x instead.
        let mut ranks: Vec<String> = placement.split('/').map(str::to_string).collect();
        for (i, r) in ranks.iter_mut().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            let mut out = String::new();
            for ch in r.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file += d as u8;
                    out.push(ch);
                    continue;
                }
                let sq = Square::new(file, rank);
                let hidden = self
                    .board
                    .get(sq)
                    .is_some_and(|m| m.cloaked && !self.sees(viewer, m.color, m.id));
                out.push(match (hidden, ch.is_ascii_uppercase()) {
                    (true, true) => 'X',
                    (true, false) => 'x',
                    _ => ch,
                });
                file += 1;
            }
            *r = out;
        }
        let hand = "P".repeat(self.hand[0] as usize) + &"p".repeat(self.hand[1] as usize);
        format!(
            "{}[{hand}] {} - {} 0 {}",
            ranks.join("/"),
            if self.turn == 0 { 'w' } else { 'b' },
            self.ep
                .map_or("-".to_string(), |e| Square::from_index(e).to_string()),
            self.number
        )
    }

    /// The record numbered as `viewer` reads it.
    pub fn numbered(&self, viewer: Viewer) -> String {
        let sees = |c: Color, id: u8| self.sees(viewer, c, id);
        self.record
            .iter()
            .map(|t| format!("{}{} {}", t.number, dots(t), turn_text(t, &sees)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The game as PGN for `viewer`: while it is live the record as that viewer reads
    /// it; once over the full record, with every identity in a comment.
    pub fn write_pgn(&self, viewer: Viewer, tags: &[(String, String)]) -> String {
        let (mut out, result) = crate::variants::api::GameOutcome::record_header(
            self.outcome().as_ref(),
            tags,
            "Cloak and Dagger Chess",
            None,
        );
        let mut words: Vec<String> = Vec::new();
        if self.is_over() {
            let ids: Vec<String> = (0..2u8)
                .map(|s| {
                    let c = color(s);
                    let list: Vec<String> = (1..=8u8)
                        .map(|id| {
                            format!(
                                "{id}={}",
                                self.true_role(c, id).map_or('?', |r| r.upper_char())
                            )
                        })
                        .collect();
                    format!(
                        "{}: {}",
                        if s == 0 { "White" } else { "Black" },
                        list.join(" ")
                    )
                })
                .collect();
            words.push(format!("{{checkers {}}}", ids.join("; ")));
        }
        let sees = |c: Color, id: u8| self.sees(viewer, c, id);
        for t in &self.record {
            words.push(format!("{}{}", t.number, dots(t)));
            words.push(turn_text(t, &sees));
        }
        words.push(result);
        out.push_str(&crate::notation::pgn::wrap_movetext(words));
        out.push('\n');
        out
    }

    /// A move as the public reads it now (for notes).
    pub fn public_move(&self, p: &super::record::Played, c: Color) -> String {
        move_text(p, c, |col, id| self.sees(Viewer::Public, col, id))
    }

    /// The squares of `c`'s back rank, for tests.
    pub fn back_rank(c: Color) -> Vec<Square> {
        (0..8).map(|f| Square::new(f, home_rank(c))).collect()
    }
}

/// How many of a side's eight checkers have role `r`: one king and one queen, two of each
/// other piece.
fn checkers_of(r: Role) -> usize {
    match r {
        Role::King | Role::Queen => 1,
        _ => 2,
    }
}
