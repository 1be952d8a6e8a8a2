//! Embeds: the service's structured answers ([`Card`]: help, a variant's rules, the list
//! of variants; and the lists of [`super::lists`]) laid out for Discord, within Discord's embed limits, with examples written
//! as the slash commands a Discord reader uses. A variant's rules are pages of its whole
//! document, turned with buttons (`rules:VARIANT:PAGE`).

use super::buttons::Button;
use super::lists;
use super::slash;
use super::text;
use crate::service::command::help::{Entry, Help};
use crate::service::referee::{Card, RulesCard, VariantLine};
use crate::variants::Registry;
use serenity::all::{ButtonStyle, CreateEmbed, CreateEmbedFooter};

/// Discord's limits on an embed: title, description, a field's name and value, fields,
/// footer; and on a message: the characters of all its embeds, and embeds.
pub const TITLE: usize = 256;
/// The longest description.
pub const DESCRIPTION: usize = 4096;
/// The longest field name.
pub const FIELD_NAME: usize = 256;
/// The longest field value.
pub const FIELD_VALUE: usize = 1024;
/// The most fields in one embed.
pub const FIELDS: usize = 25;
/// The longest footer.
pub const FOOTER: usize = 2048;
/// The most characters in all of one message's embeds.
pub const TOTAL: usize = 6000;
/// The most embeds in one message.
pub const EMBEDS: usize = 10;

/// How much of a rules document one page holds, leaving room for its title and footer.
const PAGE: usize = 3800;

/// The colour of the bot's embeds.
const COLOUR: u32 = 0x2f6f4f;

/// One embed, as plain data (its limits are checked on this, and tests read it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The title.
    pub title: String,
    /// The description (Markdown).
    pub description: String,
    /// The fields: name and value.
    pub fields: Vec<(String, String)>,
    /// The footer.
    pub footer: String,
}

impl Page {
    /// The characters Discord counts towards a message's 6000.
    pub fn size(&self) -> usize {
        let n = |s: &str| s.chars().count();
        n(&self.title)
            + n(&self.description)
            + n(&self.footer)
            + self.fields.iter().map(|(a, b)| n(a) + n(b)).sum::<usize>()
    }

    /// Whether it is within every limit of one embed.
    #[cfg(test)]
    pub fn fits(&self) -> bool {
        let n = |s: &str| s.chars().count();
        n(&self.title) <= TITLE
            && n(&self.description) <= DESCRIPTION
            && n(&self.footer) <= FOOTER
            && self.fields.len() <= FIELDS
            && self
                .fields
                .iter()
                .all(|(a, b)| (1..=FIELD_NAME).contains(&n(a)) && (1..=FIELD_VALUE).contains(&n(b)))
            && self.size() <= TOTAL
    }

    /// The serenity embed.
    pub fn embed(&self) -> CreateEmbed {
        let mut e = CreateEmbed::new().colour(COLOUR).title(&self.title);
        if !self.description.is_empty() {
            e = e.description(&self.description);
        }
        for (name, value) in &self.fields {
            e = e.field(name, value, false);
        }
        if !self.footer.is_empty() {
            e = e.footer(CreateEmbedFooter::new(&self.footer));
        }
        e
    }
}

/// `s` cut to `max` characters (ending with `…` when cut).
pub(super) fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// Fields named `name` holding `value`, split at line ends under the field limit (the
/// second and later named `name (cont.)`).
fn fields(name: &str, value: &str) -> Vec<(String, String)> {
    text::split(value, FIELD_VALUE)
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let n = match i {
                0 => name.to_string(),
                _ => format!("{name} (cont.)"),
            };
            (clip(&n, FIELD_NAME), v)
        })
        .collect()
}

/// Pages within every limit of one embed: a page of too many fields, or too many
/// characters, goes on over further pages of the same title.
fn within_limits(pages: Vec<Page>) -> Vec<Page> {
    let mut out = Vec::new();
    for p in pages {
        let mut head = Page {
            title: clip(&p.title, TITLE),
            description: clip(&p.description, DESCRIPTION),
            footer: clip(&p.footer, FOOTER),
            fields: Vec::new(),
        };
        for f in p.fields {
            let over = head.fields.len() == FIELDS
                || head.size() + f.0.chars().count() + f.1.chars().count() > TOTAL;
            if over {
                let title = clip(&format!("{} (cont.)", p.title), TITLE);
                let next = Page {
                    title,
                    ..Page::default()
                };
                out.push(std::mem::replace(&mut head, next));
            }
            head.fields.push(f);
        }
        out.push(head);
    }
    out
}

/// Pages grouped into messages: at most [`EMBEDS`] embeds and [`TOTAL`] characters each.
pub fn messages(pages: Vec<Page>) -> Vec<Vec<Page>> {
    let mut out: Vec<Vec<Page>> = Vec::new();
    let mut size = 0;
    for p in within_limits(pages) {
        let fits = out
            .last()
            .is_some_and(|m| m.len() < EMBEDS && size + p.size() <= TOTAL);
        if !fits {
            out.push(Vec::new());
            size = 0;
        }
        size += p.size();
        out.last_mut().expect("pushed").push(p);
    }
    out
}

/// A card as the embeds of its messages, and the buttons under the last (a rules
/// document's page turner).
pub fn card(registry: &Registry, card: &Card) -> (Vec<Vec<Page>>, Vec<Button>) {
    match card {
        Card::Help(h) => (messages(help(registry, h)), Vec::new()),
        Card::Variants(lines) => (messages(vec![variants(registry, lines)]), Vec::new()),
        Card::Games(list) => (messages(vec![lists::games(registry, list)]), Vec::new()),
        Card::Facts(facts) => (messages(vec![lists::facts(registry, facts)]), Vec::new()),
        Card::Rankings(r) => (messages(lists::rankings(registry, r)), Vec::new()),
        Card::Rules(r) => {
            let (page, buttons) = rules_page(registry, r, 0);
            (vec![vec![page]], buttons)
        }
    }
}

/// The first clause of a command's help, for a list.
fn first_clause(help: &str) -> &str {
    let end = ["; ", " (", ": "]
        .iter()
        .filter_map(|b| help.find(b))
        .min()
        .unwrap_or(help.len());
    &help[..end]
}

/// The slash command of a help entry.
fn path(registry: &Registry, e: &Entry) -> String {
    slash::invocation(registry, e.name)
}

/// One entry with its examples, as Discord shows it: how to write it, what it does, and
/// its examples as slash commands (those only typing can give are left out).
fn entry_text(registry: &Registry, e: &Entry) -> String {
    let mut lines = vec![format!("`{}`", slash::usage(registry, e.name, e.variant))];
    let secret = match e.secret {
        true => " (answered to you alone)",
        false => "",
    };
    lines.push(format!("{}{secret}", capitalised(e.help)));
    let examples: Vec<String> = e
        .examples
        .iter()
        .filter_map(|x| slash::example(registry, x))
        .map(|x| format!("`{x}`"))
        .collect();
    if !examples.is_empty() {
        lines.push(format!("Examples: {}", examples.join(" · ")));
    }
    lines.join("\n")
}

/// `s` with a capital first letter.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A help answer as embeds: a list of commands (a field per group, a line per command
/// with its slash command), or commands with their examples (a field per variant group).
fn help(registry: &Registry, h: &Help) -> Vec<Page> {
    let listing = h
        .sections
        .iter()
        .all(|s| s.entries.iter().all(|e| e.examples.is_empty()));
    let mut page = Page {
        title: match listing {
            true => "Postal commands".to_string(),
            false => h.title.clone(),
        },
        ..Page::default()
    };
    for s in &h.sections {
        if listing {
            let lines: Vec<String> = s
                .entries
                .iter()
                .map(|e| format!("`{}` {}", path(registry, e), first_clause(e.help)))
                .collect();
            page.fields.extend(fields(&s.label, &lines.join("\n")));
            continue;
        }
        for e in &s.entries {
            let body = entry_text(registry, e);
            match (s.label.is_empty(), s.entries.len()) {
                (true, _) => page.description = body,
                (false, 1) => page.fields.extend(fields(&s.label, &body)),
                (false, _) => {
                    let name = format!("{} · {}", s.label, e.name);
                    page.fields.extend(fields(&name, &body))
                }
            }
        }
    }
    let hints: Vec<String> = h
        .hints
        .iter()
        .filter_map(|x| slash::example(registry, &x.example).map(|c| format!("`{c}` {}", x.what)))
        .collect();
    if !hints.is_empty() {
        page.fields.extend(fields("More", &hints.join("\n")));
    }
    vec![page]
}

/// The list of variants: a field each, with how to read one's rules in the footer.
fn variants(registry: &Registry, lines: &[VariantLine]) -> Page {
    Page {
        title: format!("{} variants", lines.len()),
        description: String::new(),
        fields: lines
            .iter()
            .map(|l| {
                let players = match l.players {
                    1 => "1 player".to_string(),
                    n => format!("{n} players"),
                };
                (
                    clip(&format!("{} · {}", l.name, l.variant), FIELD_NAME),
                    clip(&format!("{players}: {}", l.summary), FIELD_VALUE),
                )
            })
            .collect(),
        footer: format!(
            "{} variant:VARIANT shows one's whole rules",
            slash::invocation(registry, "rules")
        ),
    }
}

/// A rules document in pages of at most [`PAGE`] characters, cut between paragraphs
/// (a paragraph longer than a page, at line ends).
pub fn document_pages(document: &str) -> Vec<String> {
    let mut pages: Vec<String> = Vec::new();
    let mut page = String::new();
    for paragraph in document.split("\n\n").map(str::trim_end) {
        if paragraph.trim().is_empty() {
            continue;
        }
        for piece in text::split(paragraph, PAGE) {
            let len = page.chars().count() + 2 + piece.chars().count();
            if !page.is_empty() && len > PAGE {
                pages.push(std::mem::take(&mut page));
            }
            if !page.is_empty() {
                page.push_str("\n\n");
            }
            page.push_str(&piece);
        }
    }
    if !page.is_empty() {
        pages.push(page);
    }
    pages
}

/// The custom id of the button that turns `variant`'s rules to page `page`.
fn page_button(variant: &str, page: usize, label: &str) -> Button {
    Button {
        id: format!("rules:{variant}:{page}"),
        label: label.to_string(),
        style: ButtonStyle::Secondary,
    }
}

/// Page `n` of a variant's rules (0: what it is, in brief, with its commands and
/// options; then its whole document, page by page), and the buttons that turn to the
/// pages before and after it. A page past the last is the last.
pub fn rules_page(registry: &Registry, r: &RulesCard, n: usize) -> (Page, Vec<Button>) {
    let doc = document_pages(&shown_rules(registry, &r.document));
    let count = doc.len() + 1;
    let n = n.min(count - 1);
    let footer = format!("{} rules · page {} of {count}", r.name, n + 1);
    let page = match n {
        0 => {
            let mut shown = vec![(
                "Players".to_string(),
                match r.players {
                    1 => "1 player".to_string(),
                    p => format!("{p} players"),
                },
            )];
            let commands: Vec<String> = r
                .commands
                .iter()
                .map(|c| format!("`{}`", slash::invocation(registry, c)))
                .collect();
            if !commands.is_empty() {
                shown.extend(fields("Commands", &commands.join(" · ")));
            }
            let options: Vec<String> = r
                .options
                .iter()
                .map(|(usage, help)| format!("`{usage}` {help}"))
                .collect();
            if !options.is_empty() {
                shown.extend(fields("Options (in a challenge)", &options.join("\n")));
            }
            if let Some(link) = &r.link {
                shown.push(("Online".to_string(), clip(link, FIELD_VALUE)));
            }
            Page {
                title: format!("{} · {}", r.name, r.variant),
                description: clip(
                    &format!("*{}*\n\n{}", r.summary, shown_rules(registry, &r.brief)),
                    DESCRIPTION,
                ),
                fields: shown,
                footer: format!("{footer} · the whole rules follow"),
            }
        }
        k => Page {
            title: format!("{} · rules", r.name),
            description: doc[k - 1].clone(),
            fields: Vec::new(),
            footer,
        },
    };
    (page, page_buttons(r, n, count))
}

/// A rules text (a document, or the rules in brief) as Discord shows it: the commands it
/// quotes as slash commands ([`text::slash_commands`]).
pub fn shown_rules(registry: &Registry, marked: &str) -> String {
    text::for_discord(&text::slash_commands(registry, marked))
}

/// The buttons under page `n` of `count` of a variant's rules: to the page before and the
/// page after it, where there is one.
fn page_buttons(r: &RulesCard, n: usize, count: usize) -> Vec<Button> {
    let mut buttons = Vec::new();
    if n > 0 {
        buttons.push(page_button(r.variant, n - 1, "◀ Previous"));
    }
    if n + 1 < count {
        buttons.push(page_button(r.variant, n + 1, "Next ▶"));
    }
    buttons
}

/// The buttons under a variant's rules' first page: to the next, where its document has
/// a page.
pub fn first_page_buttons(r: &RulesCard) -> Vec<Button> {
    let count = 1 + usize::from(!r.document.trim().is_empty());
    page_buttons(r, 0, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::command::help as h;

    #[test]
    fn every_variants_rules_fit_discords_embeds_and_hold_the_whole_document() {
        let r = Registry::builtin();
        for v in r.all() {
            let card = RulesCard::of(v, Some(format!("https://example.org/{}/", "r".repeat(150))));
            let mut shown = String::new();
            let mut n = 0;
            loop {
                let (page, buttons) = rules_page(&r, &card, n);
                assert!(page.fits(), "{} page {n}: {page:?}", v.id());
                shown.push_str(&page.description);
                shown.push('\n');
                match buttons.iter().find(|b| b.label.starts_with("Next")) {
                    Some(b) => {
                        assert_eq!(b.id, format!("rules:{}:{}", v.id(), n + 1));
                        assert!(b.id.chars().count() <= 100);
                        n += 1;
                    }
                    None => break,
                }
            }
            assert!(n >= 1, "{}", v.id());
            // Every paragraph whole, or, one longer than a page, every line of it.
            for paragraph in shown_rules(&r, &card.document).split("\n\n") {
                let p = paragraph.trim_end();
                let whole = shown.contains(p);
                assert!(
                    whole || p.lines().all(|l| shown.contains(l.trim())),
                    "{}: {p:?} is on no page",
                    v.id()
                );
            }
        }
    }

    #[test]
    fn help_and_the_variant_list_fit_discords_embeds() {
        let r = Registry::builtin();
        let mut answers = vec![
            h::listing(&r, &[], false),
            h::listing(&r, &[], true),
            h::topic(&r, "move", None, &[]).unwrap(),
        ];
        for c in crate::service::command::REFEREE_COMMANDS {
            answers.push(h::topic(&r, c.name, None, &[]).unwrap());
        }
        for c in r.commands() {
            answers.push(h::topic(&r, c.name, None, &[]).unwrap());
        }
        for v in r.all() {
            answers.push(h::topic(&r, v.id(), None, &[]).unwrap());
        }
        for a in &answers {
            let (msgs, _) = card(&r, &Card::Help(a.clone()));
            for m in &msgs {
                assert!(m.len() <= EMBEDS);
                assert!(m.iter().map(Page::size).sum::<usize>() <= TOTAL);
                assert!(m.iter().all(Page::fits), "{m:?}");
            }
            let all = format!("{msgs:?}");
            assert!(!all.contains("help all"), "{all}");
        }
        // Examples as slash commands, never typed forms.
        let (msgs, _) = card(
            &r,
            &Card::Help(h::topic(&r, "settings", None, &[]).unwrap()),
        );
        let shown = format!("{msgs:?}");
        assert!(shown.contains("/postal settings reminders:24,1"), "{shown}");
        assert!(!shown.contains("`settings reminders"), "{shown}");
        let lines: Vec<VariantLine> = r
            .all()
            .map(|v| VariantLine {
                variant: v.id(),
                name: v.display_name(),
                players: v.seats().count(),
                summary: v.summary(),
            })
            .collect();
        let (msgs, _) = card(&r, &Card::Variants(lines));
        assert_eq!(msgs.len(), 1);
        assert_eq!(msgs[0][0].fields.len(), r.all().count());
        assert!(msgs[0][0].fits());
    }

    #[test]
    fn too_many_fields_go_on_over_further_embeds_and_messages() {
        let page = Page {
            title: "t".into(),
            fields: (0..60)
                .map(|i| (format!("f{i}"), "v".repeat(900)))
                .collect(),
            ..Page::default()
        };
        let msgs = messages(vec![page]);
        let fields: usize = msgs.iter().flatten().map(|p| p.fields.len()).sum();
        assert_eq!(fields, 60);
        for m in &msgs {
            assert!(m.len() <= EMBEDS);
            assert!(m.iter().map(Page::size).sum::<usize>() <= TOTAL);
            assert!(m.iter().all(Page::fits));
        }
    }
}
