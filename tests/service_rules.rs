//! The `GameRules` state machine for the chess variants: actions, events, snapshots, replay.

use postal::service::{
    load_game, new_game, replay, Action, ClaimKind, Event, GameRules, OfferKind, Prompt, Seat,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn mv(g: &mut Box<dyn GameRules>, log: &mut Vec<(Seat, Action)>, seat: u8, text: &str) {
    let uci = g.parse_move(Seat(seat), text).expect(text);
    let a = Action::Move(uci);
    g.apply(Seat(seat), &a).expect(text);
    log.push((Seat(seat), a));
}

#[test]
fn random_games_replay_to_their_snapshot() {
    let mut rng = StdRng::seed_from_u64(7);
    for variant in ["standard", "chess-sharp", "los-alamos"] {
        for _ in 0..20 {
            let mut g = new_game(variant).unwrap();
            let mut log: Vec<(Seat, Action)> = Vec::new();
            for _ in 0..200 {
                if g.is_over() {
                    break;
                }
                let (seat, _) = g.awaiting()[0].clone();
                let other = Seat(1 - seat.0);
                let action = match rng.gen_range(0..40) {
                    0 => Action::Offer(OfferKind::Draw),
                    1 => Action::Offer(OfferKind::FastFifty),
                    2 => Action::Decline(OfferKind::Draw),
                    3 => Action::Claim(ClaimKind::Stalemate, None),
                    4 => Action::Claim(ClaimKind::Draw, None),
                    _ => {
                        let snap = g.snapshot();
                        let fen = snap["fen"].as_str().unwrap().to_string();
                        let pos = postal::notation::fen::parse_fen(variant.parse().unwrap(), &fen)
                            .unwrap();
                        let moves = pos.legal_moves();
                        let m = moves[rng.gen_range(0..moves.len())];
                        Action::Move(m.uci())
                    }
                };
                let actor = if rng.gen_range(0..10) == 0 {
                    other
                } else {
                    seat
                };
                let before = g.snapshot();
                match g.apply(actor, &action) {
                    Ok(_) => log.push((actor, action)),
                    Err(_) => assert_eq!(g.snapshot(), before, "a refusal changed the game"),
                }
            }
            let replayed = replay(variant, None, &log).unwrap();
            assert_eq!(replayed.snapshot(), g.snapshot());
            let loaded = load_game(variant, &g.snapshot()).unwrap();
            assert_eq!(loaded.snapshot(), g.snapshot());
            assert_eq!(loaded.outcome(), g.outcome());
        }
    }
}

#[test]
fn draw_offer_is_declined_by_moving_and_accepted_by_agreement() {
    let mut g = new_game("standard").unwrap();
    let mut log = Vec::new();
    mv(&mut g, &mut log, 0, "e4");
    let ev = g.apply(Seat(0), &Action::Offer(OfferKind::Draw)).unwrap();
    assert_eq!(ev, vec![Event::Offered(Seat(0), OfferKind::Draw)]);
    assert_eq!(g.awaiting(), vec![(Seat(1), Prompt::AnswerDraw)]);
    let uci = g.parse_move(Seat(1), "e5").unwrap();
    let ev = g.apply(Seat(1), &Action::Move(uci)).unwrap();
    assert!(ev.contains(&Event::Declined(Seat(1), OfferKind::Draw)));
    assert!(g.apply(Seat(0), &Action::Accept(OfferKind::Draw)).is_err());
    g.apply(Seat(1), &Action::Offer(OfferKind::Draw)).unwrap();
    g.apply(Seat(0), &Action::Accept(OfferKind::Draw)).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("1/2-1/2", "agreement")
    );
}

#[test]
fn abort_only_before_each_side_has_moved() {
    let mut g = new_game("standard").unwrap();
    let mut log = Vec::new();
    mv(&mut g, &mut log, 0, "e4");
    assert!(g.can_abort());
    mv(&mut g, &mut log, 1, "e5");
    let err = g.apply(Seat(0), &Action::Abort).unwrap_err();
    assert!(err.0.contains("no longer be aborted"), "{err}");
    let mut g = new_game("chess-sharp").unwrap();
    g.apply(Seat(1), &Action::Abort).unwrap();
    assert!(g.aborted() && g.is_over() && g.outcome().is_none());
}

#[test]
fn fast_fifty_exists_only_in_chess_sharp_and_scores_material() {
    let mut g = new_game("standard").unwrap();
    assert!(g
        .apply(Seat(0), &Action::Offer(OfferKind::FastFifty))
        .is_err());
    let mut g = new_game("chess-sharp").unwrap();
    assert!(g.apply(Seat(0), &Action::Offer(OfferKind::Draw)).is_err());
    g.apply(Seat(0), &Action::Offer(OfferKind::FastFifty))
        .unwrap();
    assert!(g
        .apply(Seat(0), &Action::Accept(OfferKind::FastFifty))
        .is_err());
    g.apply(Seat(1), &Action::Accept(OfferKind::FastFifty))
        .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, "fast-fifty");
    assert_eq!(o.score, Some(vec![4, 6]));
}

#[test]
fn timeouts_and_refused_time_claims() {
    let mut g = new_game("standard").unwrap();
    assert!(g.timeout_is_automatic());
    assert!(g
        .apply(Seat(1), &Action::Claim(ClaimKind::Time, None))
        .is_err());
    g.apply(Seat(0), &Action::Timeout).unwrap();
    assert_eq!(g.outcome().unwrap().result, "0-1");
    assert!(!new_game("chess-sharp").unwrap().timeout_is_automatic());
}

#[test]
fn moves_are_read_in_several_notations() {
    let g = new_game("standard").unwrap();
    for text in [
        "e4",
        "E4",
        "e2e4",
        "e2-e4",
        "move e2 to e4",
        "MOVE E2 TO E4",
    ] {
        assert_eq!(g.parse_move(Seat(0), text).unwrap(), "e2e4", "{text}");
    }
    assert!(g
        .parse_move(Seat(1), "e5")
        .unwrap_err()
        .0
        .contains("not your turn"));
    assert!(g.parse_move(Seat(0), "e5").is_err());
    let g = new_game("chess-sharp").unwrap();
    assert_eq!(g.parse_move(Seat(0), "K@g1").unwrap(), "K@g1");
}

#[test]
fn a_game_from_a_fen_replays_from_that_position() {
    let fen = "k7/2Q5/8/8/7p/8/P6K/8[] b - - 0 40";
    let mut g = postal::service::new_game_from("chess-sharp", Some(fen)).unwrap();
    let mut log = Vec::new();
    mv(&mut g, &mut log, 1, "h3");
    mv(&mut g, &mut log, 0, "a3");
    g.apply(Seat(1), &Action::Claim(ClaimKind::Stalemate, None))
        .unwrap();
    log.push((Seat(1), Action::Claim(ClaimKind::Stalemate, None)));
    assert_eq!(g.outcome().unwrap().score, Some(vec![8, 2]));
    let replayed = replay("chess-sharp", Some(fen), &log).unwrap();
    assert_eq!(replayed.snapshot(), g.snapshot());
    assert_eq!(
        load_game("chess-sharp", &g.snapshot()).unwrap().snapshot(),
        g.snapshot()
    );
    assert!(g.pgn(&[]).contains(&format!("[FEN \"{fen}\"]")));
    // A position that is impossible, or already over, is refused with the reason.
    for bad in [
        "k7/8/8/8/8/8/8/K7[] w KQ - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        assert!(postal::service::new_game_from("chess-sharp", Some(bad)).is_err());
    }
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let err = postal::service::new_game_from("standard", Some(mate))
        .err()
        .unwrap();
    assert!(err.0.contains("already over"), "{err}");
}

#[test]
fn a_challenge_takes_a_quoted_fen() {
    use postal::service::command::{parse, Command};
    let c = parse(r#"challenge @bob chess-sharp fen:"k7/2Q5/8/8/7p/8/P6K/8[] b - - 0 40" days:2"#)
        .unwrap();
    let Command::Challenge {
        fen, days, variant, ..
    } = c
    else {
        panic!("{c:?}")
    };
    assert_eq!(fen.as_deref(), Some("k7/2Q5/8/8/7p/8/P6K/8[] b - - 0 40"));
    assert_eq!((days, variant.as_deref()), (Some(2), Some("chess-sharp")));
    assert!(parse(r#"challenge @bob fen:"8/8 w"#).is_err());
}
