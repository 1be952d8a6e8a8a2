//! A chess game is resumed from its snapshot rather than re-played from its moves
//! (issue 36): the snapshot holds the position, the ply count, the last turn and the
//! repetition window, and no move (the action log keeps them). Checked here: a game loaded
//! from its snapshot before every action (as the referee does) stays the game played
//! without reloading and the game its log replays to, snapshot and board alike, and the
//! log's replay shows the record and PGN of the game played, in random games of every
//! chess-family variant; snapshots of the two earlier forms still load (the first
//! re-played once, the second resumed) and are written in the current form; and a move
//! late in a long game costs the work of one early, counted rather than timed, its
//! snapshot no longer.

use postal::rules::work::{counted, Counted};
use postal::rules::Variant;
use postal::variants::api::{Action, GameRules, NewGame, Seat, Viewer};
use postal::variants::chess::{ChessAction, ClaimKind, OfferKind};
use postal::variants::Registry;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The variants played on the shared chess rules, from the registry, so that a new one is
/// never skipped: those on a chess board whose games are chess games (their snapshot a
/// chess snapshot). Split-Brain Chess (picks) and Secret Chesswords (clues) fall aside.
fn variants() -> Vec<&'static str> {
    let ids = crate::common::chess_games();
    for id in [
        "standard",
        "chess-sharp",
        "double-move",
        "antichess",
        "atomic",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    assert!(!ids.contains(&"chesswords"), "{ids:?}");
    ids
}

/// The fields of the current form that neither earlier form had.
const NEW_FIELDS: [&str; 2] = ["plies", "before"];

/// The fields of the second form (games resumed, moves kept) that the first did not have.
const RESUME_FIELDS: [&str; 2] = ["last", "reps"];

fn a(action: ChessAction) -> Action {
    Action::of(&action).unwrap()
}

/// The engine's position of a stored game (from its FEN).
fn board_variant(variant: &str) -> Variant {
    Registry::builtin().board_variant(variant).unwrap()
}

/// A random action for the seat to move in `g`: mostly a legal move (now and then a
/// double move where there are some), sometimes an offer, its answer or a draw claim.
fn random_action(g: &dyn GameRules, variant: &str, rng: &mut StdRng) -> (Seat, Action) {
    let seat = g.awaiting()[0].0;
    let snap = g.snapshot().unwrap();
    let pos =
        postal::notation::fen::parse_fen(board_variant(variant), snap["fen"].as_str().unwrap())
            .unwrap();
    let moves = pos.legal_moves();
    let action = match rng.gen_range(0..30) {
        0 => a(ChessAction::Offer(OfferKind::Draw)),
        1 => a(ChessAction::Decline(OfferKind::Draw)),
        2 => a(ChessAction::Claim(ClaimKind::Draw, None)),
        3 if !moves.is_empty() => {
            let m = moves[rng.gen_range(0..moves.len())];
            a(ChessAction::Claim(ClaimKind::Draw, Some(m.uci())))
        }
        4..=9 if !pos.double_moves().is_empty() => {
            let doubles = pos.double_moves();
            let (x, y) = doubles[rng.gen_range(0..doubles.len())];
            a(ChessAction::Move(format!("{} {}", x.uci(), y.uci())))
        }
        _ if !moves.is_empty() => {
            let m = moves[rng.gen_range(0..moves.len())];
            a(ChessAction::Move(m.uci()))
        }
        _ => a(ChessAction::Resign),
    };
    (seat, action)
}

/// `snap` as the first form stored it: every move's UCI (`moves`), no resumption state.
fn as_stored_before(snap: &serde_json::Value, moves: &[String]) -> serde_json::Value {
    let mut old = snap.clone();
    let fields = old.as_object_mut().unwrap();
    for field in NEW_FIELDS.iter().chain(&RESUME_FIELDS) {
        fields.remove(*field);
    }
    fields.insert("moves".into(), serde_json::json!(moves));
    old
}

/// `snap` as the second form stored it: the moves' UCI and the numbered record beside
/// the resumption state, no ply count.
fn as_stored_resumable(
    snap: &serde_json::Value,
    moves: &[String],
    record: &str,
) -> serde_json::Value {
    let mut old = snap.clone();
    let fields = old.as_object_mut().unwrap();
    for field in NEW_FIELDS {
        fields.remove(field);
    }
    fields.insert("moves".into(), serde_json::json!(moves));
    fields.insert("record".into(), serde_json::json!(record));
    old
}

/// The moves' UCI (a double move's halves separated by a space) of the accepted actions
/// `log`: its moves, and the moves named with draw claims.
fn moves_of(log: &[(Seat, Action)]) -> Vec<String> {
    log.iter()
        .filter_map(|(_, a)| match a.to::<ChessAction>("chess").ok()? {
            ChessAction::Move(m) | ChessAction::Claim(_, Some(m)) => Some(m),
            _ => None,
        })
        .collect()
}

/// What every viewer sees of `g`, and its record as PGN: of a game holding every move
/// (played or replayed from its start).
fn outputs(g: &dyn GameRules) -> (Vec<postal::variants::api::Projection>, String) {
    let viewers = [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))];
    let mut seen: Vec<_> = viewers.iter().map(|&v| g.project(v)).collect();
    seen.extend(viewers.iter().map(|&v| g.project_board(v)));
    let tags = [("White".to_string(), "a".to_string())];
    (seen, g.pgn(Viewer::Public, &tags))
}

/// What every viewer sees of `g` but the record, which a game resumed from its snapshot
/// does not hold (the log's replay shows it).
fn boards(g: &dyn GameRules) -> Vec<postal::variants::api::Projection> {
    let viewers = [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))];
    let mut seen: Vec<_> = viewers
        .iter()
        .map(|&v| {
            let mut p = g.project(v);
            p.record.clear();
            p.numbered.clear();
            p
        })
        .collect();
    seen.extend(viewers.iter().map(|&v| g.project_board(v)));
    seen
}

/// Plays `plies` random actions of `variant` from `seed`, reloading the game from its
/// snapshot before each (as the referee does) beside a game never reloaded, and checks
/// both, the log's replay and the snapshot loaded as stored before, are the same game.
fn check_random_game(variant: &str, seed: u64, plies: usize) {
    let registry = Registry::builtin();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut live = registry.new_game(variant, &NewGame::default()).unwrap();
    let start = live.snapshot().unwrap();
    let mut stored = start.clone();
    let mut log: Vec<(Seat, Action)> = Vec::new();
    for step in 0..plies {
        if live.is_over() {
            break;
        }
        let (seat, action) = random_action(live.as_ref(), variant, &mut rng);
        let mut resumed = registry.load(variant, &stored).unwrap();
        let said_live = live.apply(seat, &action);
        let said_resumed = resumed.apply(seat, &action);
        assert_eq!(
            said_live, said_resumed,
            "{variant} seed {seed} step {step}: {action:?}"
        );
        if said_live.is_ok() {
            log.push((seat, action));
        }
        let snap = live.snapshot().unwrap();
        assert_eq!(
            resumed.snapshot().unwrap(),
            snap,
            "{variant} seed {seed} step {step}"
        );
        assert_eq!(resumed.awaiting(), live.awaiting());
        stored = snap;
    }
    assert!(stored.get("moves").is_none() && stored.get("record").is_none());
    let resumed = registry.load(variant, &stored).unwrap();
    let replayed = registry
        .replay(variant, Some(&start), &NewGame::default(), &log)
        .unwrap();
    let moves = moves_of(&log);
    let before = registry
        .load(variant, &as_stored_before(&stored, &moves))
        .unwrap();
    let record = replayed.project(Viewer::Public).numbered;
    let resumable = registry
        .load(variant, &as_stored_resumable(&stored, &moves, &record))
        .unwrap();
    assert_eq!(
        replayed.snapshot().unwrap(),
        stored,
        "{variant} seed {seed}"
    );
    let want = outputs(live.as_ref());
    for other in [&replayed, &before] {
        assert_eq!(outputs(other.as_ref()), want, "{variant} seed {seed}");
    }
    for other in [&resumed, &replayed, &before, &resumable] {
        assert_eq!(other.snapshot().unwrap(), stored, "{variant} seed {seed}");
        assert_eq!(boards(other.as_ref()), boards(live.as_ref()));
        assert_eq!(other.outcome(), live.outcome());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(36))]

    #[test]
    fn a_game_resumed_from_its_snapshot_is_the_game_replayed(
        variant in 0usize..variants().len(),
        seed in any::<u64>(),
    ) {
        let variants = variants();
        check_random_game(variants[variant], seed, 90);
    }
}

#[test]
fn long_games_of_every_chess_variant_resume_as_they_replay() {
    for (i, variant) in variants().iter().enumerate() {
        check_random_game(variant, 1000 + i as u64, 260);
    }
}

/// A game of `variant` that reaches `plies` plies of random moves without ending (mostly
/// quiet moves, so that it lasts): the snapshot after each ply, and each ply's move (UCI).
fn long_game(variant: &str, plies: usize) -> (Vec<serde_json::Value>, Vec<String>) {
    let registry = Registry::builtin();
    'seeds: for seed in 0..64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = registry.new_game(variant, &NewGame::default()).unwrap();
        let mut snaps = vec![g.snapshot().unwrap()];
        let mut moves = Vec::new();
        while snaps.len() <= plies {
            if g.is_over() {
                continue 'seeds;
            }
            let snap = snaps.last().unwrap();
            let pos = postal::notation::fen::parse_fen(
                board_variant(variant),
                snap["fen"].as_str().unwrap(),
            )
            .unwrap();
            let legal = pos.legal_moves();
            let quiet: Vec<_> = legal.iter().filter(|m| m.capture.is_none()).collect();
            let m = match quiet.len() {
                0 => legal[rng.gen_range(0..legal.len())],
                n => *quiet[rng.gen_range(0..n)],
            };
            let seat = g.awaiting()[0].0;
            g.apply(seat, &a(ChessAction::Move(m.uci()))).unwrap();
            snaps.push(g.snapshot().unwrap());
            moves.push(m.uci());
        }
        return (snaps, moves);
    }
    panic!("no random {variant} game lasted {plies} plies");
}

/// The work of taking one move as the referee does, from the game stored at `snap`:
/// loading it, applying `text`, drawing the board view and writing the snapshot, which
/// must be `next`; and the length of the snapshot read.
fn work_of_a_move(
    variant: &str,
    snap: &serde_json::Value,
    text: &str,
    next: &serde_json::Value,
) -> (Counted, usize) {
    let action = a(ChessAction::Move(text.to_string()));
    let stored = snap.to_string();
    let before = counted();
    let value: serde_json::Value = serde_json::from_str(&stored).unwrap();
    let mut g = Registry::builtin().load(variant, &value).unwrap();
    let seat = g.awaiting()[0].0;
    g.apply(seat, &action).unwrap();
    let _board = g.project_board(Viewer::Public);
    let written = g.snapshot().unwrap();
    let work = counted().since(before);
    assert_eq!(&written, next);
    (work, stored.len())
}

#[test]
fn a_move_at_ply_200_costs_the_work_of_one_at_ply_20() {
    for variant in ["standard", "crazyhouse", "double-move", "three-check"] {
        let (snaps, moves) = long_game(variant, 202);
        let (early, early_bytes) = work_of_a_move(variant, &snaps[20], &moves[20], &snaps[21]);
        let (late, late_bytes) = work_of_a_move(variant, &snaps[200], &moves[200], &snaps[201]);
        // One position made (the move), the position loaded and the one after it hashed,
        // the move written once in SAN: never the plies before.
        assert!(
            early.plies <= 2 && late.plies <= 2,
            "{variant}: {early:?} {late:?}"
        );
        assert!(
            late.total() * 4 <= early.total() * 5,
            "{variant}: ply 200 {late:?} against ply 20 {early:?}"
        );
        // The snapshot holds no move: what it reads does not grow with the plies played
        // but by the repetition window (sixteen digits a position since the last capture
        // or pawn move, at most the 75-move rule's 150 plies) and the counters' digits.
        let window = |s: &serde_json::Value| s["reps"].as_str().map_or(0, str::len);
        let (late_rest, early_rest) = (
            late_bytes - window(&snaps[200]),
            early_bytes - window(&snaps[20]),
        );
        assert!(
            late_rest <= early_rest + 16,
            "{variant}: {late_rest} bytes at ply 200 beside the window, {early_rest} at ply 20"
        );
        // Stored in either earlier form, the game is loaded (the first form re-played
        // once, the second resumed) and written in the current form.
        let first = as_stored_before(&snaps[200], &moves[..200]);
        let (replayed, _) = work_of_a_move(variant, &first, &moves[200], &snaps[201]);
        assert!(replayed.plies >= 200, "{variant}: {replayed:?}");
        let second = as_stored_resumable(&snaps[200], &moves[..200], "1. e4");
        let (resumed, _) = work_of_a_move(variant, &second, &moves[200], &snaps[201]);
        assert_eq!(resumed, late, "{variant}");
    }
}
