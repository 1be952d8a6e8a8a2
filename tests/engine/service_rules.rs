//! The chess variants as games of the referee: actions, notes, prompts, snapshots, replay.

use postal::variants::api::{
    Action, GameCommand, GameRules, NewGame, Reading, RefusalKind, RuleError, Seat, Viewer,
};
use postal::variants::chess::{ChessAction, ClaimKind, OfferKind};
use postal::variants::Registry;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn new_game(variant: &str) -> Result<Box<dyn GameRules>, RuleError> {
    new_game_from(variant, None)
}

fn new_game_from(variant: &str, fen: Option<&str>) -> Result<Box<dyn GameRules>, RuleError> {
    Registry::builtin().new_game(
        variant,
        &NewGame {
            fen,
            ..NewGame::default()
        },
    )
}

fn load_game(variant: &str, snap: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
    Registry::builtin().load(variant, snap)
}

fn replay(
    variant: &str,
    fen: Option<&str>,
    log: &[(Seat, Action)],
) -> Result<Box<dyn GameRules>, RuleError> {
    let setup = NewGame {
        fen,
        ..NewGame::default()
    };
    Registry::builtin().replay(variant, None, &setup, log)
}

/// `seat` types `line` (a command of the game) and it is read into an action.
fn read(g: &dyn GameRules, seat: u8, line: &str) -> Result<Action, RuleError> {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    match g.read(
        Seat(seat),
        &GameCommand::new(word, rest),
        Default::default(),
    )? {
        Reading::Act(a) => Ok(a),
        other => panic!("{other:?}"),
    }
}

fn a(action: ChessAction) -> Action {
    Action::of(&action).unwrap()
}

fn mv(g: &mut Box<dyn GameRules>, log: &mut Vec<(Seat, Action)>, seat: u8, text: &str) {
    let action = read(g.as_ref(), seat, &format!("move {text}")).expect(text);
    g.apply(Seat(seat), &action).expect(text);
    log.push((Seat(seat), action));
}

/// The notes' texts with seats written as `#N`.
fn texts(notes: &[postal::variants::api::Note]) -> Vec<String> {
    notes
        .iter()
        .map(|n| postal::variants::api::typed_commands(&n.text.render(|s| format!("#{}", s.0))))
        .collect()
}

#[test]
fn random_games_replay_to_their_snapshot() {
    let mut rng = StdRng::seed_from_u64(7);
    let variants = crate::common::chess_games();
    assert!(variants.contains(&"chess-sharp"), "{variants:?}");
    for variant in variants {
        for _ in 0..8 {
            let mut g = new_game(variant).unwrap();
            // Where a new game draws its start (Chess960), the log replays from it.
            let start = g.snapshot().unwrap();
            let mut log: Vec<(Seat, Action)> = Vec::new();
            for _ in 0..200 {
                if g.is_over() {
                    break;
                }
                let (seat, _) = g.awaiting()[0].clone();
                let other = Seat(1 - seat.0);
                let action = match rng.gen_range(0..40) {
                    0 => a(ChessAction::Offer(OfferKind::Draw)),
                    1 => a(ChessAction::Offer(OfferKind::FastFifty)),
                    2 => a(ChessAction::Decline(OfferKind::Draw)),
                    3 => a(ChessAction::Claim(ClaimKind::Stalemate, None)),
                    4 => a(ChessAction::Claim(ClaimKind::Draw, None)),
                    _ => {
                        let snap = g.snapshot().unwrap();
                        let fen = snap["fen"].as_str().unwrap().to_string();
                        let pos = postal::notation::fen::parse_fen(
                            Registry::builtin().board_variant(variant).unwrap(),
                            &fen,
                        )
                        .unwrap();
                        let moves = pos.legal_moves();
                        let m = moves[rng.gen_range(0..moves.len())];
                        a(ChessAction::Move(m.uci()))
                    }
                };
                let actor = if rng.gen_range(0..10) == 0 {
                    other
                } else {
                    seat
                };
                let before = g.snapshot().unwrap();
                match g.apply(actor, &action) {
                    Ok(_) => log.push((actor, action)),
                    Err(_) => {
                        assert_eq!(g.snapshot().unwrap(), before, "a refusal changed the game")
                    }
                }
            }
            let replayed = Registry::builtin()
                .replay(variant, Some(&start), &NewGame::default(), &log)
                .unwrap();
            assert_eq!(
                replayed.snapshot().unwrap(),
                g.snapshot().unwrap(),
                "{variant}"
            );
            let loaded = load_game(variant, &g.snapshot().unwrap()).unwrap();
            assert_eq!(loaded.snapshot().unwrap(), g.snapshot().unwrap());
            assert_eq!(loaded.outcome(), g.outcome());
        }
    }
}

#[test]
fn draw_offer_is_declined_by_moving_and_accepted_by_agreement() {
    let mut g = new_game("standard").unwrap();
    let mut log = Vec::new();
    mv(&mut g, &mut log, 0, "e4");
    let ev = g
        .apply(Seat(0), &read(g.as_ref(), 0, "draw offer").unwrap())
        .unwrap();
    assert_eq!(
        texts(&ev),
        ["#0 proposes a draw: `draw accept` or `draw decline`"]
    );
    let awaited = g.awaiting();
    assert_eq!(awaited.len(), 1);
    let (seat, prompt) = &awaited[0];
    assert_eq!(
        (*seat, prompt.kind.as_str(), prompt.turn),
        (Seat(1), "draw", true)
    );
    // Black is still to move: the prompt says both, and the deadline is the move's.
    assert_eq!(prompt.ask, "to move or answer the draw offer");
    let answers: Vec<&str> = prompt.answers.iter().map(|a| a.command.as_str()).collect();
    assert_eq!(answers, ["draw accept", "draw decline"]);
    let e5 = read(g.as_ref(), 1, "move e5").unwrap();
    let ev = g.apply(Seat(1), &e5).unwrap();
    assert_eq!(
        texts(&ev),
        ["#1 played e5", "the draw proposal lapses as play goes on"]
    );
    assert!(ev[0].board && !ev[1].board);
    assert!(g
        .apply(Seat(0), &a(ChessAction::Accept(OfferKind::Draw)))
        .is_err());
    g.apply(Seat(1), &a(ChessAction::Offer(OfferKind::Draw)))
        .unwrap();
    g.apply(Seat(0), &read(g.as_ref(), 0, "draw accept").unwrap())
        .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.name()),
        ("1/2-1/2", "agreement")
    );
}

#[test]
fn abort_only_before_each_side_has_moved() {
    let mut g = new_game("standard").unwrap();
    let mut log = Vec::new();
    mv(&mut g, &mut log, 0, "e4");
    mv(&mut g, &mut log, 1, "e5");
    let err = g.apply(Seat(0), &Action::abort()).unwrap_err();
    assert!(err.text.contains("no longer be aborted"), "{err}");
    let mut g = new_game("chess-sharp").unwrap();
    g.apply(Seat(1), &Action::abort()).unwrap();
    assert!(g.aborted() && g.is_over() && g.outcome().is_none());
}

#[test]
fn fast_fifty_exists_only_in_chess_sharp_and_scores_material() {
    let mut g = new_game("standard").unwrap();
    assert!(g
        .apply(Seat(0), &a(ChessAction::Offer(OfferKind::FastFifty)))
        .is_err());
    let mut g = new_game("chess-sharp").unwrap();
    assert!(g
        .apply(Seat(0), &a(ChessAction::Offer(OfferKind::Draw)))
        .is_err());
    g.apply(Seat(0), &read(g.as_ref(), 0, "fastfifty propose").unwrap())
        .unwrap();
    assert!(g
        .apply(Seat(0), &a(ChessAction::Accept(OfferKind::FastFifty)))
        .is_err());
    g.apply(Seat(1), &a(ChessAction::Accept(OfferKind::FastFifty)))
        .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason.name(), "fast-fifty");
    assert_eq!(o.score, Some(vec![4, 6]));
}

#[test]
fn timeouts_and_refused_time_claims() {
    let mut g = new_game("standard").unwrap();
    assert!(g.timeout_is_automatic());
    assert!(g
        .apply(Seat(1), &a(ChessAction::Claim(ClaimKind::Time, None)))
        .is_err());
    let cmd = GameCommand::new("claim", "time");
    let e = g.read(Seat(1), &cmd, Default::default()).unwrap_err();
    assert!(e.text.contains("ends a game on time by itself"), "{e}");
    g.apply(Seat(0), &Action::timeout()).unwrap();
    assert_eq!(g.outcome().unwrap().result, "0-1");
    let sharp = new_game("chess-sharp").unwrap();
    assert!(!sharp.timeout_is_automatic());
    // A time claim in Chess# asks the referee to check the opponent's clock.
    assert_eq!(
        sharp.read(Seat(1), &cmd, Default::default()),
        Ok(Reading::ClaimTimeout { late: Seat(0) })
    );
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
        assert_eq!(
            read(g.as_ref(), 0, &format!("move {text}")).unwrap(),
            a(ChessAction::Move("e2e4".into())),
            "{text}"
        );
    }
    let e = read(g.as_ref(), 1, "move e5").unwrap_err();
    assert_eq!(e.kind, RefusalKind::NotYourTurn);
    assert!(e.text.contains("not your turn"));
    assert_eq!(
        read(g.as_ref(), 0, "move e5").unwrap_err().kind,
        RefusalKind::Illegal
    );
    assert_eq!(
        read(g.as_ref(), 0, "move Xq9").unwrap_err().kind,
        RefusalKind::Syntax
    );
    let g = new_game("chess-sharp").unwrap();
    assert_eq!(
        read(g.as_ref(), 0, "move K@g1").unwrap(),
        a(ChessAction::Move("K@g1".into()))
    );
}

#[test]
fn a_game_from_a_fen_replays_from_that_position() {
    let fen = "k7/2Q5/8/8/7p/8/P6K/8[] b - - 0 40";
    let mut g = new_game_from("chess-sharp", Some(fen)).unwrap();
    let mut log = Vec::new();
    mv(&mut g, &mut log, 1, "h3");
    mv(&mut g, &mut log, 0, "a3");
    let claim = read(g.as_ref(), 1, "claim stalemate").unwrap();
    g.apply(Seat(1), &claim).unwrap();
    log.push((Seat(1), claim));
    assert_eq!(g.outcome().unwrap().score, Some(vec![8, 2]));
    let replayed = replay("chess-sharp", Some(fen), &log).unwrap();
    assert_eq!(replayed.snapshot().unwrap(), g.snapshot().unwrap());
    assert_eq!(
        load_game("chess-sharp", &g.snapshot().unwrap())
            .unwrap()
            .snapshot()
            .unwrap(),
        g.snapshot().unwrap()
    );
    assert!(g
        .pgn(Viewer::Public, &[])
        .contains(&format!("[FEN \"{fen}\"]")));
    // A position that is impossible, or already over, is refused with the reason.
    for bad in [
        "k7/8/8/8/8/8/8/K7[] w KQ - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        assert!(new_game_from("chess-sharp", Some(bad)).is_err());
    }
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let err = new_game_from("standard", Some(mate)).err().unwrap();
    assert!(err.text.contains("already over"), "{err}");
}

#[test]
fn a_challenge_takes_a_quoted_fen() {
    use postal::service::command::{parse, Command};
    let r = Registry::builtin();
    let c = parse(
        r#"challenge @bob chess-sharp fen:"k7/2Q5/8/8/7p/8/P6K/8[] b - - 0 40" days:2"#,
        &r,
    )
    .unwrap();
    let Command::Challenge(c) = c else {
        panic!("{c:?}")
    };
    assert_eq!(c.fen.as_deref(), Some("k7/2Q5/8/8/7p/8/P6K/8[] b - - 0 40"));
    assert_eq!(
        (c.days, c.variant.as_deref()),
        (Some(2), Some("chess-sharp"))
    );
    assert!(parse(r#"challenge @bob fen:"8/8 w"#, &r).is_err());
}
