//! Exports of a stored game (`postal export`): its public record as PGN, a JSON document
//! of the game (seats, status, outcome, moves, the position, the clock's vacation
//! entries and what the variant adds), or its animation as a GIF. Assembled here, in
//! the service, from the store's rows and the variant's public projection, so that an
//! adapter only asks for the bytes: the console prints them, and Discord attaches a
//! game's record at its end through [`Service::record`](crate::service::referee::Service::record).
//!
//! What anyone may see: a live game's secrets stay in the game (its public projection),
//! and its seed is shown only once it is over.

use crate::service::referee::{analysed_pgn, pgn_tags, seat_users, whole_with};
use crate::store::StoredPosition;
use crate::store::{ActionRow, GameRow, Store, StoreError};
use crate::variants::api::{Action, GameRules, Viewer};
use crate::variants::Registry;
use serde_json::{json, Value};

/// A database URL that names no database: commands that only read one never create it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: no such database file")]
pub struct NoDatabase {
    /// The file the URL names.
    pub file: String,
}

/// Why a game could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The database file does not exist.
    #[error(transparent)]
    NoDatabase(#[from] NoDatabase),
    /// The database could not be opened or read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// There is no game of that number.
    #[error("there is no game #{0}")]
    NoGame(i64),
    /// The stored game could not be read back into its variant; the text says why.
    #[error("{0}")]
    Unreadable(String),
    /// A GIF was asked of a variant that draws no animation.
    #[error("{0} games have no animation")]
    NoAnimation(String),
    /// The JSON document could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A format other than the three.
    #[error("unknown format '{0}': pgn, json or gif")]
    UnknownFormat(String),
}

/// The forms a game exports to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The public record as PGN text.
    Pgn,
    /// A JSON document of the game.
    Json,
    /// The public animation as a GIF.
    Gif,
}

impl std::str::FromStr for ExportFormat {
    type Err = ExportError;

    fn from_str(s: &str) -> Result<ExportFormat, ExportError> {
        match s {
            "pgn" => Ok(ExportFormat::Pgn),
            "json" => Ok(ExportFormat::Json),
            "gif" => Ok(ExportFormat::Gif),
            other => Err(ExportError::UnknownFormat(other.to_string())),
        }
    }
}

/// Checks that database URL `db` names a database that exists (a server's database
/// always does: opening one never creates it).
pub fn check_database_exists(db: &str) -> Result<(), NoDatabase> {
    if crate::store::Backend::of_url(db) == crate::store::Backend::Postgres {
        return Ok(());
    }
    let file = crate::store::database_file(db);
    if db.contains(":memory:") || !std::path::Path::new(file).is_file() {
        return Err(NoDatabase {
            file: file.to_string(),
        });
    }
    Ok(())
}

/// Game `id` of the database at `db` (opened read-only, never created) in `format`
/// (`pgn`, `json` or `gif`), as the built-in variants read it.
pub async fn export_stored(db: &str, id: i64, format: &str) -> Result<Vec<u8>, ExportError> {
    check_database_exists(db)?;
    let store = Store::open_read_only(db).await?;
    let read = read_game(&store, id).await;
    let analysis = match &read {
        Ok((g, _)) if g.status == crate::store::GameStatus::Finished => {
            store.analysis_positions(id).await
        }
        _ => Ok(Vec::new()),
    };
    // A competition's attempt whose deal others may still play keeps it secret.
    let kept = match &read {
        Ok(_) => store.deal_in_play(id).await,
        Err(_) => Ok(false),
    };
    store.close().await;
    let (g, log) = read?;
    let shown = Shown {
        analysis: &analysis?,
        deal_kept: kept?,
    };
    export_shown(&g, &log, shown, format, &Registry::builtin())
}

/// What an export shows beside the game's public record: the engine's analysis, and
/// whether the game's deal is kept secret because others still play it
/// ([`GameRules::keep_deal_secret`]).
struct Shown<'a> {
    analysis: &'a [StoredPosition],
    deal_kept: bool,
}

/// Game `id`'s row and action log.
async fn read_game(store: &Store, id: i64) -> Result<(GameRow, Vec<ActionRow>), ExportError> {
    let g = store.game(id).await?.ok_or(ExportError::NoGame(id))?;
    let log = store.actions(id).await?;
    Ok((g, log))
}

/// Stored game `g` with its action log `log` in `format`, read through `registry`.
pub fn export_game(
    g: &GameRow,
    log: &[ActionRow],
    format: &str,
    registry: &Registry,
) -> Result<Vec<u8>, ExportError> {
    export_game_analysed(g, log, &[], format, registry)
}

/// [`export_game`] with the game's engine analysis as stored (`analysis`, every
/// position's evaluation, or nothing): its PGN then carries Lichess's `[%eval ...]`
/// comments and `?!`, `?`, `??` assessments.
pub fn export_game_analysed(
    g: &GameRow,
    log: &[ActionRow],
    analysis: &[StoredPosition],
    format: &str,
    registry: &Registry,
) -> Result<Vec<u8>, ExportError> {
    let shown = Shown {
        analysis,
        deal_kept: false,
    };
    export_shown(g, log, shown, format, registry)
}

/// [`export_game_analysed`] with what else is shown (`shown`).
fn export_shown(
    g: &GameRow,
    log: &[ActionRow],
    shown: Shown<'_>,
    format: &str,
    registry: &Registry,
) -> Result<Vec<u8>, ExportError> {
    let analysis = shown.analysis;
    // The whole game: its log replayed (a snapshot holds only what the next move needs).
    let mut rules = whole_with(registry, g, log).map_err(|e| ExportError::Unreadable(e.text))?;
    if shown.deal_kept {
        rules.keep_deal_secret();
    }
    // What anyone may see: a live game's secrets stay in the game, and the game decides
    // what its public projection shows once it is over.
    let viewer = Viewer::Public;
    match format.parse::<ExportFormat>()? {
        ExportFormat::Pgn => {
            let tags = pgn_tags(g, rules.as_ref(), &[]);
            Ok(analysed_pgn(rules.as_ref(), &tags, analysis)
                .unwrap_or_else(|| rules.pgn(viewer, &tags))
                .into_bytes())
        }
        ExportFormat::Gif => {
            let names = seat_users(g);
            rules
                .animation(viewer, &crate::render::Renderer::default(), &names)
                .ok_or_else(|| ExportError::NoAnimation(g.variant.clone()))
        }
        ExportFormat::Json => {
            let v = json_document(g, log, rules.as_ref(), viewer);
            Ok(serde_json::to_string_pretty(&v)?.into_bytes())
        }
    }
}

/// The JSON export of game `g` as `viewer` sees it.
fn json_document(g: &GameRow, log: &[ActionRow], rules: &dyn GameRules, viewer: Viewer) -> Value {
    let projection = rules.project(viewer);
    let o = rules.outcome();
    let seats: Vec<Value> = g
        .seats
        .iter()
        .map(|s| json!({"seat": s.seat, "user": s.user, "role": s.role}))
        .collect();
    let mut v = json!({
        "id": g.id,
        "variant": g.variant,
        "status": g.status,
        "result": o.as_ref().map(|o| o.result.clone()),
        "reason": o.as_ref().map(|o| o.reason.name()),
        "score": o.as_ref().and_then(|o| o.score.clone()),
        "seats": seats,
        "days_per_move": g.days_per_move,
        "start_fen": g.start_fen,
        "moves": projection.record,
        "fen": projection.fen,
        "clock_extensions": clock_extensions(log),
    });
    if g.status.is_ended() {
        v["seed"] = json!(g.seed);
    }
    for (key, value) in rules.export_fields(viewer) {
        v[key] = value;
    }
    v
}

/// The referee's clock entries of a game's log: deadlines extended for a player's
/// vacation.
fn clock_extensions(log: &[ActionRow]) -> Vec<Value> {
    log.iter()
        .filter_map(|row| {
            let a: Action = serde_json::from_str(&row.action).ok()?;
            a.vacation_entry().map(|v| {
                json!({"seat": row.seat, "vacation_from": v.from,
                    "vacation_to": v.to, "seconds": v.seconds})
            })
        })
        .collect()
}
