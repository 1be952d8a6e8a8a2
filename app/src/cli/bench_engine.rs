//! `postal bench engine`: the engine's reply time at each level, 1 to 8, at the default
//! budget (Debian's Stockfish, one thread, 100,000 nodes), over a few fixed positions;
//! and the load that `postal bench service --engine-games N` puts beside the human games
//! it measures: N games against the bot in the same service and database, whose human
//! side is played by a loop (a legal move as soon as it is its turn) and whose engine
//! side by the bot's own engine task, so that the human games' latency is measured with
//! the engine games running.

use super::CliError;
use postal::engines::{EngineSettings, Engines, Level, Query};
use postal::service::engine_task::EngineTask;
use postal::service::referee::{whole_with, Incoming, Place, Service};
use postal::store::GameStatus;
use postal::variants::api::{Seat, Viewer};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The positions each level answers: the start, and three middlegames.
const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/ppp2ppp/2n1bn2/2bqp3/8/2NP1N2/PPP1BPPP/R1BQ1RK1 w kq - 0 9",
    "r4rk1/pp3ppp/2p5/4q3/2B1n3/2N5/PPP2PPP/R2Q1RK1 w - - 0 1",
];

/// `postal bench engine [--replies N]`: prints, per level, the median and the slowest of
/// `replies` replies in each of [`POSITIONS`], in milliseconds.
pub fn main(replies: usize) -> Result<(), CliError> {
    super::block_on(async {
        let settings = EngineSettings::default();
        let nodes = settings.nodes;
        let engines = Engines::new(settings);
        // Started before the first timed reply.
        engines
            .lease()
            .await
            .knows("chess")
            .await
            .map_err(|e| CliError::Engine(e.to_string()))?;
        for level in 1..=8 {
            let level = Level::of(level).expect("levels 1 to 8");
            let mut times = Vec::new();
            for fen in POSITIONS {
                for _ in 0..replies.max(1) {
                    let q = Query {
                        variant: "chess",
                        king_takes_rook: false,
                        fen,
                        moves: &[],
                        white_to_move: fen.contains(" w "),
                    };
                    let started = Instant::now();
                    let mut lease = engines.lease().await;
                    lease
                        .play(&q, &level)
                        .await
                        .map_err(|e| CliError::Engine(e.to_string()))?;
                    times.push(started.elapsed().as_secs_f64() * 1e3);
                }
            }
            times.sort_by(f64::total_cmp);
            println!(
                "engine bench: level {} (skill {}, depth {}, {} ms, {nodes} nodes): reply median {:.1} ms, slowest {:.1} ms, of {}",
                level.level,
                level.skill,
                level.depth,
                level.movetime_ms,
                times[times.len() / 2],
                times[times.len() - 1],
                times.len()
            );
        }
        Ok(())
    })
}

/// The bot's user in the bench's engine games.
const BOT: &str = "bench-bot";

/// Engine games played beside a bench ([`EngineLoad::start`]), until stopped.
pub struct EngineLoad {
    stop: Arc<AtomicBool>,
    humans: tokio::task::JoinHandle<Result<u64, CliError>>,
    engine: EngineTask,
}

impl EngineLoad {
    /// Starts `games` games against the bot at level 8 in `service`, their human side
    /// played by a task of its own and the engine's by the engine task.
    pub async fn start(service: Arc<Service>, games: usize) -> Result<EngineLoad, CliError> {
        service.set_engine_user(BOT);
        let mut ids = Vec::new();
        for n in 0..games {
            ids.push(challenge(&service, n, n as u64).await?);
        }
        let engine = EngineTask::spawn(Arc::clone(&service), Duration::from_millis(200));
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let humans = tokio::spawn(async move {
            let mut moves = 0;
            let mut event = 0;
            while !stopped.load(Ordering::Relaxed) {
                let mut waiting = true;
                for (n, id) in ids.iter_mut().enumerate() {
                    event += 1;
                    match human_move(&service, n, *id, event).await? {
                        Turn::Moved => {
                            moves += 1;
                            waiting = false;
                        }
                        Turn::Over => *id = challenge(&service, n, 2_000_000 + event).await?,
                        Turn::Waiting => {}
                    }
                }
                if waiting {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
            Ok(moves)
        });
        Ok(EngineLoad {
            stop,
            humans,
            engine,
        })
    }

    /// Stops the games; how many human moves and engine turns were played.
    pub async fn stop(self) -> Result<(u64, u64), CliError> {
        self.stop.store(true, Ordering::Relaxed);
        let moves = self.humans.await??;
        Ok((moves, self.engine.stop().await))
    }
}

/// Where a bench engine game stands for its human.
enum Turn {
    Moved,
    Over,
    Waiting,
}

/// The engine game of the load's player `n`: a new challenge to the bot, as chat event
/// `event`; its id.
async fn challenge(service: &Service, n: usize, event: u64) -> Result<i64, CliError> {
    let text = format!("challenge @{BOT} standard level:8 colour:white");
    let out = service.handle(incoming(n, &text, event)).await?;
    out.first()
        .and_then(|o| o.game.filter(|_| o.refusal.is_none()))
        .ok_or(CliError::ChallengeRefused)
}

/// The load's player `n` moves in game `id` when it is their turn: the first legal move
/// by the project's rules.
async fn human_move(service: &Service, n: usize, id: i64, event: u64) -> Result<Turn, CliError> {
    let store = service.store();
    let Some(g) = store.game(id).await? else {
        return Ok(Turn::Over);
    };
    if g.status != GameStatus::Active {
        return Ok(Turn::Over);
    }
    let log = store.actions(id).await?;
    let Ok(rules) = whole_with(service.registry(), &g, &log) else {
        return Ok(Turn::Over);
    };
    let legal = rules.project(Viewer::Seat(Seat(0))).legal;
    let Some(san) = legal.get(event as usize % legal.len().max(1)) else {
        return Ok(Turn::Waiting);
    };
    service
        .handle(incoming(n, &format!("move {id} {san}"), 1_000_000 + event))
        .await?;
    Ok(Turn::Moved)
}

/// Player `n` of the load typing `text`, as chat event `event`.
fn incoming(n: usize, text: &str, event: u64) -> Incoming {
    Incoming {
        event_id: format!("engine-load-{event}"),
        user: format!("e{n}"),
        place: Place::Channel(format!("engine-{n}")),
        via: None,
        server: None,
        text: text.to_string(),
        at: postal::store::unix_now(),
    }
}
