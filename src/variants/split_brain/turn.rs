//! A team's turn: the partners' secret picks, their reveal, the opposing chooser's
//! decision on an unplayable pair and the choice among equally close options; and
//! `act`, which hands the team actions (offers, claims, resignation,
//! timeouts) to the chess layer.

use super::{
    color_seat, square_list, team_name, team_of, Phase, Picks, SplitAction, SplitBrain, Standing,
};
use crate::rules::{Color, Move, Role, Square};
use crate::variants::api::{
    command_mark_str, Action, Apply, Audience, GameRules, Note, RuleError, Seat, Span, Text,
};
use crate::variants::chess::{ChessAction, ClaimKind};

/// Reads a pick: a square, optionally with a promotion (`c6=N`, `c6n`, `c6 n`).
fn read_pick(text: &str) -> Result<(Square, Option<char>), RuleError> {
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '=')
        .collect::<String>()
        .to_ascii_lowercase();
    let bad = || {
        RuleError::syntax(format!(
            "couldn't read '{}' as a square: pick like b1, or c6=N for a promotion",
            text.chars().take(20).collect::<String>()
        ))
    };
    if t.len() < 2 || t.len() > 3 || !t.is_ascii() {
        return Err(bad());
    }
    let sq = Square::parse(&t[..2]).ok_or_else(bad)?;
    let promo = t[2..].chars().next();
    Ok((sq, promo))
}

/// The chess layer's notes with the seat that acted in place of its team's colour (the
/// chess layer names only the side that acted: the mover, the one who offered or
/// declined).
fn as_seat(notes: Vec<Note>, by: Seat) -> Vec<Note> {
    notes
        .into_iter()
        .map(|n| Note {
            to: match n.to {
                Audience::Everyone => Audience::Everyone,
                Audience::Seat(_) => Audience::Seat(by),
            },
            text: Text(
                n.text
                    .0
                    .into_iter()
                    .map(|s| match s {
                        Span::Player(_) => Span::Player(by),
                        text => text,
                    })
                    .collect(),
            ),
            board: n.board,
        })
        .collect()
}

impl SplitBrain {
    /// Plays `m` for `team`, announced as `by`'s move, after the picks stood as they were
    /// (`standing` `None`) or after the opposing chooser's decision; the turn passes and
    /// the picks, now public, go to the record.
    fn play(
        &mut self,
        team: Color,
        m: Move,
        by: Seat,
        standing: Option<Standing>,
    ) -> Result<Vec<Note>, RuleError> {
        let turn = self.chess.game().plies();
        let said = self.revealed_picks(standing);
        let notes = self
            .chess
            .apply(color_seat(team), &Action::of(&ChessAction::Move(m.uci()))?)?;
        if self.keeps_said {
            self.said.push((turn, said));
        }
        self.picks = Picks::default();
        self.phase = Phase::Picking;
        Ok(as_seat(notes, by))
    }

    /// Plays the only option, or asks the player whose choice it is to choose among
    /// several.
    fn settle(
        &mut self,
        team: Color,
        standing: Standing,
        options: Vec<Move>,
        mut notes: Vec<Note>,
    ) -> Result<Vec<Note>, RuleError> {
        let by = match standing {
            Standing::Piece => self.mover(team),
            Standing::Target => self.chooser(team),
        };
        if let [only] = options.as_slice() {
            notes.extend(self.play(team, *only, self.mover(team), Some(standing))?);
            return Ok(notes);
        }
        let opts: Vec<String> = options
            .iter()
            .map(|m| match standing {
                Standing::Piece => m.to.to_string(),
                Standing::Target => m.from.to_string(),
            })
            .collect();
        notes.push(Note::public(Text::plain(format!(
            "{} options are equally close ({}): the {} chooses one",
            opts.len(),
            opts.join(", "),
            if standing == Standing::Piece {
                "mover"
            } else {
                "chooser"
            }
        ))));
        self.phase = Phase::Choosing {
            standing,
            by,
            options: opts,
        };
        Ok(notes)
    }

    /// A partner's secret pick: the chooser's piece or the mover's target; once both
    /// have picked, the reveal.
    fn pick(&mut self, seat: Seat, text: &str) -> Result<Vec<Note>, RuleError> {
        let team = self.team_to_move();
        if team_of(seat) != team {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn, not your team's",
                team_name(team)
            )));
        }
        if self.phase != Phase::Picking {
            return Err(RuleError::new(
                "both picks are already revealed: nothing to pick now",
            ));
        }
        let (sq, promo) = read_pick(text)?;
        let chooser = seat == self.chooser(team);
        if chooser {
            self.pick_piece(team, sq, promo)?;
        } else {
            self.pick_target(sq, promo)?;
        }
        let (piece, target) = match (&self.picks.piece, &self.picks.target) {
            (Some(_), Some(_)) => self.squares()?,
            _ => {
                let what = if chooser {
                    format!("you picked {}", self.piece_text(sq))
                } else {
                    format!("you picked the target {sq}")
                };
                return Ok(vec![Note::private(
                    seat,
                    Text::plain(format!(
                        "{what}; you may change it until your partner has picked"
                    )),
                )]);
            }
        };
        self.reveal(team, piece, target)
    }

    /// The chooser's pick of a piece of `team` that can move.
    fn pick_piece(
        &mut self,
        team: Color,
        sq: Square,
        promo: Option<char>,
    ) -> Result<(), RuleError> {
        if promo.is_some() {
            return Err(RuleError::syntax(
                "you pick a piece: write only its square, like b1",
            ));
        }
        let valid = self.piece_squares();
        if !valid.contains(&sq) {
            let why = match self.position().piece_at(sq) {
                Some(p) if p.color == team => {
                    format!("{} has no legal move", self.piece_text(sq))
                }
                Some(_) => format!("{sq} holds an opponent's piece"),
                None => format!("{sq} is empty"),
            };
            return Err(RuleError::new(format!(
                "{why}: pick one of your pieces that can move: {}",
                square_list(&valid)
            )));
        }
        self.picks.piece = Some(sq.to_string());
        Ok(())
    }

    /// The mover's pick of a target some piece can move to, with the piece a pawn
    /// promotes to there.
    fn pick_target(&mut self, sq: Square, promo: Option<char>) -> Result<(), RuleError> {
        let valid = self.target_squares();
        if !valid.contains(&sq) {
            return Err(RuleError::new(format!(
                "none of your pieces can move to {sq}: pick one of {}",
                square_list(&valid)
            )));
        }
        let promo = match promo {
            None => None,
            Some(c) => Some(self.promotion_pick(sq, c)?),
        };
        self.picks.target = Some(sq.to_string());
        self.picks.promotion = promo;
        Ok(())
    }

    /// A promotion picked with the target `sq`: a pawn must promote there, to a piece the
    /// variant allows.
    fn promotion_pick(&self, sq: Square, c: char) -> Result<char, RuleError> {
        let promotes_here = self
            .position()
            .legal_moves()
            .iter()
            .any(|m| m.to == sq && m.promotion.is_some());
        if !promotes_here {
            return Err(RuleError::new(format!(
                "no pawn of yours can promote on {sq}: pick {sq} without a piece"
            )));
        }
        let allowed = self.position().config().promotion;
        match Role::from_char(c.to_ascii_uppercase()) {
            Some(r) if allowed.contains(&r) => Ok(c),
            _ => Err(RuleError::new(format!(
                "a pawn may become {}: write c6=N, for example",
                allowed
                    .iter()
                    .map(|r| r.upper_char().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// Both have picked: reveal, then play or ask the opponents.
    fn reveal(
        &mut self,
        team: Color,
        piece: Square,
        target: Square,
    ) -> Result<Vec<Note>, RuleError> {
        let promo_text = self
            .picks
            .promotion
            .map(|c| format!(" (promoting to {})", c.to_ascii_uppercase()))
            .unwrap_or_default();
        let mut notes = vec![Note::public(
            Text::plain("revealed: ")
                .push_player(self.chooser(team))
                .push(format!(" picked {}, ", self.piece_text(piece)))
                .push_player(self.mover(team))
                .push(format!(" picked the target {target}{promo_text}")),
        )];
        let direct = self.resolve(Standing::Piece, piece, target);
        if let Some(m) = direct.iter().find(|m| m.to == target) {
            let m = *m;
            notes.extend(self.play(team, m, self.mover(team), None)?);
            return Ok(notes);
        }
        notes.push(Note::public(Text::plain(format!(
            "{} cannot move to {target}: the opposing chooser decides whether the piece or the target stands",
            self.piece_text(piece)
        ))));
        self.phase = Phase::Deciding;
        Ok(notes)
    }

    fn decide(&mut self, seat: Seat, standing: Standing) -> Result<Vec<Note>, RuleError> {
        let team = self.team_to_move();
        if self.phase != Phase::Deciding {
            return Err(RuleError::new("there is no decision to make now"));
        }
        if seat != self.chooser(team.opposite()) {
            return Err(RuleError::not_your_turn(format!(
                "the decision is for {}'s chooser this round",
                team_name(team.opposite())
            )));
        }
        let (piece, target) = self.squares()?;
        let options = self.resolve(standing, piece, target);
        let notes = vec![Note::public(Text::plain(format!(
            "the {} stands",
            standing.word()
        )))];
        self.settle(team, standing, options, notes)
    }

    fn choose(&mut self, seat: Seat, text: &str) -> Result<Vec<Note>, RuleError> {
        let team = self.team_to_move();
        let Phase::Choosing {
            standing,
            by,
            options,
        } = self.phase.clone()
        else {
            return Err(RuleError::new("there is nothing to choose now"));
        };
        if seat != by {
            return Err(RuleError::not_your_turn(
                "the choice is not yours this time",
            ));
        }
        let (sq, _) = read_pick(text)?;
        if !options.contains(&sq.to_string()) {
            return Err(RuleError::new(format!(
                "{sq} is not one of the options: choose one of {}",
                options.join(", ")
            )));
        }
        let (piece, target) = self.squares()?;
        let m = self
            .resolve(standing, piece, target)
            .into_iter()
            .find(|m| match standing {
                Standing::Piece => m.to == sq,
                Standing::Target => m.from == sq,
            })
            .ok_or_else(|| RuleError::new("that option is no longer available"))?;
        self.play(team, m, self.mover(team), Some(standing))
    }

    /// The team's picks as revealed, for the record: `piece b1, target c3=Q`, and the
    /// decision when there was one (`; the target stands`).
    fn revealed_picks(&self, standing: Option<Standing>) -> String {
        let mut said = format!(
            "piece {}, target {}",
            self.picks.piece.as_deref().unwrap_or("?"),
            self.picks.target.as_deref().unwrap_or("?")
        );
        if let Some(p) = self.picks.promotion {
            said.push_str(&format!("={}", p.to_ascii_uppercase()));
        }
        if let Some(s) = standing {
            said.push_str(&format!("; the {} stands", s.word()));
        }
        said
    }

    /// Applies an action of the variant's own type.
    pub(super) fn act(&mut self, seat: Seat, action: SplitAction) -> Result<Vec<Note>, RuleError> {
        if seat.0 > 3 {
            return Err(RuleError::new("Split-Brain Chess has four seats"));
        }
        if self.aborted() {
            return Err(RuleError::over("the game was aborted"));
        }
        if self.outcome().is_some() {
            return Err(RuleError::over("the game is over"));
        }
        // What the chess layer does for the team, as a team's action.
        let chess = match action {
            SplitAction::Pick(text) => return self.pick(seat, &text),
            SplitAction::Decide(standing) => return self.decide(seat, standing),
            SplitAction::Choose(text) => return self.choose(seat, &text),
            SplitAction::Claim(ClaimKind::Draw, Some(_)) => {
                return Err(RuleError::syntax(concat!(
                    "in Split-Brain Chess a claim names no move: write ",
                    command_mark_str!("claim draw")
                )))
            }
            SplitAction::Claim(kind, intended) => ChessAction::Claim(kind, intended),
            SplitAction::Resign => ChessAction::Resign,
            SplitAction::Offer(k) => ChessAction::Offer(k),
            SplitAction::Accept(k) => ChessAction::Accept(k),
            SplitAction::Decline(k) => ChessAction::Decline(k),
            SplitAction::Timeout => ChessAction::Timeout,
            SplitAction::Abort => ChessAction::Abort,
        };
        let notes = self
            .chess
            .apply(color_seat(team_of(seat)), &Action::of(&chess)?)?;
        Ok(as_seat(notes, seat))
    }
}
