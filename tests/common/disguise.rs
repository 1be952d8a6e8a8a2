//! The leak test's comparison (issue 13, point 2): a game against its disguise
//! ([`GameRules::disguised`]), as every viewer but the disguised seat sees it.

use postal::variants::api::{Action, Audience, GameRules, Note, Seat, Viewer};

/// Everything `viewer` sees of `g`, as text to compare.
pub fn seen(g: &dyn GameRules, viewer: Viewer) -> String {
    let seats: Vec<String> = (0..g.seat_count())
        .map(|s| format!("{:?}", g.time_limit(Seat(s as u8))))
        .collect();
    format!(
        "{:?}\n{}\n{:?}\n{:?}\n{:?}\n{:?}",
        g.project(viewer),
        g.pgn(viewer, &[]),
        g.export_fields(viewer),
        g.awaiting(),
        seats,
        (g.outcome(), g.aborted()),
    )
}

/// The viewers other than `owner`: the public and every other seat.
pub fn others(g: &dyn GameRules, owner: Seat) -> Vec<Viewer> {
    let mut v = vec![Viewer::Public];
    v.extend(
        (0..g.seat_count() as u8)
            .map(Seat)
            .filter(|s| *s != owner)
            .map(Viewer::Seat),
    );
    v
}

/// What the notes say to anyone but `owner`.
pub fn told_others(notes: &[Note], owner: Seat) -> Vec<String> {
    notes
        .iter()
        .filter(|n| n.to != Audience::Seat(owner))
        .map(|n| format!("{:?}", n))
        .collect()
}

/// Checks that nothing anyone but `owner` sees differs between `g` and `disguise`.
pub fn assert_same_for_others(g: &dyn GameRules, disguise: &dyn GameRules, owner: Seat, at: &str) {
    for viewer in others(g, owner) {
        assert_eq!(
            seen(g, viewer),
            seen(disguise, viewer),
            "{at}: {viewer:?} sees {owner:?}'s secret"
        );
    }
}

/// The static check at one moment: for every seat holding a secret, nothing anyone else
/// sees differs between `g` and its disguise. Returns how many disguises were compared.
pub fn check_every_disguise(g: &dyn GameRules, at: &str) -> usize {
    let mut n = 0;
    for owner in (0..g.seat_count() as u8).map(Seat) {
        if let Some(d) = g.disguised(owner) {
            assert_same_for_others(g, d.as_ref(), owner, at);
            n += 1;
        }
    }
    n
}

/// The disguises of every seat but `actor`'s, to apply `actor`'s next `action` to: each
/// keeps what the rules make that action reveal ([`GameRules::disguised_before`]).
pub fn disguises_of_others(
    g: &dyn GameRules,
    actor: Seat,
    action: &Action,
) -> Vec<(Seat, Box<dyn GameRules>)> {
    (0..g.seat_count() as u8)
        .map(Seat)
        .filter(|s| *s != actor)
        .filter_map(|s| g.disguised_before(s, actor, action).map(|d| (s, d)))
        .collect()
}

/// The dynamic check of one action: `actor`'s `action`, which gave `result` in `g` (now
/// after it), applied to each disguise taken before it, must be accepted or refused
/// alike, and, where the owner's secret is still one afterwards, say the same to
/// everyone but the owner and leave the two games looking the same.
pub fn check_action_alike(
    g: &dyn GameRules,
    actor: Seat,
    action: &Action,
    result: &Result<Vec<Note>, String>,
    disguised: Vec<(Seat, Box<dyn GameRules>)>,
    at: &str,
) {
    for (owner, mut d) in disguised {
        let other = d.apply(actor, action);
        assert_eq!(
            result.is_ok(),
            other.is_ok(),
            "{at}: {actor:?}'s {action:?} is accepted or refused by {owner:?}'s secret"
        );
        if let (Ok(notes), Ok(other_notes)) = (result, &other) {
            if g.disguised(owner).is_some() {
                assert_eq!(
                    told_others(notes, owner),
                    told_others(other_notes, owner),
                    "{at}: what {actor:?}'s action said depends on {owner:?}'s secret"
                );
                assert_same_for_others(g, d.as_ref(), owner, at);
            }
        }
    }
}
