//! Crash safety (issue 14): the real `postal console` binary, playing many games at once
//! on a SQLite file, is killed with SIGKILL at random moments, again and again, and
//! restarted on the same file each time. After every kill a copy of the files exactly as
//! the killed process left them must pass `PRAGMA integrity_check`; every game's action
//! log must hold each action the console acknowledged (printed its reply to), in the order
//! sent, once, and nothing that was not sent; and every log must replay to its stored
//! snapshot. The games then go on from what the database holds, and a last session ends
//! cleanly and is checked the same way.
//!
//! The games are standard chess, Chess# and Double Move Chess (double moves included),
//! their moves chosen at random by the library's own move generator (with a taste for
//! captures and mates, and a rare resignation, so that games end and new ones begin).
//! The run is random: its seed is printed, and `POSTAL_CRASH_SEED=N` replays the same
//! plan (the exact kill moments still depend on the machine's timing).

use crate::common;

use common::service::{check_log, TempDir};
use postal::rules::{Color, Game, MoveKind, Turn, Variant};
use postal::store::Store;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The players.
const USERS: [&str; 6] = ["ann", "ben", "cat", "dan", "eve", "fay"];
/// Who plays whom, the challenger (White) first: every user has two or three games at once.
const PAIRS: [(usize, usize); 8] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (1, 2),
    (3, 4),
    (5, 0),
    (0, 3),
    (1, 4),
];
/// The variants, taken in turn by each pair's successive games.
const VARIANTS: [(&str, Variant); 3] = [
    ("standard", Variant::STANDARD),
    ("chess-sharp", Variant::CHESS_SHARP),
    ("double-move", Variant::DOUBLE_MOVE),
];
/// How many times the console is killed.
const KILLS: usize = 30;
/// How long a silent console is waited for before the test gives up (a hang, not a
/// timing target).
const HANG: Duration = Duration::from_secs(60);

/// One thing a player did, as the test sent it.
#[derive(Clone, Copy, Debug)]
enum Step {
    Turn(Turn),
    Resign,
}

impl Step {
    /// The entry the action log must hold for it.
    fn action(&self) -> Value {
        match self {
            Step::Turn(t) => json!({ "Move": t.uci() }),
            Step::Resign => json!("Resign"),
        }
    }
}

/// What the test knows of one game.
struct GameModel {
    pair: usize,
    variant: Variant,
    /// Every step sent, in order: the stored log must be a prefix of it.
    steps: Vec<Step>,
    /// The game after all of `steps`.
    game: Game,
    resigned: bool,
    /// How many of `steps` the console acknowledged (or were found stored).
    acked: usize,
    accept_sent: bool,
    accept_acked: bool,
}

impl GameModel {
    fn new(pair: usize, variant: Variant) -> GameModel {
        GameModel {
            pair,
            variant,
            steps: Vec::new(),
            game: Game::new(variant),
            resigned: false,
            acked: 0,
            accept_sent: false,
            accept_acked: false,
        }
    }

    fn over(&self) -> bool {
        self.resigned || self.game.is_over()
    }

    /// Plays a step on the model.
    fn apply(&mut self, step: Step) {
        match step {
            Step::Turn(t) => self
                .game
                .play_turn(t)
                .unwrap_or_else(|e| panic!("{}: {e}", t.uci())),
            Step::Resign => self.resigned = true,
        }
        self.steps.push(step);
    }

    /// Keeps the first `n` steps only (those the database holds) and replays them.
    fn truncate(&mut self, n: usize) {
        let steps: Vec<Step> = self.steps.drain(..).take(n).collect();
        self.game = Game::new(self.variant);
        self.resigned = false;
        for s in steps {
            self.apply(s);
        }
        self.acked = n;
    }
}

/// A pair of players and the game they are at.
struct Pair {
    white: &'static str,
    black: &'static str,
    started: usize,
    current: Option<i64>,
    /// A challenge was sent and its reply not read yet.
    challenging: bool,
}

/// What a line sent to the console was.
#[derive(Debug)]
enum Kind {
    Challenge { pair: usize, variant: &'static str },
    Accept { id: i64 },
    Step { id: i64, index: usize, ends: bool },
}

#[derive(Debug)]
struct Sent {
    line: String,
    kind: Kind,
}

/// How a session of the console ends.
#[derive(Clone, Copy, Debug)]
enum End {
    /// Killed `delay` after it was started, whatever it was doing.
    EarlyKill { delay: Duration },
    /// Killed `delay` after the last of `lines` lines was written, at most `window` lines
    /// ahead of the replies read.
    Kill {
        lines: usize,
        window: usize,
        delay: Duration,
    },
    /// Its input closed after `lines` lines and every reply: a clean stop.
    Close { lines: usize, window: usize },
}

/// The test's state across sessions.
struct Run {
    rng: StdRng,
    dir: PathBuf,
    db: PathBuf,
    pairs: Vec<Pair>,
    games: BTreeMap<i64, GameModel>,
    /// Lines written, their echo not read yet.
    inflight: VecDeque<Sent>,
    /// The line echoed last, its reply not read yet.
    current: Option<Sent>,
    lines_sent: usize,
    acks: usize,
}

/// A running console.
struct Console {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    reader: std::thread::JoinHandle<()>,
    stderr: PathBuf,
}

impl Console {
    fn start(dir: &Path, db: &Path, session: usize, seed: u64) -> Console {
        let stderr = dir.join(format!("stderr-{session}.txt"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_postal"));
        cmd.arg("console")
            .arg("--db")
            .arg(format!("sqlite:{}", db.display()))
            .arg("--seed")
            .arg(seed.to_string())
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap());
        // The defaults, whatever the environment running the tests says.
        for (k, _) in std::env::vars() {
            if k.starts_with("POSTAL_") || k == "DATABASE_URL" {
                cmd.env_remove(k);
            }
        }
        let mut child = cmd.spawn().expect("the postal binary starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = String::new();
            loop {
                buf.clear();
                match r.read_line(&mut buf) {
                    // A line the kill cut short was not printed: it is left out.
                    Ok(n) if n > 0 && buf.ends_with('\n') => {
                        buf.pop();
                        if tx.send(buf.clone()).is_err() {
                            break;
                        }
                    }
                    _ => break,
                }
            }
        });
        Console {
            child,
            stdin,
            lines,
            reader,
            stderr,
        }
    }

    /// Panics with the console's error output: it stopped on its own.
    fn died(&mut self, what: &str) -> ! {
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        let err = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        panic!("the console {what} ({status:?}); its stderr:\n{err}");
    }

    fn write(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        if stdin.write_all(format!("{line}\n").as_bytes()).is_err() {
            self.died("stopped reading its input");
        }
    }

    /// The next line of output; `waiting` says what for, if there is none.
    fn next(&mut self, waiting: impl FnOnce() -> String) -> String {
        match self.lines.recv_timeout(HANG) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                self.died(&format!("said nothing for a minute, {}", waiting()))
            }
            Err(RecvTimeoutError::Disconnected) => self.died("closed its output"),
        }
    }

    /// Ends the console (SIGKILL, or closing its input and expecting a clean exit) and
    /// returns every whole line it printed that was not read yet.
    fn stop(mut self, kill: bool) -> Vec<String> {
        if kill {
            self.child.kill().unwrap();
            self.child.wait().unwrap();
        } else {
            drop(self.stdin.take());
            let status = self.child.wait().unwrap();
            if !status.success() {
                self.died("failed at a clean stop");
            }
        }
        drop(self.stdin.take());
        self.reader.join().unwrap();
        self.lines.try_iter().collect()
    }
}

/// A step for the side to move: a mate if there is one, now and then a double move (when
/// the variant has them and a token is left), more often a capture than not, rarely a
/// resignation, which is also the answer to having no move at all. Never a resignation
/// while `turns_played` (the turns sent so far) is below two, before both sides have
/// moved: that would call the game off (an abort), not resign it.
fn pick(game: &Game, turns_played: usize, rng: &mut StdRng) -> Step {
    let pos = game.position();
    let moves: Vec<_> = game.legal_moves().into_iter().collect();
    if moves.is_empty() || (turns_played >= 2 && rng.gen_ratio(1, 400)) {
        return Step::Resign;
    }
    for m in &moves {
        let after = pos.after(*m);
        if after.is_check() && after.legal_moves().is_empty() {
            return Step::Turn(Turn::Single(*m));
        }
    }
    let side = match game.turn() {
        Color::White => 0,
        Color::Black => 1,
    };
    if pos.tokens()[side] > 0 && rng.gen_bool(0.2) {
        let doubles = pos.double_moves();
        if !doubles.is_empty() {
            let (a, b) = doubles[rng.gen_range(0..doubles.len())];
            return Step::Turn(Turn::Double(a, b));
        }
    }
    let captures: Vec<_> = moves
        .iter()
        .filter(|m| m.capture.is_some())
        .copied()
        .collect();
    let from = if !captures.is_empty() && rng.gen_bool(0.6) {
        &captures
    } else {
        &moves
    };
    Step::Turn(Turn::Single(from[rng.gen_range(0..from.len())]))
}

/// The game id of a reply `[#games] game #N: ...`.
fn reply_id(reply: &str) -> Option<i64> {
    let rest = reply.strip_prefix("[#games] game #")?;
    rest[..rest.find(':')?].parse().ok()
}

impl Run {
    fn new(seed: u64, dir: &Path) -> Run {
        Run {
            rng: StdRng::seed_from_u64(seed),
            dir: dir.to_path_buf(),
            db: dir.join("postal.db"),
            pairs: PAIRS
                .iter()
                .map(|&(w, b)| Pair {
                    white: USERS[w],
                    black: USERS[b],
                    started: 0,
                    current: None,
                    challenging: false,
                })
                .collect(),
            games: BTreeMap::new(),
            inflight: VecDeque::new(),
            current: None,
            lines_sent: 0,
            acks: 0,
        }
    }

    /// What the test waits for, when the console is silent.
    fn waiting(&self) -> String {
        let pairs: Vec<String> = self
            .pairs
            .iter()
            .map(|p| {
                let game = p.current.map(|id| {
                    let g = &self.games[&id];
                    (id, g.accept_sent, g.steps.len(), g.over())
                });
                format!("{}-{} {} {:?}", p.white, p.black, p.challenging, game)
            })
            .collect();
        format!(
            "waiting for {:?} then {:?}; pairs (challenging, (game, accept sent, steps, over)): {pairs:?}",
            self.current.as_ref().map(|s| &s.line),
            self.inflight.iter().map(|s| &s.line).collect::<Vec<_>>()
        )
    }

    /// Lines written whose reply was not read yet.
    fn outstanding(&self) -> usize {
        self.inflight.len() + usize::from(self.current.is_some())
    }

    /// The next line to send, if some pair can act without waiting for a reply.
    fn next_line(&mut self) -> Option<Sent> {
        let ready: Vec<usize> = (0..self.pairs.len())
            .filter(|&p| {
                let pair = &self.pairs[p];
                !pair.challenging
                    && match pair.current {
                        None => true,
                        Some(id) => !self.games[&id].over(),
                    }
            })
            .collect();
        if ready.is_empty() {
            return None;
        }
        let p = ready[self.rng.gen_range(0..ready.len())];
        let pair = &mut self.pairs[p];
        let (white, black) = (pair.white, pair.black);
        let Some(id) = pair.current else {
            let (variant, _) = VARIANTS[(p + pair.started) % VARIANTS.len()];
            pair.started += 1;
            pair.challenging = true;
            return Some(Sent {
                line: format!("{white}: challenge @{black} {variant} colour:white"),
                kind: Kind::Challenge { pair: p, variant },
            });
        };
        let g = self.games.get_mut(&id).unwrap();
        if !g.accept_sent {
            g.accept_sent = true;
            return Some(Sent {
                line: format!("{black}: accept {id}"),
                kind: Kind::Accept { id },
            });
        }
        let user = match g.game.turn() {
            Color::White => white,
            Color::Black => black,
        };
        let step = pick(&g.game, g.steps.len(), &mut self.rng);
        let pos = *g.game.position();
        g.apply(step);
        let line = match step {
            Step::Turn(Turn::Single(m)) => {
                // UCI (the capture of a twice-moved piece in its x form), but SAN for a
                // move whose from-to another move shares (the plain move onto a
                // twice-moved piece's stop, beside the capture), as a player must write it.
                let same = |o: &postal::rules::Move| {
                    *o != m && (o.from, o.to, o.promotion) == (m.from, m.to, m.promotion)
                };
                let shared =
                    m.kind != MoveKind::CaptureTwiceMoved && pos.legal_moves().iter().any(same);
                let text = if shared {
                    postal::notation::san(&pos, m)
                } else {
                    m.uci()
                };
                format!("{user}: move {id} {text}")
            }
            Step::Turn(Turn::Double(a, b)) => {
                format!("{user}: double {id} {} {}", a.uci(), b.uci())
            }
            Step::Resign => format!("{user}: resign {id}"),
        };
        let ends = g.over();
        if ends {
            pair.current = None;
        }
        Some(Sent {
            line,
            kind: Kind::Step {
                id,
                index: g.steps.len() - 1,
                ends,
            },
        })
    }

    /// Reads one line of the console's output: the echo of the next line sent, or the
    /// first line of the reply to the line echoed last (later lines of a reply, boards,
    /// are passed over).
    fn on_line(&mut self, line: String) {
        if self.inflight.front().is_some_and(|s| s.line == line) {
            if let Some(unanswered) = &self.current {
                panic!("no reply to {:?}", unanswered.line);
            }
            self.current = self.inflight.pop_front();
        } else if line.starts_with('[') {
            if let Some(sent) = self.current.take() {
                self.acknowledge(sent, &line);
            }
        } else {
            panic!(
                "unexpected console output {line:?}; waiting for {:?}",
                self.inflight.front()
            );
        }
    }

    /// Records the console's reply to a line: what it acknowledged.
    fn acknowledge(&mut self, sent: Sent, reply: &str) {
        let what = || format!("{:?} was answered {reply:?}", sent.line);
        match sent.kind {
            Kind::Challenge { pair, variant } => {
                let p = &mut self.pairs[pair];
                let id = reply_id(reply).unwrap_or_else(|| panic!("{}", what()));
                let shown = postal::variants::Registry::builtin()
                    .get(variant)
                    .unwrap()
                    .display_name();
                let expected = format!("challenges @{} to {shown} ", p.black);
                assert!(reply.contains(&expected), "{}", what());
                assert!(!self.games.contains_key(&id), "{}: a used id", what());
                p.challenging = false;
                p.current = Some(id);
                let v = VARIANTS.iter().find(|(n, _)| *n == variant).unwrap().1;
                self.games.insert(id, GameModel::new(pair, v));
            }
            Kind::Accept { id } => {
                let g = self.games.get_mut(&id).unwrap();
                let expected = format!(
                    "[#games] game #{id}: {} accepted.",
                    self.pairs[g.pair].black
                );
                assert!(reply.starts_with(&expected), "{}", what());
                g.accept_acked = true;
            }
            Kind::Step { id, index, ends } => {
                let g = self.games.get_mut(&id).unwrap();
                assert_eq!(reply_id(reply), Some(id), "{}", what());
                let done = match g.steps[index] {
                    Step::Turn(_) => reply.contains(" played "),
                    Step::Resign => reply.contains("by resignation"),
                };
                assert!(done, "{}", what());
                assert_eq!(reply.contains("game over"), ends, "{}", what());
                assert_eq!(index, g.acked, "{}: acknowledged out of order", what());
                g.acked += 1;
                self.acks += 1;
            }
        }
    }

    /// One life of the console, from its start to its end.
    fn session(&mut self, n: usize, end: End) {
        let seed = self.rng.gen();
        let mut console = Console::start(&self.dir, &self.db, n, seed);
        let (lines, window, kill_delay) = match end {
            End::EarlyKill { delay } => {
                std::thread::sleep(delay);
                let left = console.stop(true);
                assert!(
                    left.iter().all(|l| l.starts_with('[')),
                    "output before any input: {left:?}"
                );
                return;
            }
            End::Kill {
                lines,
                window,
                delay,
            } => (lines, window, Some(delay)),
            End::Close { lines, window } => (lines, window, None),
        };
        let mut written = 0;
        loop {
            while let Ok(line) = console.lines.try_recv() {
                self.on_line(line);
            }
            // A kill comes after the last line is written; a clean stop after its reply.
            if written == lines && (kill_delay.is_some() || self.outstanding() == 0) {
                break;
            }
            if written == lines || self.outstanding() >= window {
                let line = console.next(|| self.waiting());
                self.on_line(line);
                continue;
            }
            match self.next_line() {
                Some(sent) => {
                    console.write(&sent.line);
                    self.inflight.push_back(sent);
                    written += 1;
                    self.lines_sent += 1;
                }
                None => {
                    let line = console.next(|| self.waiting());
                    self.on_line(line);
                }
            }
        }
        if let Some(delay) = kill_delay {
            std::thread::sleep(delay);
        }
        for line in console.stop(kill_delay.is_some()) {
            self.on_line(line);
        }
        // Whatever was not answered may or may not have been written: the check decides.
        self.inflight.clear();
        self.current = None;
    }

    /// Checks a copy of the database as the last session left it, then makes the test's
    /// games what the database holds.
    async fn check(&mut self, tag: &str) -> Checked {
        // A challenge not answered before the kill is found stored below, or sent again.
        let challenging: Vec<bool> = self
            .pairs
            .iter_mut()
            .map(|p| std::mem::take(&mut p.challenging))
            .collect();
        if !self.db.exists() {
            // Killed before it created the database: there is nothing to check.
            assert!(self.games.is_empty(), "{tag}: the database is gone");
            return Checked::default();
        }
        let copy_dir = self.dir.join("check");
        std::fs::create_dir_all(&copy_dir).unwrap();
        let copy = copy_dir.join("postal.db");
        std::fs::copy(&self.db, &copy).unwrap();
        let wal = self.dir.join("postal.db-wal");
        if wal.exists() {
            std::fs::copy(&wal, copy_dir.join("postal.db-wal")).unwrap();
        }
        let url = format!("sqlite:{}", copy.display());
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(integrity, ["ok"], "{tag}: the database is damaged");
        pool.close().await;

        let store = Store::open(&url).await.unwrap();
        let ids = store.game_ids().await.unwrap();
        for id in self.games.keys() {
            assert!(
                ids.contains(id),
                "{tag}: game #{id} was acknowledged but is not stored"
            );
        }
        for p in &mut self.pairs {
            p.current = None;
        }
        let mut checked = Checked {
            games: ids.len(),
            ..Checked::default()
        };
        for &id in &ids {
            let row = store.game(id).await.unwrap().unwrap();
            let black = row.seats.iter().find_map(|s| {
                s.user
                    .as_deref()
                    .filter(|u| *u != row.challenger)
                    .map(str::to_string)
            });
            let pair = self
                .pairs
                .iter()
                .position(|p| p.white == row.challenger && Some(p.black) == black.as_deref())
                .unwrap_or_else(|| panic!("{tag}: game #{id} between unknown players"));
            let g = self.games.entry(id).or_insert_with(|| {
                // A challenge the kill cut off before its reply: stored or not, both are
                // right; stored, the game goes on from it.
                assert!(challenging[pair], "{tag}: game #{id} was never challenged");
                assert_eq!(row.status, "challenged", "{tag}: game #{id}");
                let v = VARIANTS.iter().find(|(n, _)| *n == row.variant).unwrap().1;
                GameModel::new(pair, v)
            });
            assert_eq!(g.pair, pair, "{tag}: game #{id}'s players");
            let log = store.actions(id).await.unwrap();
            let n = log.len();
            assert!(
                n >= g.acked,
                "{tag}: game #{id}: {} actions acknowledged, only {n} stored",
                g.acked
            );
            assert!(
                n <= g.steps.len(),
                "{tag}: game #{id}: {n} actions stored, only {} sent",
                g.steps.len()
            );
            for (i, (entry, step)) in log.iter().zip(&g.steps).enumerate() {
                let stored: Value = serde_json::from_str(&entry.action).unwrap();
                assert_eq!(
                    stored,
                    step.action(),
                    "{tag}: game #{id}: action {} is not the one sent",
                    i + 1
                );
            }
            if g.accept_acked {
                assert_ne!(
                    row.status, "challenged",
                    "{tag}: game #{id}: an acknowledged acceptance is lost"
                );
            }
            if n > 0 {
                check_log(&store, id).await;
            }
            checked.actions += n;
            checked.unacknowledged_stored += n - g.acked;
            checked.unacknowledged_lost += g.steps.len() - n;
            // The games go on from what is stored.
            g.truncate(n);
            g.accept_sent = row.status != "challenged";
            g.accept_acked = g.accept_sent;
            assert_eq!(
                row.status == "finished",
                g.over(),
                "{tag}: game #{id} is stored as {} after its {n} actions",
                row.status
            );
            if !g.over() {
                let p = &mut self.pairs[pair];
                assert!(
                    p.current.is_none(),
                    "{tag}: {} and {} have two open games",
                    p.white,
                    p.black
                );
                p.current = Some(id);
            }
        }
        store.close().await;
        std::fs::remove_dir_all(&copy_dir).unwrap();
        checked
    }
}

/// What a check found.
#[derive(Debug, Default)]
struct Checked {
    games: usize,
    actions: usize,
    /// Actions sent but not acknowledged before the kill that were stored anyway.
    unacknowledged_stored: usize,
    /// Actions sent but not acknowledged before the kill that were not stored.
    unacknowledged_lost: usize,
}

#[test]
fn killed_at_random_moments_the_console_loses_no_acknowledged_move_and_its_database_stays_sound() {
    let seed = std::env::var("POSTAL_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0)
        });
    println!("crash_kill: seed {seed} (POSTAL_CRASH_SEED={seed} repeats the plan)");
    let started = Instant::now();
    let dir = TempDir::new("crash-kill");
    let mut run = Run::new(seed, &dir.0);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for n in 0..=KILLS {
        let end = if n == KILLS {
            End::Close {
                lines: 200,
                window: 8,
            }
        } else if run.rng.gen_ratio(1, 6) {
            End::EarlyKill {
                delay: Duration::from_micros(run.rng.gen_range(0..40_000)),
            }
        } else {
            End::Kill {
                lines: run.rng.gen_range(20..=400),
                window: run.rng.gen_range(1..=32),
                delay: Duration::from_micros(run.rng.gen_range(0..=3_000)),
            }
        };
        let acks = run.acks;
        run.session(n, end);
        let tag = format!("session {n}");
        let c = rt.block_on(run.check(&tag));
        println!(
            "{tag} ({end:?}): {} acknowledged, {} unacknowledged stored, {} unacknowledged lost; {} games and {} actions checked",
            run.acks - acks,
            c.unacknowledged_stored,
            c.unacknowledged_lost,
            c.games,
            c.actions
        );
    }
    let finished = run.games.values().filter(|g| g.over()).count();
    let doubles = run
        .games
        .values()
        .flat_map(|g| &g.steps)
        .filter(|s| matches!(s, Step::Turn(Turn::Double(..))))
        .count();
    println!(
        "crash_kill: {KILLS} kills, {} lines sent, {} actions acknowledged, {} games ({finished} finished, {doubles} double moves), {:.1} s",
        run.lines_sent,
        run.acks,
        run.games.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(finished > 0, "some games came to an end");
}
