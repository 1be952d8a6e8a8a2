//! The slash commands, generated from the referee's commands and the variants' declared
//! commands and options, registered by bulk overwrite, and read back into the service's
//! text grammar so that a slash command and the same command typed as text run exactly
//! the same code. Nothing here names a variant.

use crate::service::command::{
    self as referee, Arg, ArgKind as RefereeArgKind, Arguments, Home, RefereeCommand,
    REFEREE_COMMANDS, TEAMS, TEXT_MAX,
};
use crate::variants::api::{
    ArgKind, CommandSpec, IdRule, OptionKind, OptionSpec, Placing, VariantSpec,
};
use crate::variants::Registry;
use serenity::all::{
    ChannelType, CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption, Permissions,
};

mod own;

pub use own::suggestions;
use own::{first_arg, own_actions, own_referee_commands, own_text, own_usage};

/// The command that shows a user the private messages the bot could not deliver.
pub const PRIVATE: &str = "private";

/// Discord's limit on a description, in characters.
const DESCRIPTION: usize = 100;

/// Discord's limit on an option's choices.
const OPTION_CHOICES: usize = 25;

/// The longest variant name a variant option takes (the grammar reads no more).
const VARIANT_MAX: u16 = 40;

/// The option of one argument of a referee's command.
fn referee_option(a: &Arg) -> CreateCommandOption {
    let what = describe(a.help);
    let new = |kind| CreateCommandOption::new(kind, a.name, &what);
    let o = match a.kind {
        RefereeArgKind::Game => new(CommandOptionType::Integer)
            .min_int_value(1)
            .set_autocomplete(true),
        RefereeArgKind::Flag => new(CommandOptionType::Boolean),
        RefereeArgKind::Number { min, max } => new(CommandOptionType::Integer)
            .min_int_value(min.into())
            .max_int_value(max.into()),
        RefereeArgKind::User => new(CommandOptionType::User),
        // Suggested from the registry as the user types ([`suggestions`]) rather than
        // listed: Discord lists at most 25 choices, and a variant past them would vanish.
        RefereeArgKind::Variant { .. } => new(CommandOptionType::String)
            .max_length(VARIANT_MAX)
            .set_autocomplete(true),
        RefereeArgKind::Word { max, suggested } => new(CommandOptionType::String)
            .max_length(max)
            .set_autocomplete(suggested),
        RefereeArgKind::Text { max } => new(CommandOptionType::String).max_length(max),
        RefereeArgKind::Choice(values) | RefereeArgKind::Channels { words: values, .. } => {
            let mut o = new(CommandOptionType::String);
            for (value, label) in values {
                o = o.add_string_choice(*label, *value);
            }
            o
        }
        RefereeArgKind::Role { .. } => new(CommandOptionType::Role),
    };
    o.required(a.required)
}

/// The names of the pickers of channels argument `each` offers `pickers` of: `each`, then
/// `each2`, `each3`, ...
fn picker_names(each: &str, pickers: u8) -> impl Iterator<Item = String> + '_ {
    (1..=pickers).map(move |i| match i {
        1 => each.to_string(),
        n => format!("{each}{n}"),
    })
}

/// Every option of one argument of a referee's command: its own ([`referee_option`]),
/// and for channels the pickers of text channels, for a role the switch that says none.
fn referee_options(a: &Arg) -> Vec<CreateCommandOption> {
    let mut out = vec![referee_option(a)];
    let head = a.help.split(':').next().unwrap_or(a.help);
    match a.kind {
        RefereeArgKind::Channels { pickers, each, .. } => {
            out.extend(picker_names(each, pickers).map(|name| {
                let what = format!("{head}: a channel, one of up to {pickers}");
                CreateCommandOption::new(CommandOptionType::Channel, name, describe(&what))
                    .channel_types(vec![ChannelType::Text])
            }));
        }
        RefereeArgKind::Role { none } => out.push(CreateCommandOption::new(
            CommandOptionType::Boolean,
            none,
            describe(&format!("No role for {}: clears the setting", a.name)),
        )),
        _ => {}
    }
    out
}

/// The declarations of the variant command whose name is `name`, in registry order. A
/// slash command is registered by the command's name only, so a word that is another
/// command's alias (chess's `play` for `move`) does not count here.
fn declared(registry: &Registry, name: &str) -> Vec<&'static CommandSpec> {
    registry
        .declarations(name)
        .into_iter()
        .filter(|c| c.name == name)
        .collect()
}

/// One option of a variant command's slash command: an argument as all the declarations
/// of the command together take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argument {
    /// The argument's name.
    pub name: &'static str,
    /// What it is (the first declaration's words).
    pub help: &'static str,
    /// What it holds (the first declaration's kind; for a choice, see `choices`).
    pub kind: ArgKind,
    /// For a choice, every declaration's values, each once: `(value, label)`.
    pub choices: Vec<(&'static str, &'static str)>,
    /// Whether every declaration requires it.
    pub required: bool,
}

/// The options of the slash command for the variant command `name`: the arguments of
/// every variant's declaration of it, merged by name in the order they first appear.
/// Choices are pooled (Standard chess's `claim draw` and Chess#'s `claim stalemate`
/// are one `/claim` whose `kind` offers both), and an argument is required only where
/// every declaration requires it.
pub fn arguments(registry: &Registry, name: &str) -> Vec<Argument> {
    let decls = declared(registry, name);
    let mut out: Vec<Argument> = Vec::new();
    for a in decls.iter().flat_map(|d| d.args.iter()) {
        let values = match a.kind {
            ArgKind::Choice(values) | ArgKind::Named(values) => values,
            _ => &[],
        };
        match out.iter_mut().find(|o| o.name == a.name) {
            Some(o) => {
                for v in values {
                    if !o.choices.iter().any(|c| c.0 == v.0) {
                        o.choices.push(*v);
                    }
                }
            }
            None => out.push(Argument {
                name: a.name,
                help: a.help,
                kind: a.kind,
                choices: values.to_vec(),
                required: decls
                    .iter()
                    .all(|d| d.args.iter().any(|b| b.name == a.name && b.required)),
            }),
        }
    }
    out
}

/// A description within Discord's limit, starting with a capital. A text too long is
/// cut at the end of its last clause that fits (before `; `, ` (`, `: ` or `, `), never
/// inside a word; a text with no such clause is cut at a space and ends with `…` (no
/// built-in text does: a test checks it).
fn describe(what: &str) -> String {
    let mut d = if what.chars().count() <= DESCRIPTION {
        what.to_string()
    } else {
        let head: String = what.chars().take(DESCRIPTION).collect();
        let clause = ["; ", " (", ": ", ", "]
            .iter()
            .filter_map(|b| head.rfind(b))
            .max()
            .filter(|&at| at > 0);
        match clause {
            Some(at) => without_open_bracket(&head[..at]).to_string(),
            None => {
                let short: String = what.chars().take(DESCRIPTION - 1).collect();
                let at = short.rfind(' ').unwrap_or(short.len());
                format!("{}…", &short[..at])
            }
        }
    };
    if let Some(first) = d.get(..1) {
        d = first.to_uppercase() + &d[1..];
    }
    d
}

/// `text` cut before a bracket it opens and does not close (`stop (a stop that would
/// lose` becomes `stop`), so that a shortened description never ends inside brackets.
fn without_open_bracket(mut text: &str) -> &str {
    while text.matches('(').count() > text.matches(')').count() {
        match text.rfind(" (") {
            Some(at) if at > 0 => text = &text[..at],
            _ => break,
        }
    }
    text
}

/// The name of the `i`-th further opponent option (`opponent2`, `opponent3`).
fn opponent_name(i: usize) -> String {
    if i == 0 {
        "opponent".into()
    } else {
        format!("opponent{}", i + 1)
    }
}

/// The top-level slash command that holds the referee's commands and the variant
/// commands several variants declare (`/chess move`, `/chess games`); a command only one
/// variant declares is under that variant's own (`/chesswords clue`). Grouped so, the
/// generic words (`move`, `play`, `pass`, `hand`) cannot collide with other bots'
/// commands in Discord's command picker.
pub const HUB: &str = "chess";

/// The top-level slash command of the referee's commands about a player or the server
/// rather than one game (`/postal settings`, `/postal help`): Discord allows 25
/// subcommands under one command, and [`HUB`] holds the rest.
pub const ACCOUNT: &str = "postal";

/// The top-level slash command of the server's administrative commands ([`Home::Admin`]:
/// `/postal-admin server`, `/postal-admin moderate`), registered with Manage Server as its
/// default member permissions so that Discord shows it only to those who have it (a
/// server's admins may grant it to the moderators' role in the server's Integrations
/// settings); the referee checks who may use each command whatever Discord shows.
pub const ADMIN: &str = "postal-admin";

/// The commands under [`ACCOUNT`]: the referee's commands at home there
/// ([`Home::Account`]), then [`PRIVATE`].
fn account_commands() -> Vec<&'static str> {
    REFEREE_COMMANDS
        .iter()
        .filter(|c| c.home == Home::Account)
        .map(|c| c.name)
        .chain([PRIVATE])
        .collect()
}

/// The commands under [`ADMIN`].
fn admin_commands() -> Vec<&'static str> {
    REFEREE_COMMANDS
        .iter()
        .filter(|c| c.home == Home::Admin)
        .map(|c| c.name)
        .collect()
}

/// The top-level slash command under which the command `name` is registered: its own
/// for a command at [`Home::Own`] (`/tournament`), [`ACCOUNT`] for a player's or the
/// server's commands, [`ADMIN`] for the administrative ones, the variant's id for a command
/// only that variant declares, else [`HUB`].
pub fn home(registry: &Registry, name: &str) -> &'static str {
    if let Some(c) = referee::named(name).filter(|c| matches!(c.home, Home::Own(_))) {
        return c.name;
    }
    if name == PRIVATE || referee::named(name).is_some_and(|c| c.home == Home::Account) {
        return ACCOUNT;
    }
    if referee::named(name).is_some_and(|c| c.home == Home::Admin) {
        return ADMIN;
    }
    match only_owner(registry, name) {
        Some(only) if own_commands(registry, only).len() >= 2 => only.id(),
        _ => HUB,
    }
}

/// The one variant that declares the command `name`, if only one does.
fn only_owner(registry: &Registry, name: &str) -> Option<&'static dyn VariantSpec> {
    let mut owners = registry
        .all()
        .filter(|v| v.commands().iter().any(|c| c.name == name));
    match (owners.next(), owners.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// The commands only the variant `v` declares. A variant with two or more has a
/// top-level command of its own holding them; one with a single one has it under [`HUB`]
/// (a top-level command holding one subcommand would be a path of two words for one).
fn own_commands(registry: &Registry, v: &dyn VariantSpec) -> Vec<&'static str> {
    v.commands()
        .iter()
        .filter(|c| only_owner(registry, c.name).is_some())
        .map(|c| c.name)
        .collect()
}

/// The description of the variant command `c`'s subcommand: its help where every variant
/// declaring it says the same, prefixed with the variant's name where it is one
/// variant's command under [`HUB`]; where variants' declarations say different things, a
/// neutral description pointing to the help that tells each variant's apart.
fn command_description(registry: &Registry, c: &CommandSpec) -> String {
    let decls = declared(registry, c.name);
    if decls.iter().any(|d| d.help != c.help) {
        return describe(&format!(
            "Your game's {}: what it takes depends on the variant (/{ACCOUNT} help command:{})",
            c.name, c.name
        ));
    }
    match only_owner(registry, c.name) {
        Some(v) if home(registry, c.name) == HUB && !c.help.starts_with(v.display_name()) => {
            describe(&format!("{}: {}", v.display_name(), c.help))
        }
        _ => describe(c.help),
    }
}

/// How the command `name` is written as a slash command: its path, then each option
/// (`name:…` when required, `[name]` when not), those of the declaration by `variant`
/// for a variant's command (else the first), and for a challenge the referee's options
/// followed by `[option…]` for the variants' own.
pub fn usage(registry: &Registry, name: &str, variant: Option<&str>) -> String {
    let option = |n: &str, required: bool| match required {
        true => format!("{n}:…"),
        false => format!("[{n}]"),
    };
    if let Some((c, actions)) = own_actions(name) {
        return own_usage(c, actions);
    }
    let mut words = vec![invocation(registry, name)];
    match referee::named(name).map(|c| c.args) {
        Some(Arguments::Listed(args)) => {
            words.extend(args.iter().map(|a| option(a.name, a.required)));
        }
        Some(Arguments::Challenge(args)) => {
            words.push(option(&opponent_name(0), false));
            words.push(option(Arg::VARIANT.name, false));
            words.extend(args.iter().map(|a| option(a.name, a.required)));
            words.push("[option…]".into());
        }
        None => {
            let decl = variant
                .and_then(|v| registry.find(v))
                .and_then(|v| v.commands().iter().find(|c| c.name == name))
                .or_else(|| declared(registry, name).first().copied());
            if let Some(d) = decl {
                words.extend(d.args.iter().map(|a| option(a.name, a.required)));
            }
            words.push(option(Arg::GAME.name, false));
        }
    }
    words.join(" ")
}

/// An example as the slash command that gives it: the path, then each named argument as
/// `name:value` (`/chess move move:Nf3 game:12`); `None` for an example only typing can
/// give.
pub fn example(registry: &Registry, e: &referee::help::Example) -> Option<String> {
    let options = e.options.as_ref()?;
    let mut words = vec![invocation(registry, e.command)];
    let mut options = &options[..];
    if let Some((c, _)) = own_actions(e.command) {
        // The action is the subcommand: `/tournament create format:swiss ...`.
        let action = first_arg(c).map(|a| a.name);
        match options.first() {
            Some((n, v)) if Some(n.as_str()) == action => {
                words.push(v.clone());
                options = &options[1..];
            }
            _ => return None,
        }
    }
    words.extend(options.iter().map(|(n, v)| format!("{n}:{v}")));
    Some(words.join(" "))
}

/// How a user invokes the command `name` in Discord (`/postal private`, `/tournament`).
pub fn invocation(registry: &Registry, name: &str) -> String {
    match home(registry, name) {
        own if own == name => format!("/{name}"),
        at => format!("/{at} {name}"),
    }
}

/// The command a slash interaction names and its options: the subcommand's (through a
/// subcommand group, if any) for a grouped command, else the command's own.
pub fn leaf<'a>(
    name: &'a str,
    options: &'a [CommandDataOption],
) -> (&'a str, &'a [CommandDataOption]) {
    match options.first().map(|o| (o.name.as_str(), &o.value)) {
        Some((sub, CommandDataOptionValue::SubCommand(inner)))
        | Some((sub, CommandDataOptionValue::SubCommandGroup(inner))) => leaf(sub, inner),
        _ => (name, options),
    }
}

/// A subcommand of a grouped command.
fn subcommand(name: &str, description: String) -> CreateCommandOption {
    CreateCommandOption::new(CommandOptionType::SubCommand, name, description)
}

/// How many opponents a challenge names at most: enough for the largest table.
fn opponents(registry: &Registry) -> usize {
    let most = registry.all().map(|v| v.seats().count()).max().unwrap_or(2);
    most.saturating_sub(1)
}

/// Every option a variant declares, once per name (the first variant's declaration),
/// as a challenge offers them.
fn variant_options(registry: &Registry) -> Vec<(&'static dyn VariantSpec, &'static OptionSpec)> {
    let mut out: Vec<(&'static dyn VariantSpec, &'static OptionSpec)> = Vec::new();
    for v in registry.all() {
        for o in v.options() {
            if !out.iter().any(|(_, seen)| seen.name == o.name) {
                out.push((v, o));
            }
        }
    }
    out
}

/// The option of a variant's own option `o` of variant `v` (a challenge's, a
/// tournament's): a number within its bounds, or one of its words.
fn variant_option(v: &dyn VariantSpec, o: &OptionSpec) -> CreateCommandOption {
    let what = describe(&format!("{}: {}", v.display_name(), o.help));
    match o.kind {
        OptionKind::Number { min, max, .. } => {
            CreateCommandOption::new(CommandOptionType::Integer, o.name, what)
                .min_int_value(min as u64)
                .max_int_value(max as u64)
        }
        OptionKind::Choice(words) => {
            let mut opt = CreateCommandOption::new(CommandOptionType::String, o.name, what);
            for w in words.iter().take(OPTION_CHOICES) {
                opt = opt.add_string_choice(*w, *w);
            }
            opt
        }
    }
}

/// `challenge`: opponents for the largest table, the variant, the referee's options
/// (`args`; [`TEAMS`] only where a variant is played in teams) and every option a variant
/// declares (once per name).
fn challenge(registry: &Registry, spec: &RefereeCommand, args: &[Arg]) -> CreateCommandOption {
    let teams = registry.all().any(|v| v.seats().placing == Placing::Teams);
    let mut c = subcommand(spec.name, describe(spec.help));
    for i in 0..opponents(registry) {
        let what = if i == 0 {
            "Who you challenge (leave empty for an open challenge or a game alone)".to_string()
        } else {
            format!(
                "A team game's player {} (in seat order after opponent)",
                i + 2
            )
        };
        c = c.add_sub_option(CreateCommandOption::new(
            CommandOptionType::User,
            opponent_name(i),
            describe(&what),
        ));
    }
    c = c.add_sub_option(referee_option(&Arg::VARIANT));
    for a in args {
        if a.name != TEAMS.name || teams {
            c = c.add_sub_option(referee_option(a));
        }
    }
    for (v, o) in variant_options(registry) {
        c = c.add_sub_option(variant_option(v, o));
    }
    c
}

/// A variant command as a subcommand: its arguments, as every variant declaring it
/// takes them ([`arguments`]), then the game. A choice of more than Discord's 25 values
/// is a word with the values suggested as the user types.
fn game_command(registry: &Registry, c: &CommandSpec) -> CreateCommandOption {
    let mut cmd = subcommand(c.name, command_description(registry, c));
    for a in arguments(registry, c.name) {
        let what = describe(a.help);
        let string = || CreateCommandOption::new(CommandOptionType::String, a.name, &what);
        let o = match a.kind {
            ArgKind::Choice(_) | ArgKind::Named(_) if a.choices.len() <= OPTION_CHOICES => {
                let mut o = string();
                for (value, label) in &a.choices {
                    o = o.add_string_choice(*label, *value);
                }
                o
            }
            ArgKind::Choice(_) | ArgKind::Named(_) | ArgKind::Move => {
                string().max_length(64).set_autocomplete(true)
            }
            ArgKind::Word => string().max_length(64),
            ArgKind::Text => string().max_length(TEXT_MAX),
        };
        cmd = cmd.add_sub_option(o.required(a.required));
    }
    cmd.add_sub_option(referee_option(&Arg::GAME))
}

/// The referee's subcommands, in the order the command picker shows them
/// ([`RefereeCommand::place`]): those under [`HUB`], those under [`ACCOUNT`] with
/// [`PRIVATE`] last, and those under [`ADMIN`].
fn referee_commands(registry: &Registry) -> [Vec<CreateCommandOption>; 3] {
    let mut ordered: Vec<&RefereeCommand> = REFEREE_COMMANDS.iter().collect();
    ordered.sort_by_key(|c| c.place);
    let (mut hub, mut account, mut admin) = (Vec::new(), Vec::new(), Vec::new());
    for c in ordered {
        let sub = match c.args {
            Arguments::Challenge(args) => challenge(registry, c, args),
            Arguments::Listed(args) => args
                .iter()
                .flat_map(referee_options)
                .fold(subcommand(c.name, describe(c.help)), |sub, o| {
                    sub.add_sub_option(o)
                }),
        };
        match c.home {
            Home::Game => hub.push(sub),
            Home::Account => account.push(sub),
            Home::Admin => admin.push(sub),
            // A top-level command of its own ([`own_commands_of`]).
            Home::Own(_) => {}
        }
    }
    account.push(subcommand(
        PRIVATE,
        "Read the private messages I could not send you (closed DMs)".into(),
    ));
    [hub, account, admin]
}

/// The description of a top-level command holding `names`.
fn describe_group(title: &str, names: &[&str]) -> String {
    let long = format!("{title}: {}", names.join(", "));
    if long.chars().count() <= DESCRIPTION {
        long
    } else {
        format!("{title}: its commands")
    }
}

/// Every slash command, for bulk registration: [`HUB`] with the referee's commands and
/// the shared variant commands, then one command per variant that declares commands of
/// its own, each holding them as subcommands ([`home`]).
pub fn commands(registry: &Registry) -> Vec<CreateCommand> {
    let [mut hub, account, admin] = referee_commands(registry);
    // Each variant's own commands: (id, display name, command names, subcommands).
    type Own = (
        &'static str,
        &'static str,
        Vec<&'static str>,
        Vec<CreateCommandOption>,
    );
    let mut own: Vec<Own> = Vec::new();
    for c in registry.commands() {
        let sub = game_command(registry, c);
        let at = home(registry, c.name);
        if at == HUB {
            hub.push(sub);
            continue;
        }
        match own.iter_mut().find(|g| g.0 == at) {
            Some(g) => {
                g.2.push(c.name);
                g.3.push(sub);
            }
            None => {
                let title = registry.find(at).map_or(at, |v| v.display_name());
                own.push((at, title, vec![c.name], vec![sub]));
            }
        }
    }
    let mut out = vec![CreateCommand::new(HUB)
        .description(describe_group(
            "Postal correspondence games",
            &["challenge", "move", "games", "board", "and more"],
        ))
        .set_options(hub)];
    out.push(
        CreateCommand::new(ACCOUNT)
            .description(describe_group("Postal", &account_commands()))
            .set_options(account),
    );
    out.push(
        CreateCommand::new(ADMIN)
            .description(describe_group(
                "Postal's server settings and moderation",
                &admin_commands(),
            ))
            .default_member_permissions(Permissions::MANAGE_GUILD)
            .dm_permission(false)
            .set_options(admin),
    );
    out.extend(own_referee_commands(registry));
    for (id, title, names, subs) in own {
        out.push(
            CreateCommand::new(id)
                .description(describe_group(title, &names))
                .set_options(subs),
        );
    }
    out
}

/// The words of a referee's command's listed arguments `args` as the options hold them
/// (`get`): the game id first, then a keyword, then the rest in the declared order.
fn listed_words<'a>(
    args: impl Iterator<Item = &'a Arg> + Clone,
    get: &impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let game = |a: &&Arg| a.kind == RefereeArgKind::Game;
    let keyword = |a: &&Arg| !a.keyed && matches!(a.kind, RefereeArgKind::Choice(_));
    let ordered = (args.clone().filter(game))
        .chain(args.clone().filter(keyword))
        .chain(args.filter(|a| !game(a) && !keyword(a)));
    let mut words = Vec::new();
    for a in ordered {
        // Channels picked, and a role's switch that says none, beside the word itself.
        match a.kind {
            RefereeArgKind::Channels { pickers, each, .. } => {
                let picked: Vec<String> = picker_names(each, pickers)
                    .filter_map(|n| get(&n))
                    .collect();
                if !picked.is_empty() {
                    words.push(format!("{}:{}", a.name, picked.join(",")));
                }
            }
            RefereeArgKind::Role { none } if get(none).as_deref() == Some("true") => {
                words.push(format!("{}:none", a.name));
            }
            _ => {}
        }
        let Some(v) = get(a.name) else { continue };
        match a.kind {
            RefereeArgKind::Flag if v == "true" => words.push(a.name.into()),
            RefereeArgKind::Flag => {}
            // A value is one word: spaces typed in it are dropped, not read as more.
            _ if a.keyed => words.push(format!("{}:{}", a.name, one_word(&v))),
            _ => words.push(v),
        }
    }
    words
}

/// `v` without its spaces: one word of the grammar.
fn one_word(v: &str) -> String {
    v.replace(char::is_whitespace, "")
}

fn value(v: &CommandDataOptionValue) -> Option<String> {
    match v {
        CommandDataOptionValue::String(s) => Some(s.clone()),
        CommandDataOptionValue::Integer(i) => Some(i.to_string()),
        CommandDataOptionValue::User(u) => Some(format!("<@{u}>")),
        CommandDataOptionValue::Boolean(b) => Some(b.to_string()),
        CommandDataOptionValue::Channel(c) => Some(format!("<#{c}>")),
        CommandDataOptionValue::Role(r) => Some(format!("<@&{r}>")),
        CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The text line of the service's grammar that a slash command means: the name, the
/// game id (`#ID` where the command reads only that form), then the options in the
/// declared order. Where an argument before the last holds spaces, the arguments are
/// separated by `, ` (`double e2 to e4, Nf3`). A challenge is `challenge <@id> ...
/// VARIANT days:N colour:C teams:T OPTION:V fen:"FEN"`.
pub fn to_text(registry: &Registry, name: &str, options: &[CommandDataOption]) -> String {
    let get = |n: &str| {
        options
            .iter()
            .find(|o| o.name == n)
            .and_then(|o| value(&o.value))
    };
    let mut words: Vec<String> = vec![name.to_string()];
    match referee::named(name).map(|c| c.args) {
        Some(Arguments::Challenge(args)) => {
            for i in 0..opponents(registry) {
                words.extend(get(&opponent_name(i)));
            }
            words.extend(get(Arg::VARIANT.name));
            let (fen, keyed): (Vec<&Arg>, Vec<&Arg>) = args
                .iter()
                .partition(|a| matches!(a.kind, RefereeArgKind::Text { .. }));
            for a in keyed {
                words.extend(get(a.name).map(|v| format!("{}:{v}", a.name)));
            }
            for (_, o) in variant_options(registry) {
                words.extend(get(o.name).map(|v| format!("{}:{v}", o.name)));
            }
            // A FEN never holds a quote; one that does is refused by the grammar.
            for a in fen {
                words.extend(get(a.name).map(|f| format!("{}:\"{f}\"", a.name)));
            }
        }
        Some(Arguments::Listed(args)) => words.extend(listed_words(args.iter(), &get)),
        None => match declared(registry, name).first() {
            Some(spec) => {
                let id = get("game");
                words.extend(match spec.id {
                    IdRule::Plain => id,
                    IdRule::HashOnly => id.map(|g| format!("#{g}")),
                });
                let args: Vec<String> = arguments(registry, name)
                    .iter()
                    .filter_map(|a| get(a.name))
                    .collect();
                let spaced = args
                    .iter()
                    .rev()
                    .skip(1)
                    .any(|a| a.contains(char::is_whitespace));
                if spaced {
                    words.push(args.join(", "));
                } else {
                    words.extend(args);
                }
            }
            None => words.extend(get("game")),
        },
    }
    words.join(" ")
}

/// The command a slash interaction of the top-level command `top` names, and its line
/// of the service's grammar: a command at [`Home::Own`] with actions is the command,
/// its subcommand the action (`/tournament join id:3` is `tournament join 3`); any other
/// is the command [`leaf`] finds, read by [`to_text`].
pub fn command_line<'a>(
    registry: &Registry,
    top: &'a str,
    options: &'a [CommandDataOption],
) -> (&'a str, String) {
    if let Some((c, actions)) = own_actions(top) {
        let sub = options.first().and_then(|o| match &o.value {
            CommandDataOptionValue::SubCommand(inner) => Some((o.name.as_str(), &inner[..])),
            _ => None,
        });
        let Some((action, inner)) =
            sub.and_then(|(n, inner)| Some((actions.iter().find(|a| a.name == n)?, inner)))
        else {
            // Not one of its actions: the name alone, which the grammar refuses with its
            // usage.
            return (top, c.name.to_string());
        };
        return (top, own_text(registry, c, action, inner));
    }
    let (name, options) = leaf(top, options);
    (name, to_text(registry, name, options))
}

#[cfg(test)]
mod tests;
