//! What one viewer may see of a game: the plain data a board image is drawn from.
//!
//! The renderer draws a [`BoardView`] and nothing else. It never sees a game's state, so a
//! secret (a hand of cards, a cloaked piece) can only appear in an image if whoever built
//! the view put it there. The service layer builds one view per viewer; for the chess-like
//! variants without secrets, [`BoardView::from_position`] and [`BoardView::from_game`] fill
//! in everything a [`Position`] or a [`Game`] knows.

use crate::rules::{Color, Game, GameResult, Move, Outcome, Piece, Position, Role, Square};

/// Who an image is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Everyone: the image posted in the game's thread.
    Public,
    /// One player, privately: the image is drawn from that player's side.
    Player(Color),
}

/// Which side is at the bottom of the public image (a setting of each game).
///
/// Private images are always drawn from the viewer's own side; this setting only decides
/// the image posted in the game's thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PublicOrientation {
    /// The side to move is at the bottom (White once the game is over). This is the
    /// default: in a correspondence game the public image is, above all, the notification
    /// that it is someone's turn, and that player reads it the way they sit at a board.
    #[default]
    SideToMove,
    /// White is always at the bottom, as in printed diagrams; consecutive images then
    /// never turn around, which spectators may prefer.
    WhiteAlways,
}

impl PublicOrientation {
    /// The side at the bottom when `to_move` is to move (`None` once the game is over).
    pub fn bottom(self, to_move: Option<Color>) -> Color {
        match self {
            PublicOrientation::SideToMove => to_move.unwrap_or(Color::White),
            PublicOrientation::WhiteAlways => Color::White,
        }
    }

    /// The setting's name in configuration and commands (`side-to-move`, `white`).
    pub fn name(self) -> &'static str {
        match self {
            PublicOrientation::SideToMove => "side-to-move",
            PublicOrientation::WhiteAlways => "white",
        }
    }
}

/// A public orientation setting that names none of them (the name as read, trimmed,
/// lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown orientation '{0}' (known: side-to-move, white)")]
pub struct UnknownOrientation(pub String);

impl std::str::FromStr for PublicOrientation {
    type Err = UnknownOrientation;

    /// Reads `side-to-move` (or `turn`) and `white` (or `white-always`).
    fn from_str(s: &str) -> Result<PublicOrientation, UnknownOrientation> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "side-to-move" | "turn" => Ok(PublicOrientation::SideToMove),
            "white" | "white-always" => Ok(PublicOrientation::WhiteAlways),
            other => Err(UnknownOrientation(other.to_string())),
        }
    }
}

/// The side drawn at the bottom for `viewer`: a player's own side in a private image, and
/// the game's setting in the public one.
pub fn bottom_side(viewer: Viewer, setting: PublicOrientation, to_move: Option<Color>) -> Color {
    match viewer {
        Viewer::Player(color) => color,
        Viewer::Public => setting.bottom(to_move),
    }
}

/// The squares of the last move to highlight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LastMove {
    /// A piece went from one square to another (for castling, the king's two squares).
    Move {
        /// Where it started.
        from: Square,
        /// Where it ended.
        to: Square,
    },
    /// A piece was placed from the reserve: only its square is highlighted.
    Drop {
        /// Where it was placed.
        to: Square,
    },
}

impl LastMove {
    /// The squares to highlight for a move of the rules engine.
    pub fn of(m: &Move) -> LastMove {
        if m.is_drop() {
            LastMove::Drop { to: m.to }
        } else {
            LastMove::Move {
                from: m.from,
                to: m.to,
            }
        }
    }

    /// The highlighted squares: one for a drop, two otherwise.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let (a, b) = match self {
            LastMove::Move { from, to } => (Some(from), Some(to)),
            LastMove::Drop { to } => (None, Some(to)),
        };
        a.into_iter().chain(b)
    }
}

/// One kind of piece waiting in a reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReserveSlot {
    /// The kind of piece.
    pub role: Role,
    /// How many of it are waiting (a slot with 0 is not drawn).
    pub count: u8,
    /// Whether it may not be dropped yet (Chess#: the queen until she is the last piece);
    /// drawn faded, with a padlock.
    pub locked: bool,
}

/// The pieces one side has in hand, in the order they are drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ReserveView {
    /// The kinds of piece, each with its count.
    pub slots: Vec<ReserveSlot>,
}

impl ReserveView {
    /// The order reserves are drawn in: king, queen, rook, bishop, knight, pawn.
    pub const ORDER: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];

    /// Whether there is nothing in hand.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|s| s.count == 0)
    }
}

/// The text around the board: who plays, whose turn it is, and the result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Caption {
    /// The player of White, as shown.
    pub white: String,
    /// The player of Black, as shown.
    pub black: String,
    /// The side to move, or `None` when nobody is (the game is over).
    pub to_move: Option<Color>,
    /// The move number (it goes up after Black's move, as in PGN).
    pub move_number: u32,
    /// The result banner, shown instead of the turn once the game is over.
    pub result: Option<String>,
    /// What the player to move is doing, where a turn has phases (Gravity Chess: `move
    /// all active pieces (2 left)`): the status line then reads `Move 5 · alice: move all
    /// active pieces (2 left)` instead of `Move 5 · White to move`.
    pub phase: Option<String>,
}

impl Caption {
    /// The name of `color`'s player.
    pub fn name(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// A corner of the board, in board coordinates (not turned with the image).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardCorner {
    /// The corner on the last file (the h-file side of an 8x8 board), not the a-file.
    pub high_file: bool,
    /// The corner on the last rank (Black's side), not the first.
    pub high_rank: bool,
}

/// A round checker or coin on a square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Disc {
    /// Where it lies.
    pub square: Square,
    /// Its colour.
    pub color: Color,
    /// A short text written on it, such as a number (at most three characters are drawn).
    pub label: Option<String>,
}

/// The suit of a playing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suit {
    /// Spades (black).
    Spades,
    /// Hearts (red).
    Hearts,
    /// Diamonds (red).
    Diamonds,
    /// Clubs (black).
    Clubs,
}

impl Suit {
    /// Whether the suit is printed in red.
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// A playing card as a viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    /// A card whose face the viewer may see. `rank` is 1 for the ace, 2 to 10, 11 for the
    /// jack, 12 for the queen and 13 for the king.
    Face {
        /// 1 (ace) to 13 (king).
        rank: u8,
        /// The suit.
        suit: Suit,
    },
    /// A card seen from the back.
    Back,
}

impl Card {
    /// The Unicode playing-card character that draws this card (`None` for a rank
    /// outside 1..=13).
    pub fn glyph(self) -> Option<char> {
        let (rank, suit) = match self {
            Card::Back => return Some('\u{1F0A0}'),
            Card::Face { rank, suit } => (rank, suit),
        };
        let base = match suit {
            Suit::Spades => 0x1F0A0,
            Suit::Hearts => 0x1F0B0,
            Suit::Diamonds => 0x1F0C0,
            Suit::Clubs => 0x1F0D0,
        };
        // The Unicode block has a knight between the jack and the queen.
        let offset = match rank {
            1..=11 => rank as u32,
            12 | 13 => rank as u32 + 1,
            _ => return None,
        };
        char::from_u32(base + offset)
    }
}

/// A labelled row of playing cards, drawn below the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CardRow {
    /// What the row is, e.g. "Your hand" or "Draw pile".
    pub label: String,
    /// The cards, left to right.
    pub cards: Vec<Card>,
}

/// Variant state drawn on or beside the board.
///
/// [`BoardView::from_position`] fills the ones a chess-like variant's data asks for: a goal
/// region ([`Overlay::Goal`]), double-move tokens ([`Overlay::Tokens`]) and checks given
/// ([`Overlay::Checks`]). The others are for the variants with state of their own: letters
/// on squares and checkers (Secret Chesswords), a marker in a corner (Split-Brain Chess),
/// numbered discs (Cloak and Dagger Chess, checkers under pieces in Booster Chess) and
/// hands of cards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Overlay {
    /// The squares of the variant's goal region, which a king wins (or races) by reaching
    /// (King of the Hill's centre, Racing Kings' eighth rank): each is framed, under its
    /// piece, by a band of the theme's accent edged in ink, inset from the square's edge.
    /// The square keeps its colour, so the frame shows together with the last move's and
    /// the check's colours, on light and dark squares alike.
    Goal(Vec<Square>),
    /// The checks a side has given out of the number that wins (Three-check), drawn in
    /// that player's row: `limit` marks, the first `given` of them discs in the check
    /// colour with a white plus, the others empty rings. Two discs and a ring read "two
    /// checks given, one more wins".
    Checks {
        /// Who gave the checks.
        side: Color,
        /// How many checks that side has given.
        given: u8,
        /// How many checks win (at most 8 marks are drawn).
        limit: u8,
    },
    /// A side's double-move tokens, drawn in that player's row: unspent ones filled, spent
    /// ones crossed out.
    Tokens {
        /// Whose tokens.
        side: Color,
        /// How many are spent.
        used: u8,
        /// How many there are in all (at most 8 are drawn).
        total: u8,
    },
    /// A letter on each listed square: large and faint in the middle of an empty
    /// square, on a badge in the upper left corner of an occupied one, and written on a
    /// large disc without a label of its own (Secret Chesswords' letters, with the
    /// checkers marking some of them).
    Letters(Vec<(Square, char)>),
    /// A coin in one corner of the board.
    CornerMarker(BoardCorner),
    /// Discs on squares: on an empty square a disc is drawn as large as a piece, on an
    /// occupied square as a small badge in the lower right corner.
    Discs(Vec<Disc>),
    /// A row of playing cards below the board.
    Cards(CardRow),
}

/// Everything one image shows. Plain data: build it however the variant needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardView {
    /// Files on the board (1 to 8).
    pub width: u8,
    /// Ranks on the board (1 to 8).
    pub height: u8,
    /// The piece on each square, by [`Square::index`] (squares off the board are ignored).
    pub pieces: [Option<Piece>; 64],
    /// The side drawn at the bottom.
    pub bottom: Color,
    /// The last move, highlighted.
    pub last_move: Option<LastMove>,
    /// A king in check, marked (only where the variant has check).
    pub check: Option<Square>,
    /// Each side's reserve, by [`Color::index`] (`None` where the variant has none).
    pub reserves: [Option<ReserveView>; 2],
    /// Names, turn, move number and result.
    pub caption: Caption,
    /// Variant state drawn on or beside the board, in order.
    pub overlays: Vec<Overlay>,
    /// Whether the variant fixes the side at the bottom, so that the public orientation
    /// setting does not turn the board (Gravity Chess: rank 1, where the pieces fall, is
    /// always at the bottom).
    pub fixed_bottom: bool,
}

impl BoardView {
    /// An empty board of the given size, White at the bottom, with White to move at move 1.
    pub fn empty(width: u8, height: u8) -> BoardView {
        BoardView {
            width: width.clamp(1, 8),
            height: height.clamp(1, 8),
            pieces: [None; 64],
            bottom: Color::White,
            last_move: None,
            check: None,
            reserves: [None, None],
            caption: Caption {
                white: "White".to_string(),
                black: "Black".to_string(),
                to_move: Some(Color::White),
                move_number: 1,
                result: None,
                phase: None,
            },
            overlays: Vec::new(),
            fixed_bottom: false,
        }
    }

    /// Everything a position knows: the pieces, the reserves (the queen locked while the
    /// queen-last rule holds her back), the king in check where the variant has check, the
    /// goal region, the checks given and the double-move tokens where the variant has
    /// them, the side to move and the move number; `last_move` (the move that led here) is
    /// highlighted. The players are called "White" and "Black" until
    /// [`BoardView::with_players`] names them.
    pub fn from_position(pos: &Position, last_move: Option<Move>, bottom: Color) -> BoardView {
        let cfg = pos.config();
        let mut view = BoardView::empty(cfg.width, cfg.height);
        for rank in 0..cfg.height {
            for file in 0..cfg.width {
                let sq = Square::new(file, rank);
                view.pieces[sq.index()] = pos.piece_at(sq);
            }
        }
        view.bottom = bottom;
        view.last_move = last_move.as_ref().map(LastMove::of);
        if cfg.check_matters() && pos.is_check() {
            view.check = pos.king_of(pos.turn());
        }
        if let Some(drops) = cfg.drops {
            for color in Color::ALL {
                let counts = pos.reserve(color);
                let others = Role::ALL
                    .iter()
                    .filter(|&&r| r != Role::Queen)
                    .any(|r| counts[r.index()] > 0);
                let slots = ReserveView::ORDER
                    .iter()
                    .filter(|r| counts[r.index()] > 0)
                    .map(|&role| ReserveSlot {
                        role,
                        count: counts[role.index()],
                        locked: role == Role::Queen && drops.queen_last && others,
                    })
                    .collect();
                view.reserves[color.index()] = Some(ReserveView { slots });
            }
        }
        if let Some(goal) = &cfg.endings.goal {
            view.overlays.push(Overlay::Goal(goal.squares.collect()));
        }
        if let Some(limit) = cfg.endings.check_limit {
            let given = pos.checks_given();
            for side in Color::ALL {
                view.overlays.push(Overlay::Checks {
                    side,
                    given: given[side.index()].min(limit),
                    limit,
                });
            }
        }
        if let Some(dm) = cfg.double_move {
            // Rule 8: each player's tokens are in plain view.
            for side in Color::ALL {
                view.overlays.push(Overlay::Tokens {
                    side,
                    used: dm.tokens.saturating_sub(pos.tokens()[side.index()]),
                    total: dm.tokens,
                });
            }
        }
        view.caption.to_move = Some(pos.turn());
        view.caption.move_number = pos.fullmoves();
        view
    }

    /// The current position of a game as `viewer` sees it, oriented by `setting`, with the
    /// last move highlighted and, once the game is over, the result banner (and nobody to
    /// move).
    pub fn from_game(game: &Game, viewer: Viewer, setting: PublicOrientation) -> BoardView {
        let to_move = (!game.is_over()).then(|| game.turn());
        let bottom = bottom_side(viewer, setting, to_move);
        let mut view = BoardView::from_position(game.position(), game.last_move(), bottom);
        if let Some(outcome) = game.outcome() {
            view.caption.to_move = None;
            view.caption.result = Some(result_text(&outcome));
        }
        view
    }

    /// Names the players.
    pub fn with_players(mut self, white: impl Into<String>, black: impl Into<String>) -> BoardView {
        self.caption.white = white.into();
        self.caption.black = black.into();
        self
    }

    /// Adds variant state to draw.
    pub fn with_overlay(mut self, overlay: Overlay) -> BoardView {
        self.overlays.push(overlay);
        self
    }

    /// The piece on `sq`, if `sq` is on the board.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.contains(sq).then(|| self.pieces[sq.index()]).flatten()
    }

    /// Whether `sq` is on this board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.file() < self.width && sq.rank() < self.height
    }
}

/// The result banner's text for an outcome, e.g. `1-0 · White wins by checkmate` or
/// `0-1 · Black wins by impasse, 3-7 points`.
pub fn result_text(outcome: &Outcome) -> String {
    let result = match outcome.result {
        GameResult::Draw => "½-½".to_string(),
        r => r.pgn().to_string(),
    };
    let what = match outcome.result.winner() {
        Some(Color::White) => "White wins by",
        Some(Color::Black) => "Black wins by",
        None => "Draw by",
    };
    let mut text = format!("{result} · {what} {}", outcome.reason.words());
    if let Some([w, b]) = outcome.score {
        text.push_str(&format!(", {w}-{b} points"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;
    use crate::rules::Variant;

    fn play(pos: &Position, uci: &str) -> Move {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.uci() == uci)
            .unwrap_or_else(|| panic!("{uci} is not legal"))
    }

    #[test]
    fn a_position_fills_pieces_turn_and_move_number() {
        let pos = parse_fen(Variant::STANDARD, "4k3/8/8/8/8/8/8/4K2R b K - 3 17").unwrap();
        let v = BoardView::from_position(&pos, None, Color::Black);
        assert_eq!((v.width, v.height), (8, 8));
        let h1 = Square::parse("h1").unwrap();
        assert_eq!(
            v.piece_at(h1),
            Some(Piece {
                color: Color::White,
                role: Role::Rook
            })
        );
        assert_eq!(v.caption.to_move, Some(Color::Black));
        assert_eq!(v.caption.move_number, 17);
        assert_eq!(v.bottom, Color::Black);
        assert!(v.reserves.iter().all(Option::is_none));
    }

    #[test]
    fn a_drop_highlights_only_its_square() {
        let pos = Position::start(Variant::CHESS_SHARP);
        let m = play(&pos, "K@e1");
        let last = LastMove::of(&m);
        assert_eq!(
            last.squares().collect::<Vec<_>>(),
            vec![Square::parse("e1").unwrap()]
        );
        let e2e3 = LastMove::Move {
            from: Square::parse("e2").unwrap(),
            to: Square::parse("e3").unwrap(),
        };
        assert_eq!(e2e3.squares().count(), 2);
    }

    #[test]
    fn the_chess_sharp_queen_is_locked_until_she_is_last() {
        let start = Position::start(Variant::CHESS_SHARP);
        let v = BoardView::from_position(&start, None, Color::White);
        let white = v.reserves[0].as_ref().unwrap();
        let queen = white.slots.iter().find(|s| s.role == Role::Queen).unwrap();
        assert!(queen.locked);
        assert_eq!(queen.count, 1);
        let rooks = white.slots.iter().find(|s| s.role == Role::Rook).unwrap();
        assert_eq!((rooks.count, rooks.locked), (2, false));
        assert_eq!(white.slots[0].role, Role::King);

        let only_queen = parse_fen(
            Variant::CHESS_SHARP,
            "8/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Qrnbqkbnr] w - - 0 1",
        )
        .unwrap();
        let v = BoardView::from_position(&only_queen, None, Color::White);
        let white = v.reserves[0].as_ref().unwrap();
        assert_eq!(white.slots.len(), 1);
        assert!(!white.slots[0].locked);
    }

    #[test]
    fn check_is_marked_only_where_the_variant_has_check() {
        let pos = parse_fen(Variant::STANDARD, "3k4/8/8/8/8/8/8/3RK3 b - - 0 1").unwrap();
        let v = BoardView::from_position(&pos, None, Color::White);
        assert_eq!(v.check, Square::parse("d8"));

        let sharp = parse_fen(Variant::CHESS_SHARP, "3k4/8/8/8/8/8/8/3RK3 b - - 0 1").unwrap();
        assert!(BoardView::from_position(&sharp, None, Color::White)
            .check
            .is_none());
    }

    #[test]
    fn orientation_follows_viewer_and_setting() {
        use PublicOrientation::*;
        assert_eq!(PublicOrientation::default(), SideToMove);
        assert_eq!(
            bottom_side(Viewer::Public, SideToMove, Some(Color::Black)),
            Color::Black
        );
        assert_eq!(bottom_side(Viewer::Public, SideToMove, None), Color::White);
        assert_eq!(
            bottom_side(Viewer::Public, WhiteAlways, Some(Color::Black)),
            Color::White
        );
        assert_eq!(
            bottom_side(
                Viewer::Player(Color::Black),
                WhiteAlways,
                Some(Color::White)
            ),
            Color::Black
        );
        assert_eq!("white".parse::<PublicOrientation>(), Ok(WhiteAlways));
        assert_eq!("side-to-move".parse::<PublicOrientation>(), Ok(SideToMove));
        assert!("sideways".parse::<PublicOrientation>().is_err());
    }

    #[test]
    fn a_finished_game_shows_its_result_and_nobody_to_move() {
        let mut game = Game::new(Variant::STANDARD);
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = play(game.position(), uci);
            game.play(m).unwrap();
        }
        let v = BoardView::from_game(&game, Viewer::Public, PublicOrientation::SideToMove);
        assert_eq!(v.caption.to_move, None);
        assert_eq!(
            v.caption.result.as_deref(),
            Some("0-1 · Black wins by checkmate")
        );
        assert_eq!(v.bottom, Color::White);
        assert_eq!(v.check, Square::parse("e1"));
        assert_eq!(
            v.last_move,
            Some(LastMove::Move {
                from: Square::parse("d8").unwrap(),
                to: Square::parse("h4").unwrap()
            })
        );
    }

    /// A variant made up for the test: its goal is two corners, five checks win.
    static CORNERS: crate::rules::VariantConfig = crate::rules::VariantConfig {
        id: "corners-test",
        display_name: "Corners",
        endings: crate::rules::Endings {
            goal: Some(crate::rules::GoalRegion {
                squares: crate::rules::Bitboard(1 | 1 << 63),
                name: "a corner",
                reply_draws: false,
            }),
            check_limit: Some(5),
            ..crate::rules::FIDE_ENDINGS
        },
        ..crate::rules::FIDE_CHESS
    };

    /// The goal region and the checks given come from the variant's data alone: a
    /// variant with a goal and a check limit gets both overlays, standard chess neither.
    #[test]
    fn goal_and_checks_come_from_the_variants_data() {
        let corners = Variant::of(&CORNERS);
        let pos = parse_fen(corners, "4k3/8/8/8/8/8/8/4K3 w - - 5+3 0 30").unwrap();
        let v = BoardView::from_position(&pos, None, Color::White);
        assert_eq!(
            v.overlays,
            [
                Overlay::Goal(vec![
                    Square::parse("a1").unwrap(),
                    Square::parse("h8").unwrap()
                ]),
                Overlay::Checks {
                    side: Color::White,
                    given: 0,
                    limit: 5
                },
                Overlay::Checks {
                    side: Color::Black,
                    given: 2,
                    limit: 5
                },
            ]
        );
        let standard = Position::start(Variant::STANDARD);
        let v = BoardView::from_position(&standard, None, Color::White);
        assert!(v.overlays.is_empty(), "{:?}", v.overlays);
    }

    #[test]
    fn card_glyphs_skip_the_knight() {
        assert_eq!(
            Card::Face {
                rank: 1,
                suit: Suit::Spades
            }
            .glyph(),
            Some('\u{1F0A1}')
        );
        assert_eq!(
            Card::Face {
                rank: 11,
                suit: Suit::Hearts
            }
            .glyph(),
            Some('\u{1F0BB}')
        );
        assert_eq!(
            Card::Face {
                rank: 12,
                suit: Suit::Hearts
            }
            .glyph(),
            Some('\u{1F0BD}')
        );
        assert_eq!(
            Card::Face {
                rank: 13,
                suit: Suit::Clubs
            }
            .glyph(),
            Some('\u{1F0DE}')
        );
        assert_eq!(Card::Back.glyph(), Some('\u{1F0A0}'));
        assert_eq!(
            Card::Face {
                rank: 14,
                suit: Suit::Clubs
            }
            .glyph(),
            None
        );
    }
}
