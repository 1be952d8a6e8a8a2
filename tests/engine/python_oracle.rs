//! The outside oracle (issue 56): seeded random games in standard chess and every Lichess
//! variant, and at every position Postal's legal moves (in UCI) and the game's status
//! compared with python-chess's `chess.variant` boards, which replay the same games
//! (`tests/python/oracle.py`, one process for every game).
//!
//! The games lean towards what breaks move generators and referees: captures, checks,
//! promotions, drops, castling, each variant's own ending (a king walking to the centre
//! or up the board, the third check, a capture that explodes or gives material away),
//! long runs without a capture or pawn move (some games start with the halfmove clock
//! ten plies short of the variant's move limit) and pieces shuffled back and forth (so
//! that fivefold repetition comes).
//!
//! Where python-chess differs from Lichess, the script follows Lichess (scalachess), since
//! Postal plays these variants by Lichess's rules; each port is described in the script:
//! the fifty-move rule by itself at 100 plies in every Lichess variant but Crazyhouse,
//! Atomic's and Antichess's insufficient material, Horde's fortress draw. Standard chess
//! stays FIDE's (seventy-five moves). Every other disagreement fails the test unless it
//! is one of [`DECISIONS`], each a documented decision of this project with its reason.
//!
//! python-chess must be installed; where `POSTAL_REQUIRE_PYTHON_CHESS` is set (CI), its
//! absence fails the test.

use crate::common::python_chess_available;
use postal::notation::fen::{parse_fen, to_fen};
use postal::rules::{Game, Move, MoveKind, Position, Role, Variant};
use postal::variants::api::random::{Random, SeededRng};
use postal::variants::chess960::start_fen;
use postal::variants::Registry;
use std::collections::BTreeMap;

/// The variants python-chess plays (its UCI names, `chess.variant`), which the script
/// (`tests/python/oracle.py`) compares.
const PYTHON_CHESS: &[&str] = &[
    "chess",
    "crazyhouse",
    "kingofthehill",
    "3check",
    "antichess",
    "atomic",
    "horde",
    "racingkings",
];

/// Each registered variant python-chess plays, from the registry: its id and
/// python-chess's name for it (its config's `uci_variant`, or `chess960` for the standard
/// board with Chess960 castling).
fn variants() -> Vec<(&'static str, &'static str)> {
    let out: Vec<(&'static str, &'static str)> = Registry::builtin()
        .all()
        .filter_map(|v| {
            let config = v.board_variant()?.config();
            let uci = config.uci_variant.filter(|u| PYTHON_CHESS.contains(u))?;
            let python = match (uci, config.chess960_castling) {
                ("chess", true) => "chess960",
                _ => uci,
            };
            Some((v.id(), python))
        })
        .collect();
    for id in ["standard", "chess960", "atomic"] {
        assert!(out.iter().any(|(v, _)| *v == id), "{id}: {out:?}");
    }
    out
}

/// Positions compared per variant (at least: the last game is played to its end).
const POSITIONS: usize = 4000;

/// The longest game played; most end sooner by the variant's own rules.
const MAX_PLIES: usize = 240;

/// A disagreement that is a documented decision of this project: the variant, a test on
/// the position and the two answers, and the reason. None so far: every difference
/// between python-chess and Lichess that Postal follows Lichess in is ported in
/// `tests/python/oracle.py`.
struct Decision {
    variant: &'static str,
    applies: fn(&Position, &str, &str) -> bool,
    reason: &'static str,
}

const DECISIONS: &[Decision] = &[];

/// One game played here: the variant, the start, the moves, and at each position (the
/// start and after each move) Postal's answer line.
struct Played {
    variant: &'static str,
    python: &'static str,
    start: Position,
    moves: Vec<Move>,
    answers: Vec<String>,
}

/// Postal's answer at the current position of `game`, in the script's form: the legal
/// moves of the position (whatever ended the game), sorted, and the status.
fn answer(game: &Game) -> String {
    let mut legal: Vec<String> = game
        .position()
        .legal_moves()
        .iter()
        .map(|m| m.uci())
        .collect();
    legal.sort();
    let status = match game.outcome() {
        Some(o) => format!("{} {}", o.result.pgn(), o.reason.name()),
        None => "*".to_string(),
    };
    format!("{}\t{status}", legal.join(" "))
}

/// How a game leans: what its moves are weighted towards.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Captures, checks, promotions, drops, castling, the variant's ending.
    Sharp,
    /// Neither captures nor pawn moves where another move exists (the move limit).
    Quiet,
    /// Undoing one's own last move where it can be undone (repetition).
    Shuffle,
}

/// The weight of `m` in `pos` for a game of `style`, `undo` being the move that would
/// take back the mover's last move.
fn weight(pos: &Position, m: Move, style: Style, undo: Option<(usize, usize)>) -> u64 {
    let after = pos.after(m);
    let ends = after.is_variant_end() || after.legal_moves().is_empty();
    let mut w = 4;
    match style {
        Style::Sharp => {
            w += 12 * u64::from(m.capture.is_some()) + 10 * u64::from(after.is_check());
            w += 16 * u64::from(m.promotion.is_some()) + 6 * u64::from(m.is_drop());
            w += 20 * u64::from(matches!(m.kind, MoveKind::Castle(_)));
            w += 40 * u64::from(ends);
            w += 3 * u64::from(m.role == Role::King && after.is_variant_end());
            if m.role == Role::King && pos.config().endings.goal.is_some() {
                w += 8;
            }
        }
        Style::Quiet => {
            if m.capture.is_none() && m.role != Role::Pawn && !m.is_drop() {
                w += 1000;
            }
            w += 10 * u64::from(ends);
        }
        Style::Shuffle => {
            if undo == Some((m.from.index(), m.to.index())) {
                w += 2000;
            }
        }
    }
    w
}

/// Picks a move of `moves` by the weights of `style`.
fn pick(
    rng: &mut SeededRng,
    pos: &Position,
    moves: &[Move],
    style: Style,
    undo: Option<(usize, usize)>,
) -> Move {
    let weights: Vec<u64> = moves.iter().map(|&m| weight(pos, m, style, undo)).collect();
    let mut r = rng.below(weights.iter().sum());
    for (&m, &w) in moves.iter().zip(&weights) {
        if r < w {
            return m;
        }
        r -= w;
    }
    moves[moves.len() - 1]
}

/// Starts played besides each variant's own, two games each: the positions of issue 56
/// (Horde's fortress that en passant breaks, and the rook that keeps a fortress going),
/// endings near the move limit where the variant's start cannot reach one (the horde's
/// pawns reset the clock at every move), and Lichess's material draws.
const EXTRA_STARTS: &[(&str, &str)] = &[
    ("horde", "7k/8/8/4p3/3p4/8/4P3/8 w - - 0 1"),
    ("horde", "8/8/8/8/p6p/P6P/8/r6k b - - 0 1"),
    ("horde", "4k3/8/8/8/8/8/2N5/1Q2B3 w - - 90 60"),
    ("horde", "7k/8/8/8/8/p7/P7/8 b - - 0 1"),
    ("horde", "8/8/8/8/8/1P6/2k5/8 b - - 0 1"),
    ("antichess", "8/8/8/3p4/3P4/8/8/B6b w - - 0 1"),
    ("antichess", "8/3n4/8/8/8/8/2N5/8 w - - 90 60"),
    ("antichess", "k7/8/8/8/8/8/8/7K w - - 90 60"),
    ("atomic", "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1"),
    ("atomic", "4k3/8/8/8/8/8/8/4K2N w - - 0 1"),
    ("three-check", "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1"),
];

/// The start of game `n` of `variant`: first the variant's [`EXTRA_STARTS`], then its
/// own start (Chess960: a drawn one of the 960), every third game with the halfmove
/// clock ten plies short of the variant's move limit.
fn start(variant: Variant, rng: &mut SeededRng, n: usize) -> Position {
    let extra: Vec<&str> = EXTRA_STARTS
        .iter()
        .filter(|(id, _)| *id == variant.name())
        .map(|(_, fen)| *fen)
        .collect();
    if let Some(fen) = extra.get(n / 2) {
        return parse_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
    let fen = if variant.name() == "chess960" {
        start_fen(rng.below(960) as u32)
    } else {
        variant.config().start_fen.to_string()
    };
    let limit = variant.config().draws.move_limit.automatic_plies();
    let fen = match limit {
        Some(plies) if n % 3 == 2 => {
            let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
            let clock = fields.len() - 2;
            fields[clock] = (plies - 10).to_string();
            fields.join(" ")
        }
        _ => fen,
    };
    parse_fen(variant, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays game `n` of a variant from a seeded generator, to its end or [`MAX_PLIES`].
fn play(id: &'static str, python: &'static str, variant: Variant, n: usize) -> Played {
    let mut rng = SeededRng::new(0x5eed_0056 ^ ((n as u64) << 8) ^ (id.len() as u64 * 0x9e37));
    let start = start(variant, &mut rng, n);
    let mut game = Game::from_position(start);
    let mut answers = vec![answer(&game)];
    let mut moves: Vec<Move> = Vec::new();
    // A game started near the move limit plays quietly at first, to reach it.
    let mut style = if start.halfmoves() > 0 {
        Style::Quiet
    } else {
        Style::Sharp
    };
    while !game.is_over() && moves.len() < MAX_PLIES {
        // Each game keeps its first style for twelve plies at least.
        if moves.len() >= 12 && rng.below(12) == 0 {
            style = [Style::Sharp, Style::Quiet, Style::Shuffle][rng.below(3) as usize];
        }
        let legal = game.legal_moves();
        let undo = moves
            .len()
            .checked_sub(2)
            .map(|i| (moves[i].to.index(), moves[i].from.index()));
        let m = pick(&mut rng, game.position(), &legal, style, undo);
        game.play_legal(m).expect("a legal move");
        moves.push(m);
        answers.push(answer(&game));
    }
    Played {
        variant: id,
        python,
        start,
        moves,
        answers,
    }
}

/// The games of every variant, at least [`POSITIONS`] positions each.
fn games() -> Vec<Played> {
    let registry = Registry::builtin();
    let mut all = Vec::new();
    for (id, python) in variants() {
        let variant = registry
            .board_variant(id)
            .unwrap_or_else(|e| panic!("{id}: {}", e.text));
        let mut positions = 0;
        let mut n = 0;
        while positions < POSITIONS {
            let played = play(id, python, variant, n);
            positions += played.answers.len();
            all.push(played);
            n += 1;
        }
    }
    all
}

/// The endings each variant's games must reach, so that the comparison covers them:
/// the variant's own, and its draws by the move limit and by repetition.
const ENDINGS: &[(&str, &[&str])] = &[
    (
        "standard",
        &["checkmate", "seventy-five-move-rule", "fivefold-repetition"],
    ),
    (
        "chess960",
        &["checkmate", "fifty-move-rule", "fivefold-repetition"],
    ),
    ("crazyhouse", &["checkmate", "fivefold-repetition"]),
    (
        "king-of-the-hill",
        &["king-in-goal", "fifty-move-rule", "fivefold-repetition"],
    ),
    (
        "three-check",
        &["three-checks", "fifty-move-rule", "fivefold-repetition"],
    ),
    (
        "antichess",
        &[
            "all-pieces-lost",
            "stalemated",
            "fifty-move-rule",
            "insufficient-material",
        ],
    ),
    (
        "atomic",
        &[
            "king-exploded",
            "fifty-move-rule",
            "fivefold-repetition",
            "insufficient-material",
        ],
    ),
    (
        "horde",
        &[
            "all-pieces-captured",
            "checkmate",
            "fifty-move-rule",
            "insufficient-material",
        ],
    ),
    (
        "racing-kings",
        &["king-in-goal", "fifty-move-rule", "fivefold-repetition"],
    ),
];

/// How the games of each variant ended (reason name, or `none` within the ply limit),
/// with how many games each.
fn endings(games: &[Played]) -> BTreeMap<&str, BTreeMap<String, usize>> {
    let mut out: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
    for g in games {
        let last = g.answers.last().expect("a start at least");
        let status = last.rsplit('\t').next().unwrap_or("*");
        let reason = status.split(' ').nth(1).unwrap_or("none").to_string();
        *out.entry(g.variant).or_default().entry(reason).or_default() += 1;
    }
    out
}

/// Runs the script on every game at once; its answers by game and ply.
fn python_answers(games: &[Played]) -> BTreeMap<(usize, usize), String> {
    let root = crate::common::root();
    let dir = std::env::temp_dir().join(format!("postal-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("games.tsv"), dir.join("answers.tsv"));
    let mut text = String::new();
    for g in games {
        let moves: Vec<String> = g.moves.iter().map(|m| m.uci()).collect();
        text.push_str(&format!(
            "{}\t{}\t{}\n",
            g.python,
            to_fen(&g.start),
            moves.join(" ")
        ));
    }
    std::fs::write(&input, text).unwrap();
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/python/oracle.py"))
        .args([&input, &output])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers = std::fs::read_to_string(&output).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    answers
        .lines()
        .map(|line| {
            let mut parts = line.splitn(3, '\t');
            let game = parts.next().unwrap().parse().unwrap();
            let ply = parts.next().unwrap().parse().unwrap();
            ((game, ply), parts.next().unwrap_or("").to_string())
        })
        .collect()
}

/// The position of `g` after `ply` moves.
fn position_at(g: &Played, ply: usize) -> Position {
    let mut game = Game::from_position(g.start);
    for &m in &g.moves[..ply] {
        game.replay_legal(m);
    }
    *game.position()
}

#[test]
fn random_games_agree_with_python_chess_and_lichess_rules_in_every_variant() {
    if !python_chess_available() {
        return;
    }
    let games = games();
    let theirs = python_answers(&games);
    let mut disagreements = Vec::new();
    let mut compared: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        for (ply, ours) in g.answers.iter().enumerate() {
            *compared.entry(g.variant).or_default() += 1;
            let their = theirs.get(&(i, ply)).map_or("(no answer)", String::as_str);
            if their == ours {
                continue;
            }
            let pos = position_at(g, ply);
            let decided = DECISIONS
                .iter()
                .any(|d| d.variant == g.variant && (d.applies)(&pos, ours, their));
            if !decided {
                let moves: Vec<String> = g.moves[..ply].iter().map(|m| m.uci()).collect();
                disagreements.push(format!(
                    "{} {} after {}\n  FEN {}\n  Postal:      {ours}\n  python-chess: {their}",
                    g.variant,
                    to_fen(&g.start),
                    moves.join(" "),
                    to_fen(&pos),
                ));
            }
            // Later positions of a game that went apart say nothing more.
            break;
        }
    }
    for (id, _) in variants() {
        assert!(
            compared[id] >= POSITIONS,
            "{id}: {} positions",
            compared[id]
        );
        assert!(
            ENDINGS.iter().any(|(e, _)| *e == id),
            "{id}: no row in ENDINGS (the endings its games must reach)"
        );
    }
    let endings = endings(&games);
    eprintln!("positions compared: {compared:?}\nendings reached: {endings:#?}");
    for &(id, wanted) in ENDINGS {
        for reason in wanted {
            assert!(
                endings[id].contains_key(*reason),
                "{id}: no game reached {reason}: {:?}",
                endings[id]
            );
        }
    }
    let documented: Vec<&str> = DECISIONS.iter().map(|d| d.reason).collect();
    assert!(
        disagreements.is_empty(),
        "{} disagreements with python-chess (documented decisions: {documented:?}):\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(12)].join("\n")
    );
}
