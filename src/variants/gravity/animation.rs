//! A whole Gravity Chess game as an animation: one frame per action, from the start.
//!
//! The game keeps no history of boards; it is rebuilt from its record. Each player's deck
//! as it was at the start is the cards flipped on that player's turns, in order, then the
//! cards still face down; the record's moves, stays and adds are replayed on it. The
//! rebuilt decks never leave this module: the frames show what the public saw.

use super::fen;
use super::read::read;
use super::state::{Gravity, GravityAction, Step};
use crate::render::gif::{views_gif, GifOptions};
use crate::render::{BoardView, Renderer};
use crate::rules::Color;
use crate::variants::api::{Action, Apply, GameCommand};

impl Gravity {
    /// Every board of the game, from the start to now, one per action, as the public saw
    /// them; `None` if the record does not replay (a damaged game).
    pub fn history(&self) -> Option<Vec<BoardView>> {
        let setup = match &self.start_fen {
            Some(f) => fen::parse(f).ok()?,
            None => fen::Setup {
                board: super::board::Board::empty(),
                waiting: [Vec::new(), Vec::new()],
                turn: Color::White,
                captured: [0, 0],
            },
        };
        let mut decks = [Vec::new(), Vec::new()];
        for t in &self.record {
            decks[t.seat.0 as usize].extend(t.flip);
        }
        for (deck, rest) in decks.iter_mut().zip(&self.decks) {
            deck.extend(rest.iter().copied());
        }
        let mut g = Gravity::from_decks(setup, decks, self.start_fen.clone());
        let mut views = vec![g.board_view()];
        for t in &self.record {
            let seat = t.seat;
            for step in &t.steps {
                let action = match step {
                    Step::Moved(san) => read(&g, seat, &GameCommand::new("move", san))
                        .ok()?
                        .action()?
                        .clone(),
                    Step::Stayed(sq) => Action::of(&GravityAction::Stay(sq.clone())).ok()?,
                };
                g.apply(seat, &action).ok()?;
                views.push(g.board_view());
            }
            if let Some(add) = &t.add {
                let sq = add.split_once('@')?.1.to_string();
                g.apply(seat, &Action::of(&GravityAction::Add(sq)).ok()?)
                    .ok()?;
                views.push(g.board_view());
            }
        }
        // The ending, which an action of the referee's may have brought.
        if let Some(last) = views.last_mut() {
            *last = self.board_view();
        }
        Some(views)
    }

    /// The game as an animated GIF, the players named.
    pub fn animation_gif(&self, renderer: &Renderer, names: [String; 2]) -> Option<Vec<u8>> {
        let [white, black] = names;
        let views: Vec<BoardView> = self
            .history()?
            .into_iter()
            .map(|v| v.with_players(white.clone(), black.clone()))
            .collect();
        let options = GifOptions {
            white,
            black,
            ..GifOptions::default()
        };
        Some(views_gif(renderer, &views, &options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::api::random::SeededRng;
    use crate::variants::api::Seat;

    #[test]
    fn the_history_replays_the_record_from_the_start_to_the_board_now() {
        let mut g = Gravity::start(&mut SeededRng::new(9));
        let mut actions = 0;
        while !g.is_over() && actions < 60 {
            let seat = Seat(g.turn().index() as u8);
            let a = match g.phase() {
                super::super::state::Phase::Move => GravityAction::Move(g.legal_moves()[0].uci()),
                super::super::state::Phase::Add => {
                    GravityAction::Add(g.add_squares()[actions % g.add_squares().len()].to_string())
                }
            };
            g.apply(seat, &Action::of(&a).unwrap()).unwrap();
            actions += 1;
        }
        let h = g.history().unwrap();
        assert_eq!(h.len(), actions + 1);
        assert_eq!(h.last(), Some(&g.board_view()));
        assert!(h[0].pieces.iter().all(Option::is_none), "the empty start");
        let gif = g
            .animation_gif(&Renderer::default(), ["alice".into(), "bob".into()])
            .unwrap();
        assert!(gif.starts_with(b"GIF89a"));
    }
}
