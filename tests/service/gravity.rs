//! Gravity Chess played whole: random games through the plug-in interface always end
//! after 24 adds and White's last turn, their score is what a count of the final position
//! from scratch gives, every move the bot writes reads back, and the action log replays
//! through the registry to the same state. A game is also played through the console on
//! a database file across a restart, with its images.

use crate::common;

use common::service::console;

use postal::rules::{Color, Piece, Role, Square};
use postal::variants::api::random::SeededRng;
use postal::variants::api::{
    Action, Apply, GameCommand, GameRules, NewGame, Reading, Seat, VariantSpec, Viewer,
};
use postal::variants::gravity::state::{Ended, GravityEnd, Phase};
use postal::variants::gravity::{Gravity, SPEC};
use postal::variants::Registry;
use proptest::prelude::*;

/// A small deterministic stream of choices.
struct Choices(u64);

impl Choices {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Reads what `seat` types and applies it; returns the action.
fn act(g: &mut Gravity, seat: Seat, word: &str, rest: &str) -> Action {
    let reading = g
        .read(seat, &GameCommand::new(word, rest), Default::default())
        .unwrap_or_else(|e| panic!("{word} {rest}: {e}"));
    let Reading::Act(a) = reading else {
        panic!("{word} {rest} is not an action")
    };
    g.apply(seat, &a)
        .unwrap_or_else(|e| panic!("{word} {rest}: {e}"));
    a
}

/// Whether the piece on `sq` is stacked, worked out by walking each way down square by
/// square on a plain array, repeating until nothing changes (no bitboards, no order).
fn stacked_from_scratch(board: &[Option<Piece>; 64]) -> [bool; 64] {
    let at = |f: i8, r: i8| -> Option<usize> {
        ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
    };
    let mut stacked = [false; 64];
    for i in 0..8 {
        stacked[i] = board[i].is_some();
    }
    loop {
        let mut changed = false;
        for i in 8..64 {
            let Some(p) = board[i] else { continue };
            if stacked[i] {
                continue;
            }
            let (f, r) = ((i % 8) as i8, (i / 8) as i8);
            // Each square the piece could first reach on a lower row.
            let mut reach: Vec<usize> = Vec::new();
            let slide = |dirs: &[(i8, i8)], reach: &mut Vec<usize>| {
                for (df, dr) in dirs {
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(j) = at(x, y) {
                        if y < r {
                            reach.push(j);
                        }
                        if board[j].is_some() {
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            };
            let step = |deltas: &[(i8, i8)], reach: &mut Vec<usize>| {
                for (df, dr) in deltas {
                    if let Some(j) = at(f + df, r + dr) {
                        if dr < &0 {
                            reach.push(j);
                        }
                    }
                }
            };
            let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
            let line = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            match p.role {
                Role::Pawn => reach.extend(at(f, r - 1)),
                Role::Knight => step(
                    &[
                        (1, 2),
                        (2, 1),
                        (2, -1),
                        (1, -2),
                        (-1, -2),
                        (-2, -1),
                        (-2, 1),
                        (-1, 2),
                    ],
                    &mut reach,
                ),
                Role::King => step(
                    &[
                        (1, 1),
                        (1, 0),
                        (1, -1),
                        (0, -1),
                        (-1, -1),
                        (-1, 0),
                        (-1, 1),
                        (0, 1),
                    ],
                    &mut reach,
                ),
                Role::Bishop => slide(&diag, &mut reach),
                Role::Rook => slide(&line, &mut reach),
                Role::Queen => {
                    slide(&diag, &mut reach);
                    slide(&line, &mut reach);
                }
            }
            if reach.iter().all(|&j| board[j].is_some() && stacked[j]) {
                stacked[i] = true;
                changed = true;
            }
        }
        if !changed {
            return stacked;
        }
    }
}

/// The score of a finished game counted from its final board alone: a side captured
/// every enemy piece not on the board (all 24 have been added).
fn score_from_scratch(g: &Gravity) -> [i32; 2] {
    let mut board = [None; 64];
    for (i, cell) in board.iter_mut().enumerate() {
        *cell = g.board().get(Square::from_index(i as u8));
    }
    let stacked = stacked_from_scratch(&board);
    let mut points = [0i32; 2];
    for color in Color::ALL {
        let enemies = board
            .iter()
            .filter(|p| p.is_some_and(|p| p.color != color))
            .count();
        points[color.index()] += 12 - enemies as i32;
    }
    for i in 0..64 {
        if let (Some(p), true) = (board[i], stacked[i]) {
            points[p.color.index()] += (i / 8) as i32 + 1;
        }
    }
    points
}

/// Plays a whole random game; returns it, its starting snapshot, its log and its adds.
fn play(
    deck_seed: u64,
    choice_seed: u64,
) -> (Gravity, serde_json::Value, Vec<(Seat, Action)>, usize) {
    let mut g = Gravity::start(&mut SeededRng::new(deck_seed));
    let start = g.snapshot().unwrap();
    let mut choose = Choices(choice_seed);
    let mut log = Vec::new();
    let mut adds = 0;
    for _ in 0..2000 {
        if g.is_over() {
            break;
        }
        let seat = Seat(g.turn().index() as u8);
        match g.phase() {
            Phase::Move => {
                let pieces = g.to_move();
                let blocked: Vec<_> = pieces.iter().filter(|(_, m)| m.is_empty()).collect();
                if !blocked.is_empty() && choose.pick(4) == 0 {
                    let sq = blocked[choose.pick(blocked.len())].0;
                    log.push((seat, act(&mut g, seat, "stay", &sq.to_string())));
                    continue;
                }
                // Every move as the bot writes it reads back as that move.
                let legal = g.project(Viewer::Seat(seat)).legal;
                let moves = g.legal_moves();
                assert_eq!(legal.len(), moves.len());
                let i = choose.pick(moves.len());
                let (text, want) = if choose.pick(3) == 0 {
                    (moves[i].uci(), moves[i].uci())
                } else {
                    (legal[i].clone(), moves[i].uci())
                };
                let a = act(&mut g, seat, "move", &text);
                assert_eq!(a.json(), &serde_json::json!({ "Move": want }), "{text}");
                log.push((seat, a));
            }
            Phase::Add => {
                let squares = g.add_squares();
                let sq = squares[choose.pick(squares.len())];
                let col = sq.to_string()[..1].to_string();
                log.push((seat, act(&mut g, seat, "add", &col)));
                adds += 1;
            }
        }
    }
    (g, start, log, adds)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_games_end_after_24_adds_and_a_last_white_turn_score_from_scratch_and_replay(
        deck_seed in any::<u64>(),
        choice_seed in any::<u64>(),
    ) {
        let (g, start, log, adds) = play(deck_seed, choice_seed);
        prop_assert!(g.is_over());
        prop_assert_eq!(g.ended(), Some(Ended::Rules(GravityEnd::Scored)));
        prop_assert_eq!(adds, 24);
        prop_assert_eq!(g.deck_sizes(), [0, 0]);
        // The last turn is White's, with no flip and no add.
        let record = g.project(Viewer::Public).record;
        prop_assert_eq!(record.len(), 25);
        prop_assert!(record[24].starts_with("last:"), "{}", record[24]);
        let o = g.outcome().unwrap();
        let points = score_from_scratch(&g);
        prop_assert_eq!(o.score.clone(), Some(points.to_vec()));
        let winner = match points[0].cmp(&points[1]) {
            std::cmp::Ordering::Greater => Some("1-0"),
            std::cmp::Ordering::Less => Some("0-1"),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(w) = winner {
            prop_assert_eq!(o.result.as_str(), w);
        }
        // The log replays through the registry from the starting state.
        let replayed = Registry::builtin()
            .replay("gravity", Some(&start), &NewGame::default(), &log)
            .unwrap();
        prop_assert_eq!(replayed.snapshot().unwrap(), g.snapshot().unwrap());
        // The animation's boards are rebuilt from the record: one per action.
        let history = g.history().unwrap();
        prop_assert_eq!(history.len(), log.len() + 1);
        prop_assert_eq!(history.last(), Some(&g.project(Viewer::Public).board));
        let loaded = SPEC.load(&g.snapshot().unwrap()).unwrap();
        prop_assert_eq!(loaded.project(Viewer::Public), g.project(Viewer::Public));
    }
}

#[test]
fn the_from_scratch_count_agrees_with_the_booklets_scoring_diagram() {
    let g = Gravity::from_fen(
        "8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb[] w",
        &mut SeededRng::new(1),
    )
    .unwrap();
    assert_eq!(score_from_scratch(&g), [16, 19]);
    assert_eq!(g.score().points, [16, 19]);
}

#[test]
fn a_new_game_through_the_registry_draws_its_decks_from_the_hidden_seed() {
    let setup = |s| NewGame {
        hidden_seed: Some(s),
        ..NewGame::default()
    };
    let r = Registry::builtin();
    let a = r
        .new_game("gravity", &setup(1))
        .unwrap()
        .snapshot()
        .unwrap();
    let b = r
        .new_game("gravity", &setup(1))
        .unwrap()
        .snapshot()
        .unwrap();
    let c = r
        .new_game("gravity", &setup(2))
        .unwrap()
        .snapshot()
        .unwrap();
    assert_eq!(a, b);
    assert_ne!(a["decks"], c["decks"]);
    // With no seed the operating system draws: two games differ.
    let d = r
        .new_game("gravity", &NewGame::default())
        .unwrap()
        .snapshot()
        .unwrap();
    let e = r
        .new_game("gravity", &NewGame::default())
        .unwrap()
        .snapshot()
        .unwrap();
    assert_ne!(d["decks"], e["decks"]);
    assert_eq!(r.find("Gravity Chess").map(|v| v.id()), Some("gravity"));
}

#[test]
fn a_game_goes_on_after_a_restart_with_its_images_and_its_log_replays() {
    let dir = common::service::TempDir::new("gravity-restart");
    let db = dir.db();
    let images = dir.0.join("images");
    // One card each: White adds, Black moves its knight and adds, White's last turn.
    let first = console(
        &db,
        &images,
        "alice: challenge @bob gravity colour:white fen:\"8/8/8/8/8/8/3p4/3Q4[Nn] w\"\n\
         bob: accept\n\
         alice: add g\n\
         bob: Nf6\n",
    );
    assert!(first.contains("bob (Black) plays Nf6"), "{first}");
    assert!(first.contains("image: "), "{first}");
    let second = console(&db, &images, "bob: add b\nalice: Nc6\nalice: pgn\n");
    assert!(
        second
            .contains("game over: the final count: alice (White) 11, bob (Black) 12; 0-1 by score"),
        "{second}"
    );
    assert!(
        second.contains("{final score: White 11, Black 12} 0-1"),
        "{second}"
    );
    let pngs = std::fs::read_dir(&images).unwrap().count();
    assert!(pngs >= 5, "{pngs} images");
    postal::console::block_on(async {
        let store = postal::store::Store::open(&db).await.unwrap();
        assert_eq!(store.game(1).await.unwrap().unwrap().status, "finished");
        assert_eq!(common::service::check_log(&store, 1).await, 4);
        store.close().await;
    })
    .unwrap();
}

#[tokio::test]
async fn the_public_board_keeps_rank_1_at_the_bottom_whoever_is_to_move() {
    use common::service::{say, T0};
    use postal::rules::Color;
    let svc = common::service::open("sqlite::memory:").await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob gravity colour:white",
        T0,
    )
    .await;
    say(&svc, "a", "bob", "accept", T0).await;
    // The default public orientation puts the side to move at the bottom; Gravity
    // Chess's board stays with rank 1 down when Black is to move.
    let out = say(&svc, "m", "alice", "add d", T0).await;
    let view = out
        .iter()
        .find_map(|o| o.image.as_ref())
        .expect("the add comes with the board");
    assert!(view.board.caption.to_move == Some(Color::Black));
    assert_eq!(view.board.bottom, Color::White);
    assert_eq!(view.board.caption.black, "bob");
    assert!(view
        .board
        .caption
        .phase
        .as_deref()
        .unwrap()
        .starts_with("move all"));
}
