//! Best-score competitions in the store (migration 0021), on both backends: made and
//! read back as competitions, their deals' secret seeds stored once (the first drawn
//! stand, whichever process draws again), and the deadline task's question of whose next
//! deal is due.

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{
    Drawn, GameStatus, NewBoard, NewGame, NewTournament, RoundStep, SeatRow, Store, StoredOutcome,
    TournamentState, Write,
};

use crate::common;

on_both_backends!(
    a_competition_is_read_as_one_and_keeps_its_first_seeds,
    an_entrant_whose_attempt_ended_is_found_by_the_sweep,
);

const SERVER: &str = "300000000000000021";

fn user(n: i64) -> String {
    format!("1000000000000021{n:02}")
}

fn new_competition() -> NewTournament {
    NewTournament {
        server: Some(SERVER.into()),
        channel: Some("400000000000000021".into()),
        creator: user(0),
        format: "competition".into(),
        double: false,
        rounds: 0,
        variant: "parade".into(),
        options: "{}".into(),
        days_per_move: 3,
        rated: false,
        player_limit: None,
        signup_until: None,
        mode: "sequential".into(),
    }
}

/// A competition of 2 deals with entrants 0 and 1 (seeds 0 and 1).
async fn with_two(store: &Store) -> i64 {
    let id = store
        .create_competition(&new_competition(), 2, None, 10)
        .await
        .unwrap();
    for n in 0..2 {
        let t = store.tournament(id).await.unwrap().unwrap();
        assert!(store
            .join_tournament(id, t.version, (&user(n), n), None, 20 + n)
            .await
            .unwrap());
    }
    id
}

/// Entrant `seed`'s game of deal `deal` (a stand-in game of one seat).
fn deal_board(deal: i64, seed: i64) -> (i64, NewBoard) {
    (
        deal,
        NewBoard {
            board: seed + 1,
            white: seed,
            black: None,
            forfeit: None,
            game: Some(NewGame {
                variant: "parade".into(),
                days_per_move: 3,
                colour: "white".into(),
                challenger: user(seed),
                channel: None,
                server: None,
                start_fen: None,
                options: "{}".into(),
                snapshot: "{}".into(),
                max_open: 0,
                one_live: false,
            }),
        },
    )
}

fn drawn(seed: i64, id: i64) -> Drawn {
    Drawn {
        seed: id,
        seats: vec![SeatRow {
            seat: 0,
            user: Some(user(seed)),
            role: "player".into(),
            accepted: true,
        }],
        snapshot: Some(format!("{{\"game\":{id}}}")),
        start: Some(vec![(0, 5_000)]),
        start_is_default: false,
    }
}

async fn a_competition_is_read_as_one_and_keeps_its_first_seeds(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = with_two(&store).await;
    let t = store.tournament(id).await.unwrap().unwrap();
    assert_eq!(
        (
            t.format.as_str(),
            t.rounds,
            t.state.as_str(),
            t.mode.as_str()
        ),
        ("competition", 2, "signup", "sequential")
    );
    // A round robin made beside it is still read as one.
    let mut rr = new_competition();
    rr.format = "round-robin".into();
    rr.variant = "standard".into();
    let other = store.create_tournament(&rr, None, 11).await.unwrap();
    let o = store.tournament(other).await.unwrap().unwrap();
    assert_eq!(o.format, "round-robin");
    let listed = store
        .tournaments_in(Some(SERVER), &[TournamentState::Signup], 10)
        .await
        .unwrap();
    assert_eq!(
        listed.iter().map(|t| t.format.as_str()).collect::<Vec<_>>(),
        ["competition", "round-robin"]
    );
    // The seeds drawn first stand; the full 64 bits come back.
    let first = [u64::MAX - 5, 7];
    assert_eq!(store.deal_seeds(id, &first).await.unwrap(), first);
    assert_eq!(store.deal_seeds(id, &[1, 2]).await.unwrap(), first);
    assert_eq!(store.deal_seeds(id, &[]).await.unwrap(), first);
    assert!(store.deal_seeds(other, &[]).await.unwrap().is_empty());
    store.close().await;
}

async fn an_entrant_whose_attempt_ended_is_found_by_the_sweep(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = with_two(&store).await;
    assert!(store.competitions_to_advance().await.unwrap().is_empty());
    let t = store.tournament(id).await.unwrap().unwrap();
    let boards = [deal_board(1, 0), deal_board(1, 1)];
    let games = store
        .start_rounds(
            id,
            t.version,
            RoundStep::new(TournamentState::Running, 1, &boards),
            100,
            |i, gid| Ok(drawn(boards[i].1.white, gid)),
        )
        .await
        .unwrap()
        .unwrap();
    // Both attempts under way: nothing is due.
    assert!(store.competitions_to_advance().await.unwrap().is_empty());
    assert!(store.tournaments_to_advance().await.unwrap().is_empty());
    // Entrant 0's attempt ends: their deal 2 is due, though entrant 1 still plays.
    end(&store, games[0].unwrap(), 300).await;
    assert_eq!(store.competitions_to_advance().await.unwrap(), [id]);
    let stored = store.boards(id).await.unwrap();
    assert_eq!(
        (stored[0].result.as_deref(), stored[0].score.as_deref()),
        (Some("won"), Some("[3]"))
    );
    // Dealt their deal 2: nothing is due.
    let t = store.tournament(id).await.unwrap().unwrap();
    let next = [deal_board(2, 0)];
    store
        .start_rounds(
            id,
            t.version,
            RoundStep::new(TournamentState::Running, 2, &next),
            400,
            |_, gid| Ok(drawn(0, gid)),
        )
        .await
        .unwrap()
        .unwrap();
    assert!(store.competitions_to_advance().await.unwrap().is_empty());
    // Entrant 1's attempt ends: due; paused, the sweep leaves it.
    end(&store, games[1].unwrap(), 500).await;
    assert_eq!(store.competitions_to_advance().await.unwrap(), [id]);
    let t = store.tournament(id).await.unwrap().unwrap();
    assert_eq!(t.current_round, 2);
    assert!(store
        .set_tournament_state(id, t.version, TournamentState::Paused, None, 600)
        .await
        .unwrap());
    assert!(store.competitions_to_advance().await.unwrap().is_empty());
    store.close().await;
}

/// Game `id` ends, won with 3 points.
async fn end(store: &Store, id: i64, at: i64) {
    let g = store.game(id).await.unwrap().unwrap();
    let w = Write {
        expected_version: g.version,
        at,
        status: GameStatus::Finished,
        snapshot: g.snapshot.clone(),
        outcome: Some(StoredOutcome {
            result: "won".into(),
            reason: "connection".into(),
            score: Some("[3]".into()),
        }),
        ..Write::default()
    };
    store.write(g.id, &w).await.unwrap();
}
