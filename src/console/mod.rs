//! `postal console`: several users typing into one channel (`#games`) or privately to the
//! bot, through the same [`Service`] as the Discord adapter.
//!
//! Input lines: `NAME: TEXT` (typed in #games), `NAME> TEXT` (sent privately),
//! `# clock +3d` (move the simulated clock by days `d`, hours `h` or minutes `m`, then run
//! the deadline check), other lines starting with `#` are comments. Output lines:
//! `[#games] ...` and `[dm NAME] ...`; boards follow as a text diagram, or, with an images
//! folder, are drawn as PNG files whose names are printed (`[#games]   image: DIR/board-0001.png`).

mod migrate;

pub use migrate::migrate_db;

use crate::service::referee::{
    plain_text, Destination, Incoming, Outbound, Place, Service, Settings,
};
use crate::store::Store;
use crate::variants::api::Viewer;
use crate::variants::Registry;
use std::io::{BufRead, Write};

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
    fn new(dir: &std::path::Path) -> Result<ImageWriter, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // Numbered on from the images an earlier run left, so a second run on the same
        // folder (a game continued after a restart) overwrites none of them.
        let written = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("board-")?
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

    /// Draws the message's board, if it has one, and returns the file's path.
    fn write(&mut self, o: &Outbound) -> Result<Option<std::path::PathBuf>, String> {
        let Some(view) = &o.image else {
            return Ok(None);
        };
        self.written += 1;
        let path = self.dir.join(format!("board-{:04}.png", self.written));
        let png = self
            .renderer
            .render_png(&view.board, &crate::render::RenderOptions::default());
        std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
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

/// Runs the console over `input`, writing replies to `out`.
pub async fn run(opts: &Options, input: impl BufRead, out: &mut impl Write) -> Result<(), String> {
    run_with(opts, input, out, None).await
}

/// [`run`], stopped gracefully by Ctrl-C or SIGTERM: the line in hand is finished and
/// answered, the outbox messages claimed are given back, the WAL is checkpointed into the
/// database file, and the process exits with success, even while it waits for input.
pub async fn run_until_stopped(
    opts: &Options,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<(), String> {
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
) -> Result<(), String> {
    let store = Store::open(&opts.db).await.map_err(|e| e.to_string())?;
    // Held while a line is handled; a stop waits for it, so the line in hand is finished.
    let in_hand = std::sync::Arc::new(tokio::sync::Mutex::new(()));
    if let Some(stop) = stop {
        let (in_hand, store) = (std::sync::Arc::clone(&in_hand), store.clone());
        tokio::spawn(async move {
            let why = stop.await;
            let _no_more = in_hand.lock().await;
            store.close().await;
            eprintln!("postal: stopped by {why}");
            std::process::exit(0);
        });
    }
    let service = Service::with_registry(store, opts.settings.clone(), opts.registry.clone());
    let mut images = match &opts.images {
        Some(dir) => Some(ImageWriter::new(dir)?),
        None => None,
    };
    let mut now = START;
    // Chat event ids must not repeat across sessions on one database (a repeated id is
    // a duplicate delivery, answered with nothing): each run has its own prefix.
    let session = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    // Deadline messages an earlier run recorded but did not deliver.
    let left = service
        .claim_undelivered()
        .await
        .map_err(|e| e.to_string())?;
    deliver(&service, left, now, images.as_mut(), out).await?;
    for (n, line) in input.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(out, "-- line {} is not UTF-8 text: skipped", n + 1)
                    .map_err(|e| e.to_string())?;
                continue;
            }
            Err(e) => return Err(e.to_string()),
        };
        let _handling = in_hand.lock().await;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let mut replies: Vec<Outbound> = Vec::new();
        if let Some(rest) = t
            .strip_prefix("# clock")
            .or_else(|| t.strip_prefix("/advance"))
        {
            match parse_clock(rest).and_then(|dt| now.checked_add(dt)) {
                Some(later) => {
                    now = later;
                    writeln!(
                        out,
                        "-- clock {}",
                        crate::service::referee::format_time(now)
                    )
                    .map_err(|e| e.to_string())?;
                    let queued = service.tick(now).await.map_err(|e| e.to_string())?;
                    deliver(&service, queued, now, images.as_mut(), out).await?;
                }
                None => writeln!(
                    out,
                    "-- bad clock directive: the clock moves forward only (write # clock +3d, +5h or +30m)"
                )
                .map_err(|e| e.to_string())?,
            }
        } else if t.starts_with('#') {
            continue;
        } else {
            let colon = t.find(':');
            let gt = t.find('>');
            let (cut, place) = match (colon, gt) {
                (Some(c), Some(g)) if g < c => (g, Place::Dm),
                (Some(c), _) => (c, Place::Channel("games".into())),
                (None, Some(g)) => (g, Place::Dm),
                (None, None) => {
                    writeln!(out, "-- write NAME: TEXT or NAME> TEXT")
                        .map_err(|e| e.to_string())?;
                    continue;
                }
            };
            let name = t[..cut].trim().to_lowercase();
            if !crate::service::names::is_user_key(&name) {
                writeln!(
                    out,
                    "-- a user name is one word of at most {} letters, digits, _, - or .",
                    crate::service::names::MAX_KEY_CHARS
                )
                .map_err(|e| e.to_string())?;
                continue;
            }
            let text = t[cut + 1..].trim().to_string();
            writeln!(out, "{}", t).map_err(|e| e.to_string())?;
            let inc = Incoming {
                event_id: format!("console-{session:x}-{n}"),
                user: name,
                place,
                via: None,
                server: None,
                text,
                at: now,
            };
            replies = match service.handle(inc).await {
                Ok(replies) => replies,
                Err(e) => {
                    // Reported and skipped: the line changed nothing, the session goes on.
                    writeln!(out, "-- the database failed on this line ({e}): skipped")
                        .map_err(|e| e.to_string())?;
                    continue;
                }
            };
        }
        for r in &replies {
            let image = match images.as_mut() {
                Some(w) => w.write(r)?,
                None => None,
            };
            writeln!(out, "{}", format_with_image(r, image.as_deref()))
                .map_err(|e| e.to_string())?;
        }
    }
    service.store().close().await;
    Ok(())
}

/// Prints the deadline check's messages, marking each delivered once printed.
async fn deliver(
    service: &Service,
    queued: Vec<crate::service::referee::Queued>,
    now: i64,
    mut images: Option<&mut ImageWriter>,
    out: &mut impl Write,
) -> Result<(), String> {
    for q in queued {
        let image = match images.as_deref_mut() {
            Some(w) => w.write(&q.message)?,
            None => None,
        };
        writeln!(out, "{}", format_with_image(&q.message, image.as_deref()))
            .map_err(|e| e.to_string())?;
        service
            .delivered(q.id, now)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `postal backup`: a consistent copy of the database at `db` in the new file `out`,
/// made while the bot may be running (SQLite's `VACUUM INTO`). A database that does not
/// exist is an error, never created.
pub async fn backup(db: &str, out: &std::path::Path) -> Result<(), String> {
    existing_database(db)?;
    let store = Store::open_read_only(db).await.map_err(|e| e.to_string())?;
    let out = out.to_string_lossy();
    let result = store.backup(&out).await.map_err(|e| format!("{out}: {e}"));
    store.close().await;
    result
}

/// The file of database URL `db`, if it exists: commands that only read a database never
/// create one (a typo in `--db` would otherwise leave an empty database behind).
fn existing_database(db: &str) -> Result<(), String> {
    if crate::store::Backend::of_url(db) == crate::store::Backend::Postgres {
        // A server's database is never created by opening it.
        return Ok(());
    }
    let file = crate::store::database_file(db);
    if db.contains(":memory:") || !std::path::Path::new(file).is_file() {
        return Err(format!("{file}: no such database file"));
    }
    Ok(())
}

/// `postal export`: one stored game as PGN or JSON text, or as an animated GIF.
pub async fn export(db: &str, id: i64, format: &str) -> Result<Vec<u8>, String> {
    existing_database(db)?;
    let store = Store::open_read_only(db).await.map_err(|e| e.to_string())?;
    let g = store
        .game(id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("there is no game #{id}"))?;
    let log = store.actions(id).await.map_err(|e| e.to_string())?;
    store.close().await;
    // The referee's clock entries: deadlines extended for a player's vacation.
    let clock_extensions: Vec<serde_json::Value> = log
        .iter()
        .filter_map(|row| {
            let a: crate::variants::api::Action = serde_json::from_str(&row.action).ok()?;
            a.vacation_entry().map(|v| {
                serde_json::json!({"seat": row.seat, "vacation_from": v.from,
                    "vacation_to": v.to, "seconds": v.seconds})
            })
        })
        .collect();
    let rules = crate::service::referee::load_with(&crate::variants::Registry::builtin(), &g)
        .map_err(|e| e.text)?;
    // What anyone may see: a live game's secrets stay in the game, and the game decides
    // what its public projection shows once it is over.
    let viewer = Viewer::Public;
    let over = matches!(g.status.as_str(), "finished" | "aborted");
    match format {
        "pgn" => Ok(rules
            .pgn(
                viewer,
                &crate::service::referee::pgn_tags(&g, rules.as_ref(), &[]),
            )
            .into_bytes()),
        "gif" => {
            let names = crate::service::referee::seat_users(&g);
            rules
                .animation(viewer, &crate::render::Renderer::default(), &names)
                .ok_or_else(|| format!("{} games have no animation", g.variant))
        }
        "json" => {
            let projection = rules.project(viewer);
            let o = rules.outcome();
            let seats: Vec<serde_json::Value> = g
                .seats
                .iter()
                .map(|s| serde_json::json!({"seat": s.seat, "user": s.user, "role": s.role}))
                .collect();
            let v = serde_json::json!({
                "id": g.id,
                "variant": g.variant,
                "status": g.status,
                "result": o.as_ref().map(|o| o.result.clone()),
                "reason": o.as_ref().map(|o| o.reason.clone()),
                "score": o.as_ref().and_then(|o| o.score.clone()),
                "seats": seats,
                "days_per_move": g.days_per_move,
                "start_fen": g.start_fen,
                "moves": projection.record,
                "fen": projection.fen,
                "clock_extensions": clock_extensions,
            });
            let mut v = v;
            if over {
                v["seed"] = serde_json::json!(g.seed);
            }
            for (key, value) in rules.export_fields(viewer) {
                v[key] = value;
            }
            serde_json::to_string_pretty(&v)
                .map(String::into_bytes)
                .map_err(|e| e.to_string())
        }
        other => Err(format!("unknown format '{other}': pgn, json or gif")),
    }
}

/// Runs a future on a fresh Tokio runtime.
pub fn block_on<F: std::future::Future>(f: F) -> Result<F::Output, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map(|rt| rt.block_on(f))
        .map_err(|e| e.to_string())
}
