//! `postal ratings --recompute`: every server's tables recomputed from the stored finished
//! games, for an operator. Nothing is cached (the referee computes a table from the games
//! each time one is asked for), so this is the same fold over the same games, printed
//! whole: one line per player and family, tab-separated. Forgotten players (`forget-me`)
//! are left out, as from the bot's tables.

use postal::service::names::is_forgotten;
use postal::service::standings::Tables;
use postal::store::{FinishedGame, Store};
use postal::variants::Registry;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The tables of every server in the database `db` (or of the one server `only`; `-`
/// for the games of no server), as text: a header, then per server and family
/// `server  variant  user  rating  deviation  volatility  won  drawn  lost  points`, and per
/// solitaire `server  variant  user  best  game  attempts  won`.
pub async fn recompute(db: &str, only: Option<&str>) -> Result<String, super::CliError> {
    let store = Store::open_read_only(db).await?;
    let games = store.finished_games(None).await;
    store.close().await;
    let games = games?;
    let registry = Registry::builtin();
    let mut by_server: BTreeMap<String, Vec<FinishedGame>> = BTreeMap::new();
    for g in games {
        let key = g.server.clone().unwrap_or_else(|| "-".into());
        if only.map_or(true, |o| o == key) {
            by_server.entry(key).or_default().push(g);
        }
    }
    let mut out = String::from(
        "# server\tvariant\tuser\trating\tdeviation\tvolatility\twon\tdrawn\tlost\tpoints\n",
    );
    for (server, games) in &by_server {
        let t = Tables::compute(&registry, games);
        for variant in t.rated.keys() {
            for (user, p) in t.leaders(variant) {
                let _ = writeln!(
                    out,
                    "{server}\t{variant}\t{user}\t{:.2}\t{:.2}\t{:.6}\t{}\t{}\t{}\t{}",
                    p.rating.rating,
                    p.rating.deviation,
                    p.rating.volatility,
                    p.won,
                    p.drawn,
                    p.lost,
                    p.points
                );
            }
        }
        for (variant, players) in &t.best {
            for (user, b) in players.iter().filter(|(u, _)| !is_forgotten(u)) {
                let (best, game) = match b.best {
                    Some((s, id)) => (s.to_string(), format!("#{id}")),
                    None => ("-".into(), "-".into()),
                };
                let _ = writeln!(
                    out,
                    "{server}\t{variant}\t{user}\tbest {best}\t{game}\t{} attempts\t{} won",
                    b.attempts, b.won
                );
            }
        }
    }
    Ok(out)
}
