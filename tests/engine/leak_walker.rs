//! The leak walker (issue 13, point 2): random games of every registered variant, the
//! test suite's toy included, played through the plug-in interface as the referee drives
//! it (commands read from what each variant declares, answers from its prompts, moves
//! from its projections). After every step, for every seat that holds a secret, the game
//! is compared with its disguise ([`GameRules::disguised`]: the same game with that
//! seat's secrets replaced by others it could as well hold). Nothing another viewer sees
//! may differ between the two: the projection of the public and of every other seat (the
//! board image's content, the text diagram, the FEN, the record, what the seat holds, its
//! instructions), the PGN, the export, who is awaited and for what, the clocks and the
//! outcome; and an action of another seat must be accepted or refused alike, say the same
//! to everyone but the owner, and leave the two games looking the same. Refusals change
//! nothing, and every game's log replays from its starting state to its snapshot.

use crate::common;
use crate::toy;

use common::disguise::{check_action_alike, check_every_disguise, disguises_of_others};

use postal::variants::api::random::{Random, SeededRng};
use postal::variants::api::{
    Action, ArgKind, CommandSpec, Env, GameCommand, GameRules, NewGame, Reading, Seat, VariantSpec,
    Viewer,
};
use postal::variants::Registry;

/// Words a random player types where a command takes a word.
const WORDS: &[&str] = &[
    "a1", "b2", "c3", "d4", "e5", "f6", "e2", "d7", "b1", "g8", "piece", "target", "none", "cat",
    "hint", "ace",
];

/// A random square of an 8x8 board (`e4`).
fn square(rng: &mut SeededRng) -> String {
    let file = (b'a' + rng.below(8) as u8) as char;
    format!("{file}{}", 1 + rng.below(8))
}

/// A random command line for `spec`, its arguments drawn by kind.
fn random_command(spec: &CommandSpec, legal: &[String], rng: &mut SeededRng) -> GameCommand {
    let mut words: Vec<String> = Vec::new();
    for arg in spec.args {
        if !arg.required && rng.coin() {
            break;
        }
        let pick = |rng: &mut SeededRng, list: &[&str]| {
            list[rng.below(list.len() as u64) as usize].to_string()
        };
        words.push(match arg.kind {
            ArgKind::Word if rng.below(10) < 7 => square(rng),
            ArgKind::Word => pick(rng, WORDS),
            ArgKind::Text if rng.coin() => square(rng),
            ArgKind::Text => "a small hint".to_string(),
            ArgKind::Move => match legal.len() {
                0 => square(rng),
                n => legal[rng.below(n as u64) as usize].clone(),
            },
            ArgKind::Choice(values) | ArgKind::Named(values) => values
                [rng.below(values.len() as u64) as usize]
                .0
                .to_string(),
        });
    }
    GameCommand::new(spec.name, &words.join(" "))
}

/// The commands a seat might type now: its prompt's ready answers, its legal moves, and
/// random uses of every command the variant declares.
fn candidates(
    spec: &dyn VariantSpec,
    g: &dyn GameRules,
    seat: Seat,
    rng: &mut SeededRng,
) -> Vec<GameCommand> {
    let mut out = Vec::new();
    for (s, prompt) in g.awaiting() {
        if s == seat {
            for a in &prompt.answers {
                let (word, rest) = a.command.split_once(' ').unwrap_or((&a.command, ""));
                out.push(GameCommand::new(word, rest));
            }
        }
    }
    let legal = g.project(Viewer::Seat(seat)).legal;
    for _ in 0..3 {
        if !legal.is_empty() {
            let m = &legal[rng.below(legal.len() as u64) as usize];
            out.push(GameCommand::new("move", m));
        }
    }
    let commands = spec.commands();
    for _ in 0..12 {
        let c = &commands[rng.below(commands.len() as u64) as usize];
        out.push(random_command(c, &legal, rng));
    }
    // Shuffle, so that the ready answers do not always come first.
    rng.shuffle(&mut out);
    out
}

/// The action a random player of `seat` takes now, if any command of theirs is accepted
/// (tried on a copy; a refused one must change nothing). Actions that end the game (a
/// draw accepted, a resignation) are kept for last, so that games go deep.
fn choose(
    spec: &dyn VariantSpec,
    g: &dyn GameRules,
    seat: Seat,
    rng: &mut SeededRng,
    at: &str,
) -> Option<Action> {
    let mut ending = None;
    for _ in 0..6 {
        for cmd in candidates(spec, g, seat, rng) {
            let Ok(Reading::Act(action)) = g.read(seat, &cmd, Env::default()) else {
                continue;
            };
            let mut trial = spec
                .load(&g.snapshot().unwrap())
                .expect("the snapshot loads");
            let before = trial.snapshot().unwrap();
            match trial.apply(seat, &action) {
                Ok(_) if trial.is_over() => ending = ending.or(Some(action)),
                Ok(_) => return Some(action),
                Err(_) => assert_eq!(
                    trial.snapshot().unwrap(),
                    before,
                    "{at}: a refusal changed the game"
                ),
            }
        }
    }
    ending
}

/// Plays one random game of `spec` from `seed`, checking every step.
fn walk(spec: &dyn VariantSpec, seed: u64) -> usize {
    let setup = NewGame {
        seed,
        hidden_seed: Some(seed),
        ..NewGame::default()
    };
    let mut g = spec.new_game(&setup).expect("a new game");
    let start = g.snapshot().unwrap();
    let mut log: Vec<(Seat, Action)> = Vec::new();
    let mut rng = SeededRng::new(seed ^ 0x1EAC);
    let mut disguises = 0;
    for step in 0..200 {
        let at = format!("{} seed {seed} step {step}", spec.id());
        // The static check: what others see of the game and of each disguise.
        disguises += check_every_disguise(g.as_ref(), &at);
        let awaited = g.awaiting();
        if awaited.is_empty() || g.is_over() {
            break;
        }
        let seat = awaited[rng.below(awaited.len() as u64) as usize].0;
        // A player with nothing accepted lets the time run out.
        let action = choose(spec, g.as_ref(), seat, &mut rng, &at).unwrap_or_else(Action::timeout);
        // The dynamic check: the action, applied to each disguise of another seat.
        let disguised = disguises_of_others(g.as_ref(), seat, &action);
        let result = g.apply(seat, &action);
        let shown = result.clone().map_err(|e| e.text.clone());
        check_action_alike(g.as_ref(), seat, &action, &shown, disguised, &at);
        match result {
            Ok(_) => log.push((seat, action)),
            Err(_) => {
                // Not even a timeout: the seat resigns, or the game cannot go on.
                let resign = Action::resign();
                if g.apply(seat, &resign).is_err() {
                    break;
                }
                log.push((seat, resign));
            }
        }
    }
    let replayed = Registry::builtin()
        .with(&toy::KNIGHT_HOP)
        .replay(spec.id(), Some(&start), &setup, &log)
        .expect("the log replays");
    assert_eq!(
        replayed.snapshot().unwrap(),
        g.snapshot().unwrap(),
        "{}: replay",
        spec.id()
    );
    eprintln!(
        "{} {seed}: {} actions, {:?}",
        spec.id(),
        log.len(),
        log.last()
    );
    disguises
}

#[test]
fn no_variant_shows_a_seats_secret_to_anyone_else() {
    let registry = Registry::builtin().with(&toy::KNIGHT_HOP);
    let mut report = Vec::new();
    for spec in registry.all() {
        let disguises: usize = (1..=12).map(|seed| walk(spec, seed)).sum();
        report.push(format!("{} {disguises}", spec.id()));
    }
    eprintln!("disguised states compared: {report:?}");
    // The walker reaches the secrets of the variants that have them.
    for (id, min) in [
        ("split-brain", 30),
        ("chesswords", 40),
        ("booster", 1000),
        ("cloak", 100),
    ] {
        let n: usize = report
            .iter()
            .find_map(|r| r.strip_prefix(&format!("{id} ")))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(n >= min, "{id}: only {n} disguised states compared");
    }
}
