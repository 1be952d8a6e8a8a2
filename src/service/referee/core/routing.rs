//! What each audience is told after a change: the public channel gets the game's public
//! notes, its status and its public board; each seat gets its own private notes and,
//! when a secret answer is newly asked of it, its own board and instructions. Nothing
//! else of a game reaches a message.

use super::commit::Committed;
use super::core::Core;
use super::marks::user_mark;
use super::text::{awaited_users, outcome_words, players, public_view, seat_view, turn_line};
use super::{Button, Destination, Incoming, Listed, Outbound, Place, Reply};
use crate::store::GameRow;
use crate::variants::api::{
    Audience, CommandSpec, GameRules, IdRule, Placing, Prompt, Seat, Viewer,
};

/// Where a game's public messages go: its channel, or each player privately for a game
/// made in private (never to the engine's seat, the bot itself, in a game against it).
pub(in crate::service::referee) fn public_dest(g: &GameRow) -> Vec<Destination> {
    let engine = super::engine_seat::engine_of(g).map(|e| e.seat);
    match &g.channel {
        Some(c) => vec![Destination::Channel(c.clone())],
        None => g
            .seats
            .iter()
            .filter(|s| Some(s.seat) != engine)
            .filter_map(|s| s.user.clone())
            .map(Destination::Dm)
            .collect(),
    }
}

/// A player as messages name them: `alice (White)`.
pub(in crate::service::referee) fn player_name(
    g: &GameRow,
    rules: &dyn GameRules,
    seat: Seat,
) -> String {
    format!(
        "{} ({})",
        user_mark(g.user_at(seat.0).unwrap_or("?")),
        rules.seat_name(seat)
    )
}

/// The buttons of the public prompts newly awaited (an offer to answer, a decision to
/// make), each for the player asked.
pub(in crate::service::referee) fn answer_buttons(
    g: &GameRow,
    rules: &dyn GameRules,
    before: &[(Seat, Prompt)],
) -> Vec<Button> {
    rules
        .awaiting()
        .into_iter()
        .filter(|(s, p)| !p.secret && !before.contains(&(*s, p.clone())))
        .flat_map(|(seat, prompt)| {
            let user = g.user_at(seat.0).map(str::to_string);
            prompt.answers.into_iter().map(move |a| Button {
                label: a.label,
                command: with_id(&a.command, g.id),
                for_user: user.clone(),
                primary: a.primary,
                danger: false,
                keep: false,
            })
        })
        .collect()
}

/// `text` with game `id` written into each example it quotes or marks as a command
/// ([`command_mark`](super::marks::command_mark)) of one of `commands` (`` `pick d2` ``
/// becomes `` `pick 3 d2` ``), so that a private prompt's examples play in their game
/// whatever other games the player has; other quoted text, and a command's usage, are
/// left alone.
pub(in crate::service::referee) fn examples_with_game(
    text: &str,
    id: i64,
    commands: &[CommandSpec],
) -> String {
    let with_id = |part: &str| {
        let (word, rest) = part.split_once(' ')?;
        let spec = commands.iter().find(|c| c.is_named(word))?;
        let id = match spec.id {
            IdRule::Plain => id.to_string(),
            IdRule::HashOnly => format!("#{id}"),
        };
        Some(format!("{word} {id} {rest}"))
    };
    let marked = super::marks::render_commands(text, |line| {
        let line = with_id(line).unwrap_or_else(|| line.to_string());
        super::marks::command_mark(&line)
    });
    let mut out = String::with_capacity(marked.len() + 16);
    for (i, part) in marked.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are the quoted ones.
        let command = (i % 2 == 1).then(|| with_id(part)).flatten();
        out.push_str(command.as_deref().unwrap_or(part));
    }
    out
}

/// What `part` holds: taken when `own` (the last to need it), else a copy.
fn take_or_copy<T: Clone + Default>(part: &mut Option<T>, own: bool) -> T {
    match own {
        true => part.take().unwrap_or_default(),
        false => part.clone().unwrap_or_default(),
    }
}

/// Turns `view`, a public board of game `g` sent privately to `user` (a game made in
/// private), to the side `user` plays, as their own view is drawn: each player sees
/// their own moves from their own side. A board whose bottom the variant fixes
/// (Gravity) stays; a player's own orientation setting turns it afterwards
/// ([`Service::personalize`]).
pub(in crate::service::referee) fn turn_to_own_side(
    g: &GameRow,
    rules: &dyn GameRules,
    user: &str,
    view: &mut super::View,
) {
    if view.board.fixed_bottom {
        return;
    }
    if let Some(seat) = g.seat_of(user) {
        view.board.bottom = rules.project(Viewer::Seat(Seat(seat))).board.bottom;
    }
}

/// `draw accept` for game 12 is `draw 12 accept`.
fn with_id(command: &str, id: i64) -> String {
    match command.split_once(' ') {
        Some((word, rest)) => format!("{word} #{id} {rest}"),
        None => format!("{command} #{id}"),
    }
}

impl Core {
    /// The messages of a committed change: the public notes with the status and the
    /// board, the private notes, and the secret prompts newly asked.
    pub(in crate::service::referee) fn announce(
        &self,
        g: &GameRow,
        done: &Committed,
        r: &mut Reply,
    ) {
        let rules = done.rules.as_ref();
        r.plain.extend(
            g.seats
                .iter()
                .filter(|s| !g.personal.get(usize::from(s.seat)).copied().unwrap_or(true))
                .filter_map(|s| s.user.clone()),
        );
        let name = |s: Seat| player_name(g, rules, s);
        let mut lines = Vec::new();
        let mut private: Vec<(Seat, String)> = Vec::new();
        let mut board = false;
        for note in &done.notes {
            let text = note.text.render(name);
            match note.to {
                Audience::Everyone => {
                    board |= note.board;
                    lines.push(text);
                }
                Audience::Seat(s) => private.push((s, text)),
            }
        }
        let ended = !done.was_over && rules.is_over();
        if ended {
            match rules.outcome() {
                Some(o) => lines.push(format!("game over: {}", outcome_words(g, rules, &o))),
                None => lines.push("the game is aborted".into()),
            }
        }
        if !lines.is_empty() {
            self.announce_publicly(g, done, &lines, board || ended, r);
        }
        for (s, text) in private {
            if let Some(user) = g.user_at(s.0) {
                r.out.push(Outbound {
                    to: Destination::Dm(user.to_string()),
                    text: format!("game #{}: {text}", g.id),
                    game: Some(g.id),
                    ..Outbound::default()
                });
            }
        }
        self.prompt_privately(g, rules, &done.before, r);
    }

    /// The public message of a committed change, its notes `lines`, to each of the
    /// game's public destinations: with the turn line (or, at the end, the players
    /// called), the board when `with_board`, and the buttons to answer.
    fn announce_publicly(
        &self,
        g: &GameRow,
        done: &Committed,
        lines: &[String],
        with_board: bool,
        r: &mut Reply,
    ) {
        let rules = done.rules.as_ref();
        let ended = !done.was_over && rules.is_over();
        let mut text = format!("game #{}: {}", g.id, lines.join("; "));
        if !rules.is_over() {
            text.push_str(". ");
            text.push_str(&turn_line(g, rules, &done.deadlines));
        }
        let image = with_board.then(|| {
            public_view(
                g,
                rules,
                self.settings.public_orientation,
                &self.seat_names(g),
            )
        });
        let mut buttons = answer_buttons(g, rules, &done.before);
        if ended {
            buttons.extend(self.rematch_button(g));
            buttons.extend(self.analyse_button(g, rules));
        }
        // Whose turn it is now, or, when the game has just ended, its players.
        let mentions = match ended {
            true => players(g),
            false => awaited_users(g, rules),
        };
        let dests = public_dest(g);
        let last = dests.len().saturating_sub(1);
        let (mut text, mut image, mut buttons, mut mentions) =
            (Some(text), Some(image), Some(buttons), Some(mentions));
        for (i, d) in dests.into_iter().enumerate() {
            // The last destination takes the message's parts, the others copies (a game
            // in a channel has one destination: nothing is copied).
            let own = i == last;
            let (text, mut image, buttons, mentions) = (
                take_or_copy(&mut text, own),
                take_or_copy(&mut image, own),
                take_or_copy(&mut buttons, own),
                take_or_copy(&mut mentions, own),
            );
            if let (Destination::Dm(user), Some(view)) = (&d, image.as_mut()) {
                turn_to_own_side(g, rules, user, view);
            }
            // A turn notice for those it calls on: in a channel, the players awaited;
            // privately, its recipient when awaited.
            let turn = !ended
                && match &d {
                    Destination::Channel(_) => true,
                    Destination::Dm(u) => mentions.contains(u),
                };
            r.out.push(Outbound {
                turn,
                to: d,
                text,
                image,
                game: Some(g.id),
                buttons,
                refusal: None,
                mentions,
                document: None,
                ending: ended,
                listing: Vec::new(),
                challenge: None,
                marked: String::new(),
                card: None,
                table: None,
                graph: None,
                started: false,
                retitle: false,
                progress: None,
            });
        }
    }

    /// Asks each seat newly awaited for a secret answer, privately, with its own view of
    /// the board and what it may answer.
    pub(in crate::service::referee) fn prompt_privately(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
        before: &[(Seat, Prompt)],
        r: &mut Reply,
    ) {
        for (seat, prompt) in rules.awaiting() {
            if !prompt.secret || before.contains(&(seat, prompt.clone())) {
                continue;
            }
            let Some(user) = g.user_at(seat.0) else {
                continue;
            };
            let view = seat_view(
                g,
                rules,
                seat,
                self.settings.public_orientation,
                &self.seat_names(g),
            );
            let projection = rules.project(Viewer::Seat(seat));
            let text = projection.instructions.unwrap_or(prompt.ask);
            let text = match self.registry.get(&g.variant) {
                Ok(spec) => examples_with_game(&text, g.id, spec.commands()),
                Err(_) => text,
            };
            // Its ready answers as buttons, for this player alone.
            let buttons = prompt
                .answers
                .iter()
                .map(|a| Button {
                    label: a.label.clone(),
                    command: with_id(&a.command, g.id),
                    for_user: Some(user.to_string()),
                    primary: a.primary,
                    danger: false,
                    keep: false,
                })
                .collect();
            r.out.push(Outbound {
                to: Destination::Dm(user.to_string()),
                text: your_turn(g.id, &text),
                image: Some(view),
                game: Some(g.id),
                buttons,
                turn: true,
                ..Outbound::default()
            });
        }
    }

    /// What each seat holds in secret, told privately as the game starts.
    pub(in crate::service::referee) fn tell_holdings(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
        r: &mut Reply,
    ) {
        for seat in (0..rules.seat_count()).map(|s| Seat(s as u8)) {
            let holdings = rules.project(Viewer::Seat(seat)).holdings;
            if let (Some(user), Some(text)) = (g.user_at(seat.0), holdings) {
                r.out.push(Outbound {
                    to: Destination::Dm(user.to_string()),
                    text: format!("game #{}: {text}", g.id),
                    game: Some(g.id),
                    ..Outbound::default()
                });
            }
        }
    }
}

impl Core {
    /// For an action given as `inc` in a private message to game `g`, played in a
    /// channel, whose messages are those of `r` from `first`: the acknowledgement in that
    /// private message, saying what was done and, when something was posted in the
    /// game's channel, where ([`Outbound::listing`], so that an adapter may link to it).
    /// A command typed privately is always answered privately; an action that was both
    /// told privately and posted nowhere (a secret pick) needs nothing more.
    pub(in crate::service::referee) fn acknowledge_elsewhere(
        &self,
        inc: &Incoming,
        g: &GameRow,
        first: usize,
        r: &mut Reply,
    ) {
        let Some(channel) = &g.channel else {
            return;
        };
        if inc.place != Place::Dm || inc.via.is_some() {
            return;
        }
        let mine = Destination::Dm(inc.user.clone());
        let public = Destination::Channel(channel.clone());
        let told = r.out[first..].iter().any(|o| o.to == mine);
        let posted = r.out[first..].iter().any(|o| o.to == public);
        if told && !posted {
            return;
        }
        let typed: String = inc
            .text
            .trim()
            .chars()
            .filter(|c| *c != '`')
            .take(40)
            .collect();
        let others: Vec<String> = super::text::seat_users(g)
            .into_iter()
            .filter(|u| *u != inc.user && *u != "?")
            .map(user_mark)
            .collect();
        let with = match others.is_empty() {
            true => String::new(),
            false => format!(" with {}", others.join(", ")),
        };
        let line = format!(
            "game #{} ({}{with}): {} done{}",
            g.id,
            self.display_name(&g.variant),
            super::marks::command_mark(&typed),
            if posted {
                ", posted in the game's channel"
            } else {
                ""
            }
        );
        let listing = match posted {
            true => vec![Listed {
                game: g.id,
                line: line.clone(),
                server: g.server.clone(),
                channel: g.channel.clone(),
            }],
            false => Vec::new(),
        };
        r.out.push(Outbound {
            to: mine,
            text: line,
            game: Some(g.id),
            listing,
            ..Outbound::default()
        });
    }
}

/// Whether game `g` of a variant placed `placing` may be followed by a rematch: two
/// sides, two different players.
pub(in crate::service::referee) fn offers_rematch(g: &GameRow, placing: Placing) -> bool {
    placing == Placing::Sides
        && matches!(g.seats.as_slice(), [a, b] if a.user.is_some() && b.user.is_some() && a.user != b.user)
}

impl Core {
    /// The Analyse button of a game that has just ended with a result, where an engine
    /// of this server plays its variant and the variant is played in plain sight.
    pub(in crate::service::referee) fn analyse_button(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
    ) -> Option<Button> {
        let plain = self
            .registry
            .find(&g.variant)
            .is_some_and(|v| v.takebacks().is_ok());
        let engine = rules
            .engine_variant()
            .is_some_and(|v| self.engines.has_engine_for(v));
        (plain && engine && rules.outcome().is_some()).then(|| Button {
            label: "Analyse".into(),
            command: format!("analyse {}", g.id),
            for_user: None,
            primary: false,
            danger: false,
            keep: false,
        })
    }

    /// The Rematch button under the message that ends game `g`, when its variant and
    /// players allow a rematch ([`offers_rematch`]): for either player, the referee
    /// refusing anyone else who presses it. The same for every end, by a move or by the
    /// deadline check.
    pub(in crate::service::referee) fn rematch_button(&self, g: &GameRow) -> Option<Button> {
        let offered = self
            .registry
            .find(&g.variant)
            .is_some_and(|v| offers_rematch(g, v.seats().placing));
        offered.then(|| Button {
            label: "Rematch".into(),
            command: format!("rematch #{}", g.id),
            for_user: None,
            primary: false,
            danger: false,
            keep: false,
        })
    }
}

/// The private turn message of game `id` with the prompt's `text`: a prompt phrased for
/// the channel, `to pick a piece (privately)`, reads `your turn to pick a piece
/// (privately)`; a variant's own instructions follow `your turn.`.
fn your_turn(id: i64, text: &str) -> String {
    match text.strip_prefix("to ") {
        Some(rest) => format!("game #{id}: your turn to {rest}"),
        None => format!("game #{id}: your turn. {text}"),
    }
}
