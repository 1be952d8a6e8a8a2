//! `forget-me`, and the operator's `postal forget-user`: a player's personal data
//! deleted at their request, and their key in the records of their past games replaced
//! by a neutral label ([`forgotten_label`]), so that those games stay readable,
//! replayable and exportable, and their opponents' ratings stand. Refused while they have
//! a game or challenge under way: the game would lose its player. The store does it in
//! one transaction ([`crate::store::Store::forget_user`]).

use super::marks::rekey_user;
use super::parts::Accounts;
use super::{Button, Destination, Fail, Incoming, Outbound, Reply};
use crate::service::names::forgotten_label;
use crate::store::{Forgetting, Forgotten, GameStatus, Relabel, StoreError};
use crate::variants::api::RefusalKind;

/// The statuses of a game over (or never begun): what a forgotten player's records are.
const PAST: &[GameStatus] = &[
    GameStatus::Finished,
    GameStatus::Aborted,
    GameStatus::Declined,
    GameStatus::Cancelled,
];

/// The refusal of `forget-me` while the games `live` are under way.
fn under_way(live: &[i64]) -> Fail {
    let ids: Vec<String> = live.iter().map(|id| format!("#{id}")).collect();
    Fail::of(
        RefusalKind::Illegal,
        format!(
            "you still have {} under way ({}): finish, resign or abort your games and decline or cancel your challenges first; nothing was deleted",
            if live.len() == 1 {
                "a game or challenge"
            } else {
                "games or challenges"
            },
            ids.join(", ")
        ),
    )
}

/// What was done, for the player who asked.
fn done_words(f: &Forgotten) -> String {
    if f.is_empty() {
        return "Postal keeps nothing about you (you were forgotten before, or never played): nothing to delete".into();
    }
    let games = match &f.label {
        Some(label) if f.games == 0 => {
            format!("; the tournaments you were part of now name you \"{label}\"")
        }
        Some(label) => format!(
            "; your {} now name{} you \"{label}\"",
            if f.games == 1 {
                "past game".to_string()
            } else {
                format!("{} past games", f.games)
            },
            if f.games == 1 { "s" } else { "" }
        ),
        None => String::new(),
    };
    format!(
        "done: your settings, vacations, digests, conditional moves and held messages are deleted{games}{}. Postal keeps nothing else about you; if you play again, you start afresh",
        f.events_words()
    )
}

impl Accounts<'_> {
    /// `forget-me`: what would be deleted, with a button to confirm (refused while the
    /// player has games or challenges under way); `forget-me confirm`: done. Both
    /// answered privately.
    pub(crate) async fn forget_me(
        &self,
        inc: &Incoming,
        confirm: bool,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let text = if confirm {
            match self
                .forget_user(&inc.user, Some(&inc.event_id), inc.at)
                .await?
            {
                Forgetting::Live(live) => return Err(under_way(&live)),
                Forgetting::Done(f) => done_words(&f),
            }
        } else {
            let live = self
                .store
                .games_of(&inc.user, &[GameStatus::Challenged, GameStatus::Active])
                .await?;
            if !live.is_empty() {
                let ids: Vec<i64> = live.iter().map(|g| g.id).collect();
                return Err(under_way(&ids));
            }
            let past = self.store.games_of(&inc.user, PAST).await?.len();
            let games = match past {
                0 => "You have no past games.".to_string(),
                1 => "In the record of your past game your name will be replaced by a neutral label (\"Former player 3\", say), so the game stays readable and replayable.".to_string(),
                n => format!("In the records of your {n} past games your name will be replaced by a neutral label (\"Former player 3\", say), so the games stay readable and replayable."),
            };
            r.out.push(Outbound {
                to: Destination::Dm(inc.user.clone()),
                text: format!(
                    "forget-me deletes what Postal keeps about you: your settings, vacations, digests, conditional moves and held messages. {games} You leave the leaderboards; your opponents' ratings stay as they are. This cannot be undone. To go on, press the button or type: forget-me confirm"
                ),
                buttons: vec![Button {
                    label: "Forget me".into(),
                    command: "forget-me confirm".into(),
                    for_user: Some(inc.user.clone()),
                    primary: false,
                    danger: true,
                    keep: false,
                }],
                ..Outbound::default()
            });
            return Ok(());
        };
        r.out.push(Outbound {
            to: Destination::Dm(inc.user.clone()),
            text,
            ..Outbound::default()
        });
        Ok(())
    }

    /// What [`Service::forget_user`](super::Service::forget_user) does.
    pub(crate) async fn forget_user(
        &self,
        user: &str,
        event_id: Option<&str>,
        at: i64,
    ) -> Result<Forgetting, StoreError> {
        let relabel = Relabel {
            label: &forgotten_label,
            rewrite: &rekey_user,
        };
        let done = self.store.forget_user(user, event_id, at, &relabel).await?;
        if let Forgetting::Done(f) = &done {
            self.forget_name(user);
            tracing::info!(
                games = f.games,
                deleted = f.deleted,
                rewritten = f.rewritten,
                label = f.label.as_deref().unwrap_or("-"),
                "a player was forgotten at their request"
            );
        }
        Ok(done)
    }
}
