//! Messages fitted to their recipients' own settings: the turn notices a player with
//! the daily digest does not get (the digest lists their games instead), and the boards
//! sent to a player privately, turned as they chose. Also the digests themselves, sent
//! by the deadline check; and `settings`, which changes them.

use super::commit::new_message;
use super::marks::time_mark;
use super::parts::Accounts;
use super::{Card, Destination, Facts, Fail, Incoming, Outbound, Reply};
use crate::rules::Color;
use crate::service::player_settings::{change_note, SettingsChange};
use crate::service::player_settings::{PlayerSettings, PrivateOrientation};
use crate::store::GameStatus;
use crate::store::{GameRow, StoreError};
use crate::variants::api::Viewer;
use std::collections::HashMap;

/// The most games one digest lists; the rest are counted, and `games` lists them all.
pub const DIGEST_GAMES: usize = 15;

/// How many players' digests the deadline check reads at a time.
const DIGEST_BATCH: i64 = 256;

impl Accounts<'_> {
    /// `settings [CHANGES]`: the player's personal settings, changed as asked and
    /// saved; told privately.
    pub(crate) async fn change_settings(
        &self,
        inc: &Incoming,
        change: &SettingsChange,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let server = &self.settings.reminder_hours;
        let current = self.settings_of(&inc.user).await?;
        let (text, shown, title) = if change.is_empty() {
            (current.describe(server), current, "Your settings")
        } else {
            let new = current.changed(change);
            // A digest just chosen (or moved to another hour) starts at its next
            // hour: today's, if it has not come yet.
            let digest_done = new
                .digest_hour
                .filter(|_| new.digest_hour != current.digest_hour)
                .map(|h| (crate::store::digest_day(inc.at, h), inc.at));
            self.store
                .set_player_settings(&inc.user, &new.to_stored(), digest_done)
                .await?;
            (
                format!("saved; {}", new.describe(server)),
                new,
                "Your settings, saved",
            )
        };
        let facts = shown
            .facts(server)
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        r.out.push(Outbound {
            to: Destination::Dm(inc.user.clone()),
            text,
            card: Some(Card::Facts(Facts {
                title: title.to_string(),
                intro: String::new(),
                facts,
                note: change_note(),
            })),
            ..Outbound::default()
        });
        Ok(())
    }

    /// Fits a reply's messages to their recipients' settings, in one read of the
    /// settings of those concerned: drops the turn notices sent privately to a player
    /// with the daily digest (never an answer to their own command, sent to its origin),
    /// takes such players out of the mentions of the turn notices posted in a channel,
    /// and turns the boards sent privately as each recipient chose.
    pub(crate) async fn personalize(&self, r: &mut Reply) -> Result<(), StoreError> {
        let Reply { out, origin, plain } = r;
        let settings = self.settings_of_recipients(out, plain).await?;
        if settings.is_empty() {
            return Ok(());
        }
        let digest = |u: &str| settings.get(u).is_some_and(|s| s.digest_hour.is_some());
        out.retain(|o| match &o.to {
            Destination::Dm(u) => !(o.turn && digest(u) && o.to != *origin),
            Destination::Channel(_) => true,
        });
        for o in out.iter_mut().filter(|o| o.turn) {
            o.mentions.retain(|u| !digest(u));
        }
        self.turn_private_boards(out, &settings).await
    }

    /// The settings of the players `out` concerns (the recipients of its private boards
    /// and turn notices, the players its turn notices call on), of those who chose a
    /// digest or an orientation; none read when no message concerns anyone but the
    /// players known to have chosen neither (`plain`).
    pub(crate) async fn settings_of_recipients(
        &self,
        out: &[Outbound],
        plain: &[String],
    ) -> Result<HashMap<String, PlayerSettings>, StoreError> {
        let mut concerned: Vec<&str> = Vec::new();
        for o in out {
            match &o.to {
                Destination::Dm(u) if o.turn || o.image.is_some() => concerned.push(u),
                Destination::Channel(_) if o.turn => {
                    concerned.extend(o.mentions.iter().map(String::as_str))
                }
                _ => {}
            }
        }
        concerned.sort_unstable();
        concerned.dedup();
        concerned.retain(|u| !plain.iter().any(|p| p == u));
        if concerned.is_empty() {
            return Ok(HashMap::new());
        }
        let stored = self.store.personal_settings(&concerned).await?;
        Ok(stored
            .into_iter()
            .map(|(user, s)| (user, PlayerSettings::from_stored(&s)))
            .collect())
    }

    /// The settings of `user` (the defaults for a user never seen).
    pub(crate) async fn settings_of(&self, user: &str) -> Result<PlayerSettings, StoreError> {
        let stored = self.store.player_settings(user).await?;
        Ok(PlayerSettings::from_stored(&stored))
    }

    /// Turns each board of `out` sent privately as its recipient chose (`settings`).
    pub(crate) async fn turn_private_boards(
        &self,
        out: &mut [Outbound],
        settings: &HashMap<String, PlayerSettings>,
    ) -> Result<(), StoreError> {
        for o in out.iter_mut() {
            let Destination::Dm(u) = &o.to else { continue };
            if let Some(s) = settings.get(u) {
                let u = u.clone();
                self.turn_private_board(o, &u, s).await?;
            }
        }
        Ok(())
    }

    /// Turns the board of `o`, sent privately to `user`, as their settings say: White
    /// at the bottom, or the side they play in its game. A board whose bottom is fixed
    /// by its variant (Gravity) stays as it is.
    async fn turn_private_board(
        &self,
        o: &mut Outbound,
        user: &str,
        settings: &PlayerSettings,
    ) -> Result<(), StoreError> {
        let (Some(view), Some(turn)) = (o.image.as_mut(), settings.orientation) else {
            return Ok(());
        };
        if view.board.fixed_bottom {
            return Ok(());
        }
        let bottom = match turn {
            PrivateOrientation::White => Some(Color::White),
            PrivateOrientation::Own => match o.game {
                Some(id) => self.own_side(id, user).await?,
                None => None,
            },
        };
        if let Some(bottom) = bottom {
            view.board.bottom = bottom;
        }
        Ok(())
    }

    /// The side `user` plays in game `id`, as their own board is drawn: `None` when they
    /// have no seat there.
    async fn own_side(&self, id: i64, user: &str) -> Result<Option<Color>, StoreError> {
        let Some(g) = self.store.game(id).await? else {
            return Ok(None);
        };
        let (Some(seat), Ok(rules)) = (g.seat_of(user), self.load(&g)) else {
            return Ok(None);
        };
        Ok(Some(
            rules
                .project(Viewer::Seat(crate::variants::api::Seat(seat)))
                .board
                .bottom,
        ))
    }

    /// Sends the digests due at `now`: to each player who chose one and whose hour has
    /// come, once a day, the games that await them, recorded with its message in the
    /// outbox in one transaction (a day when nothing awaits them, or they are on vacation,
    /// is recorded with no message), so that a restart or a second process neither
    /// repeats nor skips one.
    pub(crate) async fn send_digests(&self, now: i64) -> Result<(), StoreError> {
        // Each digest recorded moves its player's next one to the next day, so each batch
        // reads what the last left.
        for _ in 0..64 {
            let due = self.store.digests_due(now, DIGEST_BATCH).await?;
            for (user, day) in &due {
                self.send_digest(user, *day, now).await?;
            }
            if (due.len() as i64) < DIGEST_BATCH {
                break;
            }
        }
        Ok(())
    }

    /// `user`'s digest of day `day`, at `now`.
    async fn send_digest(&self, user: &str, day: i64, now: i64) -> Result<(), StoreError> {
        // A player away on vacation is sent nothing: their clocks are stopped, and
        // the days of their vacation are recorded as digests with no message.
        let away = self
            .store
            .open_vacation(user)
            .await?
            .is_some_and(|v| v.ended_at.is_none() && v.started_at <= now);
        let games = match away {
            true => Vec::new(),
            false => self.store.games_of(user, &[GameStatus::Active]).await?,
        };
        let lines: Vec<String> = games
            .iter()
            .filter_map(|g| self.digest_line(g, user))
            .collect();
        let messages = match lines.len() {
            0 => Vec::new(),
            n => {
                let more = n.saturating_sub(DIGEST_GAMES);
                let games = if n == 1 {
                    "1 game awaits".to_string()
                } else {
                    format!("{n} games await")
                };
                let mut text = format!(
                    "your daily digest: {games} you: {}",
                    lines[..n.min(DIGEST_GAMES)].join(" | ")
                );
                if more > 0 {
                    text.push_str(&format!(
                        " | and {more} more ({} lists them all)",
                        crate::variants::api::command_mark("games")
                    ));
                }
                vec![new_message(
                    &Destination::Dm(user.to_string()),
                    &text,
                    false,
                )]
            }
        };
        self.store.record_digest(user, day, now, &messages).await?;
        Ok(())
    }

    /// `user`'s line in their digest for game `g`, if it awaits them: `#12 standard vs
    /// bob: to move, by ...`.
    fn digest_line(&self, g: &GameRow, user: &str) -> Option<String> {
        let rules = self.load(g).ok()?;
        let asks: Vec<String> = rules
            .awaiting()
            .into_iter()
            .filter(|(s, _)| g.user_at(s.0) == Some(user))
            .map(|(s, p)| match g.deadlines.iter().find(|d| d.seat == s.0) {
                Some(d) => format!("{}, by {}", p.ask, time_mark(d.due_at)),
                None => p.ask,
            })
            .collect();
        if asks.is_empty() {
            return None;
        }
        let against = self.against(g, rules.as_ref(), user).ok()?;
        Some(format!(
            "#{} {}{against}: {}",
            g.id,
            rules.variant(),
            asks.join("; ")
        ))
    }
}
