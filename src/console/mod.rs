//! `postal console`: several users typing into one channel (`#games`) or privately to the
//! bot, through the same [`Service`] as the Discord adapter.
//!
//! Input lines: `NAME: TEXT` (typed in #games), `NAME> TEXT` (sent privately),
//! `# clock +3d` (move the simulated clock by days `d`, hours `h` or minutes `m`, then run
//! the deadline check), other lines starting with `#` are comments. Output lines:
//! `[#games] ...` and `[dm NAME] ...`; boards follow as a text diagram, or, with an images
//! folder, are drawn as PNG files whose names are printed (`[#games]   image: DIR/board-0001.png`).

mod database;

pub use database::{backup, migrate_db, BackupError, MigrateError};

use crate::service::referee::adapter::StoreError;
use crate::service::referee::{
    plain_text, Destination, Incoming, Outbound, Place, Service, Settings,
};
use crate::variants::Registry;
use std::io::{BufRead, Write};
use std::sync::Arc;

/// The bot's own user in the console, who plays the engine's seat (`challenge @postal`).
pub const BOT: &str = "postal";

/// The simulated clock's start: 2026-01-01 00:00 UTC.
pub const START: i64 = 1_767_225_600;

/// Console options.
#[derive(Clone, Debug)]
pub struct Options {
    /// The database URL.
    pub db: String,
    /// The service's settings; `seed` makes new games' random draws reproducible.
    pub settings: Settings,
    /// Where board images are written; `None` prints text diagrams instead.
    pub images: Option<std::path::PathBuf>,
    /// The variants played ([`Registry::builtin`] but in tests of a variant of their own).
    pub registry: Registry,
}

/// Writes board images into a folder, numbered in the order they are sent.
struct ImageWriter {
    dir: std::path::PathBuf,
    renderer: crate::render::Renderer,
    written: usize,
}

impl ImageWriter {
    fn new(dir: &std::path::Path) -> Result<ImageWriter, ConsoleError> {
        let failed = |error| ConsoleError::Images {
            path: dir.to_path_buf(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(failed)?;
        // Numbered on from the images an earlier run left, so a second run on the same
        // folder (a game continued after a restart) overwrites none of them.
        let written = std::fs::read_dir(dir)
            .map_err(failed)?
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("board-")
                    .or_else(|| name.strip_prefix("analysis-"))?
                    .strip_suffix(".png")?
                    .parse::<usize>()
                    .ok()
            })
            .max()
            .unwrap_or(0);
        Ok(ImageWriter {
            dir: dir.to_path_buf(),
            renderer: crate::render::Renderer::default(),
            written,
        })
    }

    /// Draws the message's board, or its analysis's graph, if it has one, and returns
    /// the file's path.
    fn write(&mut self, o: &Outbound) -> Result<Option<std::path::PathBuf>, ConsoleError> {
        let (name, png) = match (&o.image, &o.graph) {
            (Some(view), _) => (
                "board",
                self.renderer
                    .render_png(&view.board, &crate::render::RenderOptions::default()),
            ),
            (None, Some(graph)) => ("analysis", graph.to_png()),
            (None, None) => return Ok(None),
        };
        self.written += 1;
        let path = self.dir.join(format!("{name}-{:04}.png", self.written));
        std::fs::write(&path, png).map_err(|error| ConsoleError::Images {
            path: path.clone(),
            error,
        })?;
        Ok(Some(path))
    }
}

/// Formats one outbound message as console lines, naming its image file instead of
/// printing a diagram when the board was drawn.
fn format_with_image(o: &Outbound, image: Option<&std::path::Path>) -> String {
    match image {
        None => format(o),
        Some(path) => {
            let place = place_tag(&o.to);
            format!(
                "{place} {}\n{place}   image: {}",
                plain_text(&o.text).replace('\n', &format!("\n{place} ")),
                path.display()
            )
        }
    }
}

fn place_tag(to: &Destination) -> String {
    match to {
        Destination::Channel(c) => format!("[#{c}]"),
        Destination::Dm(u) => format!("[dm {u}]"),
    }
}

/// Formats one outbound message as console lines.
pub fn format(o: &Outbound) -> String {
    let place = place_tag(&o.to);
    let mut s = format!(
        "{place} {}",
        plain_text(&o.text).replace('\n', &format!("\n{place} "))
    );
    if let Some(v) = &o.image {
        for line in v.diagram.lines() {
            s.push_str(&format!("\n{place}   {line}"));
        }
    }
    s
}

fn parse_clock(arg: &str) -> Option<i64> {
    let a = arg.trim().strip_prefix('+')?;
    let (n, unit) = a.split_at(a.len().checked_sub(1)?);
    // Forward only: a whole number of units, no sign.
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = n.parse().ok()?;
    let mult = match unit {
        "d" => 86_400,
        "h" => 3_600,
        "m" => 60,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// Why the console stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// The database could not be opened, read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The images folder could not be made, read or written.
    #[error("{}: {error}", .path.display())]
    Images {
        /// The folder or file.
        path: std::path::PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The input could not be read.
    #[error("{0}")]
    Input(std::io::Error),
    /// The output could not be written.
    #[error("{0}")]
    Output(std::io::Error),
}

/// The sentence, for callers that report errors as text.
impl From<ConsoleError> for String {
    fn from(e: ConsoleError) -> String {
        e.to_string()
    }
}

/// Runs the console over `input`, writing replies to `out`.
pub async fn run(
    opts: &Options,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<(), ConsoleError> {
    run_with(opts, input, out, None).await
}

/// [`run`], stopped gracefully by Ctrl-C or SIGTERM: the line in hand is finished and
/// answered, the outbox messages claimed are given back, the WAL is checkpointed into the
/// database file, and the process exits with success, even while it waits for input.
pub async fn run_until_stopped(
    opts: &Options,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<(), ConsoleError> {
    let stop = Box::pin(crate::service::shutdown::StopSignal::listen().wait());
    run_with(opts, input, out, Some(stop)).await
}

/// A signal that the console is to stop, and its name.
type StopSignal = std::pin::Pin<Box<dyn std::future::Future<Output = &'static str> + Send>>;

async fn run_with(
    opts: &Options,
    input: impl BufRead,
    out: &mut impl Write,
    stop: Option<StopSignal>,
) -> Result<(), ConsoleError> {
    let service =
        Arc::new(Service::open(&opts.db, opts.settings.clone(), opts.registry.clone()).await?);
    // The bot is `@postal` in the console: challenging it challenges the engine.
    service.set_engine_user(BOT);
    // Held while a line is handled; a stop waits for it, so the line in hand is finished.
    let in_hand = Arc::new(tokio::sync::Mutex::new(()));
    if let Some(stop) = stop {
        stop_when(stop, Arc::clone(&in_hand), Arc::clone(&service));
    }
    let images = match &opts.images {
        Some(dir) => Some(ImageWriter::new(dir)?),
        None => None,
    };
    let mut session = Session {
        service: &service,
        images,
        now: START,
        id: session_id(),
    };
    // Deadline messages an earlier run recorded but did not deliver.
    let left = service.claim_undelivered().await?;
    session.deliver(left, out).await?;
    for (n, line) in input.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(out, "-- line {} is not UTF-8 text: skipped", n + 1)
                    .map_err(ConsoleError::Output)?;
                continue;
            }
            Err(e) => return Err(ConsoleError::Input(e)),
        };
        let _handling = in_hand.lock().await;
        session.line(n, line.trim(), out).await?;
    }
    service.close().await;
    Ok(())
}

/// Once `stop` resolves, waits for the line in hand, closes the database and exits.
fn stop_when(stop: StopSignal, in_hand: Arc<tokio::sync::Mutex<()>>, service: Arc<Service>) {
    tokio::spawn(async move {
        let why = stop.await;
        let _no_more = in_hand.lock().await;
        service.close().await;
        eprintln!("postal: stopped by {why}");
        std::process::exit(0);
    });
}

/// This run's own prefix for chat event ids: ids must not repeat across sessions on one
/// database (a repeated id is a duplicate delivery, answered with nothing).
fn session_id() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

/// One console run: the service, the images folder, the simulated clock.
struct Session<'a> {
    service: &'a Service,
    images: Option<ImageWriter>,
    /// The simulated clock.
    now: i64,
    /// The run's prefix for chat event ids ([`session_id`]).
    id: u128,
}

impl Session<'_> {
    /// Handles input line `n` (trimmed): a clock directive, a comment, or a user's line.
    async fn line(&mut self, n: usize, t: &str, out: &mut impl Write) -> Result<(), ConsoleError> {
        if t.is_empty() {
            return Ok(());
        }
        if let Some(rest) = t
            .strip_prefix("# clock")
            .or_else(|| t.strip_prefix("/advance"))
        {
            return self.clock(rest, out).await;
        }
        if t.starts_with('#') {
            return Ok(());
        }
        let replies = self.typed(n, t, out).await?;
        self.print(&replies, out)?;
        // An analysis the command queued is made now, through the same queue as the
        // bot's analysis task, so that its report follows the answer.
        if self.service.take_analysis_news() {
            let lease = self.service.analysis_lease_seconds();
            while self.service.analyse_next(lease).await?.is_some() {}
        }
        // The engine's turn the command gave it, in a game against the bot, is played
        // now, through the same queue as the bot's engine task; its move follows.
        if self.service.take_engine_news() {
            while self.service.play_engine_next(self.now).await?.is_some() {}
        }
        // What the command queued in the outbox (a tournament's round) follows its answer.
        if self.service.take_outbox_news() {
            let queued = self.service.claim_undelivered().await?;
            self.deliver(queued, out).await?;
        }
        Ok(())
    }

    /// `# clock +3d`: moves the simulated clock forward and delivers what the deadline
    /// check finds.
    async fn clock(&mut self, rest: &str, out: &mut impl Write) -> Result<(), ConsoleError> {
        let Some(later) = parse_clock(rest).and_then(|dt| self.now.checked_add(dt)) else {
            return writeln!(
                out,
                "-- bad clock directive: the clock moves forward only (write # clock +3d, +5h or +30m)"
            )
            .map_err(ConsoleError::Output);
        };
        self.now = later;
        writeln!(
            out,
            "-- clock {}",
            crate::service::referee::format_time(self.now)
        )
        .map_err(ConsoleError::Output)?;
        let queued = self.service.tick(self.now).await?;
        self.deliver(queued, out).await
    }

    /// `NAME: TEXT` or `NAME> TEXT`, echoed and handed to the service: its replies, none
    /// for a line that is refused or that the database failed on (reported).
    async fn typed(
        &mut self,
        n: usize,
        t: &str,
        out: &mut impl Write,
    ) -> Result<Vec<Outbound>, ConsoleError> {
        let Some((cut, place)) = speaker_end(t) else {
            writeln!(out, "-- write NAME: TEXT or NAME> TEXT").map_err(ConsoleError::Output)?;
            return Ok(Vec::new());
        };
        let name = t[..cut].trim().to_lowercase();
        if !crate::service::names::is_user_key(&name) {
            writeln!(
                out,
                "-- a user name is one word of at most {} letters, digits, _, - or .",
                crate::service::names::MAX_KEY_CHARS
            )
            .map_err(ConsoleError::Output)?;
            return Ok(Vec::new());
        }
        if name == BOT {
            writeln!(out, "-- {BOT} is the bot: it plays its own moves")
                .map_err(ConsoleError::Output)?;
            return Ok(Vec::new());
        }
        let text = t[cut + 1..].trim().to_string();
        writeln!(out, "{}", t).map_err(ConsoleError::Output)?;
        let inc = Incoming {
            event_id: format!("console-{:x}-{n}", self.id),
            user: name,
            place,
            via: None,
            server: None,
            text,
            at: self.now,
        };
        match self.service.handle(inc).await {
            Ok(replies) => Ok(replies),
            Err(e) => {
                // Reported and skipped: the line changed nothing, the session goes on.
                writeln!(out, "-- the database failed on this line ({e}): skipped")
                    .map_err(ConsoleError::Output)?;
                Ok(Vec::new())
            }
        }
    }

    /// Prints messages, drawing their boards when there is an images folder.
    fn print(&mut self, replies: &[Outbound], out: &mut impl Write) -> Result<(), ConsoleError> {
        for r in replies {
            let image = match self.images.as_mut() {
                Some(w) => w.write(r)?,
                None => None,
            };
            writeln!(out, "{}", format_with_image(r, image.as_deref()))
                .map_err(ConsoleError::Output)?;
        }
        Ok(())
    }

    /// Prints the deadline check's messages, marking each delivered once printed.
    async fn deliver(
        &mut self,
        queued: Vec<crate::service::referee::Queued>,
        out: &mut impl Write,
    ) -> Result<(), ConsoleError> {
        for q in queued {
            // The console gives games no threads: a thread to rename is nothing to it. Nor
            // does it show an analysis's progress: it makes an analysis before it reads
            // its next line, so the report follows at once.
            if !q.message.retitle && q.message.progress.is_none() {
                self.print(std::slice::from_ref(&q.message), out)?;
            }
            self.service.delivered(q.id, self.now).await?;
        }
        Ok(())
    }
}

/// Where the speaker's name ends in a user's line, and where they typed: `NAME> TEXT`
/// privately, `NAME: TEXT` in #games (whichever mark comes first); `None` for neither.
fn speaker_end(t: &str) -> Option<(usize, Place)> {
    match (t.find(':'), t.find('>')) {
        (Some(c), Some(g)) if g < c => Some((g, Place::Dm)),
        (Some(c), _) => Some((c, Place::Channel("games".into()))),
        (None, Some(g)) => Some((g, Place::Dm)),
        (None, None) => None,
    }
}

/// `postal export`: one stored game as PGN or JSON text, or as an animated GIF
/// ([`crate::service::export`]).
pub async fn export(
    db: &str,
    id: i64,
    format: &str,
) -> Result<Vec<u8>, crate::service::export::ExportError> {
    crate::service::export::export_stored(db, id, format).await
}

/// Runs a future on a fresh Tokio runtime; the error is the system's, when no runtime
/// can be started.
pub fn block_on<F: std::future::Future>(f: F) -> std::io::Result<F::Output> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map(|rt| rt.block_on(f))
}
