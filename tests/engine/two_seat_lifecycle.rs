//! The lifecycle the games of two sides share (draw offers and their answers, resignation,
//! timeouts, aborts) says and stores exactly what the release before it was shared did.
//!
//! `tests/data/two-seat-lifecycle-before.json` holds what that release (commit e8a1276)
//! did with scripted games of chess, Chess#, Booster, Gravity and Cloak and Dagger Chess:
//! after each typed command or referee action, the action read, the notes or the refusal,
//! whom the game awaits and for what, and the outcome; and each game's starting and final
//! snapshots. The games are played again here and must give the same record, their
//! stored snapshots must load unchanged, and their logs must replay to them. A chess
//! snapshot now holds what a game is resumed from (`plies`, `last`, `reps`, issue 36) and
//! no longer the moves, which the action log keeps: those fields are left out of the
//! comparison, and a snapshot stored in that release's form loads (re-played once) to the
//! current form.
//! `POSTAL_BLESS=1` writes the file anew (only ever from a release known to be right).

use postal::variants::api::{Action, Env, GameCommand, GameRules, NewGame, Reading, Seat, Viewer};
use postal::variants::Registry;
use serde_json::{json, Value};

const FIXTURE: &str = "tests/data/two-seat-lifecycle-before.json";

/// One line of a script: a seat's typed command (`draw offer`), a referee's action
/// (`!resign`, `!timeout`, `!abort`), or `auto`: whoever is awaited takes their turn's
/// first step (the first legal move, the first answer offered, `done`).
type Line = (u8, &'static str);

/// A script written as lines `SEAT TEXT` separated by commas.
fn script(text: &'static str) -> Vec<Line> {
    text.split(", ")
        .map(|line| {
            let (seat, said) = line.split_once(' ').unwrap();
            (seat.parse().unwrap(), said)
        })
        .collect()
}

/// Offers and answers in every order, an offer lapsing as play goes on, and a
/// resignation with an offer open.
const OFFERS: &str = "0 draw offer, 0 draw offer, 1 draw offer, 0 draw accept, 1 draw decline, \
    1 draw accept, 1 draw offer, 0 auto, 0 auto, 0 auto, 1 draw offer, 0 !resign, \
    1 draw offer, 0 !abort";

/// A draw agreed.
const AGREED: &str = "1 draw offer, 0 draw accept, 0 auto";

/// An abort at the start, and everything after it refused.
const ABORTED: &str = "1 !abort, 0 !abort, 0 draw offer, 1 !resign";

/// Too late to abort; a timeout with an offer open.
const LATE: &str = "0 auto, 0 auto, 0 auto, 0 auto, 0 auto, 0 auto, 0 auto, 0 auto, \
    0 !abort, 0 draw offer, 1 !timeout, 0 draw accept";

/// Cloak and Dagger Chess's back ranks first (and a draw offered before them).
const CLOAK_START: &str = "0 draw offer, 0 setup random, 1 draw accept, 1 setup random";

/// Chess#'s fast-fifty beside the draw it has not.
const SHARP: &str = "0 draw offer, 0 fastfifty propose, 0 fastfifty propose, \
    1 fastfifty propose, 0 fastfifty accept, 1 draw accept, 1 fastfifty reject, \
    1 fastfifty accept, 1 fastfifty propose, 0 auto, 0 fastfifty propose, \
    1 fastfifty accept";

/// The games: a name, the variant, and the script.
fn games() -> Vec<(String, &'static str, Vec<Line>)> {
    let mut out = Vec::new();
    for variant in ["standard", "booster", "gravity", "cloak"] {
        for (name, text) in [
            ("offers", OFFERS),
            ("agreed", AGREED),
            ("aborted", ABORTED),
            ("late", LATE),
        ] {
            let mut lines = Vec::new();
            if variant == "cloak" && name != "aborted" {
                lines.extend(script(CLOAK_START));
            }
            lines.extend(script(text));
            out.push((format!("{variant} {name}"), variant, lines));
        }
    }
    out.push((
        "chess-sharp fast-fifty".into(),
        "chess-sharp",
        script(SHARP),
    ));
    out
}

fn notes_json(notes: &[postal::variants::api::Note]) -> Value {
    notes
        .iter()
        .map(|n| {
            json!({
                "to": format!("{:?}", n.to),
                "board": n.board,
                "text": n.text.render(|s| format!("P{}", s.0)),
            })
        })
        .collect()
}

fn awaiting_json(g: &dyn GameRules) -> Value {
    g.awaiting()
        .iter()
        .map(|(s, p)| {
            json!({
                "seat": s.0,
                "kind": p.kind,
                "ask": p.ask,
                "secret": p.secret,
                "turn": p.turn,
                "answers": p.answers.iter().map(|a| json!([a.label, a.command, a.primary])).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// What `auto` types for the awaited seat: its first legal move, its prompt's first
/// answer, or the end of its turn; once the game is over, `seat`'s `move e4`.
fn auto(g: &dyn GameRules, seat: Seat) -> (Seat, String) {
    let Some((seat, prompt)) = g.awaiting().into_iter().find(|(_, p)| p.turn) else {
        return (seat, "move e4".into());
    };
    let legal = g.project(Viewer::Seat(seat)).legal;
    let text = match (prompt.kind.as_str(), legal.first()) {
        ("add", _) => prompt.answers[0].command.clone(),
        (_, Some(m)) => format!("move {m}"),
        ("boost" | "card", None) => "done".into(),
        ("bonus", None) => "skip".into(),
        _ => prompt.answers[0].command.clone(),
    };
    (seat, text)
}

/// How every game is set up: its draws from the seed 7.
fn setup() -> NewGame<'static> {
    NewGame {
        seed: 7,
        hidden_seed: Some(7),
        ..NewGame::default()
    }
}

/// Plays `script` on a new game of `variant`: the record of each step, the accepted
/// actions, and the game.
fn play(variant: &str, script: &[Line]) -> (Value, Vec<(Seat, Action)>, Box<dyn GameRules>) {
    let registry = Registry::builtin();
    let mut g = registry.new_game(variant, &setup()).unwrap();
    let mut steps = Vec::new();
    let mut log = Vec::new();
    for &(seat, line) in script {
        let (seat, text) = match line {
            "auto" => auto(g.as_ref(), Seat(seat)),
            _ => (Seat(seat), line.to_string()),
        };
        let action = match text.as_str() {
            "!resign" => Ok(Action::resign()),
            "!timeout" => Ok(Action::timeout()),
            "!abort" => Ok(Action::abort()),
            _ => {
                let (word, rest) = text.split_once(' ').unwrap_or((&text, ""));
                match g.read(seat, &GameCommand::new(word, rest), Env::default()) {
                    Ok(Reading::Act(a)) => Ok(a),
                    Ok(other) => panic!("{other:?}"),
                    Err(e) => Err(e),
                }
            }
        };
        let result = action.and_then(|a| {
            let before = g.snapshot().unwrap();
            match g.apply(seat, &a) {
                Ok(notes) => {
                    log.push((seat, a.clone()));
                    Ok((a, notes))
                }
                Err(e) => {
                    assert_eq!(g.snapshot().unwrap(), before, "a refusal changed the game");
                    Err(e)
                }
            }
        });
        let said = match result {
            Ok((a, notes)) => json!({"action": a.json(), "notes": notes_json(&notes)}),
            Err(e) => json!({"refused": format!("{:?}", e.kind), "text": e.text}),
        };
        steps.push(json!({
            "seat": seat.0,
            "typed": text,
            "said": said,
            "awaiting": awaiting_json(g.as_ref()),
            // As a variant's state stores it: the reason by its name.
            "outcome": g.outcome().as_ref().map(postal::variants::api::NamedOutcome::from),
            "aborted": g.aborted(),
        }));
    }
    let record = json!({
        "steps": steps,
        "snapshot": g.snapshot().unwrap(),
    });
    (record, log, g)
}

/// The fields of a chess snapshot that differ in form from the release before's: what a
/// game is resumed from (`plies`, `last`, `reps`, `before`, and `record`, which a release
/// between stored) and the moves (`moves`, which that release stored and the action log
/// keeps now).
const RESUMPTION: [&str; 6] = ["moves", "record", "plies", "last", "reps", "before"];

/// The fields of a chess snapshot that the current form leaves out at their default (no
/// offer, not aborted), each with that default.
const LEFT_OUT_AT_DEFAULT: [(&str, Value); 2] =
    [("offer", Value::Null), ("aborted", Value::Bool(false))];

/// `v` without the fields [`RESUMPTION`] names, and without those of
/// [`LEFT_OUT_AT_DEFAULT`] at their default, in every object holding a chess game (a `fen`
/// and a `variant`).
fn as_stored_before(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let chess = m.contains_key("fen") && m.contains_key("variant");
            let left_out = |k: &str, v: &Value| {
                RESUMPTION.contains(&k)
                    || LEFT_OUT_AT_DEFAULT
                        .iter()
                        .any(|(name, default)| *name == k && v == default)
            };
            Value::Object(
                m.iter()
                    .filter(|(k, v)| !(chess && left_out(k, v)))
                    .map(|(k, v)| (k.clone(), as_stored_before(v)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(as_stored_before).collect()),
        other => other.clone(),
    }
}

/// The stored games of `record` (`name`: the variant and the script) load unchanged and
/// their logs replay to them from the start.
fn check_stored(name: &str, record: &Value) {
    let registry = Registry::builtin();
    let variant = name.split(' ').next().unwrap();
    let stored = &record["snapshot"];
    let loaded = registry.load(variant, stored).unwrap();
    assert_eq!(
        &as_stored_before(&loaded.snapshot().unwrap()),
        &as_stored_before(stored),
        "{name}: it loads unchanged"
    );
    // Loaded again from what it writes now, it is the same game.
    let again = registry.load(variant, &loaded.snapshot().unwrap()).unwrap();
    assert_eq!(again.snapshot().unwrap(), loaded.snapshot().unwrap());
    let log: Vec<(Seat, Action)> = record["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| {
            let a = s["said"].get("action")?;
            Some((
                Seat(s["seat"].as_u64().unwrap() as u8),
                serde_json::from_value(a.clone()).unwrap(),
            ))
        })
        .collect();
    let replayed = registry.replay(variant, None, &setup(), &log).unwrap();
    assert_eq!(
        replayed.snapshot().unwrap(),
        loaded.snapshot().unwrap(),
        "{name}: its log replays"
    );
}

#[test]
fn the_two_seat_lifecycle_says_and_stores_what_the_release_before_did() {
    let mut now = serde_json::Map::new();
    for (name, variant, script) in games() {
        let (record, log, g) = play(variant, &script);
        check_stored(&name, &record);
        assert_eq!(
            log.len(),
            record["steps"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["said"].get("action").is_some())
                .count()
        );
        assert_eq!(g.snapshot().unwrap(), record["snapshot"]);
        now.insert(name, record);
    }
    if std::env::var_os("POSTAL_BLESS").is_some() {
        // One game a line.
        let lines: Vec<String> = now
            .iter()
            .map(|(name, record)| format!("{}: {record}", json!(name)))
            .collect();
        std::fs::write(
            crate::common::root().join(FIXTURE),
            format!("{{\n{}\n}}\n", lines.join(",\n")),
        )
        .unwrap();
        return;
    }
    let before: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::common::root().join(FIXTURE))
            .expect("the fixture (POSTAL_BLESS=1 writes it)"),
    )
    .unwrap();
    let before = before.as_object().unwrap();
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        now.keys().collect::<Vec<_>>()
    );
    for (name, then) in before {
        for (i, (a, b)) in then["steps"]
            .as_array()
            .unwrap()
            .iter()
            .zip(now[name]["steps"].as_array().unwrap())
            .enumerate()
        {
            assert_eq!(a, b, "{name}: step {} differs", i + 1);
        }
        assert_eq!(
            as_stored_before(then),
            as_stored_before(&now[name]),
            "{name}: the stored game differs"
        );
        // What that release stored loads and replays.
        check_stored(name, then);
    }
}
