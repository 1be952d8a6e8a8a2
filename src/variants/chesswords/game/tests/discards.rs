//! Discards, one test per rule (rules 6 and 8 of `docs/rules/chesswords.md`), and the
//! discard rules kept by games stored before discards were private.

use super::*;

#[test]
fn a_capture_opens_a_private_discard_and_only_the_discard_is_announced() {
    // White's pawn a3 takes Black's pawn b4: Black may discard a black pawn (the
    // captured piece) or a white pawn (the capturer); Black holds black pawns.
    let mut g = setup(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "bR wR bN wN bQ wQ");
    let ev = clue_and_play(&mut g, "a3b4");
    // In public only the move and its word; no pause: White gives the next clue.
    let public = texts(&ev, true);
    assert_eq!(public.len(), 1, "{public:?}");
    assert!(public[0].starts_with("with the word "), "{public:?}");
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    // Black alone is told what the capture allows.
    let told = whispers(&ev, B);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(whispers(&ev, W).is_empty());
    assert!(
        told[0].starts_with(
            "White's capture of your pawn lets you discard the black pawn (bP), if you wish: \
             send me `discard CARD` privately before your next move. Your hand: black pawn"
        ),
        "{told:?}"
    );
    assert!(g
        .secret_summary(B)
        .unwrap()
        .contains("White's last capture lets you discard the black pawn (bP)"));
    assert!(!g.secret_summary(W).unwrap().contains("discard"));
    // Black discards while White thinks of a clue.
    let ev = g.act(B, &Action::Discard("bP".into())).unwrap();
    assert_eq!(g.state.hands[1], cards_of("bP bK wN bR"));
    assert_eq!(g.state.pile.len(), 5);
    assert_eq!(g.checkers(), vec![sq("a3")]);
    let public = texts(&ev, true).join(" | ");
    assert_eq!(
        public,
        format!(
            "Black discards the black pawn: a checker on a3 marks the letter {} | Black \
             draws a card (5 left in the pile)",
            g.letter(sq("a3"))
        )
    );
    assert!(whispers(&ev, B)
        .iter()
        .any(|t| t.starts_with("you drew the black rook")));
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    // One card per capture.
    let e = g.act(B, &Action::Discard("bP".into())).unwrap_err();
    assert!(e.text.starts_with("you have no discard open"), "{e}");
}

#[test]
fn the_discard_stays_open_until_the_holders_move() {
    let mut g = setup(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "bR");
    clue_and_play(&mut g, "a3b4");
    g.act(W, &Action::Clue("hint".into())).unwrap();
    // A refused move changes nothing, the open discard included.
    let refused = Action::Play {
        word: "QQ".into(),
        mv: "f4f3".into(),
    };
    assert!(g.act(B, &refused).is_err());
    assert!(g.state.open_discard.is_some());
    let word = word_for(&g, "f4f3");
    g.act(
        B,
        &Action::Play {
            word,
            mv: "f4f3".into(),
        },
    )
    .unwrap();
    assert_eq!(g.state.open_discard, None);
    let e = g.act(B, &Action::Discard("bP".into())).unwrap_err();
    assert!(e.text.starts_with("you have no discard open"), "{e}");
    assert!(g.checkers().is_empty());
    assert_eq!(g.state.hands[1].len(), 4);
}

#[test]
fn the_end_of_the_game_closes_an_open_discard() {
    let mut g = setup(PAWNS, "wK", "bP bK", "bR");
    clue_and_play(&mut g, "a3b4");
    assert!(g.secret_summary(B).unwrap().contains("lets you discard"));
    g.act(W, &Action::Resign).unwrap();
    assert!(!g.secret_summary(B).unwrap().contains("discard"));
    let e = g.act(B, &Action::Discard("bP".into())).unwrap_err();
    assert_eq!(e.text, "the game is over");
}

#[test]
fn a_discard_that_does_not_fit_is_refused_and_changes_nothing() {
    // Black holds no pawn: nothing fits, and nobody is told anything.
    let mut g = setup(PAWNS, "wP wQ wR bQ", "bK bQ bR wN", "bR wR bN wN bQ wQ");
    let ev = clue_and_play(&mut g, "a3b4");
    // Black is told so, as privately as when a card fits.
    assert!(
        whispers(&ev, B).iter().any(|t| t.starts_with(
            "White's capture of your pawn with their pawn would let you discard a card of \
             either piece, and you hold neither. Your hand: black king"
        )),
        "{ev:?}"
    );
    let before = g.snapshot().unwrap();
    for (seat, card, says) in [
        (
            B,
            "bK",
            "no card in your hand fits: the capture of your pawn by their pawn",
        ),
        (B, "wN", "no card in your hand fits"),
        (B, "none", "there is nothing to decline"),
        (B, "purple pawn", "not a card"),
        (W, "wP", "you have no discard open"),
    ] {
        let e = g.act(seat, &Action::Discard(card.into())).unwrap_err();
        assert!(e.text.contains(says), "{card}: {e}");
    }
    assert_eq!(g.snapshot().unwrap(), before);
    // With a pawn in hand, a card of the wrong kind is refused with the options.
    let mut g = setup(PAWNS, "wK", "bK wP bQ", "");
    clue_and_play(&mut g, "a3b4");
    let e = g.act(B, &Action::Discard("bK".into())).unwrap_err();
    assert_eq!(
        typed_commands(&e.text),
        "you may discard the white pawn (wP): `discard wP`"
    );
    assert!(g.act(B, &Action::Discard("white pawn".into())).is_ok());
}

/// The public record of a few turns from [`PAWNS`] with Black dealt `black`: every
/// public event, whom the game awaits, the public view, the export and the PGN, after
/// each action.
fn public_record(black: &str) -> Vec<String> {
    let mut g = setup(PAWNS, "wK wQ wR bQ", black, "bR wR bN wN bQ wQ");
    let mut record = Vec::new();
    let mut step = |g: &mut Chesswords, seat: Seat, action: Action| {
        let ev = g.act(seat, &action).unwrap();
        for e in ev {
            if e.to == Audience::Everyone {
                record.push(format!("{e:?}"));
            }
        }
        record.push(format!("{:?}", g.awaiting()));
        record.push(format!("{:?}", g.view(Viewer::Public)));
        // Once the game is over its export shows the cards, as it should.
        if !g.is_over() {
            record.push(serde_json::to_string(&g.export_fields(Viewer::Public)).unwrap());
        }
        record.push(g.pgn(Viewer::Public, &[]));
        record.push(format!("{:?}", [g.time_limit(W), g.time_limit(B)]));
    };
    step(&mut g, B, Action::Clue("hint".into()));
    let word = word_for(&g, "a3b4");
    step(
        &mut g,
        W,
        Action::Play {
            word,
            mv: "a3b4".into(),
        },
    );
    step(&mut g, W, Action::Clue("hint".into()));
    let word = word_for(&g, "d4c3");
    step(
        &mut g,
        B,
        Action::Play {
            word,
            mv: "d4c3".into(),
        },
    );
    step(&mut g, B, Action::Pass);
    step(&mut g, W, Action::Move("a1a2".into()));
    step(&mut g, W, Action::Pass);
    record
}

#[test]
fn nothing_public_depends_on_whether_a_card_qualifies() {
    // After a3xb4 Black holds two black pawns in the one deal and no pawn in the
    // other; after d4xc3 White holds the same cards in both. Neither discards.
    let qualifies = public_record("bP bP bK wN");
    let does_not = public_record("bK bQ bR wN");
    assert_eq!(qualifies.len(), does_not.len());
    for (a, b) in qualifies.iter().zip(&does_not) {
        assert_eq!(a, b);
    }
    // The record is not empty of the play itself.
    assert!(
        qualifies.iter().any(|r| r.contains("axb4")),
        "{qualifies:?}"
    );
}

#[test]
fn games_stored_before_discard_one_qualifying_kind_at_once() {
    let mut g = setup_stored_before(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "bR wR bN wN");
    let ev = clue_and_play(&mut g, "a3b4");
    assert_eq!(g.state.hands[1], cards_of("bP bK wN bR"));
    assert_eq!(g.checkers(), vec![sq("a3")]);
    let public = texts(&ev, true).join(" | ");
    assert!(
        public.contains("Black discards the black pawn: a checker on a3"),
        "{public}"
    );
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    // And no discard at all when nothing qualifies.
    let mut g = setup_stored_before(PAWNS, "wK", "bK bQ bR wN", "bR");
    clue_and_play(&mut g, "a3b4");
    assert!(g.checkers().is_empty());
}

#[test]
fn games_stored_before_ask_for_a_choice_between_two_kinds_and_wait() {
    let mut g = setup_stored_before(PAWNS, "wK wQ wR bQ", "bP wP bK bP", "bR wR bN");
    let ev = clue_and_play(&mut g, "a3b4");
    assert_eq!(g.awaiting(), vec![(B, prompts::discard())]);
    let public = texts(&ev, true).join(" | ");
    assert!(public.contains("Black may discard one of two kinds of card"));
    let how = g.instructions(B).unwrap();
    assert!(how.contains("black pawn (bP) or white pawn (wP)"), "{how}");
    let e = g.act(W, &Action::Clue("hint".into())).unwrap_err();
    assert!(
        e.text.contains("Black is choosing a card to discard"),
        "{e}"
    );
    assert!(g.act(W, &Action::Discard("wP".into())).is_err());
    let e = g.act(B, &Action::Discard("bK".into())).unwrap_err();
    assert!(
        e.text
            .contains("the black pawn (bP) or the white pawn (wP)"),
        "{e}"
    );
    let ev = g.act(B, &Action::Discard("white pawn".into())).unwrap();
    assert!(texts(&ev, true)[0].starts_with("Black discards the white pawn: a checker on a3"));
    assert_eq!(g.state.hands[1], cards_of("bP bK bP bR"));
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    // Time running out on the choice discards the first kind in hand order.
    let mut g = setup_stored_before(PAWNS, "wK", "bP wP", "");
    clue_and_play(&mut g, "a3b4");
    g.act(B, &Action::Timeout).unwrap();
    assert_eq!(g.state.hands[1], cards_of("wP"));
}

#[test]
fn checkers_block_landing_but_not_sliding_across() {
    let mut g = setup("5k/6/6/6/6/R4K w - - 0 1", "wK", "bK", "");
    g.state.discards.push(Discarded {
        by: B,
        card: Card::parse("bK").unwrap(),
        square: "a3".into(),
        ply: 0,
    });
    g.act(B, &Action::Pass).unwrap();
    let moves = g.legal_moves(W);
    assert!(moves.contains(&"Ra2".to_string()));
    assert!(!moves.contains(&"Ra3".to_string()));
    assert!(
        moves.contains(&"Ra4".to_string()),
        "slides across the checker"
    );
    let e = g.parse_move(W, "Ra3").unwrap_err();
    assert!(
        e.text
            .starts_with("a3 has a checker: no piece may move onto a checker"),
        "{e}"
    );
    let e = g.act(W, &Action::Move("a1a3".into())).unwrap_err();
    assert!(e.text.starts_with("a3 has a checker"), "{e}");
    assert_eq!(g.parse_move(W, "Ra6").unwrap(), "a1a6");
}

#[test]
fn capturing_a_king_ends_play_and_the_holder_decides_on_the_discard_privately() {
    let mut g = setup("5k/6/6/6/6/K4R w - - 0 1", "wQ", "bK wQ", "bN");
    premark(&mut g, &["c3", "c4", "d3"]);
    let ev = clue_and_play(&mut g, "f1f6");
    let public = texts(&ev, true).join(" | ");
    assert!(
        public.ends_with(
            "play is over: a king was captured. Black may still discard for White's last \
             capture and decides privately (`discard CARD` or `discard none`) before the finale"
        ),
        "{public}"
    );
    assert!(texts(&ev, false).is_empty(), "the prompt tells Black");
    assert_eq!(g.state.play_end, Some(PlayEnd::KingCaptured));
    assert_eq!(g.awaiting(), vec![(B, prompts::last_discard())]);
    assert!(prompts::last_discard().secret);
    let how = typed_commands(&g.instructions(B).unwrap());
    assert!(
        how.contains(
            "White's last capture lets you discard the black king (bK): send me `discard CARD`"
        ),
        "{how}"
    );
    assert!(g.instructions(W).is_none());
    assert!(g.act(W, &Action::Discard("wQ".into())).is_err());
    assert!(g.act(W, &Action::Words(vec![])).is_err());
    let ev = g.act(B, &Action::Discard("bK".into())).unwrap();
    let public = texts(&ev, true).join(" | ");
    assert!(
        public.starts_with("Black discards the black king: a checker on f1"),
        "{public}"
    );
    assert!(
        public.contains("play is over: a king was captured. The marked letters are"),
        "{public}"
    );
    assert_eq!(
        g.awaiting(),
        vec![(W, prompts::submit_words()), (B, prompts::submit_words())]
    );
}

#[test]
fn the_wait_at_the_end_of_play_comes_whether_or_not_a_card_qualifies() {
    let play = |black: &str| {
        let mut g = setup("5k/6/6/6/6/K4R w - - 0 1", "wQ", black, "bN");
        let ev = clue_and_play(&mut g, "f1f6");
        (g, texts(&ev, true))
    };
    let (_, fits) = play("bK wQ");
    let (mut g, none) = play("bQ wN");
    assert_eq!(fits, none);
    assert_eq!(g.awaiting(), vec![(B, prompts::last_discard())]);
    let how = typed_commands(&g.instructions(B).unwrap());
    assert!(
        how.contains(
            "no card in your hand fits a discard for White's last capture, so send me `discard none`"
        ),
        "{how}"
    );
    let e = g.act(B, &Action::Discard("bQ".into())).unwrap_err();
    assert!(
        typed_commands(&e.text).contains("you hold neither: `discard none`"),
        "{e}"
    );
    let ev = g.act(B, &Action::Discard("None".into())).unwrap();
    assert_eq!(
        texts(&ev, true)[0],
        "play is over: a king was captured. No letters are marked, so there is no finale"
    );
    assert!(g.is_over());
}

#[test]
fn two_passes_after_a_capture_leave_the_holder_the_last_discard() {
    let mut g = setup(PAWNS, "wK wQ", "bP bK", "bR");
    g.act(B, &Action::Pass).unwrap();
    g.act(W, &Action::Move("a3b4".into())).unwrap();
    let ev = g.act(W, &Action::Pass).unwrap();
    let public = texts(&ev, true).join(" | ");
    assert!(
        public.contains("both players passed in a row. Black may still discard"),
        "{public}"
    );
    assert_eq!(g.awaiting(), vec![(B, prompts::last_discard())]);
    // Time running out on that decision discards nothing.
    let mut timed = g.clone();
    let ev = timed.act(B, &Action::Timeout).unwrap();
    assert_eq!(texts(&ev, true)[0], "Black's time ran out: no discard");
    assert!(timed.is_over(), "nothing marked: scored at once");
    assert!(timed.checkers().is_empty());
    let ev = g.act(B, &Action::Discard("bP".into())).unwrap();
    assert_eq!(g.checkers(), vec![sq("a3")]);
    // One marked letter makes no two words: no finale, the score at once.
    let public = texts(&ev, true).join(" | ");
    assert!(
        public.contains("Only 1 letter is marked (") && public.contains("so there is no finale"),
        "{public}"
    );
    assert!(g.is_over());
}

#[test]
fn a_mover_whose_time_runs_out_loses_the_open_discard() {
    let mut g = setup(PAWNS, "wK wQ", "bP bK", "bR");
    clue_and_play(&mut g, "a3b4");
    g.act(W, &Action::Clue("hint".into())).unwrap();
    let ev = g.act(B, &Action::Timeout).unwrap();
    let public = texts(&ev, true).join(" | ");
    assert!(!public.contains("may still discard"), "{public}");
    assert_eq!(g.state.open_discard, None);
    assert_eq!(g.outcome().unwrap().reason.name(), "timeout");
}

#[test]
fn a_checker_that_leaves_the_holder_without_a_move_ends_play() {
    // Black's king a6 has only b5, the square White's knight leaves to take d6; b6
    // has a checker and a5 Black's own blocked pawn.
    let mut g = setup("k2n2/pN4/P5/6/6/5K w - - 0 1", "wK", "bN bK", "bR");
    g.state.discards.push(Discarded {
        by: W,
        card: Card::parse("wQ").unwrap(),
        square: "b6".into(),
        ply: 0,
    });
    premark(&mut g, &["e3", "f3"]);
    clue_and_play(&mut g, "b5d6");
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    assert_eq!(
        g.legal_moves(B),
        Vec::<String>::new(),
        "not Black's turn yet"
    );
    let ev = g.act(B, &Action::Discard("bN".into())).unwrap();
    let public = texts(&ev, true).join(" | ");
    assert!(public.contains("a checker on b5"), "{public}");
    assert!(
        public.contains("the player to move has no move that does not end on a checker"),
        "{public}"
    );
    assert_eq!(g.state.play_end, Some(PlayEnd::NoMoves));
    assert_eq!(g.state.phase, Phase::Words);
}

#[test]
fn chesswords_a_discard_reposts_the_board_and_with_an_empty_pile_resends_the_hand() {
    // As in the first test, but with nothing left in the pile.
    let mut g = setup(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "");
    clue_and_play(&mut g, "a3b4");
    let ev = g.act(B, &Action::Discard("bP".into())).unwrap();
    // The checker changes the board: the discard's note posts it again.
    assert!(ev.iter().any(|n| n.board && n.to == Audience::Everyone));
    assert!(texts(&ev, true).join(" | ").contains("the pile is empty"));
    let told = whispers(&ev, B);
    assert_eq!(
        told,
        ["you drew nothing; your hand: black pawn, black king, white knight"],
        "{told:?}"
    );
}
