//! The statement of what is secret in Cloak and Dagger Chess, for the leak test: the
//! same game with one seat's unrevealed identities replaced by another back rank that
//! everyone else's knowledge allows.
//!
//! What the others know of a seat's checkers: the identities made public (uncloaked,
//! captured, guessed right, castled), the roles ruled out by wrong guesses, that the
//! back rank keeps the Chess960 limits, and the shape of every move each checker made
//! (a checker that went from b1 to c3 is a knight). Before its owner sets up, the secret
//! is the back rank drawn for `setup random`.
//!
//! Some actions reveal part of a secret by the rules, and the disguise taken before such
//! an action keeps that part: a guess reveals whether the checker is what was guessed, a
//! capture announces the captured checker, and the end of a turn tells everyone whether
//! the game has ended (a checkmate or a stalemate depends on whether the other side's
//! hidden men have a move).

use super::board::{arrangement_number, arrangement_text, pattern_allows, Arrangement};
use super::record::Event;
use super::state::{color, Cloak, CloakAction};
use crate::rules::Role;
use crate::variants::api::{Action, Seat};

/// The roles a checker may be.
const ROLES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

impl Cloak {
    /// The roles (a bit per role index) everyone but `owner` allows each of `owner`'s
    /// checkers, by number.
    fn allowed_roles(&self, owner: u8, truth: &Arrangement) -> [u8; 9] {
        let i = owner as usize;
        let mut allowed = [0u8; 9];
        for id in 1..=8usize {
            allowed[id] = if self.known[i][id] {
                1 << truth[id - 1].index()
            } else {
                ROLES.iter().fold(0, |b, r| b | (1 << r.index())) & !self.crosses[i][id]
            };
        }
        for t in self.record.iter().filter(|t| t.seat == owner) {
            for e in &t.events {
                if let Event::Move(p) = e {
                    if p.id > 0 && p.castle.is_none() && !p.drop {
                        let (from, to) = (
                            crate::rules::Square::from_index(p.from),
                            crate::rules::Square::from_index(p.to),
                        );
                        allowed[p.id as usize] &= ROLES
                            .iter()
                            .filter(|r| pattern_allows(**r, from, to))
                            .fold(0, |b, r| b | (1 << r.index()));
                    }
                }
            }
        }
        allowed
    }

    /// This game with `owner`'s back rank `a` in place of theirs.
    fn with_arrangement(&self, owner: u8, a: &Arrangement) -> Cloak {
        let mut g = self.clone();
        let i = owner as usize;
        if self.setups[i].is_none() {
            g.draws[i] = arrangement_text(a);
            return g;
        }
        g.setups[i] = Some(arrangement_text(a));
        g.board.assign(color(owner), a);
        for t in g.record.iter_mut() {
            for e in t.events.iter_mut() {
                if let Event::Move(p) = e {
                    if t.seat == owner && p.id > 0 {
                        p.role = a[p.id as usize - 1].upper_char();
                    }
                }
            }
        }
        g
    }

    /// The checker of `owner`'s that `actor`'s `action` reveals by the rules: the one
    /// guessed at, or the one captured.
    fn revealed_by(&self, owner: u8, actor: Seat, action: &Action) -> Option<u8> {
        if actor.0 == owner {
            return None;
        }
        match action.to::<CloakAction>("Cloak and Dagger Chess").ok()? {
            CloakAction::Guess(id, _) => Some(id),
            CloakAction::Move(uci) => {
                let m = self
                    .moves_now()
                    .into_iter()
                    .find(|m| super::state::move_code(m) == uci)?;
                self.board
                    .get(m.to)
                    .filter(|x| x.color == color(owner) && x.id > 0)
                    .map(|x| x.id)
            }
            _ => None,
        }
    }

    /// How the game stands after `actor`'s `action`: accepted or not, and how it ended.
    fn after(&self, actor: Seat, action: &Action) -> (bool, Option<super::state::Ended>) {
        let mut g = self.clone();
        match action
            .to::<CloakAction>("Cloak and Dagger Chess")
            .and_then(|a| g.act(actor, a))
        {
            Ok(_) => (true, g.ended()),
            Err(_) => (false, self.ended()),
        }
    }

    /// The game with `owner`'s unrevealed identities replaced by another back rank that
    /// everyone else's knowledge allows (and, before `next`, that keeps what `next`
    /// reveals), or `None` when the game is over or no other back rank fits.
    pub fn disguise(&self, owner: Seat, next: Option<(Seat, &Action)>) -> Option<Cloak> {
        if self.is_over() || owner.0 > 1 {
            return None;
        }
        let i = owner.0 as usize;
        let truth: Arrangement = match self.arrangement(owner.0) {
            Some(a) => a,
            None => super::board::parse_arrangement(&self.draws[i]).ok()?,
        };
        let mut allowed = if self.setups[i].is_some() {
            self.allowed_roles(owner.0, &truth)
        } else {
            [0xff; 9]
        };
        let after = next.map(|(actor, action)| {
            if let Some(id) = self.revealed_by(owner.0, actor, action) {
                if (1..=8).contains(&id) {
                    allowed[id as usize] = 1 << truth[id as usize - 1].index();
                }
            }
            (actor, action, self.after(actor, action))
        });
        // Start the search at a place that depends on the true back rank, so that
        // disguises differ from game to game.
        let start = truth.iter().enumerate().fold(0u64, |h, (f, r)| {
            h * 7 + (f as u64 + 1) * (r.index() as u64 + 1)
        });
        (0..960u64)
            .map(|n| arrangement_number(n + start))
            .filter(|a| *a != truth)
            .filter(|a| (1..=8).all(|id| allowed[id] & (1 << a[id - 1].index()) != 0))
            .map(|a| self.with_arrangement(owner.0, &a))
            .find(|g| match after {
                Some((actor, action, result)) => g.after(actor, action) == result,
                None => true,
            })
    }
}
