//! What each viewer sees of a game: the board with its letters and checkers, the text
//! diagram, the record, the PGN and the animation, a seat's own hand and instructions,
//! and the export.

use super::*;
use crate::variants::chesswords::prompts::say::*;

impl Chesswords {
    /// The board as everyone sees it: letters on every square, checkers as discs.
    pub(super) fn board(&self, bottom: Color) -> BoardView {
        let mut view =
            BoardView::from_position(self.position(), self.game.moves().last().copied(), bottom);
        self.dress(&mut view, self.state.discards.len());
        view.caption.to_move = self.to_move();
        view.caption.result = self.banner();
        view
    }

    /// Adds the letters and the first `discards` checkers to a view.
    pub(super) fn dress(&self, view: &mut BoardView, discards: usize) {
        view.overlays
            .push(Overlay::Letters(self.state.letters.letters()));
        let discs: Vec<Disc> = self.state.discards[..discards]
            .iter()
            .filter_map(|d| {
                Some(Disc {
                    square: Square::parse(&d.square)?,
                    color: color_of_seat(d.by),
                    label: None,
                })
            })
            .collect();
        if !discs.is_empty() {
            view.overlays.push(Overlay::Discs(discs));
        }
    }

    /// The colour of the one seat awaited, for the caption.
    pub(super) fn to_move(&self) -> Option<Color> {
        match self.awaiting().as_slice() {
            [(seat, _)] => Some(color_of_seat(*seat)),
            _ => None,
        }
    }

    /// The result banner, once the game is over.
    pub(super) fn banner(&self) -> Option<String> {
        let points = |n: i32| crate::variants::api::plural(n, "point", "points");
        if self.state.aborted {
            return Some("Aborted".into());
        }
        let o = self.state.outcome.as_ref()?;
        let total: i32 =
            o.score.as_ref().map_or(0, |s| s.iter().sum::<i32>()) - self.state.penalties as i32;
        Some(match (o.result.as_str(), o.reason.as_str()) {
            (_, "resignation") => "Lost (F) · resignation".to_string(),
            ("F", _) => format!("Lost (F) · {}", points(total)),
            (g, _) => format!("Grade {g} · {}", points(total)),
        })
    }

    pub(super) fn text_diagram(&self) -> String {
        let mut out = diagram(self.position());
        let checkers = self.checkers();
        out.push_str("\nletters (a checker marks the lower-case ones):\n");
        for row in (0..6u8).rev() {
            out.push((b'1' + row) as char);
            out.push(' ');
            for file in 0..6u8 {
                let sq = Square::new(file, row);
                let c = self.letter(sq);
                out.push(if checkers.contains(&sq) {
                    c.to_ascii_lowercase()
                } else {
                    c
                });
            }
            out.push('\n');
        }
        out.push_str("  abcdef");
        let counts = format!(
            "\ncards: White holds {}, Black {}, the pile {}",
            self.state.hands[0].len(),
            self.state.hands[1].len(),
            self.state.pile.len()
        );
        out.push_str(&counts);
        if self.state.penalties > 0 {
            out.push_str(&format!("; penalty points {}", self.state.penalties));
        }
        out
    }

    /// What `viewer` sees: the board with letters and checkers, the record, and for a
    /// seat its own moves, hand and instructions (never the partner's).
    pub(super) fn view(&self, viewer: Viewer) -> Projection {
        let bottom = match viewer {
            Viewer::Seat(s) => color_of_seat(s),
            Viewer::Public => render::PublicOrientation::default().bottom(self.to_move()),
        };
        let seat = match viewer {
            Viewer::Seat(s) if color_of(s).is_ok() => Some(s),
            _ => None,
        };
        Projection {
            fen: to_fen(self.position()),
            last_move: self.game.moves().last().map(Move::uci),
            diagram: self.text_diagram(),
            board: self.board(bottom),
            record: self.move_list(),
            numbered: self.numbered_moves(),
            legal: seat.map(|s| self.legal_moves(s)).unwrap_or_default(),
            holdings: seat.and_then(|s| self.secret_summary(s)),
            counters: None,
            instructions: seat.and_then(|s| self.instructions(s)),
        }
    }

    /// Whether an abort is still allowed: before each side has moved.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.game.moves().len() < 2
    }

    pub(super) fn move_list(&self) -> Vec<String> {
        turn_sans(&self.game)
    }

    pub(super) fn legal_moves(&self, seat: Seat) -> Vec<String> {
        if !matches!(self.state.phase, Phase::Move { .. }) || seat != self.mover() {
            return Vec::new();
        }
        let pos = self.position();
        self.playable_moves().iter().map(|&m| san(pos, m)).collect()
    }

    pub(super) fn numbered_moves(&self) -> String {
        numbered_moves(&self.game).join(" ")
    }

    pub(super) fn pgn_text(&self, tags: &[(String, String)]) -> String {
        let mut t = pgn_tags(tags);
        t.variant = Some(self.variant().to_string());
        if let Some(o) = &self.state.outcome {
            let total: i32 =
                o.score.as_ref().map_or(0, |s| s.iter().sum::<i32>()) - self.state.penalties as i32;
            t.extra.push(("Grade".into(), o.result.clone()));
            if o.score.is_some() {
                t.extra.push(("Score".into(), total.to_string()));
            }
            t.extra.push((
                "Termination".into(),
                crate::notation::pgn::termination(&o.reason).into(),
            ));
            t.extra.push(("PostalReason".into(), o.reason.clone()));
        }
        // A game of partners has no winner between the sides: once it is over, PGN's
        // `1/2-1/2` (neither side won more than the other), the grade in its own tag; `*`
        // while it goes on.
        let result = if self.state.outcome.is_some() {
            "1/2-1/2"
        } else {
            "*"
        };
        let closing = self.finale_record();
        write_pgn_with_result(
            &self.game,
            result,
            None,
            &t,
            &self.state.said,
            closing.as_deref(),
        )
    }

    /// The finale for the record, once the game is over (the words are public then):
    /// `finale: White's words DRAT and TOE, clue “a rodent”, Black guessed RAT (wrong); ...`.
    fn finale_record(&self) -> Option<String> {
        self.state.outcome.as_ref()?;
        let parts: Vec<String> = SEATS
            .iter()
            .filter_map(|&seat| {
                let words = self.state.words[seat.0 as usize].as_ref()?;
                let turn = &self.state.finale[seat.0 as usize];
                let mut part = if words.is_empty() {
                    format!("{} had no words", side(seat))
                } else {
                    format!("{}'s words {}", side(seat), words.join(" and "))
                };
                if let Some(clue) = &turn.clue {
                    part.push_str(&format!(", clue “{clue}”"));
                }
                if let Some(guess) = &turn.guess {
                    let right = if turn.guessed == Some(true) {
                        "right"
                    } else {
                        "wrong"
                    };
                    part.push_str(&format!(
                        ", {} guessed {guess} ({right})",
                        side(partner(seat))
                    ));
                }
                Some(part)
            })
            .collect();
        (!parts.is_empty()).then(|| format!("finale: {}", parts.join("; ")))
    }

    pub(super) fn animation_gif(
        &self,
        renderer: &render::Renderer,
        names: &[&str],
    ) -> Option<Vec<u8>> {
        let [white, black] = self.side_names(names);
        let positions = self.game.positions();
        let moves = self.game.moves();
        let views: Vec<BoardView> = positions
            .iter()
            .enumerate()
            .map(|(i, pos)| {
                let last = i.checked_sub(1).map(|k| moves[k]);
                let mut view = BoardView::from_position(pos, last, Color::White)
                    .with_players(white.clone(), black.clone());
                let shown = self.state.discards.iter().filter(|d| d.ply <= i).count();
                self.dress(&mut view, shown);
                if i + 1 == positions.len() {
                    if let Some(banner) = self.banner() {
                        view.caption.to_move = None;
                        view.caption.result = Some(banner);
                    }
                }
                view
            })
            .collect();
        let options = render::gif::GifOptions {
            white,
            black,
            ..Default::default()
        };
        Some(render::gif::views_gif(renderer, &views, &options))
    }

    pub(super) fn instructions(&self, seat: Seat) -> Option<String> {
        match &self.state.phase {
            Phase::Discard {
                holder, options, ..
            } if *holder == seat => Some(format!(
                "your partner's capture lets you discard one of these cards: {}. Send me \
                 {DISCARD} privately ({}). Your hand: {}",
                options
                    .iter()
                    .map(|c| format!("{c} ({})", c.short()))
                    .collect::<Vec<_>>()
                    .join(" or "),
                command_mark(&format!("discard {}", options[0].short())),
                cards::hand_text(&self.state.hands[seat.0 as usize])
            )),
            Phase::LastDiscard { holder } if *holder == seat => {
                let open = self.state.open_discard.as_ref()?;
                let options = self.discardable(open);
                let what = if options.is_empty() {
                    format!(
                        "no card in your hand fits a discard for {}'s last capture, so send me \
                         {DISCARD_NONE}",
                        side(partner(seat))
                    )
                } else {
                    format!(
                        "{}'s last capture lets you discard {}: send me {DISCARD} ({}), or \
                         {DISCARD_NONE} to keep your cards",
                        side(partner(seat)),
                        card_choice(&options),
                        command_mark(&format!("discard {}", options[0].short()))
                    )
                };
                Some(format!(
                    "play is over. Before the finale, {what}. Your hand: {}{}",
                    cards::hand_text(&self.state.hands[seat.0 as usize]),
                    match self.state.timer_minutes {
                        Some(t) => format!(". You have {}", plural(t as usize, "minute")),
                        None => String::new(),
                    }
                ))
            }
            Phase::Words if self.state.words[seat.0 as usize].is_none() => Some(format!(
                "play is over. The marked letters are {}. Send me two words made from them \
                 (each marked letter at most once across both words): {WORDS}, or \
                 {WORDS_NONE}{}",
                self.marked_text(),
                match self.state.timer_minutes {
                    Some(t) => format!(". You have {}", plural(t as usize, "minute")),
                    None => String::new(),
                }
            )),
            _ => None,
        }
    }

    pub(super) fn secret_summary(&self, seat: Seat) -> Option<String> {
        let hand = self.state.hands.get(seat.0 as usize)?;
        let mut text = format!(
            "your hand: {} ({}); your partner holds {}, the pile has {}",
            cards::hand_text(hand),
            plural(hand.len(), "card"),
            plural(self.state.hands[partner(seat).0 as usize].len(), "card"),
            plural(self.state.pile.len(), "card")
        );
        if let Some(open) = self
            .state
            .open_discard
            .as_ref()
            .filter(|o| o.holder == seat && !self.is_over())
        {
            let options = self.discardable(open);
            if !options.is_empty() {
                text.push_str(&format!(
                    "; {}'s last capture lets you discard {} ({DISCARD})",
                    side(partner(seat)),
                    card_choice(&options)
                ));
            }
        }
        if let Some(Some(words)) = self.state.words.get(seat.0 as usize) {
            if !words.is_empty() {
                text.push_str(&format!("; your words: {}", words.join(" and ")));
            }
        }
        Some(text)
    }

    pub(super) fn export_map(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut m = serde_json::Map::new();
        m.insert("letters".into(), json!(self.state.letters.rows_from_top()));
        m.insert(
            "checkers".into(),
            json!(self
                .state
                .discards
                .iter()
                .map(|d| d.square.clone())
                .collect::<Vec<_>>()),
        );
        m.insert(
            "discards".into(),
            json!(self
                .state
                .discards
                .iter()
                .map(|d| json!({"by": side(d.by), "card": d.card.short(), "square": d.square}))
                .collect::<Vec<_>>()),
        );
        m.insert("penalties".into(), json!(self.state.penalties));
        if self.is_over() {
            m.insert(
                "hands".into(),
                json!({"white": self.state.hands[0], "black": self.state.hands[1]}),
            );
            m.insert("pile".into(), json!(self.state.pile));
            m.insert(
                "words".into(),
                json!({"white": self.state.words[0], "black": self.state.words[1]}),
            );
        }
        m
    }
}

/// What was said with a move, for the record: the clue before it (or the pass) and the
/// word or the letters the mover named: `clue “drink”, word DRAT`, `clue “x”, letters T
/// and E (penalty point)`, `after a pass`.
pub(super) fn said_with_move(clue: Option<&str>, with: Option<Result<&str, &str>>) -> String {
    let clue = match clue {
        Some(c) => format!("clue “{c}”"),
        None => return "after a pass".into(),
    };
    match with {
        Some(Ok(word)) => format!("{clue}, word {}", word.to_uppercase()),
        Some(Err(letters)) => {
            let l: Vec<String> = letters
                .chars()
                .filter(|c| c.is_alphabetic())
                .map(|c| c.to_uppercase().to_string())
                .collect();
            format!("{clue}, letters {} (penalty point)", l.join(" and "))
        }
        None => clue,
    }
}
