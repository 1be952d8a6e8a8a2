//! Chess960: the starting positions are Scharnagl's (as Lichess and python-chess number
//! them), the move tree agrees with an independent implementation (shakmaty's, in its
//! Chess960 castling mode), castling reads and writes as Lichess and python-chess do, and
//! a new game's start is drawn from the operating system's entropy, or named, and kept.

use super::*;
use crate::notation::fen::parse_fen;
use crate::notation::{parse_move, san};
use crate::rules::{perft, Color, EndReason, Game, GameResult, MoveKind};
use crate::variants::api::{Action, GameRules, NewGame, Options, Seat, VariantSpec, Viewer};
use crate::variants::chess::ChessAction;

fn c960() -> Variant {
    Variant::of(&CONFIG)
}

fn pos(fen: &str) -> Position {
    parse_fen(c960(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Perft of `fen` to `depth` by shakmaty's chess with Chess960 castling.
fn shakmaty_perft(fen: &str, depth: u32) -> u64 {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};
    let setup: Fen = fen.parse().unwrap();
    let pos: Chess = setup.into_position(CastlingMode::Chess960).unwrap();
    shakmaty::perft(&pos, depth)
}

#[test]
fn perft_agrees_with_shakmaty() {
    let cases: [(&str, u32); 22] = [
        // Starting positions: the standard one (518), the king on g1 beside its rook
        // (0, 2), on b1 between adjacent rooks (959), on c1 (850), d1 (700), e1 (226)
        // and f1 (600).
        (&start_fen(518), 4),
        (&start_fen(0), 4),
        (&start_fen(2), 4),
        (&start_fen(959), 4),
        (&start_fen(850), 4),
        (&start_fen(700), 4),
        (&start_fen(226), 4),
        (&start_fen(600), 4),
        // Random play from random starts (python-chess, seed 960) to positions where a
        // side may castle.
        (
            "nnrkqb2/p1p1pppb/1p1p4/Q2P3r/7p/N7/PPP1PPPP/N1RK1BBR b KQq - 4 7",
            3,
        ),
        (
            "nrb1qkrn/pp2p1p1/2pp3p/P4p2/P7/5P2/1BPPP1PP/NR1BQRKN b kq - 3 9",
            3,
        ),
        (
            "rbb1nqrn/pk1ppppp/8/8/4P3/1P1N4/PBPP1PPP/RB1K2RN w KQ - 3 8",
            3,
        ),
        (
            "qnbrnkrb/p1pp1ppp/8/1p6/1PP1p3/2N5/P2PPPPP/Q1BRNRKB b kq - 0 4",
            3,
        ),
        (
            "1b1rnkrn/p2p2p1/bp2p2p/2p2p2/P3q1PP/1P1N4/2PP1P2/QBBR1KRN b KQkq - 0 8",
            3,
        ),
        (
            "brnk2qr/p2p1pnp/1pp3p1/4p1b1/7P/P2PPPP1/1PP1N1Q1/BR1KNB1R w KQkq - 1 9",
            3,
        ),
        (
            "r2k1bbr/pp1q1p1p/n2p4/2p1p1pn/1P4P1/P1PNBP2/3PP1BP/RNQK3R b KQkq - 2 12",
            3,
        ),
        // The king already on its target: castling moves only the rook, whose squares
        // may be attacked (f1 here).
        ("4k3/8/8/8/2b5/8/8/6KR w K - 0 1", 4),
        // The king onto g1, which the rook on h1 attacks once the castling rook has
        // left g1: illegal.
        ("4k3/8/8/8/8/8/8/5KRr w K - 0 1", 4),
        // The king's target attacked (c1), and only the rook's (d1).
        ("4k3/8/8/6b1/8/8/8/RK6 w Q - 0 1", 4),
        ("4k3/8/8/7b/8/8/8/RK6 w Q - 0 1", 4),
        // Through an attacked square (e1), and a rook in the king's way (c1).
        ("4k3/8/8/b7/8/8/8/1K5R w K - 0 1", 4),
        ("4k3/8/8/8/8/8/8/1KR5 w K - 0 1", 4),
        // Black: onto a square a rook attacks; and O-O-O through a queen's file with O-O
        // still possible (the king stays on g8).
        ("1r4kr/8/8/8/8/2Q5/8/4K3 b kq - 0 1", 4),
    ];
    for (fen, depth) in cases {
        let ours = perft(&pos(fen), depth);
        assert_eq!(ours, shakmaty_perft(fen, depth), "{fen} depth {depth}");
    }
}

#[test]
fn the_positions_are_scharnagls_numbering_as_lichess_and_python_chess_write_them() {
    // From Lichess's table (scalachess `Chess960.initialPositionsStr`) and python-chess's
    // `Board.from_chess960_pos`.
    for (n, rank) in [
        (0, "bbqnnrkr"),
        (1, "bqnbnrkr"),
        (2, "bqnnrbkr"),
        (100, "qbbnrnkr"),
        (226, "bnrqkbnr"),
        (300, "qbnrkrbn"),
        (454, "rnbnkbqr"),
        (518, "rnbqkbnr"),
        (600, "rbqnbkrn"),
        (700, "rbqknnbr"),
        (850, "brknrbnq"),
        (959, "rkrnnqbb"),
    ] {
        assert_eq!(
            start_fen(n),
            format!(
                "{rank}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
                rank.to_uppercase()
            ),
            "{n}"
        );
    }
    assert_eq!(
        start_fen(STANDARD_POSITION),
        crate::rules::FIDE_CHESS.start_fen
    );
}

#[test]
fn the_960_positions_are_distinct_legal_and_read_back_to_their_number() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..POSITIONS {
        let rank = back_rank(n);
        assert!(seen.insert(rank), "{n} repeats a position");
        let files =
            |role: Role| -> Vec<usize> { (0..8).filter(|&f| rank[f] == role).collect::<Vec<_>>() };
        let (bishops, rooks, king) = (files(Role::Bishop), files(Role::Rook), files(Role::King));
        assert_eq!(bishops.len(), 2);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
        assert!(
            rooks[0] < king[0] && king[0] < rooks[1],
            "{n}: king not between rooks"
        );
        assert_eq!(
            (files(Role::Queen).len(), files(Role::Knight).len()),
            (1, 2)
        );
        let start = pos(&start_fen(n));
        assert_eq!(position_number(&start), Some(n));
        assert_eq!(to_fen(&start), start_fen(n));
    }
    // After a move it is no starting position any more.
    let mut moved = pos(&start_fen(518));
    moved.play_unchecked(parse_move(&moved, "Nf3").unwrap());
    assert_eq!(position_number(&moved), None);
}

#[test]
fn castling_fields_are_read_in_x_fen_and_shredder_fen_and_written_as_python_chess_does() {
    // Each FEN as given, and as python-chess 1.11.2 writes it (`chess.Board(fen,
    // chess960=True).fen()`).
    for (given, written) in [
        (
            "rk2r3/8/8/8/8/8/8/RK2R2R w EAea - 0 1",
            "rk2r3/8/8/8/8/8/8/RK2R2R w EQkq - 0 1",
        ),
        (
            "1r1k2rr/8/8/8/8/8/8/RR1K2R1 w GBgb - 0 1",
            "1r1k2rr/8/8/8/8/8/8/RR1K2R1 w KBgq - 0 1",
        ),
        (
            "1r1k2rr/8/8/8/8/8/8/RR1K2R1 w KQkq - 0 1",
            "1r1k2rr/8/8/8/8/8/8/RR1K2R1 w KQkq - 0 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/8/R1R1K1RR w CG - 0 1",
            "4k3/8/8/8/8/8/8/R1R1K1RR w GC - 0 1",
        ),
    ] {
        let p = pos(given);
        assert_eq!(to_fen(&p), written, "{given}");
        assert_eq!(pos(written), p, "{written}");
    }
    // A right needs its rook on the first rank, at most one on each side of the king.
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        "4k3/8/8/8/8/8/8/R1R1K3 w AC - 0 1",
        "4k3/8/8/8/8/8/8/4K1N1 w G - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Z - 0 1",
    ] {
        assert!(parse_fen(c960(), bad).is_err(), "{bad}");
    }
}

/// The legal castling moves of `fen`: SAN and UCI.
fn castlings(fen: &str) -> Vec<(String, String)> {
    let p = pos(fen);
    p.legal_moves()
        .into_iter()
        .filter(|m| matches!(m.kind, MoveKind::Castle(_)))
        .map(|m| (san(&p, m), m.uci()))
        .collect()
}

#[test]
fn castling_goes_king_takes_rook_in_uci_and_o_o_in_san() {
    // python-chess lists the same castlings in these positions, with the same UCI.
    assert_eq!(
        castlings("4k3/8/8/8/2b5/8/8/6KR w K - 0 1"),
        [("O-O".to_string(), "g1h1".to_string())]
    );
    assert_eq!(castlings("4k3/8/8/8/8/8/8/5KRr w K - 0 1"), []);
    assert_eq!(castlings("4k3/8/8/6b1/8/8/8/RK6 w Q - 0 1"), []);
    assert_eq!(
        castlings("4k3/8/8/7b/8/8/8/RK6 w Q - 0 1"),
        [("O-O-O".to_string(), "b1a1".to_string())]
    );
    assert_eq!(
        castlings("1r1k2rr/8/8/8/8/8/8/RR1K2R1 w GBgb - 0 1"),
        [("O-O-O+".to_string(), "d1b1".to_string())]
    );
    // Position 518 castles as standard chess does, in Chess960's UCI.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let ucis: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| matches!(m.kind, MoveKind::Castle(_)))
        .map(|m| m.uci())
        .collect();
    assert_eq!(ucis, ["e1h1", "e1a1"]);
    let standard = parse_fen(Variant::STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(parse_move(&standard, "O-O").unwrap().uci(), "e1g1");
}

#[test]
fn the_reader_takes_o_o_king_takes_rook_and_the_kings_move_where_unambiguous() {
    let read = |fen: &str, typed: &str| parse_move(&pos(fen), typed).map(|m| m.uci());
    // The king on b1 castles to g1: `O-O`, king takes rook `b1h1`, or the king's move
    // `b1g1`, five files.
    let far = "4k3/8/8/8/8/8/8/1K5R w K - 0 1";
    for typed in ["O-O", "0-0", "b1h1", "b1g1", "Kb1-g1"] {
        assert_eq!(read(far, typed).as_deref(), Ok("b1h1"), "{typed}");
    }
    // The king on f1: `f1g1` is the king's plain step; castling is `O-O` or `f1h1`.
    let near = "4k3/8/8/8/8/8/8/5K1R w K - 0 1";
    assert_eq!(read(near, "f1g1").as_deref(), Ok("f1g1"));
    assert_eq!(read(near, "Kg1").as_deref(), Ok("f1g1"));
    assert_eq!(read(near, "O-O").as_deref(), Ok("f1h1"));
    assert_eq!(read(near, "f1h1").as_deref(), Ok("f1h1"));
    // Position 518: `e1g1` is castling, as in standard chess.
    let standard = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(read(standard, "e1g1").as_deref(), Ok("e1h1"));
    assert_eq!(read(standard, "e1c1").as_deref(), Ok("e1a1"));
    // A refused castling says why.
    let through = "4k3/8/8/b7/8/8/8/1K5R w K - 0 1";
    for typed in ["O-O", "b1h1", "b1g1"] {
        let e = read(through, typed).unwrap_err().to_string();
        assert!(e.contains("attacked square"), "{typed}: {e}");
    }
}

#[test]
fn a_game_from_position_2_castles_twice_without_moving_a_king_and_ends_in_mate() {
    let mut game = Game::from_position(pos(&start_fen(2)));
    for typed in "c3 e6 e3 Be7 Qe4 g8h8 Bd3 a6 O-O a5 Qxh7#".split_whitespace() {
        let m = parse_move(game.position(), typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
        game.play(m).unwrap();
    }
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Checkmate)
    );
    // python-chess reaches the same position by the same moves.
    assert_eq!(
        to_fen(game.position()),
        "bqnnrrk1/1pppbppQ/4p3/p7/8/2PBP3/PP1P1PPP/B1NNRRK1 b - - 0 6"
    );
}

/// A new Chess960 game with these options and hidden draws.
fn new_game(options: &[(&str, &str)], hidden_seed: Option<u64>) -> Box<dyn GameRules> {
    let options: Options = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    SPEC.new_game(&NewGame {
        fen: None,
        options,
        seed: 0,
        hidden_seed,
    })
    .unwrap()
}

/// The position number a game says it started from.
fn shown_number(game: &dyn GameRules) -> u32 {
    let shown = game.project(Viewer::Public).counters.unwrap();
    let n = shown.strip_prefix("Chess960 position ").unwrap();
    n.parse().unwrap()
}

#[test]
fn a_challenge_names_its_start_and_the_game_keeps_and_shows_it() {
    let game = new_game(&[("start", "2")], None);
    assert_eq!(game.project(Viewer::Public).fen, start_fen(2));
    assert_eq!(shown_number(game.as_ref()), 2);
    let standard = new_game(&[("start", "518")], None);
    assert_eq!(shown_number(standard.as_ref()), 518);
    // Stored and loaded, and loaded again after a move: the same start.
    let mut game = new_game(&[("start", "959")], None);
    let m = Action::of(&ChessAction::Move("b2b3".into())).unwrap();
    game.apply(Seat::of_side(Color::White), &m).unwrap();
    let loaded = SPEC.load(&game.snapshot().unwrap()).unwrap();
    assert_eq!(shown_number(loaded.as_ref()), 959);
    assert_eq!(
        loaded.project(Viewer::Public).fen,
        game.project(Viewer::Public).fen
    );
    // The option's range, and a position given both ways.
    assert_eq!(
        SPEC.options()[0].read("960").unwrap_err().kind,
        crate::variants::api::RefusalKind::Syntax
    );
    let both = SPEC.new_game(&NewGame {
        fen: Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        options: [("start".to_string(), "3".to_string())]
            .into_iter()
            .collect(),
        seed: 0,
        hidden_seed: None,
    });
    assert!(both.is_err());
}

#[test]
fn random_starts_come_from_the_operating_systems_entropy_not_the_public_seed() {
    // Fifty games with the same public seed (0) and no hidden seed: drawn from 960
    // positions they repeat a few at most (all fifty alike by chance: never).
    let numbers: std::collections::HashSet<u32> = (0..50)
        .map(|_| shown_number(new_game(&[], None).as_ref()))
        .collect();
    assert!(numbers.len() > 30, "{numbers:?}");
    // A configured hidden seed (the console's `--seed`, tests) repeats its draw.
    let seeded = |s| shown_number(new_game(&[], Some(s)).as_ref());
    assert_eq!(seeded(7), seeded(7));
}

#[test]
fn the_pgn_names_chess960_and_always_gives_its_start_as_lichess_does() {
    use crate::notation::{write_pgn, PgnTags};
    for game in [Game::new(c960()), Game::from_position(pos(&start_fen(2)))] {
        let pgn = write_pgn(&game, &PgnTags::default());
        let fen = to_fen(game.start());
        assert!(
            pgn.contains(&format!(
                "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n"
            )),
            "{pgn}"
        );
    }
}
