//! Lists as embeds a player can scan: their games (those awaiting them first, each linked
//! to its thread, its deadline a Discord timestamp), settings as fields, a leaderboard's
//! rankings and a tournament's standings as aligned columns. Each within Discord's embed
//! limits ([`super::embeds`]): a list too long for one embed is cut, its last line
//! saying how many more there are.

use super::embeds::{clip, Page, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE, TITLE, TOTAL};
use super::text;
use crate::render::table::Table;
use crate::service::referee::{render_times, table_text, Facts, GameList, ListedGame, Ranking};
use crate::variants::Registry;

/// Room kept in an embed for the line that says how many more there are.
const MORE_ROOM: usize = 80;

/// The longest cell of a table shown in a code block (a name longer than this is cut, so
/// that a row fits a reader's screen).
const CELL: usize = 24;

/// Marked text as Discord shows it: commands as slash commands, users as mentions,
/// times as timestamps.
fn shown(registry: &Registry, marked: &str) -> String {
    text::for_discord(&text::slash_commands(registry, marked))
}

/// A count in words: `1 game`, `3 games`.
fn games_count(n: usize) -> String {
    crate::variants::api::plural(n, "game", "games")
}

/// The player's games: for live games a field of those awaiting them (their turn), then
/// of those awaiting others, then of pending challenges, each group by its nearest
/// deadline; finished games as listed, the most recent first. A game a line, with a link
/// to its thread or channel and its deadline as a countdown.
pub fn games(registry: &Registry, list: &GameList) -> Page {
    let title = match list.finished {
        true => "Your finished games",
        false => "Your games",
    };
    let mut groups: Vec<(&str, Vec<&ListedGame>)> = match list.finished {
        true => vec![("Finished, the latest first", list.games.iter().collect())],
        false => {
            let of = |f: &dyn Fn(&ListedGame) -> bool| -> Vec<&ListedGame> {
                list.games.iter().filter(|g| f(g)).collect()
            };
            vec![
                ("Your turn", of(&|g| g.turn && !g.pending)),
                ("Waiting for others", of(&|g| !g.turn && !g.pending)),
                ("Challenges pending", of(&|g| g.pending)),
            ]
        }
    };
    if !list.finished {
        for (_, games) in &mut groups {
            games.sort_by_key(|g| (g.due.is_none(), g.due, g.game));
        }
    }
    let mut fill = Filler::new(format!("{title} · {}", games_count(list.games.len())));
    if list.games.is_empty() {
        fill.page.description = match list.finished {
            true => "You have no finished games here.".to_string(),
            false => "You have no live games here.".to_string(),
        };
    }
    for (label, games) in groups.iter().filter(|(_, g)| !g.is_empty()) {
        let name = format!("{label} · {}", games.len());
        for g in games {
            fill.add(&name, game_line(registry, g));
        }
    }
    fill.finish("games")
}

/// One game's line: `**#12** Chess960 vs @bob · @alice (White) to move, by <t:..:R> · <#thread>`.
fn game_line(registry: &Registry, g: &ListedGame) -> String {
    let state = render_times(&g.state, |t| format!("<t:{t}:R>"));
    let place = match &g.channel {
        Some(c) => format!("<#{c}>"),
        None => "in private messages".to_string(),
    };
    format!(
        "**#{}** {}{} · {} · {place}",
        g.game,
        g.variant,
        shown(registry, &g.against),
        shown(registry, &state)
    )
}

/// Lines grouped into an embed's fields (a field per group, continued in further fields
/// past a field's limit) while they fit one embed; the lines that do not are counted.
struct Filler {
    page: Page,
    /// The group of the last field.
    group: String,
    /// The lines added, and those left out.
    added: usize,
    left_out: usize,
}

impl Filler {
    fn new(title: String) -> Filler {
        Filler {
            page: Page {
                title: clip(&title, TITLE),
                ..Page::default()
            },
            group: String::new(),
            added: 0,
            left_out: 0,
        }
    }

    /// Adds `line` to group `group`, if it fits; otherwise counts it left out (and every
    /// line after it: a list is cut, never thinned).
    fn add(&mut self, group: &str, line: String) {
        let line = clip(&line, FIELD_VALUE);
        let n = line.chars().count();
        let same = self.group == group && !self.page.fields.is_empty();
        let joins = same
            && self
                .page
                .fields
                .last()
                .is_some_and(|(_, v)| v.chars().count() + 1 + n <= FIELD_VALUE);
        let name = match same {
            true => clip(&format!("{group} (cont.)"), FIELD_NAME),
            false => clip(group, FIELD_NAME),
        };
        let cost = match joins {
            true => 1 + n,
            false => name.chars().count() + n,
        };
        let full = !joins && self.page.fields.len() == FIELDS;
        if self.left_out > 0 || full || self.page.size() + cost + MORE_ROOM > TOTAL {
            self.left_out += 1;
            return;
        }
        match (joins, self.page.fields.last_mut()) {
            (true, Some((_, value))) => {
                value.push('\n');
                value.push_str(&line);
            }
            _ => self.page.fields.push((name, line)),
        }
        self.group = group.to_string();
        self.added += 1;
    }

    /// The embed, its footer saying how many `what` were left out, if any.
    fn finish(mut self, what: &str) -> Page {
        if self.left_out > 0 {
            self.page.footer = format!(
                "and {} more {what}, not shown: name a game by its number to see it",
                self.left_out
            );
        }
        self.page
    }
}

/// Settings as an embed: a field each, the line before them as its description, the line
/// after them (how to change them) as its last field.
pub fn facts(registry: &Registry, f: &Facts) -> Page {
    let mut fields: Vec<(String, String)> = f
        .facts
        .iter()
        .take(FIELDS - 1)
        .map(|(name, value)| {
            (
                clip(name, FIELD_NAME),
                clip(&capitalised(&shown(registry, value)), FIELD_VALUE),
            )
        })
        .collect();
    if !f.note.is_empty() {
        fields.push((
            "How to change them".to_string(),
            clip(&shown(registry, &f.note), FIELD_VALUE),
        ));
    }
    Page {
        title: clip(&f.title, TITLE),
        description: clip(&shown(registry, &f.intro), DESCRIPTION),
        fields,
        footer: String::new(),
    }
}

/// `s` with a capital first letter.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A leaderboard's rankings, an embed each: a row per player, the rank and score in
/// columns of one width (monospaced), then the player and their record.
pub fn rankings(registry: &Registry, rankings: &[Ranking]) -> Vec<Page> {
    rankings
        .iter()
        .map(|r| {
            let width = r.rows.iter().map(|x| x.score.chars().count()).max();
            let width = width.unwrap_or(0);
            let rank_width = r.rows.len().to_string().len();
            let lines: Vec<String> = r
                .rows
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let head = format!(
                        "`{:>rank_width$}.` `{:<width$}` {}",
                        i + 1,
                        x.score,
                        shown(registry, &x.player)
                    );
                    match x.detail.is_empty() {
                        true => head,
                        false => format!("{head} · {}", shown(registry, &x.detail)),
                    }
                })
                .collect();
            let footer = match r.players > r.rows.len() {
                true => format!("the best {} of {} players", r.rows.len(), r.players),
                false => crate::variants::api::plural(r.players, "player", "players"),
            };
            Page {
                title: clip(&r.title, TITLE),
                description: lines_within(&lines, DESCRIPTION),
                fields: Vec::new(),
                footer,
            }
        })
        .collect()
}

/// `lines` joined, as many as fit `limit` characters, and a last line counting the rest.
fn lines_within(lines: &[String], limit: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let line = clip(line, limit - MORE_ROOM);
        if out.chars().count() + line.chars().count() + 1 + MORE_ROOM > limit {
            out.push_str(&format!("and {} more", lines.len() - i));
            return out;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// A tournament's standings as an embed: its title, and the table in a code block (each
/// cell cut to [`CELL`] characters), as many rows as fit, a last line counting the rest.
pub fn standings(table: &Table) -> Page {
    let cut = |row: &[String]| -> Vec<String> { row.iter().map(|c| clip(c, CELL)).collect() };
    let header = cut(&table.header);
    let rows: Vec<Vec<String>> = table.rows.iter().map(|r| cut(r)).collect();
    let block = |n: usize| {
        let t = Table {
            title: String::new(),
            header: header.clone(),
            rows: rows[..n].to_vec(),
        };
        format!("```\n{}\n```", table_text(&t))
    };
    let mut n = rows.len();
    let mut description = block(n);
    while n > 0 && description.chars().count() + MORE_ROOM > DESCRIPTION {
        n -= 1;
        description = block(n);
    }
    if n < rows.len() {
        description.push_str(&format!("\nand {} more", rows.len() - n));
    }
    let title = match table.title.is_empty() {
        true => "Standings",
        false => table.title.as_str(),
    };
    Page {
        title: clip(title, TITLE),
        description,
        fields: Vec::new(),
        footer: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::referee::{time_mark, user_mark, Ranked};

    /// Game `id` of a list, awaiting the player when `turn`, due at `due`.
    fn game(id: i64, turn: bool, due: i64) -> ListedGame {
        ListedGame {
            game: id,
            variant: "Chess960",
            against: format!(" vs {}", user_mark("300000000000000002")),
            state: format!(
                "{} (White) to move, by {}",
                user_mark("300000000000000001"),
                time_mark(due)
            ),
            pending: false,
            turn,
            due: Some(due),
            server: Some("100000000000000001".into()),
            channel: Some(format!("5000000000000{id:05}")),
        }
    }

    #[test]
    fn a_long_list_of_games_is_cut_within_one_embed_turn_first_by_deadline() {
        let r = Registry::builtin();
        let games: Vec<ListedGame> = (1..=300)
            .map(|i| game(i, i % 3 == 0, 1_800_000_000 - i * 60))
            .collect();
        let page = games_page(&r, games, false);
        assert!(page.fits(), "{page:?}");
        assert!(page.size() <= TOTAL);
        let shown: Vec<&str> = page.fields.iter().flat_map(|(_, v)| v.lines()).collect();
        let left_out = 300 - shown.len();
        assert!(left_out > 0);
        assert_eq!(
            page.footer,
            format!("and {left_out} more games, not shown: name a game by its number to see it")
        );
        // Their turn first (every third game), the nearest deadline first: the latest id.
        assert!(page.fields[0].0.starts_with("Your turn · 100"), "{page:?}");
        assert!(shown[0].starts_with("**#300** Chess960 vs <@300000000000000002>"));
        assert!(shown[0].contains("<t:1799982000:R>"), "{}", shown[0]);
        assert!(shown[0].ends_with("<#500000000000000300>"), "{}", shown[0]);
        assert!(shown[1].starts_with("**#297** "), "{}", shown[1]);
        // Lines are whole: each one begins with its game.
        assert!(shown.iter().all(|l| l.starts_with("**#")));
    }

    /// The embed of `games` (finished when `finished`).
    fn games_page(r: &Registry, list: Vec<ListedGame>, finished: bool) -> Page {
        games(
            r,
            &GameList {
                finished,
                games: list,
            },
        )
    }

    #[test]
    fn no_game_is_said_and_a_private_game_has_no_link() {
        let r = Registry::builtin();
        let page = games_page(&r, Vec::new(), false);
        assert_eq!(page.title, "Your games · 0 games");
        assert_eq!(page.description, "You have no live games here.");
        let mut g = game(7, true, 1_800_000_000);
        g.channel = None;
        let page = games_page(&r, vec![g], false);
        assert!(page.fields[0].1.ends_with(" · in private messages"));
    }

    #[test]
    fn settings_rankings_and_standings_fit_discords_embeds() {
        let r = Registry::builtin();
        let f = Facts {
            title: "Your settings".into(),
            intro: "x".repeat(5000),
            facts: (0..40)
                .map(|i| (format!("n{i}"), "v".repeat(2000)))
                .collect(),
            note: crate::service::referee::command_mark("settings reminders:24,1"),
        };
        let page = facts(&r, &f);
        assert_eq!(page.fields.len(), FIELDS);
        assert!(page
            .fields
            .iter()
            .all(|(_, v)| v.chars().count() <= FIELD_VALUE));
        assert_eq!(
            page.fields[FIELDS - 1].1,
            "`/postal settings reminders:24,1`"
        );
        let msgs = super::super::embeds::messages(vec![page]);
        assert!(msgs.iter().flatten().all(Page::fits));

        let ranking = Ranking {
            title: "Chess# ratings here".into(),
            players: 12,
            rows: (0..10)
                .map(|i| Ranked {
                    player: user_mark(&format!("30000000000000000{i}")),
                    score: format!("{} ±80", 1700 - i * 37),
                    detail: "3 games (2 won, 0 drawn, 1 lost)".into(),
                })
                .collect(),
        };
        let pages = rankings(&r, &[ranking]);
        assert!(pages[0].fits());
        assert_eq!(pages[0].footer, "the best 10 of 12 players");
        let first = pages[0].description.lines().next().unwrap();
        assert_eq!(
            first,
            "` 1.` `1700 ±80` <@300000000000000000> · 3 games (2 won, 0 drawn, 1 lost)"
        );

        let table = Table {
            title: "tournament #1: standings after round 3".into(),
            header: vec!["#".into(), "Player".into(), "Points".into()],
            rows: (1..=400)
                .map(|i| vec![i.to_string(), "n".repeat(60), "1.5".into()])
                .collect(),
        };
        let page = standings(&table);
        assert!(page.fits(), "{page:?}");
        assert!(
            page.description.starts_with("```\n  #  Player"),
            "{}",
            page.description
        );
        assert!(page.description.ends_with("more"), "{}", page.description);
        assert!(!page.description.contains(&"n".repeat(CELL + 1)));
    }
}
