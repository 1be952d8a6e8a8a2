//! Tournaments in the store (migration 0018), on both backends: made, joined and left
//! over the version read; a round started once, with its games, whichever of two
//! processes gets there first; a withdrawal's forfeits; the sweep's question.

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{
    Drawn, GameStatus, NewBoard, NewGame, NewTournament, RoundStep, SeatRow, Store, StoredOutcome,
    TournamentState, Write,
};

use crate::common;

on_both_backends!(
    a_tournament_is_joined_and_left_over_the_version_read,
    of_two_processes_starting_a_round_from_one_version_exactly_one_does,
    a_withdrawal_forfeits_and_an_ended_round_is_found_by_the_sweep,
);

const SERVER: &str = "300000000000000007";

fn new_tournament() -> NewTournament {
    NewTournament {
        server: Some(SERVER.into()),
        channel: Some("400000000000000001".into()),
        creator: "100000000000000001".into(),
        format: "swiss".into(),
        double: false,
        rounds: 3,
        variant: "standard".into(),
        options: "{}".into(),
        days_per_move: 3,
        rated: true,
        player_limit: Some(8),
        signup_until: None,
        mode: "sequential".into(),
    }
}

fn user(n: i64) -> String {
    format!("1000000000000000{n:02}")
}

/// Round 1 of four players: boards 1-3 (seeds 0-2) and 2-4 (seeds 1-3), each with a game.
fn round_one() -> Vec<(i64, NewBoard)> {
    [(0, 2), (1, 3)]
        .into_iter()
        .enumerate()
        .map(|(i, (w, b))| {
            (
                1,
                NewBoard {
                    board: i as i64 + 1,
                    white: w,
                    black: Some(b),
                    forfeit: None,
                    game: Some(NewGame {
                        variant: "standard".into(),
                        days_per_move: 3,
                        colour: "white".into(),
                        challenger: user(w),
                        channel: Some("400000000000000001".into()),
                        server: Some(SERVER.into()),
                        start_fen: None,
                        options: "{}".into(),
                        snapshot: "{}".into(),
                        max_open: 0,
                        one_live: false,
                    }),
                },
            )
        })
        .collect()
}

fn drawn(boards: &[(i64, NewBoard)], i: usize, id: i64) -> Drawn {
    let b = &boards[i].1;
    let seat = |s: u8, seed: i64| SeatRow {
        seat: s,
        user: Some(user(seed)),
        role: if s == 0 { "white" } else { "black" }.into(),
        accepted: true,
    };
    Drawn {
        seed: id,
        seats: vec![seat(0, b.white), seat(1, b.black.unwrap())],
        snapshot: Some(format!("{{\"game\":{id}}}")),
        start: Some(vec![(0, 5_000)]),
        start_is_default: false,
    }
}

async fn with_four(store: &Store) -> i64 {
    let id = store
        .create_tournament(&new_tournament(), None, 10)
        .await
        .unwrap();
    for n in 0..4 {
        let t = store.tournament(id).await.unwrap().unwrap();
        assert!(store
            .join_tournament(id, t.version, (&user(n), n), None, 20 + n)
            .await
            .unwrap());
    }
    id
}

async fn a_tournament_is_joined_and_left_over_the_version_read(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = store
        .create_tournament(&new_tournament(), None, 10)
        .await
        .unwrap();
    let t = store.tournament(id).await.unwrap().unwrap();
    assert_eq!(
        (t.state.as_str(), t.version, t.current_round),
        ("signup", 0, 0)
    );
    assert_eq!(t.player_limit, Some(8));
    assert!(store
        .join_tournament(id, 0, (&user(1), 0), None, 11)
        .await
        .unwrap());
    // A second join from the same read is refused and writes nothing.
    assert!(!store
        .join_tournament(id, 0, (&user(2), 1), None, 12)
        .await
        .unwrap());
    assert!(store
        .join_tournament(id, 1, (&user(2), 1), None, 12)
        .await
        .unwrap());
    let e = store.entrants(id).await.unwrap();
    assert_eq!(
        e.iter().map(|e| e.user.clone()).collect::<Vec<_>>(),
        [user(1), user(2)]
    );
    assert!(!store
        .leave_tournament(id, 1, &user(1), None, 13)
        .await
        .unwrap());
    assert!(store
        .leave_tournament(id, 2, &user(1), None, 13)
        .await
        .unwrap());
    let e = store.entrants(id).await.unwrap();
    assert_eq!((e.len(), e[0].seed), (1, 1));
    let listed = store
        .tournaments_in(
            Some(SERVER),
            &[TournamentState::Signup, TournamentState::Running],
            10,
        )
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert!(store
        .tournaments_in(Some("other"), &[TournamentState::Signup], 10)
        .await
        .unwrap()
        .is_empty());
    assert!(store
        .set_tournament_state(id, 3, TournamentState::Cancelled, None, 14)
        .await
        .unwrap());
    assert!(store
        .tournaments_in(
            Some(SERVER),
            &[TournamentState::Signup, TournamentState::Running],
            10
        )
        .await
        .unwrap()
        .is_empty());
    store.close().await;
}

async fn of_two_processes_starting_a_round_from_one_version_exactly_one_does(url: String) {
    let a = Store::open(&url).await.unwrap();
    let b = Store::open(&url).await.unwrap();
    let id = with_four(&a).await;
    let version = a.tournament(id).await.unwrap().unwrap().version;
    let mut tasks = Vec::new();
    for store in [a.clone(), b.clone(), a.clone(), b.clone()] {
        tasks.push(tokio::spawn(async move {
            let boards = round_one();
            store
                .start_rounds(
                    id,
                    version,
                    RoundStep::new(TournamentState::Running, 1, &boards),
                    100,
                    |i, gid| Ok(drawn(&boards, i, gid)),
                )
                .await
        }));
    }
    let mut started = 0;
    for t in tasks {
        if t.await.unwrap().unwrap().is_some() {
            started += 1;
        }
    }
    assert_eq!(started, 1);
    let t = b.tournament(id).await.unwrap().unwrap();
    assert_eq!((t.state.as_str(), t.current_round), ("running", 1));
    let boards = b.boards(id).await.unwrap();
    assert_eq!(boards.len(), 2);
    for board in &boards {
        let g = b.game(board.game_id.unwrap()).await.unwrap().unwrap();
        assert_eq!(board.status, Some(GameStatus::Active));
        assert_eq!(g.status, GameStatus::Active);
        assert!(g.seats.iter().all(|s| s.accepted));
        assert_eq!(g.user_at(0), Some(user(board.white).as_str()));
        assert_eq!(g.deadlines.len(), 1);
        assert_eq!(g.snapshot, format!("{{\"game\":{}}}", g.id));
        assert_eq!(
            b.tournament_of_game(g.id).await.unwrap(),
            Some((id, 1, board.board))
        );
    }
    a.close().await;
    b.close().await;
}

async fn a_withdrawal_forfeits_and_an_ended_round_is_found_by_the_sweep(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = with_four(&store).await;
    let t = store.tournament(id).await.unwrap().unwrap();
    let boards = round_one();
    store
        .start_rounds(
            id,
            t.version,
            RoundStep::new(TournamentState::Running, 1, &boards),
            100,
            |i, gid| Ok(drawn(&boards, i, gid)),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(store.tournaments_to_advance().await.unwrap().is_empty());
    // Seed 3 withdraws: board 2 forfeited to White.
    let t = store.tournament(id).await.unwrap().unwrap();
    assert!(!store
        .withdraw_entrant(
            id,
            t.version - 1,
            &user(3),
            1,
            &[(1, 2, "white")],
            None,
            200
        )
        .await
        .unwrap());
    assert!(store
        .withdraw_entrant(id, t.version, &user(3), 1, &[(1, 2, "white")], None, 200)
        .await
        .unwrap());
    let e = store.entrants(id).await.unwrap();
    assert_eq!(e[3].withdrawn_at, Some(1));
    let stored = store.boards(id).await.unwrap();
    assert_eq!(stored[1].forfeit.as_deref(), Some("white"));
    assert!(store.tournaments_to_advance().await.unwrap().is_empty());
    // Board 1's game ends: the round has no game going on.
    let g = store
        .game(stored[0].game_id.unwrap())
        .await
        .unwrap()
        .unwrap();
    let w = Write {
        expected_version: g.version,
        at: 300,
        status: GameStatus::Finished,
        snapshot: g.snapshot.clone(),
        outcome: Some(StoredOutcome {
            result: "1-0".into(),
            reason: "checkmate".into(),
            score: None,
        }),
        ..Write::default()
    };
    store.write(g.id, &w).await.unwrap();
    assert_eq!(store.tournaments_to_advance().await.unwrap(), [id]);
    let stored = store.boards(id).await.unwrap();
    assert_eq!(
        (stored[0].status, stored[0].result.as_deref()),
        (Some(GameStatus::Finished), Some("1-0"))
    );
    store.close().await;
}
