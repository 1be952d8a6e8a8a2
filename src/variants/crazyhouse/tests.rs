//! Crazyhouse: the move tree and the whole state after every move agree with an
//! independent implementation (shakmaty's), and each rule of `docs/rules/crazyhouse.md`
//! plays as written.

use super::*;
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::parse_move;
use crate::rules::{perft, Color, EndReason, Game, GameResult, Move, Position, Role};
use crate::variants::api::{Action, NewGame, Seat, TakebackStep, VariantSpec};
use crate::variants::chess::ChessAction;
use crate::variants::Registry;
use shakmaty::fen::Fen;
use shakmaty::variant::Crazyhouse;
use shakmaty::{CastlingMode, EnPassantMode, Position as _};

fn zh() -> Variant {
    Variant::of(&CONFIG)
}

fn pos(fen: &str) -> Position {
    parse_fen(zh(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn shakmaty_pos(fen: &str) -> Crazyhouse {
    let setup: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    setup
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A FEN as shakmaty writes it, without the move counters (python-chess, whose FEN this
/// engine writes, does not reset the clock on a pawn drop; Lichess and shakmaty do).
fn shakmaty_form(fen: &Fen) -> String {
    let text = fen.to_string();
    text.rsplitn(3, ' ').nth(2).unwrap().to_string()
}

#[test]
fn perft_agrees_with_shakmaty() {
    let cases: [(&str, u32); 17] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            4,
        ),
        // scalachess's crazyhouse perft positions: every kind of drop, a queen and a
        // knight in hand, a middlegame, a promoted queen (in Lichess's pocket-rank form).
        ("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 2),
        ("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", 3),
        (
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
            3,
        ),
        ("4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1", 3),
        // A check along the first rank that a drop may block.
        ("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", 3),
        // A double check: no drop helps.
        ("4k3/8/8/8/8/5n2/8/r3K3[QRN] w - - 0 1", 3),
        // A knight's check: nothing to block.
        ("4k3/8/8/8/8/3n4/8/4K3[Q] w - - 0 1", 3),
        // Pawns in hand with the back ranks empty: never dropped on the first or last rank.
        ("4k3/8/8/8/8/8/8/4K3[PPpp] w - - 0 1", 3),
        (
            "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3",
            3,
        ),
        // A promoted queen that a rook takes (a pawn to the pocket), promotions to come.
        ("4k3/8/8/3q~4/3R4/8/8/4K3[] w - - 0 1", 3),
        ("r3k3/1P6/8/8/8/8/6p1/4K2R[] w Kq - 0 1", 3),
        // A mate by a drop to find, and a back-rank check a knight drop blocks.
        ("6k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1", 3),
        ("R5k1/5ppp/8/8/8/8/8/6K1[n] b - - 0 1", 3),
        // En passant, castling with pieces in hand, promoted pieces on both sides.
        (
            "r1bqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKB1R[Nn] w KQkq f6 0 4",
            3,
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R[BNbn] w KQkq - 0 1", 2),
        ("r3k3/1P6/8/1Q~6/8/8/6p1/R3K3[q] b Qq - 0 1", 3),
    ];
    for (fen, depth) in cases {
        let ours = perft(&pos(fen), depth);
        assert_eq!(
            ours,
            shakmaty::perft(&shakmaty_pos(fen), depth),
            "{fen} depth {depth}"
        );
    }
}

/// A small fixed generator (splitmix64), so the random games are the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// A random move, promotions and captures preferred (so that pockets fill and promoted
/// pieces come back as pawns).
fn pick(moves: &[Move], rng: &mut Rng) -> Move {
    let promotions: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.promotion.is_some())
        .collect();
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.capture.is_some())
        .collect();
    if !promotions.is_empty() && rng.below(2) == 0 {
        return promotions[rng.below(promotions.len())];
    }
    if !captures.is_empty() && rng.below(3) > 0 {
        return captures[rng.below(captures.len())];
    }
    moves[rng.below(moves.len())]
}

/// Random games played here and by shakmaty side by side: after every move the two agree
/// on the board, the pockets, the promoted pieces, the side to move, castling and en
/// passant (our FEN as shakmaty reads it against shakmaty's own), and every tenth position
/// on its perft to depth 2.
#[test]
fn random_games_agree_with_shakmaty_move_by_move() {
    let mut rng = Rng(0x7a68);
    let (mut promotions, mut pawns_back, mut drops, mut compared) = (0, 0, 0, 0);
    for _ in 0..12 {
        let mut ours = Position::start(zh());
        let mut theirs = Crazyhouse::default();
        for ply in 0..160 {
            let moves = ours.legal_moves();
            assert_eq!(moves.len(), theirs.legal_moves().len(), "{}", to_fen(&ours));
            if moves.is_empty() {
                break;
            }
            if ply % 10 == 0 {
                assert_eq!(
                    perft(&ours, 2),
                    shakmaty::perft(&theirs, 2),
                    "{}",
                    to_fen(&ours)
                );
                compared += 1;
            }
            let m = pick(&moves, &mut rng);
            let uci: shakmaty::uci::UciMove = m.uci().parse().unwrap();
            let their_move = uci.to_move(&theirs).unwrap();
            promotions += usize::from(m.promotion.is_some());
            drops += usize::from(m.is_drop());
            if m.capture.is_some()
                && m.capture != Some(Role::Pawn)
                && ours.promoted().contains(m.to)
            {
                pawns_back += 1;
            }
            ours.play_unchecked(m);
            theirs.play_unchecked(&their_move);
            let fen = to_fen(&ours);
            let read: Fen = fen.parse().unwrap();
            assert_eq!(
                shakmaty_form(&read),
                shakmaty_form(&Fen::from_position(theirs.clone(), EnPassantMode::Legal)),
                "after {} ({fen})",
                m.uci()
            );
            let back = pos(&fen);
            assert_eq!(to_fen(&back), fen);
            assert_eq!(back.zobrist_hash(), ours.zobrist_hash(), "{fen}");
        }
    }
    // The games went where the rules differ from chess.
    assert!(promotions >= 3 && pawns_back >= 1 && drops >= 50 && compared >= 100);
}

#[test]
fn a_capture_feeds_the_pocket_and_a_promoted_piece_returns_as_a_pawn() {
    let start = pos("4k3/8/8/3q~4/3R4/8/8/4K3[] w - - 0 1");
    assert_eq!(start.promoted().count(), 1);
    let after = start.after(parse_move(&start, "Rxd5").unwrap());
    assert_eq!(after.reserve(Color::White)[Role::Pawn.index()], 1);
    assert_eq!(after.reserve(Color::White)[Role::Queen.index()], 0);
    assert!(after.promoted().is_empty());
    assert_eq!(to_fen(&after), "4k3/8/8/3R4/8/8/8/4K3[P] b - - 0 1");
    // A queen born of a promotion carries the mark where she goes.
    let mut p = pos("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
    p = p.after(parse_move(&p, "b8=Q+").unwrap());
    assert_eq!(to_fen(&p), "1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    p = p.after(parse_move(&p, "Kd7").unwrap());
    p = p.after(parse_move(&p, "Qb5+").unwrap());
    assert_eq!(to_fen(&p), "8/3k4/8/1Q~6/8/8/8/4K3[] b - - 2 2");
    // An ordinary capture keeps the piece as it was.
    let q = pos("4k3/8/8/3q4/3R4/8/8/4K3[] w - - 0 1");
    let q = q.after(parse_move(&q, "Rxd5").unwrap());
    assert_eq!(q.reserve(Color::White)[Role::Queen.index()], 1);
    assert_eq!(to_fen(&q), "4k3/8/8/3R4/8/8/8/4K3[Q] b - - 0 1");
}

#[test]
fn fens_are_read_in_both_forms_and_written_as_python_chess_writes_them() {
    assert_eq!(to_fen(&Position::start(zh())), CONFIG.start_fen);
    // Lichess's form, the pocket as a ninth rank, is the same position.
    let lichess = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1");
    assert_eq!(lichess, Position::start(zh()));
    let with = pos("4k3/1Q~6/8/8/4b3/8/Kpp5/8/nQ b - - 0 1");
    assert_eq!(to_fen(&with), "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Qn] b - - 0 1");
    // A pocket in any order; White's letters upper case, each side from the queen down.
    let p = pos("4k3/8/8/8/8/8/8/4K3[pnQPbrqRN] w - - 0 1");
    assert_eq!(to_fen(&p), "4k3/8/8/8/8/8/8/4K3[QRNPqrbnp] w - - 0 1");
    // A FEN without a pocket is one with empty pockets.
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        Position::start(zh())
    );
    // The promoted mark follows a piece a pawn may become, nothing else.
    for bad in [
        "4k3/8/8/8/8/8/8/~3K3[] w - - 0 1",
        "4k3/8/8/8/8/8/P~7/4K3[] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K~3[] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1",
    ] {
        assert!(parse_fen(zh(), bad).is_err(), "{bad}");
    }
    // Other variants read the mark and drop it, as before.
    let standard = parse_fen(Variant::STANDARD, "4k3/1Q~6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(to_fen(&standard), "4k3/1Q6/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn pawns_are_never_dropped_on_the_first_or_last_rank() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    let drops: Vec<Move> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_drop())
        .collect();
    assert_eq!(drops.len(), 48);
    assert!(drops.iter().all(|m| (1..7).contains(&m.to.rank())));
    assert!(parse_move(&p, "P@e8").is_err() && parse_move(&p, "P@a1").is_err());
    // A pawn's drop is written with its letter and read without it too.
    let m = parse_move(&p, "@e6").unwrap();
    assert_eq!(parse_move(&p, "P@e6").unwrap(), m);
    assert_eq!(crate::notation::san::san(&p, m), "P@e6");
    // A pawn dropped on the second rank may make its double step.
    let p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    let p = p.after(parse_move(&p, "P@d2").unwrap());
    let p = p.after(parse_move(&p, "Kf7").unwrap());
    assert!(parse_move(&p, "d4").is_ok());
}

#[test]
fn a_drop_may_block_a_check_but_not_a_double_check() {
    let p = pos("4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    let blocks: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_drop())
        .map(|m| m.uci())
        .collect();
    assert_eq!(blocks, ["N@b1", "N@c1", "N@d1"]);
    let double = pos("4k3/8/8/8/8/5n2/8/r3K3[QRN] w - - 0 1");
    assert!(double.legal_moves().iter().all(|m| !m.is_drop()));
}

#[test]
fn a_check_a_drop_can_block_is_no_mate_and_a_drop_may_mate() {
    // The rook's check on the back rank would be mate in chess; a knight in hand blocks.
    let mut game = Game::from_position(pos("6k1/5ppp/8/8/8/8/8/R5K1[n] w - - 0 1"));
    game.play(parse_move(game.position(), "Ra8+").unwrap())
        .unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().len(), 5);
    // With nothing in hand it is mate.
    let mut game = Game::from_position(pos("6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1"));
    game.play(parse_move(game.position(), "Ra8#").unwrap())
        .unwrap();
    assert_eq!(game.outcome().unwrap().reason, EndReason::Checkmate);
    // A drop mates: the bishop dropped on h4 in a fool's-mate shape.
    let mut game = Game::new(zh());
    for typed in "g3 d5 Bh3 Bxh3 g4 e5 f3 B@h4#".split_whitespace() {
        game.play(parse_move(game.position(), typed).unwrap())
            .unwrap();
    }
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::Checkmate)
    );
    assert_eq!(
        to_fen(game.position()),
        "rn1qkbnr/ppp2ppp/8/3pp3/6Pb/5P1b/PPPPP2P/RNBQK1NR[] w KQkq - 1 5"
    );
}

#[test]
fn no_move_limit_no_insufficient_material_and_a_timeout_always_loses() {
    // Bare kings with empty pockets (a set-up position) play on.
    let mut game = Game::from_position(pos("7k/8/8/8/8/8/8/K7[] w - - 149 90"));
    assert_eq!(game.outcome(), None);
    game.play(parse_move(game.position(), "Kb1").unwrap())
        .unwrap();
    assert_eq!(game.outcome(), None, "no seventy-five-move rule");
    let claim = game.claim(Color::Black, crate::rules::Claim::FiftyMoveRule, None);
    assert!(claim.is_err(), "no fifty-move rule");
    let o = game.timeout(Color::Black).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Timeout)
    );
}

#[test]
fn repetitions_count_pockets_and_promoted_pieces() {
    let marked = pos("4k3/8/8/3Q~4/8/8/8/4K3[] w - - 0 1");
    let plain = pos("4k3/8/8/3Q4/8/8/8/4K3[] w - - 0 1");
    let pocket = pos("4k3/8/8/3Q4/8/8/8/4K3[N] w - - 0 1");
    assert_ne!(marked.zobrist_hash(), plain.zobrist_hash());
    assert_ne!(pocket.zobrist_hash(), plain.zobrist_hash());
    // Knights back and forth, fivefold: a draw at once.
    let mut game = Game::from_position(pos("4k1n1/8/8/8/8/8/8/4K1N1[Pp] w - - 0 1"));
    for _ in 0..4 {
        for typed in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            game.play(parse_move(game.position(), typed).unwrap())
                .unwrap();
        }
    }
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::FivefoldRepetition)
    );
}

fn new_game() -> Box<dyn crate::variants::api::GameRules> {
    SPEC.new_game(&NewGame {
        fen: None,
        options: Default::default(),
        seed: 0,
        hidden_seed: None,
    })
    .unwrap()
}

fn mv(uci: &str) -> Action {
    Action::of(&ChessAction::Move(uci.into())).unwrap()
}

#[test]
fn a_game_won_by_a_drop_is_stored_and_reloaded() {
    let mut game = new_game();
    for (i, uci) in "g2g3 d7d5 f1h3 c8h3 g3g4 e7e5 f2f3 B@h4"
        .split_whitespace()
        .enumerate()
    {
        game.apply(Seat(i as u8 % 2), &mv(uci)).unwrap();
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.result.as_str(), outcome.reason.name()),
        ("0-1", "checkmate")
    );
    let snapshot = game.snapshot().unwrap();
    assert_eq!(
        snapshot["fen"],
        "rn1qkbnr/ppp2ppp/8/3pp3/6Pb/5P1b/PPPPP2P/RNBQK1NR[] w KQkq - 1 5"
    );
    let back = SPEC.load(&snapshot).unwrap();
    assert_eq!(back.outcome(), Some(outcome));
    assert_eq!(back.snapshot().unwrap(), snapshot);
}

#[test]
fn a_takeback_returns_the_pocket_exactly() {
    // e4 d5 exd5 (a pawn to White's pocket), taken back by agreement.
    let log: Vec<(Seat, Action)> = vec![
        (Seat(0), mv("e2e4")),
        (Seat(1), mv("d7d5")),
        (Seat(0), mv("e4d5")),
        (Seat(0), Action::takeback(TakebackStep::Offer)),
        (Seat(1), Action::takeback(TakebackStep::Accept)),
    ];
    let setup = NewGame {
        fen: None,
        options: Default::default(),
        seed: 0,
        hidden_seed: None,
    };
    let before = Registry::builtin()
        .replay("crazyhouse", None, &setup, &log[..3])
        .unwrap();
    assert_eq!(
        before.snapshot().unwrap()["fen"],
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 2"
    );
    let game = Registry::builtin()
        .replay("crazyhouse", None, &setup, &log)
        .unwrap();
    assert_eq!(
        game.snapshot().unwrap()["fen"],
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"
    );
}

#[test]
fn the_registry_knows_crazyhouse_by_its_names() {
    let registry = Registry::builtin();
    for name in ["crazyhouse", "zh", "house", "Crazyhouse"] {
        assert_eq!(registry.board_variant(name).unwrap(), zh(), "{name}");
    }
    assert_eq!(zh().display_name(), "Crazyhouse");
}
