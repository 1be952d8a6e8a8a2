//! `analyse [ID]`: an engine's analysis of a finished game, asked for by anyone who may
//! read the game, and made by whichever process claims it (the analysis task, or the
//! console after the line that asked). Refused for a live game, whoever asks: an engine
//! never sees a game between people while it is played. Refused for a variant with
//! hidden information, and for one no engine plays. The request is stored before it is
//! acknowledged; each position's evaluation is stored as it is made, so a restart goes
//! on where the last process stopped; the report goes to the game's place through the
//! outbox, in the transaction that ends the analysis.

use super::analysis_progress::progress_update;
use super::analysis_report::Analysed;
use super::commit::{destination_from_key, destination_key};
use super::lookup::{whole_with, Fit};
use super::messages::{AnalysisProgress, ProgressState};
use super::parts::Analyses;
use super::routing::public_dest;
use super::{Fail, Incoming, Outbound, Reply};
use crate::analysis::{PositionEval, Score};
use crate::engines::{EngineError, Query};
use crate::store::{
    unix_now, AnalysisRow, AnalysisStatus, GameStatus, NewMessage, StoreError, StoredPosition,
};
use crate::variants::api::{BoardEnd, EngineRecord, RefusalKind};

impl Analyses<'_> {
    /// `analyse [ID]`.
    pub(crate) async fn request_analysis(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (g, _) = self.readable(inc, id, Fit::Live).await?;
        let name = self.display_name(&g.variant);
        match g.status {
            GameStatus::Finished => {}
            GameStatus::Aborted => {}
            _ => {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!(
                        "game #{} is still being played: an engine never looks at a live game (correspondence chess is played without engines). Ask again once it is over",
                        g.id
                    ),
                ))
            }
        }
        let hidden = self
            .registry
            .find(&g.variant)
            .map_or(true, |v| v.takebacks().is_err());
        if hidden {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("game #{} is {name}, which is not played in plain sight (hidden pieces, hands or secret choices), so no engine analyses it", g.id),
            ));
        }
        if g.status == GameStatus::Aborted {
            return Err(Fail::of(
                RefusalKind::Over,
                format!("game #{} was aborted: there is no result to analyse", g.id),
            ));
        }
        let rules = self.whole(&g).await?;
        let Some(record) = rules.engine_record() else {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "game #{}: no engine this bot runs knows {name}, so it cannot be analysed",
                    g.id
                ),
            ));
        };
        if record.moves.is_empty() {
            return Err(Fail::of(
                RefusalKind::Over,
                format!("game #{} has no move to analyse", g.id),
            ));
        }
        if !self.engines.has_engine_for(record.variant) {
            let engine = crate::engines::engine_name(record.variant);
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("this server has no engine for {name} ({engine} is not installed), so game #{} cannot be analysed here", g.id),
            ));
        }
        let to: Vec<String> = public_dest(&g).iter().map(destination_key).collect();
        let before = self.store.analysis(g.id).await?;
        let a = self
            .store
            .request_analysis(g.id, &to.join("\n"), inc.at)
            .await?;
        if before.map_or(true, |b| b.status == AnalysisStatus::Failed) {
            self.telemetry.analysis("queued");
        }
        self.answer_request(&g, &a, record.moves.len(), r).await
    }

    /// The answer to a request stored: the report at once if the analysis is done,
    /// else where it stands.
    async fn answer_request(
        &self,
        g: &crate::store::GameRow,
        a: &AnalysisRow,
        plies: usize,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        if a.status == AnalysisStatus::Done {
            if let Some(Analysed { text, graph }) = self.analysis_report(g).await? {
                r.out.push(Outbound {
                    to: r.origin.clone(),
                    text,
                    game: Some(g.id),
                    graph: Some(graph),
                    ..Outbound::default()
                });
                return Ok(());
            }
        }
        self.analysis_news.queued_now();
        let done = match a.positions {
            0 => String::new(),
            n => format!(" ({n} of {} positions done)", plies + 1),
        };
        r.say(format!(
            "game #{}: the analysis is queued{done}; it will be posted in the game's place when it is done",
            g.id
        ));
        Ok(())
    }

    /// What [`Service::engine_restarts`](super::Service::engine_restarts) does.
    pub(crate) fn engine_restarts(&self) -> u64 {
        self.engines.restarts()
    }

    /// What [`Service::take_analysis_news`](super::Service::take_analysis_news) does.
    pub(crate) fn take_analysis_news(&self) -> bool {
        self.analysis_news
            .queued
            .swap(false, std::sync::atomic::Ordering::SeqCst)
    }

    /// What [`Service::analysis_news`](super::Service::analysis_news) does.
    pub(crate) async fn analysis_news(&self) {
        self.analysis_news.notify.notified().await
    }

    /// What [`Service::analyse_next`](super::Service::analyse_next) does.
    pub(crate) async fn analyse_next(&self, lease_seconds: i64) -> Result<Option<i64>, StoreError> {
        let Some(a) = self.store.claim_analysis(lease_seconds).await? else {
            return Ok(None);
        };
        let id = a.game_id;
        let Some(g) = self.store.game(id).await? else {
            self.end_analysis(&a, Some("the game is gone".into()), None)
                .await?;
            return Ok(Some(id));
        };
        let log = self.store.actions(id).await?;
        let record = whole_with(&self.registry, &g, &log)
            .ok()
            .and_then(|rules| rules.engine_record());
        let Some(record) = record else {
            let why = format!("no engine knows {}", self.display_name(&g.variant));
            self.end_analysis(&a, Some(why), None).await?;
            return Ok(Some(id));
        };
        let of = u32::try_from(record.moves.len() + 1).unwrap_or(u32::MAX);
        let restarts = self.engines.restarts();
        let made = self.evaluate_all(&a, &record, lease_seconds).await;
        self.telemetry
            .engine_restarts(self.engines.restarts().saturating_sub(restarts));
        match made? {
            Ok(true) => self.end_analysis(&a, None, Some(of)).await?,
            Ok(false) => {}
            Err(e) => self.end_analysis(&a, Some(e.to_string()), Some(of)).await?,
        }
        Ok(Some(id))
    }

    /// Evaluates each position not stored yet, storing it under the claim and showing
    /// how far it is in the progress message (at its start, then at the pace the settings
    /// ask): `Ok(true)` when all are stored, `Ok(false)` when the claim was lost.
    async fn evaluate_all(
        &self,
        a: &AnalysisRow,
        record: &EngineRecord,
        lease_seconds: i64,
    ) -> Result<Result<bool, EngineError>, StoreError> {
        let stored = self.store.analysis_positions(a.game_id).await?;
        let done: std::collections::HashSet<i64> = stored.iter().map(|p| p.ply).collect();
        let uci: Vec<String> = record.moves.iter().map(|(u, _)| u.clone()).collect();
        let of = u32::try_from(uci.len() + 1).unwrap_or(u32::MAX);
        let mut progress = AnalysisProgress {
            game: a.game_id,
            done: u32::try_from(done.len()).unwrap_or(of).min(of),
            of,
            state: ProgressState::Running,
        };
        if !self.queue_progress(a, progress).await? {
            return Ok(Ok(false));
        }
        let mut pace = self.progress_pace(progress.done);
        for ply in 0..=uci.len() {
            if done.contains(&(ply as i64)) {
                continue;
            }
            let white_to_move = (ply % 2 == 0) == record.white_first;
            let eval = match (ply == uci.len(), record.end) {
                (true, BoardEnd::Won(white)) => PositionEval {
                    score: Score::Mate(if white { 1 } else { -1 }),
                    line: Vec::new(),
                },
                (true, BoardEnd::Drawn) => PositionEval {
                    score: Score::Cp(0),
                    line: Vec::new(),
                },
                _ => {
                    let q = Query {
                        variant: record.variant,
                        king_takes_rook: record.king_takes_rook,
                        fen: &record.start_fen,
                        moves: &uci[..ply],
                        white_to_move,
                    };
                    // The pool is taken for one position at a time, in the order asked
                    // (its semaphore is fair), so an engine's move in a game against
                    // the bot waits for one position at most, never a whole analysis.
                    let mut lease = self.engines.lease().await;
                    match lease.evaluate(&q).await {
                        Ok(e) => e,
                        Err(e) => return Ok(Err(e)),
                    }
                }
            };
            let (mate, value) = match eval.score {
                Score::Cp(cp) => (false, i64::from(cp)),
                Score::Mate(n) => (true, i64::from(n)),
            };
            let position = StoredPosition {
                ply: ply as i64,
                mate,
                value,
                line: eval.line.join(" "),
            };
            if !self
                .store
                .save_position(a.game_id, &position, lease_seconds)
                .await?
            {
                return Ok(Ok(false));
            }
            progress.done = (progress.done + 1).min(of);
            let lost = progress.done < of
                && pace.due(progress.done, of, std::time::Instant::now())
                && !self.queue_progress(a, progress).await?;
            if lost {
                return Ok(Ok(false));
            }
        }
        Ok(Ok(true))
    }

    /// Ends an analysis with its report, or with why it failed, queued for its places,
    /// and its progress message's last update when it has one (its game's `of` positions).
    async fn end_analysis(
        &self,
        a: &AnalysisRow,
        error: Option<String>,
        of: Option<u32>,
    ) -> Result<(), StoreError> {
        let id = a.game_id;
        let text = match &error {
            Some(why) => format!(
                "The analysis of game #{id} failed: {why}. Nothing is lost: {} tries again.",
                crate::variants::api::command_mark(&format!("analyse {id}"))
            ),
            None => {
                let g = self.store.game(id).await?;
                let report = match g {
                    Some(g) => self.analysis_report(&g).await.ok().flatten(),
                    None => None,
                };
                match report {
                    Some(r) => r.text,
                    None => format!(
                        "The analysis of game #{id} is done: {} shows it.",
                        crate::variants::api::command_mark(&format!("analyse {id}"))
                    ),
                }
            }
        };
        let messages: Vec<NewMessage> = a
            .destination
            .lines()
            .filter(|d| destination_from_key(d).is_some())
            .map(|d| NewMessage {
                destination: d.to_string(),
                text: text.clone(),
                board: false,
                ending: false,
                claim_seat: None,
            })
            .collect();
        let last = match of {
            Some(of) => {
                let stored = self.store.analysis(id).await?.map_or(0, |r| r.positions);
                let done = u32::try_from(stored).unwrap_or(of).min(of);
                let state = match error {
                    Some(_) => ProgressState::Failed,
                    None => ProgressState::Done,
                };
                let p = AnalysisProgress {
                    game: id,
                    done,
                    of,
                    state,
                };
                Some(progress_update(a, p))
            }
            None => None,
        };
        if self
            .store
            .finish_analysis(id, error.as_deref(), (last.as_ref(), &messages), unix_now())
            .await?
        {
            let outcome = if error.is_some() { "failed" } else { "done" };
            self.telemetry.analysis(outcome);
            self.outbox_news.queued_now();
        }
        Ok(())
    }
}
