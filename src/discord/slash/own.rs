//! The referee's commands with a top-level slash command of their own ([`Home::Own`]):
//! `/tournament` with its actions as subcommands (`/tournament create`, `/tournament
//! join`), and `/tournaments`. A subcommand is read back into the service's grammar as
//! the command, the action and its options (`/tournament join id:3` is
//! `tournament join 3`), so the slash command and the typed one run the same code; the
//! variant of `/tournament create` is suggested from the registry as the user types.

use super::{
    describe, listed_words, one_word, referee_option, subcommand, value, variant_option,
    variant_options, OPTION_CHOICES,
};
use crate::service::command::{
    self as referee, Action, Arg, ArgKind as RefereeArgKind, Arguments, Home, RefereeCommand,
    REFEREE_COMMANDS,
};
use crate::variants::api::{OptionSpec, Placing, Standing, VariantSpec};
use crate::variants::Registry;
use serenity::all::{CommandDataOption, CommandDataOptionValue, CreateCommand};

/// The command `name` when it is at [`Home::Own`] with actions, and its actions.
pub(super) fn own_actions(name: &str) -> Option<(&'static RefereeCommand, &'static [Action])> {
    let c = referee::named(name)?;
    match c.home {
        Home::Own(actions) if !actions.is_empty() => Some((c, actions)),
        _ => None,
    }
}

/// The listed arguments of command `c`.
fn listed(c: &RefereeCommand) -> &'static [Arg] {
    match c.args {
        Arguments::Listed(args) => args,
        Arguments::Challenge(_) => &[],
    }
}

/// Command `c`'s first argument: for a command with actions, the action.
pub(super) fn first_arg(c: &RefereeCommand) -> Option<&'static Arg> {
    listed(c).first()
}

/// The arguments `action` of `c` takes, required first, as `c` declares them.
fn action_args(c: &RefereeCommand, action: &Action) -> Vec<(&'static Arg, bool)> {
    let args = listed(c);
    let find = |n: &&str| args.iter().find(|a| a.name == *n);
    (action.required.iter().filter_map(find).map(|a| (a, true)))
        .chain(action.optional.iter().filter_map(find).map(|a| (a, false)))
        .collect()
}

/// Whether `action` names a variant (`create`): it then takes the variants' own options.
fn takes_variant(c: &RefereeCommand, action: &Action) -> bool {
    action_args(c, action)
        .iter()
        .any(|(a, _)| matches!(a.kind, RefereeArgKind::Variant { .. }))
}

/// The variants' own options `action` of `c` offers (for one that names a variant):
/// those whose names none of `c`'s arguments takes, as many as Discord allows beside
/// them.
fn own_variant_options(
    registry: &Registry,
    c: &RefereeCommand,
    action: &Action,
) -> Vec<(&'static dyn VariantSpec, &'static OptionSpec)> {
    if !takes_variant(c, action) {
        return Vec::new();
    }
    let room = OPTION_CHOICES.saturating_sub(action_args(c, action).len());
    variant_options(registry)
        .into_iter()
        .filter(|(_, o)| !listed(c).iter().any(|a| a.name == o.name))
        .take(room)
        .collect()
}

/// The description of `action`: its label among the values of `c`'s first argument.
fn action_help(c: &RefereeCommand, action: &Action) -> String {
    let label = match first_arg(c).map(|a| a.kind) {
        Some(RefereeArgKind::Choice(values)) => values
            .iter()
            .find(|(v, _)| *v == action.name)
            .map(|(_, l)| *l),
        _ => None,
    };
    describe(label.unwrap_or(action.name))
}

/// The top-level commands of the referee's commands at [`Home::Own`]: one with actions
/// holds a subcommand per action; one without is a command alone.
pub(super) fn own_referee_commands(registry: &Registry) -> Vec<CreateCommand> {
    let mut ordered: Vec<&RefereeCommand> = REFEREE_COMMANDS
        .iter()
        .filter(|c| matches!(c.home, Home::Own(_)))
        .collect();
    ordered.sort_by_key(|c| c.place);
    let mut out = Vec::new();
    for c in ordered {
        let mut cmd = CreateCommand::new(c.name).description(describe(c.help));
        let Some((_, actions)) = own_actions(c.name) else {
            for a in listed(c) {
                cmd = cmd.add_option(referee_option(a));
            }
            out.push(cmd);
            continue;
        };
        for action in actions {
            let mut sub = subcommand(action.name, action_help(c, action));
            for (a, required) in action_args(c, action) {
                sub = sub.add_sub_option(referee_option(a).required(required));
            }
            for (v, o) in own_variant_options(registry, c, action) {
                sub = sub.add_sub_option(variant_option(v, o));
            }
            cmd = cmd.add_option(sub);
        }
        out.push(cmd);
    }
    out
}

/// How `c` (with `actions`) is written as slash commands: each action with its options
/// (`name:…` required, `[name]` not), actions taking the same options together
/// (`/tournament join|leave|start id:…`).
pub(super) fn own_usage(c: &RefereeCommand, actions: &[Action]) -> String {
    let mut forms: Vec<(Vec<&str>, String)> = Vec::new();
    for action in actions {
        let mut words: Vec<String> = action_args(c, action)
            .iter()
            .map(|(a, required)| match required {
                true => format!("{}:…", a.name),
                false => format!("[{}]", a.name),
            })
            .collect();
        if takes_variant(c, action) {
            words.push("[option…]".into());
        }
        let options = words.join(" ");
        match forms.iter_mut().find(|(_, o)| *o == options) {
            Some((names, _)) => names.push(action.name),
            None => forms.push((vec![action.name], options)),
        }
    }
    forms
        .iter()
        .map(|(names, options)| format!("/{} {} {options}", c.name, names.join("|")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line of the service's grammar `action` of `c` means with `options`: the command,
/// the action, then its arguments as the referee's listed commands write them, and the
/// variant's own options as `name:value`. Every value is one word (the grammar's words
/// are).
pub(super) fn own_text(
    registry: &Registry,
    c: &RefereeCommand,
    action: &Action,
    options: &[CommandDataOption],
) -> String {
    let get = |n: &str| {
        options
            .iter()
            .find(|o| o.name == n)
            .and_then(|o| value(&o.value))
            .map(|v| one_word(&v))
    };
    let args: Vec<&Arg> = action_args(c, action).into_iter().map(|(a, _)| a).collect();
    let mut words = vec![c.name.to_string(), action.name.to_string()];
    words.extend(listed_words(args.into_iter(), &get));
    for (_, o) in own_variant_options(registry, c, action) {
        words.extend(get(o.name).map(|v| format!("{}:{v}", o.name)));
    }
    words.join(" ")
}

/// Suggestions while a user types option `focused` of the top-level command `top`'s
/// subcommand (`options` as sent), where the option is a variant: the registry's
/// variants the command takes whose id or name begins with `typed`, as `(name, id)`
/// ([`variant_choices`]). For a command at [`Home::Own`], those that fit the format
/// already chosen (a best-score competition is for the one-seat variants, any other
/// format for those of two sides); for `leaderboard`, those that keep a table. `None` for
/// any other option.
pub fn suggestions(
    registry: &Registry,
    top: &str,
    options: &[CommandDataOption],
    focused: &str,
    typed: &str,
) -> Option<Vec<(String, String)>> {
    let Some((c, _)) = own_actions(top) else {
        let (name, _) = super::leaf(top, options);
        let c = referee::named(name)?;
        let challenge = matches!(c.args, Arguments::Challenge(_));
        let arg = c
            .listed()
            .iter()
            .chain(challenge.then_some(&Arg::VARIANT))
            .find(|a| a.name == focused)?;
        let RefereeArgKind::Variant { rated_only } = arg.kind else {
            return None;
        };
        let keeps_table = |v: &dyn VariantSpec| !matches!(v.standing(), Standing::Unrated(_));
        return Some(variant_choices(registry, typed, |v| {
            !rated_only || keeps_table(v)
        }));
    };
    let arg = listed(c).iter().find(|a| a.name == focused)?;
    if !matches!(arg.kind, RefereeArgKind::Variant { .. }) {
        return None;
    }
    let inner = match options.first().map(|o| &o.value) {
        Some(CommandDataOptionValue::SubCommand(inner)) => &inner[..],
        _ => options,
    };
    let format = inner
        .iter()
        .find(|o| o.name == "format")
        .and_then(|o| value(&o.value));
    Some(variant_choices(registry, typed, |v| {
        let seats = v.seats();
        match format.as_deref() {
            Some("competition") => seats.count() == 1,
            Some(_) => seats.count() == 2 && seats.placing == Placing::Sides,
            None => true,
        }
    }))
}

/// The registry's variants that `fits` keeps whose id or name begins with `typed` (in
/// any case), as `(name, id)`, in registry order: as many as Discord lists, the user
/// typing more to narrow them, so that no variant is out of reach.
fn variant_choices(
    registry: &Registry,
    typed: &str,
    fits: impl Fn(&dyn VariantSpec) -> bool,
) -> Vec<(String, String)> {
    let typed = typed.to_lowercase();
    registry
        .all()
        .filter(|v| fits(*v))
        .filter(|v| {
            v.id().starts_with(&typed) || v.display_name().to_lowercase().starts_with(&typed)
        })
        .take(OPTION_CHOICES)
        .map(|v| (v.display_name().to_string(), v.id().to_string()))
        .collect()
}
