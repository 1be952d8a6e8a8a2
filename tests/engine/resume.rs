//! A chess game is resumed from its snapshot rather than re-played from its moves
//! (issue 36): the snapshot holds the position, the last turn, the repetition window and
//! the numbered record. Checked here: a game loaded from its snapshot before every action
//! (as the referee does) stays the game played without reloading and the game its log
//! replays to, snapshot, projections and PGN alike, in random games of every chess-family
//! variant; a snapshot stored before it held that state still loads (re-played once); and
//! a move late in a long game costs the work of one early, counted rather than timed.

use postal::rules::work::{counted, Counted};
use postal::rules::Variant;
use postal::variants::api::{Action, GameRules, NewGame, Seat, Viewer};
use postal::variants::chess::{ChessAction, ClaimKind, OfferKind};
use postal::variants::Registry;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The variants played on the shared chess rules, Split-Brain Chess aside (its moves are
/// picks).
const VARIANTS: &[&str] = &[
    "standard",
    "chess-sharp",
    "los-alamos",
    "double-move",
    "king-of-the-hill",
    "three-check",
    "racing-kings",
    "horde",
    "crazyhouse",
    "chess960",
    "antichess",
    "atomic",
];

/// The fields a snapshot stored before games were resumed did not have.
const NEW_FIELDS: [&str; 3] = ["record", "last", "reps"];

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

/// `snap` as a release before resumed games stored it: without the new fields.
fn as_stored_before(snap: &serde_json::Value) -> serde_json::Value {
    let mut old = snap.clone();
    for field in NEW_FIELDS {
        old.as_object_mut().unwrap().remove(field);
    }
    old
}

/// What every viewer sees of `g`, and its record as PGN.
fn outputs(g: &dyn GameRules) -> (Vec<postal::variants::api::Projection>, String) {
    let viewers = [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))];
    let mut seen: Vec<_> = viewers.iter().map(|&v| g.project(v)).collect();
    seen.extend(viewers.iter().map(|&v| g.project_board(v)));
    let tags = [("White".to_string(), "a".to_string())];
    (seen, g.pgn(Viewer::Public, &tags))
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
    let resumed = registry.load(variant, &stored).unwrap();
    let replayed = registry
        .replay(variant, Some(&start), &NewGame::default(), &log)
        .unwrap();
    let before = registry.load(variant, &as_stored_before(&stored)).unwrap();
    assert_eq!(
        replayed.snapshot().unwrap(),
        stored,
        "{variant} seed {seed}"
    );
    assert_eq!(before.snapshot().unwrap(), stored, "{variant} seed {seed}");
    let want = outputs(live.as_ref());
    for other in [&resumed, &replayed, &before] {
        assert_eq!(outputs(other.as_ref()), want, "{variant} seed {seed}");
        assert_eq!(other.outcome(), live.outcome());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(36))]

    #[test]
    fn a_game_resumed_from_its_snapshot_is_the_game_replayed(
        variant in 0usize..VARIANTS.len(),
        seed in any::<u64>(),
    ) {
        check_random_game(VARIANTS[variant], seed, 90);
    }
}

#[test]
fn long_games_of_every_chess_variant_resume_as_they_replay() {
    for (i, variant) in VARIANTS.iter().enumerate() {
        check_random_game(variant, 1000 + i as u64, 260);
    }
}

/// A game of `variant` that reaches `plies` plies of random moves without ending (mostly
/// quiet moves, so that it lasts), as the snapshot after each ply.
fn long_game(variant: &str, plies: usize) -> Vec<serde_json::Value> {
    let registry = Registry::builtin();
    'seeds: for seed in 0..64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = registry.new_game(variant, &NewGame::default()).unwrap();
        let mut snaps = vec![g.snapshot().unwrap()];
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
            let moves = pos.legal_moves();
            let quiet: Vec<_> = moves.iter().filter(|m| m.capture.is_none()).collect();
            let m = match quiet.len() {
                0 => moves[rng.gen_range(0..moves.len())],
                n => *quiet[rng.gen_range(0..n)],
            };
            let seat = g.awaiting()[0].0;
            g.apply(seat, &a(ChessAction::Move(m.uci()))).unwrap();
            snaps.push(g.snapshot().unwrap());
        }
        return snaps;
    }
    panic!("no random {variant} game lasted {plies} plies");
}

/// The work of taking one move as the referee does, from the game stored at `snap`:
/// loading it, applying the move `next` leads to, drawing the board view and writing the
/// snapshot.
fn work_of_a_move(variant: &str, snap: &serde_json::Value, next: &serde_json::Value) -> Counted {
    let text = next["moves"].as_array().unwrap().last().unwrap().clone();
    let action = a(ChessAction::Move(text.as_str().unwrap().to_string()));
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
    work
}

#[test]
fn a_move_at_ply_200_costs_the_work_of_one_at_ply_20() {
    for variant in ["standard", "crazyhouse", "double-move", "three-check"] {
        let snaps = long_game(variant, 202);
        let early = work_of_a_move(variant, &snaps[20], &snaps[21]);
        let late = work_of_a_move(variant, &snaps[200], &snaps[201]);
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
        // Loaded as a release before stored it, the game is re-played once, and written
        // in the new form: the next load resumes it.
        let old = as_stored_before(&snaps[200]);
        let replayed = work_of_a_move(variant, &old, &snaps[201]);
        assert!(replayed.plies >= 200, "{variant}: {replayed:?}");
    }
}
