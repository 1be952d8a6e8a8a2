//! What the referee asks of a chess game (`impl GameRules for ChessRules`): seats, prompts,
//! reading and applying actions, and what each viewer sees.

use super::{
    color_of, diagram, game_outcome, pgn_tags, read, seat_of, ChessAction, ChessRules, OfferKind,
};
use crate::notation::fen::to_fen;
use crate::notation::pgn::sans_of_numbered;
use crate::notation::{san, write_pgn_ending};
use crate::render;
use crate::rules::Color;
use crate::variants::api::{
    to_stored, to_stored_text, Action, Apply, Env, GameCommand, GameOutcome, GameRules, Note,
    Projection, Prompt, PromptKind, Reading, RuleError, Seat, SeatPlan, Viewer,
};

impl ChessRules {
    /// The moves `color` may make now, in SAN; empty when it is not their turn.
    fn legal_sans(&self, color: Color) -> Vec<String> {
        if self.is_over() || self.game.turn() != color {
            return Vec::new();
        }
        let pos = self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|&m| san(pos, m))
            .collect()
    }

    /// The engine's view of the board for `viewer`.
    fn board_viewer(viewer: Viewer) -> render::Viewer {
        match viewer {
            Viewer::Public => render::Viewer::Public,
            Viewer::Seat(seat) => match color_of(seat) {
                Ok(color) => render::Viewer::Player(color),
                Err(_) => render::Viewer::Public,
            },
        }
    }
}

impl Apply for ChessRules {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: ChessAction = action.to(self.game.variant().display_name())?;
        self.act(seat, action)
    }
}

impl GameRules for ChessRules {
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    fn seats(&self) -> SeatPlan {
        SeatPlan::TWO_SIDES
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        if self.is_over() {
            return Vec::new();
        }
        let turn = self.game.turn();
        let mut out = vec![(seat_of(turn), Prompt::turn(PromptKind::MOVE, "to move"))];
        if let Some((by, kind)) = self.offer {
            let to = by.opposite();
            let cmd = kind.command();
            // The side the offer is made to is still to move (playing on lets the offer
            // lapse): its prompt says both, and its deadline is the move's.
            let ask = match (kind, to == turn) {
                (OfferKind::Draw, true) => "to move or answer the draw offer",
                (OfferKind::FastFifty, true) => "to move or answer the fast-fifty",
                (OfferKind::Draw, false) => "to answer the draw offer",
                (OfferKind::FastFifty, false) => "to answer the fast-fifty",
            };
            let answer = |p: Prompt| {
                p.with_answer("Accept", &format!("{cmd} accept"), true)
                    .with_answer(
                        &format!("{}{}", kind.no()[..1].to_uppercase(), &kind.no()[1..]),
                        &format!("{cmd} {}", kind.no()),
                        false,
                    )
            };
            if to == turn {
                out[0].1 = answer(Prompt::turn(kind.prompt_kind(), ask));
            } else {
                out.push((
                    seat_of(to),
                    answer(Prompt::optional(kind.prompt_kind(), ask)),
                ));
            }
        }
        out
    }

    fn read(&self, seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        read::read(self, seat, command)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        let legal = match viewer {
            Viewer::Seat(seat) => color_of(seat)
                .map(|c| self.legal_sans(c))
                .unwrap_or_default(),
            Viewer::Public => Vec::new(),
        };
        let numbered = self.numbered();
        Projection {
            record: sans_of_numbered(&numbered),
            numbered,
            legal,
            ..self.project_board(viewer)
        }
    }

    fn project_board(&self, viewer: Viewer) -> Projection {
        let pos = self.game.position();
        Projection {
            board: render::BoardView::from_game(
                &self.game,
                ChessRules::board_viewer(viewer),
                render::PublicOrientation::default(),
            ),
            diagram: diagram(pos),
            fen: to_fen(pos),
            last_move: self.last_turn().map(|t| t.uci()),
            record: Vec::new(),
            numbered: String::new(),
            legal: Vec::new(),
            holdings: None,
            counters: self.counters(),
            instructions: None,
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.outcome.as_ref().map(game_outcome)
    }

    fn aborted(&self) -> bool {
        self.aborted
    }

    fn timeout_is_automatic(&self) -> bool {
        !self.is_sharp()
    }

    fn engine_record(&self) -> Option<crate::variants::api::EngineRecord> {
        self.engine_record_of()
    }

    fn line_san(&self, ply: usize, line: &[String]) -> Vec<String> {
        self.line_san_of(ply, line)
    }

    fn engine_variant(&self) -> Option<&'static str> {
        let cfg = self.game.variant().config();
        let analysable = cfg.double_move.is_none() && self.game.plies() > 0;
        analysable.then_some(cfg.uci_variant).flatten()
    }

    fn opening(&self) -> Option<crate::notation::openings::Opening> {
        crate::notation::openings::classify(&self.whole_game())
    }

    fn pgn_analysed(
        &self,
        tags: &[(String, String)],
        after: &[(usize, String)],
        glyphs: &[(usize, &str)],
    ) -> Option<String> {
        self.engine_record_of()?;
        Some(crate::notation::write_pgn_analysed(
            &self.whole_game(),
            self.outcome,
            &pgn_tags(tags),
            after,
            glyphs,
        ))
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        write_pgn_ending(&self.whole_game(), self.outcome, &pgn_tags(tags))
    }

    fn animation(
        &self,
        _viewer: Viewer,
        renderer: &render::Renderer,
        names: &[&str],
    ) -> Option<Vec<u8>> {
        let [white, black] = self.side_names(names);
        let options = render::gif::GifOptions {
            white,
            black,
            ..Default::default()
        };
        Some(render::gif::game_gif(
            renderer,
            &self.whole_game(),
            &options,
        ))
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        if let Some(tokens) = self.tokens_left() {
            m.insert("tokens_left".into(), serde_json::json!(tokens));
        }
        if let Some((given, _)) = self.checks_given() {
            m.insert("checks_given".into(), serde_json::json!(given));
        }
        m
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", &self.chess_snapshot())
    }

    fn snapshot_text(&self) -> Result<String, RuleError> {
        to_stored_text("the game's state", &self.chess_snapshot())
    }
}
