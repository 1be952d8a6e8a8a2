//! `postal migrate-db`: copies every game, action and pending message of one database
//! into a new one (SQLite to PostgreSQL, or back), then checks the copy: the same rows in
//! every table, and every copied game replaying from its log to its stored state.

use crate::service::replay::check_replay;
use crate::store::{database_name, Store};
use crate::variants::Registry;

/// Copies the database at `from` into the empty database at `to` and verifies the copy;
/// a summary of what was copied, or why nothing (or not all of it) could be.
pub async fn migrate_db(from: &str, to: &str) -> Result<String, String> {
    super::existing_database(from)?;
    let source = Store::open_read_only(from)
        .await
        .map_err(|e| e.to_string())?;
    let target = match Store::open(to).await {
        Ok(target) => target,
        Err(e) => {
            source.close().await;
            return Err(e.to_string());
        }
    };
    let result = copy_and_verify(&source, &target).await;
    source.close().await;
    target.close().await;
    let copied = result?;
    Ok(format!(
        "copied {} into {}: {copied}; every game replays to its stored state",
        database_name(from),
        database_name(to)
    ))
}

async fn copy_and_verify(source: &Store, target: &Store) -> Result<String, String> {
    let before = source.row_counts().await.map_err(|e| e.to_string())?;
    let copied = source.copy_into(target).await.map_err(|e| e.to_string())?;
    let after = target.row_counts().await.map_err(|e| e.to_string())?;
    if copied != before || after != before {
        return Err(format!(
            "the copy differs from its source (source {:?}, copied {:?}, target {:?})",
            before.0, copied.0, after.0
        ));
    }
    let registry = Registry::builtin();
    for id in target.game_ids().await.map_err(|e| e.to_string())? {
        let game = target.game(id).await.map_err(|e| e.to_string())?;
        let log = target.actions(id).await.map_err(|e| e.to_string())?;
        if let Some(game) = game {
            check_replay(&registry, &game, &log)?;
        }
    }
    Ok(copied
        .0
        .iter()
        .map(|(table, n)| format!("{n} {table}"))
        .collect::<Vec<_>>()
        .join(", "))
}
