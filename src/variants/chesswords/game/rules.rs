//! The [`GameRules`] interface of a Secret Chesswords game: seats, prompts, actions,
//! projections, timers, exports and the disguise of a secret hand.

use super::*;
use crate::variants::api::{to_stored, Apply, SeatPlan, VariantSpec};
use crate::variants::chesswords::SPEC;

impl Apply for Chesswords {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: ChesswordsAction = action.to(Variant::CHESSWORDS.display_name())?;
        self.act(seat, &action)
    }
}

impl GameRules for Chesswords {
    fn variant(&self) -> &'static str {
        Variant::CHESSWORDS.name()
    }

    fn seats(&self) -> SeatPlan {
        SPEC.seats()
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        match &self.state.phase {
            Phase::Clue => vec![(partner(self.mover()), prompts::give_clue())],
            Phase::Move { clue: Some(_) } => vec![(self.mover(), prompts::play_word())],
            Phase::Move { clue: None } => vec![(self.mover(), prompts::free_move())],
            Phase::Discard { holder, .. } => vec![(*holder, prompts::discard())],
            Phase::LastDiscard { holder } => vec![(*holder, prompts::last_discard())],
            Phase::Words => SEATS
                .into_iter()
                .filter(|s| self.state.words[s.0 as usize].is_none())
                .map(|s| (s, prompts::submit_words()))
                .collect(),
            Phase::FinaleClue { giver } => vec![(*giver, prompts::clue_for_word())],
            Phase::FinaleGuess { giver } => vec![(partner(*giver), prompts::guess())],
            Phase::Over => Vec::new(),
        }
    }

    fn read(&self, seat: Seat, command: &GameCommand, env: Env) -> Result<Reading, RuleError> {
        crate::variants::chesswords::read::read(self, seat, command, env)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        self.view(viewer)
    }

    fn outcome(&self) -> Option<GameOutcome> {
        Chesswords::outcome(self)
    }

    fn aborted(&self) -> bool {
        self.state.aborted
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        self.pgn_text(tags)
    }

    fn animation(
        &self,
        _viewer: Viewer,
        renderer: &render::Renderer,
        names: &[&str],
    ) -> Option<Vec<u8>> {
        self.animation_gif(renderer, names)
    }

    fn time_limit(&self, seat: Seat) -> Option<i64> {
        let minutes = self.state.timer_minutes?;
        let asked = match self.state.phase {
            Phase::Words => self.state.words.get(seat.0 as usize)?.is_none(),
            Phase::LastDiscard { holder } => holder == seat,
            _ => false,
        };
        asked.then_some(minutes as i64 * 60)
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        self.export_map()
    }

    fn disguised(&self, owner: Seat) -> Option<Box<dyn GameRules>> {
        // A hand is secret until the game is over; each card becomes the next kind of
        // the deck's order, so a card that fitted a discard no longer does and another
        // does. (Words not yet revealed are secret too, but their reveal is the point of
        // the finale: their tests are in `tests/service/chesswords.rs`.)
        let hand = self.state.hands.get(owner.0 as usize)?;
        if self.is_over() || hand.is_empty() {
            return None;
        }
        let mut kinds = cards::deck();
        kinds.dedup();
        let next = |c: &Card| {
            let i = kinds.iter().position(|k| k == c).unwrap_or(0);
            kinds[(i + 1) % kinds.len()]
        };
        let mut disguise = self.clone();
        disguise.state.hands[owner.0 as usize] = hand.iter().map(next).collect();
        Some(Box::new(disguise))
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", &self.state)
    }
}
