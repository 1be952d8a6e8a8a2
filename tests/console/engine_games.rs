//! Whole games against the bot through the console (issue 60): standard chess, Chess960,
//! Crazyhouse and Three-check, each at level 1 and level 8, with Debian's engines at a
//! small budget. A scripted human (`common::engine_player`) reads every engine move the
//! console prints into its own copy of the game, by the project's rules (a move they
//! refuse fails the test), and answers with a legal move chosen with a fixed seed; a game
//! still going after its moves is resigned. Every game ends, and its stored log replays.

use crate::common;

use common::engine_player::{Human, MOST_MOVES, WHOLE_GAMES};
use common::service::{check_log, TempDir};
use postal::console::{block_on, run, Options, BOT};
use postal::engines::EngineSettings;
use postal::service::settings::Settings;
use postal::store::{GameStatus, Store};
use postal::variants::Registry;
use std::cell::RefCell;
use std::io::{BufRead, Read, Write};
use std::rc::Rc;

/// What the console printed so far, shared with the human who reads it.
#[derive(Clone, Default)]
struct Printed(Rc<RefCell<Vec<u8>>>);

impl Write for Printed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The console's input: each line is the humans' answer to what the console printed
/// last, one game after another.
struct Humans {
    printed: Printed,
    /// How much of the printed text was read.
    seen: usize,
    games: Vec<Human>,
    /// The game being played.
    current: usize,
    /// Whether each game was announced over.
    ended: Vec<bool>,
    line: Vec<u8>,
}

impl Humans {
    /// Reads what the console printed since last time into the game being played.
    fn read_printed(&mut self) {
        let printed = self.printed.0.borrow();
        let text = String::from_utf8_lossy(&printed[self.seen..]).into_owned();
        self.seen = printed.len();
        let Some(h) = self.games.get_mut(self.current) else {
            return;
        };
        for line in text.lines() {
            if let Some(san) = h.engine_move_in(line) {
                h.engine_played(&san);
            }
            if h.ends(line) {
                self.ended[self.current] = true;
            }
        }
    }

    /// The next line to type, or `None` once every game is over.
    fn next_line(&mut self) -> Option<String> {
        self.read_printed();
        while let Some(h) = self.games.get_mut(self.current) {
            if self.ended[self.current] || h.is_over() {
                self.current += 1;
                continue;
            }
            if h.moves >= MOST_MOVES {
                self.ended[self.current] = true;
                return Some(format!("{}: resign {}", h.user, h.id));
            }
            let san = h.choose().expect("the human is to move in a game not over");
            return Some(format!("{}: move {} {san}", h.user, h.id));
        }
        None
    }
}

impl Read for Humans {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(buf.len());
            buf[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Humans {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.line.is_empty() {
            if let Some(line) = self.next_line() {
                self.line = format!("{line}\n").into_bytes();
            }
        }
        Ok(&self.line)
    }
    fn consume(&mut self, n: usize) {
        self.line.drain(..n.min(self.line.len()));
    }
}

fn options(db: &str) -> Options {
    Options {
        db: db.into(),
        settings: Settings {
            seed: Some(1),
            engines: EngineSettings {
                nodes: 2_000,
                ..EngineSettings::default()
            },
            ..Default::default()
        },
        images: None,
        registry: Registry::builtin(),
    }
}

#[test]
fn whole_games_against_levels_1_and_8_end_in_four_variants() {
    let dir = TempDir::new("console-engine-games");
    let db = dir.db();
    let opts = options(&db);
    // The challenges, the human White in one game of each pair and Black in the other;
    // where the engine is White it opens at once.
    let users: Vec<String> = (0..WHOLE_GAMES.len()).map(|n| format!("p{n}")).collect();
    let script: String = WHOLE_GAMES
        .iter()
        .zip(&users)
        .enumerate()
        .map(|(n, ((variant, level), user))| {
            let colour = ["white", "black"][n % 2];
            format!("{user}: challenge @{BOT} {variant} level:{level} colour:{colour}\n")
        })
        .collect();
    let mut out = Vec::new();
    block_on(run(&opts, script.as_bytes(), &mut out))
        .unwrap()
        .unwrap();
    let games = block_on(async {
        let store = Store::open(&db).await.unwrap();
        let mut games = Vec::new();
        for (n, user) in users.iter().enumerate() {
            games.push(Human::of_stored(&store, n as i64 + 1, user).await);
        }
        store.close().await;
        games
    })
    .unwrap();
    let printed = Printed::default();
    let humans = Humans {
        printed: printed.clone(),
        seen: 0,
        ended: vec![false; games.len()],
        games,
        current: 0,
        line: Vec::new(),
    };
    let mut console = printed.clone();
    block_on(run(&opts, humans, &mut console)).unwrap().unwrap();
    let text = String::from_utf8_lossy(&printed.0.borrow()).into_owned();
    block_on(async {
        let store = Store::open(&db).await.unwrap();
        for (n, (variant, level)) in WHOLE_GAMES.iter().enumerate() {
            let id = n as i64 + 1;
            let g = store.game(id).await.unwrap().unwrap();
            assert_eq!(g.status, GameStatus::Finished, "game #{id}: {text}");
            assert!(g.options.contains(&format!("\"engine\":\"{level}\"")));
            assert_eq!(g.variant, *variant);
            // Both sides moved, and the log (the engine's moves with the human's) replays.
            let engine_moves = store
                .actions(id)
                .await
                .unwrap()
                .iter()
                .filter(|a| a.author == BOT)
                .count();
            assert!(engine_moves >= 1, "game #{id}: {text}");
            check_log(&store, id).await;
        }
        store.close().await;
    })
    .unwrap();
}
