//! `postal forget-user USER`: the operator's way to do what `forget-me confirm` does, for
//! a player who asks the operator rather than the bot: their personal data deleted and
//! their key in their past games' records replaced by a neutral label, in one
//! transaction, through the referee service as the command does it. Safe while the bot
//! runs (the database serialises it with the bot's writes); refused, changing nothing,
//! while the player has a game or challenge under way.

use postal::service::export::check_database_exists;
use postal::service::names::is_user_key;
use postal::service::referee::Service;
use postal::service::settings::Settings;
use postal::store::{unix_now, Forgetting, Store};

/// Why `postal forget-user` did nothing.
#[derive(Debug, thiserror::Error)]
pub enum ForgetError {
    /// The key is not one an adapter gives (a Discord user id, a console name).
    #[error("'{0}' is not a user key: give the player's Discord user id (digits) or console name")]
    NotAUser(String),
    /// The player has games or challenges under way (these ids).
    #[error("{user} still has games or challenges under way ({}): they must finish, resign or abort them and decline or cancel their challenges first (or their games time out); nothing was deleted", list(.live))]
    UnderWay {
        /// The player.
        user: String,
        /// The games under way.
        live: Vec<i64>,
    },
    /// The database file does not exist.
    #[error(transparent)]
    NoDatabase(#[from] postal::service::export::NoDatabase),
    /// The database could not be opened or written.
    #[error(transparent)]
    Store(#[from] postal::store::StoreError),
}

fn list(ids: &[i64]) -> String {
    ids.iter()
        .map(|id| format!("#{id}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Forgets `user` in the database `db`; what was done, in one line.
pub async fn forget_user(db: &str, user: &str) -> Result<String, ForgetError> {
    if !is_user_key(user) {
        return Err(ForgetError::NotAUser(user.to_string()));
    }
    check_database_exists(db)?;
    let store = Store::open(db).await?;
    let service = Service::new(store.clone(), Settings::default());
    let done = service.forget_user(user, None, unix_now()).await;
    store.close().await;
    match done? {
        Forgetting::Live(live) => Err(ForgetError::UnderWay {
            user: user.to_string(),
            live,
        }),
        Forgetting::Done(f) if f.is_empty() => Ok(format!(
            "nothing is stored about {user} (forgotten before, or never seen); nothing changed"
        )),
        Forgetting::Done(f) => {
            let deleted = format!(
                "forgot {user}: {} row{} of theirs deleted",
                f.deleted,
                if f.deleted == 1 { "" } else { "s" }
            );
            let events = f.events_words();
            Ok(match &f.label {
                None => format!("{deleted}; they had no past games{events}"),
                Some(label) if f.games == 0 => format!(
                    "{deleted}; their tournament places now name them \"{label}\"; {} stored message{} rewritten{events}",
                    f.rewritten,
                    if f.rewritten == 1 { "" } else { "s" },
                ),
                Some(label) => format!(
                    "{deleted}; {} past game{} now name{} them \"{label}\"; {} stored message{} rewritten{events}",
                    f.games,
                    if f.games == 1 { "" } else { "s" },
                    if f.games == 1 { "s" } else { "" },
                    f.rewritten,
                    if f.rewritten == 1 { "" } else { "s" },
                ),
            })
        }
    }
}
