//! `help`, as structured data: which commands, grouped under which labels, with their
//! examples both as typed text and as named arguments, so that every adapter shows them in
//! the form its reader uses (the console the typed line, Discord the slash command with its
//! options) without reading the service's English back. [`Help::text`] is the typed form.

use super::spec::{self, Arg, ArgKind, Arguments, Home, REFEREE_COMMANDS};
use super::{take_fen, take_id};
use crate::variants::api::{command_mark, CommandSpec, IdRule, VariantSpec};
use crate::variants::Registry;

/// A help answer: a title, sections of commands and where to ask for more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help {
    /// What the answer is about (`Commands`, `move`, `Chess# commands`).
    pub title: String,
    /// The commands, grouped.
    pub sections: Vec<Section>,
    /// Where to ask for more, each with the command that asks.
    pub hints: Vec<Hint>,
}

/// A group of commands under one label: a kind of command (`Games`), or the variants a
/// declaration is for (`Standard chess, Chess960`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The label; empty for the one section of a referee's command.
    pub label: String,
    /// The commands, in order.
    pub entries: Vec<Entry>,
}

/// One command in a help answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name.
    pub name: &'static str,
    /// For a variant's command, the id of a variant that declares it as shown (the first
    /// of the section's), whose declaration gives its arguments.
    pub variant: Option<&'static str>,
    /// How to type it.
    pub usage: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Whether it is sent privately.
    pub secret: bool,
    /// Its examples; none in a list of commands.
    pub examples: Vec<Example>,
}

/// One example of a command: as typed, and as named arguments where every word of it is
/// an argument an adapter offers (`move 12 Nf3` is `move` with `move: Nf3`, `game: 12`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The command line as typed.
    pub text: String,
    /// The command's name.
    pub command: &'static str,
    /// Its arguments by name, in the order written; `None` where the example uses a form
    /// only typing has (another name of the command, a word no argument takes).
    pub options: Option<Vec<(String, String)>>,
}

/// Where to ask for more help: what it gives, and the command that asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// What it gives (`one command, with examples`).
    pub what: String,
    /// The command (`help COMMAND`).
    pub example: Example,
}

/// The typed form of the help answer: the console's, and any reader's without its own.
impl Help {
    /// The answer as lines of typed text.
    pub fn text(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        let listing = self
            .sections
            .iter()
            .all(|s| s.entries.iter().all(|e| e.examples.is_empty()));
        if listing {
            lines.push(format!("{}:", self.title));
            for s in &self.sections {
                let names: Vec<&str> = s.entries.iter().map(|e| e.name).collect();
                lines.push(format!("{}: {}", s.label, names.join(", ")));
            }
        } else {
            for s in &self.sections {
                for e in &s.entries {
                    let secret = match e.secret {
                        true => " (secret: send it to the bot privately)",
                        false => "",
                    };
                    let examples: Vec<&str> = e.examples.iter().map(|x| x.text.as_str()).collect();
                    let label = match s.label.is_empty() {
                        true => String::new(),
                        false => format!("[{}] ", s.label),
                    };
                    lines.push(format!(
                        "{label}{}: {}{secret}. Examples: {}",
                        e.usage,
                        e.help,
                        examples.join(", ")
                    ));
                }
            }
        }
        for h in &self.hints {
            lines.push(format!("{}: {}", h.example.text, h.what));
        }
        lines.join("\n")
    }
}

/// An example of the command `name` whose arguments are `args` (a referee's command) or
/// the declaration `decl` (a variant's).
fn example(name: &'static str, text: &str, decl: Option<&CommandSpec>) -> Example {
    let options = match (decl, spec::named(name)) {
        (Some(d), _) => variant_options(d, text),
        (None, Some(c)) => match c.args {
            Arguments::Listed(args) => listed_options(args, text),
            Arguments::Challenge(args) => challenge_options(args, text),
        },
        (None, None) => None,
    };
    Example {
        text: text.to_string(),
        command: name,
        options,
    }
}

/// The typed command `line` (a marked command of the referee's text, `draw accept`,
/// `tournament join 3`) as an [`Example`]: a referee's command by any of its names, or a
/// variant's by the first declaration of its name; `None` for a line that names no command.
pub fn example_of(registry: &Registry, line: &str) -> Option<Example> {
    let first = line.split_whitespace().next()?.to_lowercase();
    if let Some(c) = spec::named(&first) {
        return Some(example(c.name, line, None));
    }
    // The first declaration that reads the line as named arguments, else the first.
    let decls = registry.declarations(&first);
    let read = decls
        .iter()
        .map(|d| example(d.name, line, Some(d)))
        .find(|e| e.options.is_some());
    read.or_else(|| decls.first().map(|d| example(d.name, line, Some(d))))
}

/// The words of `text` after the command's name, when the name is `name` itself.
fn after_name<'a>(name: &str, text: &'a str) -> Option<&'a str> {
    let t = text.trim();
    let first = t.split_whitespace().next()?;
    (first.eq_ignore_ascii_case(name)).then(|| t[first.len()..].trim())
}

/// A variant command's example as named arguments: the game id, then each declared
/// argument a word, the last taking the rest of the line when it is declared so. An
/// example whose words cannot be told apart that way (a move of several words before
/// another argument) has none.
fn variant_options(d: &CommandSpec, text: &str) -> Option<Vec<(String, String)>> {
    let rest = after_name(d.name, text)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (mut id, mut words) = take_id(&words, d.id);
    // As the parser reads it: a number that leaves too few words is an argument.
    if id.is_some() && !rest.starts_with('#') && !d.takes(words.len()) {
        id = None;
        words = &[];
    }
    let all: Vec<&str> = rest.split_whitespace().collect();
    if id.is_none() {
        words = &all;
    }
    let mut out = Vec::new();
    for (i, a) in d.args.iter().enumerate() {
        let last = i + 1 == d.args.len();
        if words.is_empty() {
            if a.required {
                return None;
            }
            break;
        }
        if last && a.kind.is_rest() {
            out.push((a.name.to_string(), words.join(" ")));
            words = &[];
        } else {
            // A move or text before another argument: only a word of its own.
            if a.kind.is_rest() && words.len() > d.args.len() - i {
                return None;
            }
            out.push((a.name.to_string(), words[0].to_string()));
            words = &words[1..];
        }
    }
    if !words.is_empty() {
        return None;
    }
    if let Some(id) = id {
        out.push((Arg::GAME.name.to_string(), id.to_string()));
    }
    Some(out)
}

/// A referee's command's example as named arguments ([`Arguments::Listed`]): its game id,
/// then each word as the argument that takes it (`name:value`, a flag's name, a keyword,
/// else the next argument written as its value; free text takes the rest).
fn listed_options(args: &[Arg], text: &str) -> Option<Vec<(String, String)>> {
    let rest = after_name_any(text)?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let has_game = args.iter().any(|a| a.kind == ArgKind::Game);
    let (id, mut words) = match has_game {
        true => take_id(&words, IdRule::Plain),
        false => (None, &words[..]),
    };
    let mut out: Vec<(String, String)> = Vec::new();
    if let Some(id) = id {
        out.push((Arg::GAME.name.to_string(), id.to_string()));
    }
    let free = |a: &&Arg, out: &Vec<(String, String)>| {
        !a.keyed
            && !matches!(a.kind, ArgKind::Game | ArgKind::Flag | ArgKind::Choice(_))
            && !out.iter().any(|(n, _)| n == a.name)
    };
    while let Some(w) = words.first() {
        let lower = w.to_lowercase();
        let keyed = args.iter().find(|a| {
            a.keyed
                && lower
                    .strip_prefix(a.name)
                    .is_some_and(|v| v.starts_with(':'))
        });
        if let Some(a) = keyed {
            out.push((a.name.to_string(), w[a.name.len() + 1..].to_string()));
        } else if let Some(a) = args
            .iter()
            .find(|a| a.kind == ArgKind::Flag && a.name == lower)
        {
            out.push((a.name.to_string(), "true".to_string()));
        } else if let Some(a) = args.iter().find(|a| {
            !a.keyed && matches!(a.kind, ArgKind::Choice(vs) if vs.iter().any(|(v, _)| *v == lower))
        }) {
            out.push((a.name.to_string(), lower));
        } else {
            let a = args.iter().find(|a| free(a, &out))?;
            if matches!(a.kind, ArgKind::Text { .. }) {
                out.push((a.name.to_string(), words.join(" ")));
                break;
            }
            out.push((a.name.to_string(), w.to_string()));
        }
        words = &words[1..];
    }
    Some(out)
}

/// The words after a referee's command's name, whichever name it is typed by.
fn after_name_any(text: &str) -> Option<&str> {
    let t = text.trim();
    let first = t.split_whitespace().next()?;
    spec::named(&first.to_lowercase())?;
    Some(t[first.len()..].trim())
}

/// A challenge's example as named arguments: the users named as `opponent`,
/// `opponent2`, ..., the variant, each `name:value` and the FEN.
fn challenge_options(args: &[Arg], text: &str) -> Option<Vec<(String, String)>> {
    let rest = after_name_any(text)?;
    let (rest, fen) = take_fen(rest).ok()?;
    let mut out: Vec<(String, String)> = Vec::new();
    let mut opponents = 0;
    for w in rest.split_whitespace() {
        if w.starts_with('@') || w.starts_with("<@") {
            opponents += 1;
            let name = match opponents {
                1 => "opponent".to_string(),
                n => format!("opponent{n}"),
            };
            out.push((name, w.to_string()));
        } else if let Some((name, value)) = w.split_once(':') {
            let name = name.to_lowercase();
            let name = match name.as_str() {
                "color" => "colour".to_string(),
                _ => name,
            };
            out.push((name, value.to_string()));
        } else if !out.iter().any(|(n, _)| n == Arg::VARIANT.name) {
            out.push((Arg::VARIANT.name.to_string(), w.to_string()));
        } else {
            return None;
        }
    }
    if let Some(f) = fen {
        let name = args
            .iter()
            .find(|a| matches!(a.kind, ArgKind::Text { .. }))?
            .name;
        out.push((name.to_string(), f));
    }
    Some(out)
}

/// The examples of a variant's command declaration, as its `examples` lists them.
fn examples_of(name: &'static str, examples: &str, decl: Option<&CommandSpec>) -> Vec<Example> {
    examples
        .split(", ")
        .filter(|e| !e.trim().is_empty())
        .map(|e| example(name, e, decl))
        .collect()
}

/// A hint: `what` it gives, asked by `text` (a `help` line).
fn hint(what: &str, text: &str) -> Hint {
    Hint {
        what: what.to_string(),
        example: example("help", text, None),
    }
}

/// A help line's placeholder arguments: `help COMMAND` is `help` with `command:
/// COMMAND` (the referee's command the line begins with; `help` by default).
fn placeholder_hint(what: &str, text: &str, options: &[(&str, &str)]) -> Hint {
    let command = text
        .split_whitespace()
        .next()
        .and_then(spec::named)
        .map_or("help", |c| c.name);
    Hint {
        what: what.to_string(),
        example: Example {
            text: text.to_string(),
            command,
            options: Some(
                options
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect(),
            ),
        },
    }
}

/// The entry of a variant command's declaration, in a list or with its examples.
fn variant_entry(v: &dyn VariantSpec, c: &'static CommandSpec, examples: bool) -> Entry {
    Entry {
        name: c.name,
        variant: Some(v.id()),
        usage: c.usage,
        help: c.help,
        secret: c.secret,
        examples: match examples {
            true => examples_of(c.name, c.examples, Some(c)),
            false => Vec::new(),
        },
    }
}

/// `help` alone: the referee's commands, by where they belong, and the commands of the
/// variants `played` (variant ids; the registry's first, standard chess, when none), or
/// of every variant (`all`).
pub fn listing(registry: &Registry, played: &[String], all: bool) -> Help {
    let referee = |home: Home| -> Vec<Entry> {
        REFEREE_COMMANDS
            .iter()
            .filter(|c| c.home == home || (home == Home::Account && matches!(c.home, Home::Own(_))))
            .map(|c| Entry {
                name: c.name,
                variant: None,
                usage: c.usage,
                help: c.help,
                secret: c.private,
                examples: Vec::new(),
            })
            .collect()
    };
    let mut sections = vec![
        Section {
            label: "Games and challenges".into(),
            entries: referee(Home::Game),
        },
        Section {
            label: "You and the server".into(),
            entries: referee(Home::Account),
        },
        Section {
            label: "Server administration (Manage Server, or the moderators' role)".into(),
            entries: referee(Home::Admin),
        },
    ];
    let mut shown: Vec<&'static dyn VariantSpec> = registry
        .all()
        .filter(|v| all || played.iter().any(|p| p == v.id()))
        .collect();
    if shown.is_empty() {
        shown.extend(registry.all().next());
    }
    for v in shown {
        sections.push(Section {
            label: format!("{} commands", v.display_name()),
            entries: v
                .commands()
                .iter()
                .map(|c| variant_entry(v, c, false))
                .collect(),
        });
    }
    Help {
        title: "Commands".into(),
        sections,
        hints: vec![
            placeholder_hint(
                "one command, with examples",
                "help COMMAND",
                &[("command", "COMMAND")],
            ),
            placeholder_hint(
                "one variant's rules and commands",
                "rules VARIANT",
                &[("variant", "VARIANT")],
            ),
            hint("every variant, a line each", "rules"),
        ],
    }
}

/// `help TOPIC [VARIANT]`: a referee's command, a variant's command (grouped by the
/// variants declaring it alike: those of `variant` if given, else those `played`, else
/// all), or a variant's commands. An unknown topic is the error's text.
pub fn topic(
    registry: &Registry,
    topic: &str,
    variant: Option<&str>,
    played: &[String],
) -> Result<Help, String> {
    let t = topic.to_lowercase();
    if t == "all" {
        return Ok(listing(registry, played, true));
    }
    if let Some(c) = spec::find(&t) {
        return Ok(referee_topic(c));
    }
    let owners: Vec<Owner> = registry
        .all()
        .filter_map(|v| v.commands().iter().find(|c| c.is_named(&t)).map(|c| (v, c)))
        .collect();
    if owners.is_empty() {
        return match registry.find(&t) {
            Some(v) => Ok(variant_commands(v)),
            None => Err(format!(
                "no command '{}': {} lists the commands",
                short(&t),
                command_mark("help")
            )),
        };
    }
    let asked = match variant {
        Some(name) => vec![asked_variant(registry, &owners, name)?],
        None => played.to_vec(),
    };
    Ok(variant_command_topic(&owners, &asked))
}

/// A variant and its declaration of a command.
type Owner = (&'static dyn VariantSpec, &'static CommandSpec);

/// At most 30 characters of what a user typed, to name it back.
fn short(s: &str) -> String {
    s.chars().take(30).collect()
}

/// `help COMMAND` for a referee's command: its usage, help and examples.
fn referee_topic(c: &spec::RefereeCommand) -> Help {
    Help {
        title: c.name.to_string(),
        sections: vec![Section {
            label: String::new(),
            entries: vec![Entry {
                name: c.name,
                variant: None,
                usage: c.usage,
                help: c.help,
                secret: c.private,
                examples: c
                    .examples()
                    .iter()
                    .map(|e| example(c.name, e, None))
                    .collect(),
            }],
        }],
        hints: Vec::new(),
    }
}

/// The id of the variant `name` names, if it is one of the `owners` of the command asked
/// about; else the error's text.
fn asked_variant(registry: &Registry, owners: &[Owner], name: &str) -> Result<String, String> {
    let v = registry.find(name).ok_or_else(|| {
        format!(
            "no variant '{}': {} lists them",
            short(name),
            command_mark("rules")
        )
    })?;
    if !owners.iter().any(|(o, _)| o.id() == v.id()) {
        return Err(format!(
            "{} has no command {}; it is a command of {}",
            v.display_name(),
            owners[0].1.name,
            names(owners.iter().map(|(o, _)| *o))
        ));
    }
    Ok(v.id().to_string())
}

/// `help COMMAND` for a command the variants declare: one section per declaration of
/// the `asked` variants (of every owner if none is asked or declares it), labelled with
/// the variants that share it, and a hint naming the other owners.
fn variant_command_topic(owners: &[Owner], asked: &[String]) -> Help {
    let mut shown: Vec<Owner> = owners
        .iter()
        .filter(|(v, _)| asked.iter().any(|p| p == v.id()))
        .copied()
        .collect();
    if shown.is_empty() {
        shown = owners.to_vec();
    }
    let mut groups: Vec<(&'static CommandSpec, Vec<&'static dyn VariantSpec>)> = Vec::new();
    for (v, c) in &shown {
        match groups.iter_mut().find(|(d, _)| same(d, c)) {
            Some(g) => g.1.push(*v),
            None => groups.push((*c, vec![*v])),
        }
    }
    let sections = groups
        .iter()
        .map(|(c, vs)| Section {
            label: names(vs.iter().copied()),
            entries: vec![variant_entry(vs[0], c, true)],
        })
        .collect();
    let others: Vec<&'static dyn VariantSpec> = owners
        .iter()
        .filter(|(v, _)| !shown.iter().any(|(s, _)| s.id() == v.id()))
        .map(|(v, _)| *v)
        .collect();
    let name = owners[0].1.name;
    let hints = match others.is_empty() {
        true => Vec::new(),
        false => vec![placeholder_hint(
            &format!("{name} in another variant: {}", names(others.into_iter())),
            &format!("help {name} VARIANT"),
            &[("command", name), ("variant", "VARIANT")],
        )],
    };
    Help {
        title: name.to_string(),
        sections,
        hints,
    }
}

/// Whether two declarations read alike (chess's variants share theirs).
fn same(a: &CommandSpec, b: &CommandSpec) -> bool {
    a.usage == b.usage && a.help == b.help && a.examples == b.examples
}

/// Variants' display names, joined.
fn names<'a>(vs: impl Iterator<Item = &'a dyn VariantSpec>) -> String {
    vs.map(|v| v.display_name()).collect::<Vec<_>>().join(", ")
}

/// `help VARIANT`: the variant's own commands, each with its examples.
fn variant_commands(v: &'static dyn VariantSpec) -> Help {
    Help {
        title: format!("{} commands", v.display_name()),
        sections: vec![Section {
            label: v.display_name().to_string(),
            entries: v
                .commands()
                .iter()
                .map(|c| variant_entry(v, c, true))
                .collect(),
        }],
        hints: vec![
            placeholder_hint("the referee's commands", "help", &[]),
            Hint {
                what: format!("the whole rules of {}", v.display_name()),
                example: Example {
                    text: format!("rules {}", v.id()),
                    command: "rules",
                    options: Some(vec![(Arg::VARIANT.name.into(), v.id().into())]),
                },
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(e: &Example) -> Vec<(&str, &str)> {
        e.options
            .as_ref()
            .unwrap()
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn examples_read_as_named_arguments() {
        let r = Registry::builtin();
        let h = topic(&r, "challenge", None, &[]).unwrap();
        let e = &h.sections[0].entries[0].examples;
        assert_eq!(
            options(&e[0]),
            [
                ("opponent", "@bob"),
                ("variant", "chess-sharp"),
                ("days", "5"),
                ("colour", "white")
            ]
        );
        assert_eq!(options(&e[2])[1], ("fen", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"));
        let h = topic(&r, "takeback", None, &[]).unwrap();
        let e = &h.sections[0].entries[0].examples;
        assert_eq!(options(&e[2]), [("game", "12"), ("answer", "decline")]);
        let h = topic(&r, "forget-me", None, &[]).unwrap();
        let e = &h.sections[0].entries[0].examples;
        assert_eq!(
            e[1].options, None,
            "forget-me confirm is a button on Discord"
        );
        let h = topic(&r, "move", Some("standard"), &[]).unwrap();
        let e = &h.sections[0].entries[0].examples;
        assert!(e.iter().any(|x| x
            .options
            .as_ref()
            .is_some_and(|o| o.iter().any(|(n, _)| n == "game"))));
    }

    #[test]
    fn a_shared_command_is_grouped_by_the_variants_asked_or_played() {
        let r = Registry::builtin();
        let played = vec!["parade".to_string(), "gravity".to_string()];
        let h = topic(&r, "add", None, &played).unwrap();
        let labels: Vec<&str> = h.sections.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["Gravity Chess", "Parade Chess Solitaire"]);
        assert!(h.hints[0].what.contains("Booster"), "{:?}", h.hints);
        let h = topic(&r, "add", Some("booster"), &played).unwrap();
        assert_eq!(h.sections.len(), 1);
        assert!(h.sections[0].label.starts_with("Booster"));
        // Nobody's games: every variant's, those declaring alike in one section.
        let h = topic(&r, "move", None, &[]).unwrap();
        assert!(
            h.sections[0].label.contains("Standard chess, Chess#"),
            "{h:?}"
        );
        assert!(h.hints.is_empty());
        assert!(topic(&r, "add", Some("standard"), &[]).is_err());
        assert!(topic(&r, "nothing", None, &[]).is_err());
        let text = topic(&r, "add", None, &played).unwrap().text();
        assert!(text.contains("[Gravity Chess] add [ID] COLUMN"), "{text}");
    }
}
