//! Buttons under the bot's messages: the referee's buttons as Discord components within
//! Discord's limits, and what a press asks for (the command line a custom id carries,
//! for whoever may press it).

use crate::service::referee::{Card, Outbound};
use crate::variants::api::RefusalKind;
use serenity::all::{
    ActionRow, ActionRowComponent, ButtonKind, ButtonStyle, CreateActionRow, CreateButton, UserId,
};

/// A button under a message: what it says, and the command line it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Button {
    pub(super) id: String,
    pub(super) label: String,
    pub(super) style: ButtonStyle,
}

/// Discord's limits on a button: its custom id and label, in characters; buttons per
/// row, and rows per message.
const CUSTOM_ID_LIMIT: usize = 100;
const LABEL_LIMIT: usize = 80;
const BUTTONS_PER_ROW: usize = 5;
const ROWS: usize = 5;

/// The Discord buttons of the referee's buttons: the custom id carries the command and
/// the one user it is for (`cmd:USER:COMMAND`, `-` for anyone), so a press needs no
/// lookup and a press by someone else sends nothing; `*` for anyone where the button stays
/// for others once pressed. A command too long for a custom id
/// gets no button (it is never cut: a cut command would be another command); the
/// message's text still says what to type.
pub(super) fn buttons_of(msg: &Outbound) -> Vec<Button> {
    let pages = match &msg.card {
        Some(Card::Rules(r)) => super::embeds::first_page_buttons(r),
        _ => Vec::new(),
    };
    msg.buttons
        .iter()
        .filter_map(|b| {
            let anyone = if b.keep { "*" } else { "-" };
            let id = format!("cmd:{}:{}", b.for_user.as_deref().unwrap_or(anyone), b.command);
            if id.chars().count() > CUSTOM_ID_LIMIT {
                tracing::warn!(command = %b.command, "a button's command is too long for Discord; no button");
                return None;
            }
            Some(Button {
                id,
                label: b.label.chars().take(LABEL_LIMIT).collect(),
                style: match (b.danger, b.primary) {
                    (true, _) => ButtonStyle::Danger,
                    (false, true) => ButtonStyle::Success,
                    (false, false) => ButtonStyle::Secondary,
                },
            })
        })
        .chain(pages)
        .take(BUTTONS_PER_ROW * ROWS)
        .collect()
}

/// What a button's custom id asks for, when `presser` may press it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Press {
    /// Run this command line as the presser.
    Command(String),
    /// Show page `1` of the rules of variant `0` in place of the pressed message's page;
    /// anyone may turn a page.
    Page(String, usize),
    /// Nothing is sent; tell the presser why.
    Refused(&'static str),
}

/// The command line a button stands for, when `presser` may press it: a referee's button
/// (`cmd:USER:COMMAND`), for anyone (`-`) or for one user; the resignation confirmation
/// the adapter itself adds (`resign:GAME:USER`), for the user who asked to resign; a page
/// of a variant's rules (`rules:VARIANT:PAGE`), for anyone; and the challenge buttons of earlier versions (`accept:GAME`, `decline:GAME`), which
/// pending challenges still carry.
pub(super) fn button_text(custom_id: &str, presser: UserId) -> Press {
    const STALE: Press = Press::Refused(
        "this button is from an earlier version of the bot and does nothing now: use the command instead (/postal help lists them)",
    );
    let presser = presser.to_string();
    if let Some(rest) = custom_id.strip_prefix("cmd:") {
        let Some((owner, command)) = rest.split_once(':') else {
            return STALE;
        };
        if owner != "-" && owner != "*" && owner != presser {
            return Press::Refused("this button is for another player; nothing was done");
        }
        return Press::Command(command.to_string());
    }
    let parts: Vec<&str> = custom_id.split(':').collect();
    let game = |g: &str| g.parse::<i64>().ok();
    match parts.as_slice() {
        ["resign", g, owner] if game(g).is_some() => {
            if *owner == presser {
                Press::Command(format!("resign {g}"))
            } else {
                Press::Refused(
                    "only the player who asked to resign can confirm it; nothing was done",
                )
            }
        }
        [word @ ("accept" | "decline"), g] if game(g).is_some() => {
            Press::Command(format!("{word} {g}"))
        }
        ["rules", variant, page] if !variant.is_empty() => match page.parse::<usize>() {
            Ok(n) => Press::Page(variant.to_string(), n),
            Err(_) => STALE,
        },
        _ => STALE,
    }
}

/// Whether the button pressed (`custom_id`) is shown as destructive on its message
/// (`rows`): its confirmation is answered on the message itself.
pub(super) fn is_danger(rows: &[ActionRow], custom_id: &str) -> bool {
    rows.iter().flat_map(|r| &r.components).any(|c| {
        matches!(c, ActionRowComponent::Button(b) if matches!(
            &b.data,
            ButtonKind::NonLink { custom_id: id, style: ButtonStyle::Danger } if id == custom_id
        ))
    })
}

/// Whether a press of the referee's button `custom_id` refused as `kind` shows that the
/// button's moment has passed (the game over, the offer answered, the turn gone), so its
/// message's buttons are disabled: any refusal of a button meant for the presser alone but
/// one to try again, and for a button for anyone only a refusal that is not about the
/// presser (the game over, the challenge gone).
pub(super) fn moment_passed(custom_id: &str, kind: RefusalKind) -> bool {
    let for_anyone = custom_id.starts_with("cmd:-:") || custom_id.starts_with("cmd:*:");
    match kind {
        RefusalKind::Over | RefusalKind::Unknown => true,
        RefusalKind::NotYourTurn | RefusalKind::Illegal | RefusalKind::NotHere => !for_anyone,
        _ => false,
    }
}

/// Whether the button `custom_id` stays for others once pressed (a tournament's Join):
/// its message is left as it is.
pub(super) fn is_kept(custom_id: &str) -> bool {
    custom_id.starts_with("cmd:*:")
}

/// What a late press is told: that the button's moment has passed, then the referee's
/// reason.
pub(super) fn late_press(reason: &str) -> String {
    format!("this button's moment has passed, so nothing was done: {reason}")
}

/// The rows of a message's buttons as they are, every button disabled: how a message
/// shows that one of its buttons was used (its answer given, so none may be pressed
/// again). Components other than buttons are left out.
pub(super) fn disabled_rows(rows: &[ActionRow]) -> Vec<CreateActionRow> {
    rows.iter()
        .map(|row| {
            CreateActionRow::Buttons(
                row.components
                    .iter()
                    .filter_map(|c| match c {
                        ActionRowComponent::Button(b) => {
                            let mut button = match &b.data {
                                ButtonKind::NonLink { custom_id, style } => {
                                    CreateButton::new(custom_id.clone()).style(*style)
                                }
                                ButtonKind::Link { url } => CreateButton::new_link(url.clone()),
                                ButtonKind::Premium { sku_id } => {
                                    CreateButton::new_premium(*sku_id)
                                }
                            };
                            if let Some(label) = &b.label {
                                button = button.label(label.clone());
                            }
                            Some(button.disabled(true))
                        }
                        _ => None,
                    })
                    .collect(),
            )
        })
        .filter(|row| !matches!(row, CreateActionRow::Buttons(b) if b.is_empty()))
        .collect()
}

/// The buttons in rows, as Discord takes them (five to a row).
pub(super) fn action_rows(buttons: &[Button]) -> Vec<CreateActionRow> {
    buttons
        .chunks(BUTTONS_PER_ROW)
        .take(ROWS)
        .map(|row| {
            CreateActionRow::Buttons(
                row.iter()
                    .map(|b| {
                        CreateButton::new(b.id.clone())
                            .label(b.label.clone())
                            .style(b.style)
                    })
                    .collect(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::referee::Button as RefereeButton;

    #[test]
    fn buttons_read_as_command_lines_for_whoever_may_press_them() {
        let alice = UserId::new(300_000_000_000_000_001);
        let bob = UserId::new(300_000_000_000_000_002);
        let cmd = |t: &str| Press::Command(t.to_string());
        assert_eq!(button_text("cmd:-:accept 3", bob), cmd("accept 3"));
        let mine = format!("cmd:{alice}:decide #3 piece");
        assert_eq!(button_text(&mine, alice), cmd("decide #3 piece"));
        assert!(
            matches!(button_text(&mine, bob), Press::Refused(w) if w.contains("another player"))
        );
        let resign = format!("resign:3:{alice}");
        assert_eq!(button_text(&resign, alice), cmd("resign 3"));
        assert!(
            matches!(button_text(&resign, bob), Press::Refused(w) if w.contains("only the player who asked"))
        );
        assert_eq!(
            button_text("rules:chess-sharp:3", bob),
            Press::Page("chess-sharp".into(), 3)
        );
        assert!(
            matches!(button_text("rules:x", bob), Press::Refused(w) if w.contains(&format!("/{} help", super::super::slash::ACCOUNT)))
        );
        // The challenge buttons of earlier versions still answer their challenge.
        assert_eq!(button_text("accept:3", bob), cmd("accept 3"));
        assert_eq!(button_text("decline:3", bob), cmd("decline 3"));
        for stale in [
            "resign:3",
            "accept:x",
            "accept",
            "open:3",
            "accept:3:1",
            "draw-accept:3",
            "decide-piece:3:1",
            "cmd:nothing",
        ] {
            assert!(
                matches!(button_text(stale, alice), Press::Refused(w) if w.contains("earlier version")),
                "{stale}"
            );
        }
    }

    fn referee_button(command: &str, for_user: Option<&str>, primary: bool) -> RefereeButton {
        RefereeButton {
            label: format!("Press for {command}"),
            command: command.to_string(),
            for_user: for_user.map(str::to_string),
            primary,
            danger: false,
            keep: false,
        }
    }

    #[test]
    fn a_refused_press_disables_its_buttons_only_when_their_moment_has_passed() {
        let mine = "cmd:300000000000000001:done #3";
        let anyone = "cmd:-:accept 3";
        assert!(moment_passed(mine, RefusalKind::Illegal));
        assert!(moment_passed(mine, RefusalKind::NotYourTurn));
        assert!(moment_passed(anyone, RefusalKind::Over));
        // About the presser, not the button: another may still press it.
        assert!(!moment_passed(anyone, RefusalKind::NotYourGame));
        assert!(!moment_passed(anyone, RefusalKind::Illegal));
        // Worth another try.
        assert!(!moment_passed(mine, RefusalKind::Conflict));
        assert!(!moment_passed(mine, RefusalKind::Internal));
        assert!(late_press("the game is over").ends_with("nothing was done: the game is over"));
    }

    #[test]
    fn the_referees_buttons_become_discord_buttons_within_discords_limits() {
        let alice = "300000000000000001";
        let msg = Outbound {
            buttons: vec![
                referee_button("draw #3 accept", Some(alice), true),
                referee_button("accept 3", None, false),
                referee_button(&format!("clue #3 {}", "x".repeat(100)), None, false),
            ],
            ..Outbound::default()
        };
        let mut forget = referee_button("forget-me confirm", Some(alice), false);
        forget.danger = true;
        let red = buttons_of(&Outbound {
            buttons: vec![forget],
            ..Outbound::default()
        });
        assert_eq!(red[0].style, ButtonStyle::Danger);
        let rows: Vec<ActionRow> =
            serde_json::from_value(serde_json::to_value(action_rows(&red)).unwrap()).unwrap();
        assert!(is_danger(&rows, &red[0].id));
        assert!(!is_danger(&rows, "cmd:-:accept 3"));
        let b = buttons_of(&msg);
        assert_eq!(
            b.len(),
            2,
            "a command too long for a custom id gets no button"
        );
        assert_eq!(b[0].id, format!("cmd:{alice}:draw #3 accept"));
        assert_eq!(b[0].style, ButtonStyle::Success);
        assert_eq!(b[1].id, "cmd:-:accept 3");
        assert_eq!(b[1].style, ButtonStyle::Secondary);
        let presser = UserId::new(300_000_000_000_000_001);
        assert_eq!(
            button_text(&b[0].id, presser),
            Press::Command("draw #3 accept".into())
        );

        let many = Outbound {
            buttons: (0..30)
                .map(|i| {
                    let mut b = referee_button(&format!("pick #3 {i}"), None, false);
                    b.label = "y".repeat(90);
                    b
                })
                .collect(),
            ..Outbound::default()
        };
        let b = buttons_of(&many);
        assert_eq!(b.len(), 25, "five rows of five at most");
        assert!(b.iter().all(|b| b.label.chars().count() == LABEL_LIMIT));
        let rows = action_rows(&b);
        assert_eq!(rows.len(), 5);
        for row in rows {
            let v = serde_json::to_value(&row).unwrap();
            assert_eq!(v["components"].as_array().unwrap().len(), 5);
        }
    }
}
