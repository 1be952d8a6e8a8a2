//! Every legal move, typed as a player would, is read by the service as that move (issue
//! 15): for random positions of the chess variants (random playouts from the start and from
//! a few set positions), each legal move written in SAN, long algebraic, UCI and ICCF
//! numeric, bare, after `move`, and after `move` with a game id (`12` or `#12`), goes
//! through the service's own path (input cleaning, the command parser, the bare-move
//! fallback, the game's reader) and comes out as exactly that move; in Double Move Chess
//! so do double moves (`double Nf3 Ng5`, `Nf3, Ng5`). Random junk never
//! panics, and whatever is read as a move is a legal one.

use postal::notation::san;
use postal::rules::{Color, Move, MoveKind, Position, Variant};
use postal::service::command::{parse, Command, ParseError};
use postal::service::input::clean;
use postal::variants::api::{Action, Apply, Env, GameCommand, GameRules, Reading, Seat};
use postal::variants::chess::{ChessAction, ChessRules};
use postal::variants::Registry;
use proptest::prelude::*;

/// The game id typed in the commands.
const ID: i64 = 12;

/// SplitMix64: a small deterministic generator, seeded by proptest.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// What the service makes of `line` typed by `seat` in a channel where game [`ID`] is the
/// user's only game: the command parser's reading, or a bare move for that game, then the
/// game's own reader. `Err` with the refusal's text otherwise.
fn read_line(
    registry: &Registry,
    rules: &ChessRules,
    seat: Seat,
    line: &str,
) -> Result<Reading, String> {
    let text = clean(line);
    let (id, command) = match parse(&text, registry) {
        Ok(Command::Game(id, command)) => (id, command),
        Ok(other) => return Err(format!("not a game command: {other:?}")),
        Err(ParseError::Unknown(_)) => (Some(ID), GameCommand::new("move", text.trim())),
        Err(e) => return Err(e.to_string()),
    };
    if id.is_some_and(|id| id != ID) {
        return Err(format!("read as game #{id:?}"));
    }
    rules
        .read(seat, &command, Env::default())
        .map_err(|e| e.text)
}

/// Long algebraic notation: `Ng1-f3`, `e5xd6`, `e7-e8=Q`; castling and drops as in SAN.
fn lan(pos: &Position, m: Move) -> String {
    match m.kind {
        MoveKind::Drop | MoveKind::Castle(_) => return san(pos, m),
        _ => {}
    }
    let piece = pos.piece_at(m.from).map(|p| p.role);
    let mut s = String::new();
    if let Some(role) = piece.filter(|r| *r != postal::rules::Role::Pawn) {
        s.push(role.upper_char());
    }
    s.push_str(&m.from.to_string());
    s.push(if m.capture.is_some() { 'x' } else { '-' });
    s.push_str(&m.to.to_string());
    if let Some(p) = m.promotion {
        s.push('=');
        s.push(p.upper_char());
    }
    s
}

/// ICCF numeric: file and rank digits of both squares, and the promotion's digit.
fn iccf(m: Move) -> String {
    let mut s = format!(
        "{}{}{}{}",
        m.from.file() + 1,
        m.from.rank() + 1,
        m.to.file() + 1,
        m.to.rank() + 1
    );
    if let Some(p) = m.promotion {
        s.push(match p.upper_char() {
            'Q' => '1',
            'R' => '2',
            'B' => '3',
            _ => '4',
        });
    }
    s
}

/// Every way the tests type `text`: bare, after `move`, with a game id.
fn lines(text: &str) -> Vec<String> {
    vec![
        text.to_string(),
        format!("move {text}"),
        format!("move {ID} {text}"),
        format!("move #{ID} {text}"),
        format!("play {text}"),
        // A mobile paste: a zero-width space after the move.
        format!("move {text}\u{200b}"),
    ]
}

/// Every legal move of the side to move, in every notation and form, reads as itself.
fn check_position(registry: &Registry, rules: &ChessRules) -> Result<usize, TestCaseError> {
    let pos = *rules.game().position();
    let seat = Seat::of_side(pos.turn());
    let mut n = 0;
    for m in rules.game().legal_moves() {
        let expected = Action::of(&ChessAction::Move(m.uci())).unwrap();
        let mut texts = vec![san(&pos, m), lan(&pos, m), m.uci()];
        if m.kind != MoveKind::Drop {
            texts.push(iccf(m));
        }
        for text in texts {
            for line in lines(&text) {
                // The move itself, with or without a note (a lower-case `bxc4` played as
                // the pawn capture where a bishop could also take says so).
                let got = read_line(registry, rules, seat, &line);
                prop_assert_eq!(
                    got.as_ref().map(Reading::action),
                    Ok(Some(&expected)),
                    "{:?} in {} ({})",
                    line,
                    postal::notation::fen::to_fen(&pos),
                    pos.variant().name()
                );
                n += 1;
            }
        }
    }
    // Double Move Chess: a sample of the double moves, both halves in SAN (each in the
    // position it is played from) or UCI, after `double`, or bare and joined by a comma.
    let doubles = pos.double_moves();
    for (i, &(a, b)) in doubles.iter().enumerate() {
        if i % (doubles.len() / 12 + 1) != 0 {
            continue;
        }
        let expected = Reading::Act(
            Action::of(&ChessAction::Move(format!("{} {}", a.uci(), b.uci()))).unwrap(),
        );
        let (sa, sb) = (san(&pos, a), san(&pos.first_half(a), b));
        for line in [
            format!("double {sa} {sb}"),
            format!("double {ID} {sa}, {sb}"),
            format!("double #{ID} {} {}", a.uci(), b.uci()),
            format!("{sa}, {sb}"),
            format!("move {sa}, {sb}"),
            format!("move {ID} {sa} then {sb}"),
        ] {
            let got = read_line(registry, rules, seat, &line);
            prop_assert_eq!(
                got.as_ref(),
                Ok(&expected),
                "{:?} in {}",
                line,
                postal::notation::fen::to_fen(&pos)
            );
            n += 1;
        }
    }
    Ok(n)
}

/// A random playout of up to `plies` from `rules`, checking every position on the way.
fn check_playout(mut rules: ChessRules, seed: u64, plies: usize) -> Result<usize, TestCaseError> {
    let registry = Registry::builtin();
    let mut rng = SplitMix(seed);
    let mut n = 0;
    for _ in 0..plies {
        if rules.is_over() {
            break;
        }
        n += check_position(&registry, &rules)?;
        let moves = rules.game().legal_moves();
        let m = moves[rng.below(moves.len())];
        let seat = Seat::of_side(rules.game().turn());
        rules
            .apply(seat, &Action::of(&ChessAction::Move(m.uci())).unwrap())
            .map_err(|e| TestCaseError::fail(e.text))?;
    }
    Ok(n)
}

/// Set positions with the rare moves: castling both ways, en passant, promotions with and
/// without capture, knights that need disambiguation.
const FENS: &[&str] = &[
    "r3k2r/pppq1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "3r4/2P1k3/8/8/8/8/4K1p1/5N2 w - - 0 1",
    "3r4/2P1k3/8/8/8/8/4K1p1/5N2 b - - 0 1",
    "k7/8/2N1N3/8/8/2N1N3/8/4K3 w - - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn every_legal_move_in_every_notation_and_form_is_read_as_itself(seed in any::<u64>()) {
        for variant in [Variant::STANDARD, Variant::CHESS_SHARP, Variant::LOS_ALAMOS, Variant::DOUBLE_MOVE] {
            let n = check_playout(ChessRules::new(variant), seed, 30)?;
            prop_assert!(n > 0);
        }
        for fen in FENS {
            let rules = ChessRules::from_fen(Variant::STANDARD, fen).unwrap();
            check_playout(rules, seed, 4)?;
        }
    }
}

/// Characters and words that commands are made of, and some they are not.
const JUNK: &[&str] = &[
    "a", "b", "e", "h", "1", "2", "4", "5", "8", "9", "0", "x", "=", "+", "#", "@", "-", ":", ".",
    " ", "N", "B", "R", "Q", "K", "O", "o", "move", "play", "#12", "12", "99", "TO", "E2", "K4",
    "\u{200b}", "ｅ", "４", "♘", "…", "“", "\u{0}", "double", ",",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn junk_never_panics_and_what_is_read_is_a_legal_move(
        parts in proptest::collection::vec(proptest::sample::select(JUNK), 0..10),
        start in 0usize..3,
    ) {
        let registry = Registry::builtin();
        let line: String = parts.concat();
        let rules = match start {
            0 => ChessRules::new(Variant::STANDARD),
            1 => ChessRules::new(Variant::CHESS_SHARP),
            _ => ChessRules::from_fen(Variant::STANDARD, FENS[1]).unwrap(),
        };
        for color in [Color::White, Color::Black] {
            let seat = Seat::of_side(color);
            if let Ok(Reading::Act(action)) = read_line(&registry, &rules, seat, &line) {
                // Only the side to move has moves; a move read is legal and applies.
                let mut copy = rules.clone();
                prop_assert!(
                    copy.apply(seat, &action).is_ok(),
                    "{:?} read as {:?}, which does not apply", line, action
                );
            }
        }
    }
}
