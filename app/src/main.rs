//! The `postal` command line.

mod cli;

use clap::{Parser, Subcommand};
use postal::notation::fen::parse_fen;
use postal::rules::{divide, divide_turns, perft, perft_turns, Position, Variant};
use postal::service::settings::Settings;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The process's allocator: mimalloc, whose allocations and frees cost fewer instructions
/// than glibc's on a move's many small strings (ARCHITECTURE.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Postal: a referee for correspondence games of chess and chess variants.
#[derive(Parser)]
#[command(name = "postal", version, about)]
struct Cli {
    /// Without a command: the bot (`run`) when DISCORD_TOKEN is set, else the console on
    /// the configured database (`console`).
    #[command(subcommand)]
    command: Option<Command>,
}

/// The chess-like variant `name` means, found in the registry (so a variant's own
/// folder's board counts too).
fn board_variant(name: &str) -> Result<Variant, postal::variants::api::RuleError> {
    postal::variants::Registry::builtin().board_variant(name)
}

#[derive(Subcommand)]
enum Command {
    /// Counts move paths of DEPTH plies (rules testing); in double-move, paths of DEPTH
    /// turns, each a single move or a double move.
    Perft {
        /// A chess-like variant: standard, chess-sharp, los-alamos, double-move,
        /// chesswords, king-of-the-hill, three-check, racing-kings, horde,
        /// crazyhouse, chess960, antichess, atomic.
        #[arg(value_parser = board_variant)]
        variant: Variant,
        /// Plies to count.
        depth: u32,
        /// Start from this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count for each root move (UCI form) before the total.
        #[arg(long)]
        divide: bool,
    },
    /// Draws one position as a PNG board image.
    Render {
        /// A chess-like variant: standard, chess-sharp, los-alamos, double-move,
        /// chesswords, king-of-the-hill, three-check, racing-kings, horde,
        /// crazyhouse, chess960, antichess, atomic.
        #[arg(value_parser = board_variant)]
        variant: Variant,
        /// Draw this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// A legal move in that position, in any notation (e4, Nf3, e2e4, N@d1, ...),
        /// played and highlighted.
        #[arg(long)]
        last_move: Option<String>,
        /// Black at the bottom instead of White.
        #[arg(long)]
        flip: bool,
        /// Pixels across the board.
        #[arg(long, default_value_t = postal::render::DEFAULT_BOARD_PX)]
        size: u32,
        /// The PNG file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Plays in the terminal as several users in one channel (`NAME: TEXT`, `NAME> TEXT`).
    Console {
        /// Database URL (default: `database_url` of config/postal.toml or DATABASE_URL;
        /// `sqlite::memory:` for a scratch game).
        #[arg(long)]
        db: Option<String>,
        /// Read the lines from this file instead of the keyboard.
        #[arg(long)]
        script: Option<std::path::PathBuf>,
        /// Makes every random draw of new games reproducible, hidden ones (dealt cards)
        /// included, for tests and teaching. Without it the console draws like the bot:
        /// from the operating system's entropy.
        #[arg(long)]
        seed: Option<u64>,
        /// Write board images into this folder (printing their names) instead of
        /// printing text diagrams.
        #[arg(long)]
        images: Option<std::path::PathBuf>,
    },
    /// Starts the Discord bot: token from DISCORD_TOKEN, settings from config/postal.toml,
    /// config/discord.toml and the environment (see README.md). Stops cleanly on Ctrl-C or SIGTERM.
    Run,
    /// Prints one stored game as PGN, JSON or an animated GIF.
    Export {
        /// The game id.
        id: i64,
        /// Database URL (default: from the configuration).
        #[arg(long)]
        db: Option<String>,
        /// pgn, json or gif (an animation of the whole game).
        #[arg(long, default_value = "pgn")]
        format: String,
        /// Write to this file instead of standard output (a GIF is never written to a
        /// terminal).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Recomputes every server's ratings, Chess# points and solitaire best scores from the
    /// stored finished games and prints them, one line per player and family (nothing is
    /// cached: the bot computes the same tables from the same games when asked).
    Ratings {
        /// Rebuild from the stored games (the only mode; kept for operators' scripts).
        #[arg(long)]
        recompute: bool,
        /// Only this server (a Discord guild id; `-` for private and console games).
        #[arg(long)]
        server: Option<String>,
        /// Database URL (default: from the configuration).
        #[arg(long)]
        db: Option<String>,
    },
    /// Writes a consistent copy of the database to a new file, while the bot runs: the
    /// way to back it up (copying the database file alone may miss what is in its WAL).
    Backup {
        /// The new file to write.
        out: PathBuf,
        /// Database URL (default: from the configuration).
        #[arg(long)]
        db: Option<String>,
    },
    /// Deletes a player's personal data at their request, as `forget-me confirm` does:
    /// their settings, vacations, digests and private messages go, and their key in the
    /// records of their past games becomes a neutral label ("Former player 3"), so the
    /// games stay replayable. Refused while they have games or challenges under way.
    /// Safe while the bot runs.
    ForgetUser {
        /// The player's key: their Discord user id, or their console name.
        user: String,
        /// Database URL (default: from the configuration).
        #[arg(long)]
        db: Option<String>,
    },
    /// Copies every game, action and pending message of one database into a new, empty
    /// one (SQLite to PostgreSQL or back), then checks that every copied game replays to
    /// its stored state. Stop the bot first: what it writes meanwhile is not copied.
    MigrateDb {
        /// The database to copy (`sqlite:postal.db`, `postal.db`, `postgres://...`).
        #[arg(long)]
        from: String,
        /// The database to copy into: a new SQLite file, or an empty PostgreSQL
        /// database.
        #[arg(long)]
        to: String,
    },
    /// Measures how fast things are.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Accepted moves per second and p99 per move through the referee on SQLite and on
    /// PostgreSQL, with one process and with two sharing the database, in one run.
    Backends {
        /// Games per configuration, 33 moves each.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// A PostgreSQL database to measure on (a scratch schema is made in it and
        /// dropped); without it only SQLite is measured.
        #[arg(long)]
        postgres: Option<String>,
        /// After each PostgreSQL configuration, pgbench with as many clients running a
        /// move's statements as the store sends them (pgbench must be on the PATH).
        #[arg(long)]
        pgbench: bool,
        /// (Internal) play as client process N of `--clients` on `--url`.
        #[arg(long, hide = true, requires_all = ["clients", "url"])]
        client: Option<usize>,
        /// (Internal) the number of client processes.
        #[arg(long, hide = true)]
        clients: Option<usize>,
        /// (Internal) the database a client process plays on.
        #[arg(long, hide = true)]
        url: Option<String>,
    },
    /// Median and p99 time to draw and encode one board image, and its size in bytes.
    Render {
        /// Pixels across the board (default: the renderer's default size).
        #[arg(long)]
        size: Option<u32>,
        /// Images drawn per position.
        #[arg(long, default_value_t = 2000)]
        iterations: usize,
        /// Only the positions whose name starts with this (`standard`, `chess#`,
        /// `los-alamos`, `chesswords`), to count one under callgrind.
        #[arg(long)]
        position: Option<String>,
        /// Time the first image of each position instead, drawn by a renderer with
        /// nothing prepared (`iterations` renderers each, the first in a fresh process).
        #[arg(long)]
        cold: bool,
    },
    /// Accepted moves per second through the referee into a SQLite file (WAL), with
    /// p50/p99 latency per move and the database size per finished game.
    Service {
        /// Games played, 33 moves each.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Runs, each on a new database; the best and the median are reported.
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// The database file to create (it must not exist; default: a scratch file).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Moves typed bare, without a game id, after another user has opened this many
        /// challenges in the games' channels (the limit raised to allow it; 0 for none):
        /// a player's commands cost the same however many challenges others hold.
        #[arg(long)]
        crowd: Option<usize>,
        /// Sets up the games, then plays exactly this many moves of them and times
        /// nothing: the difference of two runs' instruction counts under callgrind
        /// (`valgrind --tool=callgrind`), divided by the difference of their counts, is
        /// the instructions per move (README, "Benchmarks").
        #[arg(long)]
        count: Option<usize>,
        /// Plays that many 40-move games to their end and queues their engine analyses
        /// first; the analysis task makes them with the real engines (default settings)
        /// while the moves are measured, and the time each took is reported.
        #[arg(long, default_value_t = 0)]
        analyses: usize,
        /// Games against the bot (level 8, Stockfish at the default budget) played in
        /// the same service while the moves are measured (0 for none).
        #[arg(long, default_value_t = 0)]
        engine_games: usize,
    },
    /// The engine's reply time at each level, 1 to 8, at the default budget.
    Engine {
        /// Replies per level in each of the bench's four positions.
        #[arg(long, default_value_t = 5)]
        replies: usize,
    },
    /// The deadline check's cost: that many active games stored, then ticks of the
    /// deadline check with nothing due, each timed (a tick reads what is due, so it costs
    /// the same with a hundred games as with a hundred thousand).
    Deadlines {
        /// Active games stored, each with a deadline in the next three days.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Deadline checks run after the first (which looks at every deadline once).
        #[arg(long, default_value_t = 100)]
        ticks: usize,
    },
}

/// Prints a command's error and picks the exit code.
fn report(result: Result<(), impl std::fmt::Display>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("postal: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes an export to `out`, or to standard output (text gets a final newline; binary
/// output to a terminal is refused).
fn write_export(bytes: &[u8], format: &str, out: Option<&std::path::Path>) -> ExitCode {
    use std::io::{IsTerminal, Write};
    let result = match out {
        Some(path) => std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display())),
        None if format == "gif" && std::io::stdout().is_terminal() => {
            Err("a GIF is not written to a terminal: use --out FILE or redirect".to_string())
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            let newline: &[u8] = if format == "gif" { b"" } else { b"\n" };
            stdout
                .write_all(bytes)
                .and_then(|_| stdout.write_all(newline))
                .map_err(|e| e.to_string())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("postal: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or_else(default_command);
    match command {
        Command::Run => run_bot(),
        Command::Console {
            db,
            script,
            seed,
            images,
        } => console(db, script, seed, images),
        Command::Export {
            id,
            db,
            format,
            out,
        } => export(id, db, &format, out.as_deref()),
        Command::Ratings {
            recompute: _,
            server,
            db,
        } => ratings(db, server.as_deref()),
        Command::MigrateDb { from, to } => {
            let result = postal::console::block_on(postal::console::migrate_db(&from, &to))
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()))
                .map(|summary| eprintln!("postal: {summary}"))
                .map_err(|e| scrub(&scrub(&e, &from), &to));
            report(result)
        }
        Command::Backup { out, db } => backup(db, &out),
        Command::ForgetUser { user, db } => forget_user(db, &user),
        Command::Perft {
            variant,
            depth,
            fen,
            divide: by_move,
        } => perft_command(variant, depth, fen.as_deref(), by_move),
        Command::Render {
            variant,
            fen,
            last_move,
            flip,
            size,
            out,
        } => report(cli::render::render(
            variant,
            fen.as_deref(),
            last_move.as_deref(),
            flip,
            size,
            &out,
        )),
        Command::Bench { what } => bench(what),
    }
}

/// Runs the benchmark `what` (`postal bench ...`).
fn bench(what: BenchCommand) -> ExitCode {
    match what {
        BenchCommand::Render {
            size,
            iterations,
            position,
            cold: false,
        } => report(cli::render::bench(size, iterations, position.as_deref())),
        BenchCommand::Render {
            size,
            iterations,
            position,
            cold: true,
        } => report(cli::render::bench_cold(
            size,
            iterations,
            position.as_deref(),
        )),
        BenchCommand::Service {
            games,
            runs,
            db,
            crowd,
            count,
            analyses,
            engine_games,
        } => report(cli::bench_service::main(
            games,
            runs,
            db,
            crowd,
            count,
            cli::bench_service::Background {
                analyses,
                engine_games,
            },
        )),
        BenchCommand::Engine { replies } => report(cli::bench_engine::main(replies)),
        BenchCommand::Deadlines { games, ticks } => {
            report(cli::bench_deadlines::main(games, ticks))
        }
        BenchCommand::Backends {
            games,
            postgres,
            pgbench,
            client,
            clients,
            url,
        } => match (client, clients, url) {
            (Some(c), Some(n), Some(url)) => report(cli::bench_backends::client(url, c, n, games)),
            _ => report(cli::bench_backends::main(games, postgres, pgbench)),
        },
    }
}

/// What `postal` alone does: run the bot when a token is set, else open the console, so
/// that one command starts Postal on a fresh machine (README, "Quick start").
fn default_command() -> Command {
    if std::env::var_os("DISCORD_TOKEN").is_some_and(|t| !t.is_empty()) {
        Command::Run
    } else {
        eprintln!(
            "postal: no DISCORD_TOKEN, so this is the console (`postal console`): a line \
             `alice: help` speaks as alice in #games; set DISCORD_TOKEN to run the bot"
        );
        Command::Console {
            db: None,
            script: None,
            seed: None,
            images: None,
        }
    }
}

/// `text` (an error, a summary) without any secret of the database URL `db`: every line
/// the command line prints about a database goes through here or names it with
/// `database_name`.
fn scrub(text: &str, db: &str) -> String {
    postal::store::scrub(text, db)
}

/// The database URL given with `--db`, else the settings' one.
fn database_url(db: Option<String>) -> Result<String, postal::service::settings::ConfigError> {
    db.map_or_else(|| Settings::load().map(|s| s.database_url), Ok)
}

/// `postal run`: the bot's settings first (they say how to log), then the bot.
fn run_bot() -> ExitCode {
    let cfg = match postal::discord::Config::load() {
        Ok(cfg) => cfg,
        Err(e) => return report(Err(e.to_string())),
    };
    postal::discord::logging::init(cfg.log_format);
    let result = Settings::load()
        .map_err(|e| e.to_string())
        .and_then(|settings| {
            let token = std::env::var("DISCORD_TOKEN").ok();
            let url = settings.database_url.clone();
            postal::console::block_on(postal::discord::run(settings, cfg, token))
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()))
                .map_err(|e| scrub(&e, &url))
        });
    report(result)
}

/// `postal console`: the script's lines, else standard input's.
fn console(
    db: Option<String>,
    script: Option<PathBuf>,
    seed: Option<u64>,
    images: Option<PathBuf>,
) -> ExitCode {
    let settings = match Settings::load() {
        Ok(s) => Settings { seed, ..s },
        Err(e) => return report(Err(e.to_string())),
    };
    let db = db.unwrap_or_else(|| settings.database_url.clone());
    let opts = postal::console::Options {
        db,
        settings,
        images,
        registry: postal::variants::Registry::builtin(),
    };
    let stdout = std::io::stdout();
    let run = |input: &mut dyn std::io::BufRead| {
        postal::console::block_on(postal::console::run_until_stopped(
            &opts,
            input,
            &mut stdout.lock(),
        ))
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(String::from))
    };
    let result = match script {
        Some(path) => match std::fs::File::open(&path) {
            Ok(f) => run(&mut std::io::BufReader::new(f)),
            Err(e) => Err(format!("{}: {e}", path.display())),
        },
        None => run(&mut std::io::stdin().lock()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("postal: {}", scrub(&e, &opts.db));
            ExitCode::from(1)
        }
    }
}

/// `postal export`: one stored game, to `out` or standard output.
fn export(id: i64, db: Option<String>, format: &str, out: Option<&std::path::Path>) -> ExitCode {
    let db = match database_url(db) {
        Ok(db) => db,
        Err(e) => return report(Err(e)),
    };
    let exported = postal::console::block_on(postal::console::export(&db, id, format))
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()));
    match exported {
        Ok(bytes) => write_export(&bytes, format, out),
        Err(e) => {
            eprintln!("postal: {}", scrub(&e, &db));
            ExitCode::from(1)
        }
    }
}

/// `postal ratings --recompute`: prints the ratings recomputed from the finished games.
fn ratings(db: Option<String>, server: Option<&str>) -> ExitCode {
    let db = match database_url(db) {
        Ok(db) => db,
        Err(e) => return report(Err(e)),
    };
    let result = cli::block_on(cli::ratings::recompute(&db, server))
        .map(|text| print!("{text}"))
        .map_err(|e| scrub(&e.to_string(), &db));
    report(result)
}

/// `postal forget-user`: a player's personal data deleted, their past games relabelled.
fn forget_user(db: Option<String>, user: &str) -> ExitCode {
    let db = match database_url(db) {
        Ok(db) => db,
        Err(e) => return report(Err(e)),
    };
    let result = postal::console::block_on(cli::forget::forget_user(&db, user))
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map(|summary| eprintln!("postal: {summary}"))
        .map_err(|e| scrub(&e, &db));
    report(result)
}

/// `postal backup`: a consistent copy of the database in `out`.
fn backup(db: Option<String>, out: &std::path::Path) -> ExitCode {
    let db = match database_url(db) {
        Ok(db) => db,
        Err(e) => return report(Err(e)),
    };
    let result = postal::console::block_on(postal::console::backup(&db, out))
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()))
        .map(|()| {
            let name = postal::store::database_name(&db);
            eprintln!("postal: backed up {name} to {}", out.display())
        })
        .map_err(|e| scrub(&e, &db));
    report(result)
}

/// `postal perft`: counts move paths from the start or `fen`, per first move with
/// `by_move`.
fn perft_command(variant: Variant, depth: u32, fen: Option<&str>, by_move: bool) -> ExitCode {
    // Like other command-line tools, stop quietly when the reader of the output goes
    // away (`postal perft ... | head`) instead of panicking in `println!`.
    restore_default_sigpipe();
    let pos = match fen {
        Some(f) => match parse_fen(variant, f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("postal: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::start(variant),
    };
    let started = Instant::now();
    // Double Move Chess counts turns: every single move and every double move.
    let turns = pos.config().double_move.is_some();
    let total = if by_move {
        let split = if turns {
            divide_turns(&pos, depth)
        } else {
            divide(&pos, depth)
        };
        for (uci, n) in &split {
            println!("{uci}: {n}");
        }
        println!();
        split.iter().map(|(_, n)| n).sum()
    } else if turns {
        perft_turns(&pos, depth)
    } else {
        perft(&pos, depth)
    };
    let secs = started.elapsed().as_secs_f64();
    println!("{total}");
    eprintln!(
        "{total} nodes in {:.3} s ({:.1} Mnodes/s)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

/// Restores the default action of SIGPIPE (end the process), which Rust's runtime sets to
/// "ignore" so that writes report an error instead: for the commands whose output is
/// piped to tools like `head`, that error would be a panic in `println!`. Only the
/// printing commands do this; the bot keeps SIGPIPE ignored for its sockets.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default has no preconditions; it
    // runs before this command starts any thread that writes.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
