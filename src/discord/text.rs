//! Pure text helpers of the Discord adapter: splitting under Discord's length limit,
//! and showing the referee's marked users, times and commands as Discord mentions,
//! timestamps and slash commands.

use crate::variants::Registry;

/// Discord's limit on a message's content, in characters.
pub const MESSAGE_LIMIT: usize = 2000;

/// Splits `text` into pieces of at most `limit` characters, preferring to cut at a line
/// break, then at a space, and only then inside a word. Never returns an empty piece;
/// empty text gives no piece.
pub fn split(text: &str, limit: usize) -> Vec<String> {
    let limit = limit.max(1);
    let mut out = Vec::new();
    let mut rest = text.trim_end();
    while !rest.is_empty() {
        if rest.chars().count() <= limit {
            out.push(rest.to_string());
            break;
        }
        // Byte index just past `limit` characters.
        let hard = rest
            .char_indices()
            .nth(limit)
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
        let window = &rest[..hard];
        let cut = window
            .rfind('\n')
            .or_else(|| window.rfind(' '))
            .filter(|&i| i > 0)
            .unwrap_or(hard);
        let piece = rest[..cut].trim_end();
        if !piece.is_empty() {
            out.push(piece.to_string());
        }
        rest = rest[cut..].trim_start_matches([' ', '\n']);
    }
    out
}

/// A time as Discord shows it: the date and time in each reader's own time zone, and
/// how long until then (`<t:UNIX:f> (<t:UNIX:R>)`).
pub fn discord_time(t: i64) -> String {
    format!("<t:{t}:f> (<t:{t}:R>)")
}

/// The referee's text as sent to Discord: its marked times as Discord timestamps
/// ([`discord_time`]) and its marked users ([`crate::service::referee::user_mark`]) as
/// mentions, which Discord displays as each user's name (whom a message notifies is its
/// allowed mentions' business, not the text's). Nothing else becomes a mention: a number a
/// player typed stays a number.
pub fn for_discord(text: &str) -> String {
    // A command not written as a slash command before ([`slash_commands`]) as typed.
    let text = crate::service::referee::typed_commands(text);
    let users = crate::service::referee::render_users(&text, |key, _| mention(key));
    crate::service::referee::render_times(&users, discord_time)
}

/// The commands the referee marked in `text` ([`crate::service::referee::command_mark`])
/// as the slash commands that give them, in backticks (`tournament join 3` is
/// `` `/tournament join id:3` ``); a command's usage
/// ([`crate::variants::api::usage_mark`]) as its slash command with its options
/// (`` `/chess move move:… [game]` ``), as is an example only typing can give; a line
/// that names no command stays as typed.
pub fn slash_commands(registry: &Registry, text: &str) -> String {
    crate::service::referee::render_commands(text, |line| {
        if let Some(usage) = crate::variants::api::usage_of(line) {
            return format!("`{}`", slash_usage(registry, usage));
        }
        let slash = crate::service::command::help::example_of(registry, line)
            .and_then(|e| super::slash::example(registry, &e));
        // A command named alone in a sentence (`board`): its slash command, without the
        // options its usage would list. An example only typing gives (another name,
        // words the options cannot hold): its command's slash usage.
        let shown = slash
            .or_else(|| command_alone(registry, line))
            .unwrap_or_else(|| slash_usage(registry, line));
        format!("`{shown}`")
    })
}

/// The slash command of `line` when it is a command's name alone (`board` is
/// `/chess board`); `None` for anything longer or a word that names no command.
fn command_alone(registry: &Registry, line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    let word = words.next()?;
    if words.next().is_some() {
        return None;
    }
    Some(super::slash::invocation(
        registry,
        command_named(registry, word)?,
    ))
}

/// The referee's or a variant's command that `word` names (case aside), if any.
fn command_named(registry: &Registry, word: &str) -> Option<&'static str> {
    let word = word.to_lowercase();
    crate::service::command::find(&word)
        .map(|c| c.name)
        .or_else(|| registry.declarations(&word).first().map(|d| d.name))
}

/// A typed usage (`move [ID] MOVE`) as the slash command of the command it names, with
/// its options; a usage that names no command, as it is.
fn slash_usage(registry: &Registry, usage: &str) -> String {
    let word = usage.split_whitespace().next().unwrap_or("");
    match command_named(registry, word) {
        Some(name) => super::slash::usage(registry, name, None),
        None => usage.to_string(),
    }
}

/// A user key as Discord shows it: a user id as a mention (`<@123>`), anything else (a
/// key Discord never gives) as it is.
fn mention(key: &str) -> String {
    if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) {
        format!("<@{key}>")
    } else {
        key.to_string()
    }
}

/// A list of games (`games`) as sent to Discord: a line each ([`for_discord`]), followed
/// by a link to the game's thread or channel where it has one in a server.
pub fn listing(items: &[crate::service::referee::Listed]) -> String {
    items
        .iter()
        .map(|l| {
            let line = for_discord(&l.line);
            match (&l.server, &l.channel) {
                (Some(server), Some(channel)) => {
                    format!("{line} \u{2014} {}", channel_link(server, channel))
                }
                _ => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The address Discord opens a server's channel or thread at.
pub fn channel_link(server: &str, channel: &str) -> String {
    format!("https://discord.com/channels/{server}/{channel}")
}

/// The longest line typed without the prefix in a game's thread that may be meant for
/// the referee; longer lines are chat (the longest command a player types in a thread,
/// a claim or a draw answer with its game id, is far shorter).
pub const THREAD_INPUT_LIMIT: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::referee::Listed;

    #[test]
    fn a_listing_links_each_game_of_a_server_and_only_those() {
        let item = |game: i64, server: Option<&str>, channel: Option<&str>| Listed {
            game,
            line: format!(
                "#{game} standard vs {}: your turn",
                crate::service::referee::user_mark("223456789012345678")
            ),
            server: server.map(str::to_string),
            channel: channel.map(str::to_string),
        };
        let text = listing(&[
            item(3, Some("100000000000000001"), Some("100000000000000009")),
            item(4, None, None),
        ]);
        assert_eq!(
            text,
            "#3 standard vs <@223456789012345678>: your turn \u{2014} https://discord.com/channels/100000000000000001/100000000000000009\n\
             #4 standard vs <@223456789012345678>: your turn"
        );
    }

    #[test]
    fn marked_commands_become_slash_commands() {
        use crate::service::referee::command_mark;
        let r = Registry::builtin();
        let show = |line: &str| for_discord(&slash_commands(&r, &command_mark(line)));
        for (line, slash) in [
            ("tournament join 3", "`/tournament join id:3`"),
            ("accept 21", "`/chess accept game:21`"),
            ("cancel 21", "`/chess cancel game:21`"),
            ("draw accept", "`/chess draw answer:accept`"),
            ("claim 4 time", "`/chess claim kind:time game:4`"),
            (
                "settings reminders:24,1",
                "`/postal settings reminders:24,1`",
            ),
            ("help", "`/postal help`"),
            ("rules atomic", "`/postal rules variant:atomic`"),
            // A command named alone in a sentence: its slash command, no options listed.
            ("board", "`/chess board`"),
            ("pgn", "`/chess pgn`"),
        ] {
            assert_eq!(show(line), slash, "{line}");
        }
        // A usage as the slash command with its options.
        let usage = crate::variants::api::usage_mark("move [ID] MOVE");
        assert_eq!(
            for_discord(&slash_commands(&r, &usage)),
            "`/chess move move:… [game]`"
        );
        // An example only typing gives: its command's usage.
        assert_eq!(show("skip e8"), "`/chess stay square:… [game]`");
        // Where no slash command gives it, as typed; never the mark's characters.
        assert_eq!(show("nonsense words"), "`nonsense words`");
        assert_eq!(for_discord(&command_mark("draw accept")), "`draw accept`");
    }

    #[test]
    fn split_keeps_short_text_and_cuts_long_text_at_lines() {
        assert_eq!(split("hello", 2000), vec!["hello"]);
        assert!(split("", 2000).is_empty());
        let long = (0..300)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let parts = split(&long, 100);
        assert!(parts.iter().all(|p| p.chars().count() <= 100));
        assert_eq!(parts.join("\n"), long);
        let word = "x".repeat(250);
        let parts = split(&word, 100);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts.concat(), word);
        let accents = "é".repeat(2500);
        assert!(split(&accents, 2000)
            .iter()
            .all(|p| p.chars().count() <= 2000));
    }

    #[test]
    fn marked_users_become_mentions_and_typed_numbers_do_not() {
        use crate::service::referee::{user_at_mark, user_mark};
        let t = format!(
            "game #12: {} challenges {} to standard; clue 123456789012345678",
            user_mark("123456789012345678"),
            user_at_mark("223456789012345678")
        );
        assert_eq!(
            for_discord(&t),
            "game #12: <@123456789012345678> challenges <@223456789012345678> to standard; clue 123456789012345678"
        );
        assert_eq!(
            for_discord("<#123456789012345678>"),
            "<#123456789012345678>"
        );
        assert_eq!(
            for_discord("by 2026-01-04 00:00 UTC"),
            "by 2026-01-04 00:00 UTC"
        );
    }

    #[test]
    fn marked_times_become_discord_timestamps_with_a_countdown() {
        let text = format!(
            "{} (Black) to move, by {}",
            crate::service::referee::user_at_mark("300000000000000002"),
            crate::service::referee::time_mark(1_767_484_800)
        );
        assert_eq!(
            for_discord(&text),
            "<@300000000000000002> (Black) to move, by <t:1767484800:f> (<t:1767484800:R>)"
        );
    }
}
