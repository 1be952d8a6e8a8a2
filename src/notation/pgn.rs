//! PGN export: the seven-tag roster, the variant tags, SAN movetext wrapped at 80 columns.
//!
//! Conventions (see the variant documents in `docs/rules/`):
//! - `[Variant "..."]` for every variant but standard chess: the name Lichess writes where
//!   it plays the variant (`King of the Hill`, `Three-check`), else the command name;
//! - `[SetUp "1"]` and `[FEN "..."]` whenever the game did not start from the standard
//!   array (for a variant Lichess knows, as Lichess does), for every other variant, and
//!   always in a variant whose start is one of many (Chess960);
//! - `[Score "W-B"]` with the points of each side when the variant scores (Chess#);
//! - once over, `[Termination "..."]` with one of the PGN standard's values ([`termination`]:
//!   `normal`, `time forfeit`, `abandoned`) and `[PostalReason "..."]` with Postal's own
//!   reason (`checkmate`, `fast-fifty`, `timeout-vs-insufficient-material`, ...);
//! - the result token `*` while the game goes on;
//! - Double Move Chess: a double move is one turn under one move number, its halves joined
//!   by a comma and followed by a comment, `9. Nf3,Ng5 {double move, 3 tokens left} Nc6`.

use super::fen::{board_fen, to_fen};
use super::san::san;
use crate::rules::{Color, Game, Outcome, Position, Turn, Variant};

/// The longest movetext line written.
const LINE_WIDTH: usize = 80;

/// The descriptive tags of a game record. Unknown values are `?` (the date `????.??.??`),
/// as the PGN standard asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTags {
    /// `Event`: the name of the tournament or match.
    pub event: String,
    /// `Site`: where the game was played (for Postal, the server and channel).
    pub site: String,
    /// `Date`: the start date as `YYYY.MM.DD`, with `?` for unknown digits.
    pub date: String,
    /// `Round`: the round within the event.
    pub round: String,
    /// `White`: the player of the white pieces.
    pub white: String,
    /// `Black`: the player of the black pieces.
    pub black: String,
    /// `Variant`, when the game's variant is not the engine's own (a variant played on
    /// another's board, such as Split-Brain Chess on Los Alamos); `None` writes the
    /// engine's variant's PGN name ([`VariantConfig::pgn_name`](crate::rules::VariantConfig),
    /// else its id), and nothing for standard chess.
    pub variant: Option<String>,
    /// More tags (`TimeControl`, ...), written in their place in [`TAG_ORDER`] where they
    /// have one (`Termination`) and otherwise after it, in this order ([`tag_section`]).
    /// A name that is not a PGN symbol (letters, digits and `_`, starting with a letter or
    /// digit) is left out, and so is a tag written already.
    pub extra: Vec<(String, String)>,
}

impl Default for PgnTags {
    fn default() -> PgnTags {
        PgnTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            variant: None,
            extra: Vec::new(),
        }
    }
}

/// The PGN string value of `value`: quotes and backslashes escaped, line breaks and other
/// control characters turned into spaces.
fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The order of the tags every record is written in ([`tag_section`]): the Seven Tag
/// Roster, then the tags that say what was played and how it ended. Any other tag (the
/// referee's `WhiteUserId`, `BlackUserId`, `UTCDate`, `UTCTime`, a variant's own) follows
/// them, in the order it was given.
pub const TAG_ORDER: [&str; 16] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "ECO",
    "Opening",
    "Grade",
    "Score",
    "Termination",
    "PostalReason",
];

/// `tags` as a record's tag section, in the one order of every record whatever its game
/// and however it ended: those of [`TAG_ORDER`] in that order, then the others in the
/// order given; each name once (its first value), a name that is not a PGN symbol
/// (letters, digits and `_`, starting with a letter or digit) left out, and a blank line
/// at the end.
pub fn tag_section(tags: &[(String, String)]) -> String {
    let rank = |name: &str| {
        TAG_ORDER
            .iter()
            .position(|t| *t == name)
            .unwrap_or(TAG_ORDER.len())
    };
    let mut ordered: Vec<&(String, String)> = tags.iter().filter(|(k, _)| is_symbol(k)).collect();
    // Stable: tags of one rank (the others) keep the order they were given in.
    ordered.sort_by_key(|(k, _)| rank(k));
    let mut out = String::new();
    let mut written: Vec<&str> = Vec::with_capacity(ordered.len());
    for (k, v) in ordered {
        if !written.contains(&k.as_str()) {
            push_tag(&mut out, k, v);
            written.push(k);
        }
    }
    out.push('\n');
    out
}

/// The tag section of a variant's record that writes its own movetext ([`tag_section`]):
/// the referee's `tags` with `Result`, `Variant` (unless given), `SetUp` and `FEN` for a
/// game from a position, and for a game over by `reason` the standard `Termination` with
/// Postal's reason in `PostalReason` (unless the referee gave them).
pub fn variant_header(
    tags: &[(String, String)],
    variant: &str,
    fen: Option<&str>,
    result: &str,
    reason: Option<&str>,
) -> String {
    let mut all = tags.to_vec();
    let mut add = |name: &str, value: &str| all.push((name.into(), value.into()));
    add("Result", result);
    add("Variant", variant);
    if let Some(f) = fen {
        add("SetUp", "1");
        add("FEN", f);
    }
    if let Some(r) = reason {
        add("Termination", termination(r));
        add("PostalReason", r);
    }
    // The referee's own values, given first, are the ones kept.
    tag_section(&all)
}

/// The PGN standard's `Termination` value for Postal's end reason `reason` (the name an
/// outcome carries): `time forfeit` when a player's time ran out (whatever the result),
/// `abandoned` for a game called off (`aborted`), and `normal` for every ending the rules
/// make (checkmate, resignation, agreement, a claim, a variant's own scoring end).
pub fn termination(reason: &str) -> &'static str {
    match reason {
        "timeout" | "timeout-vs-insufficient-material" => "time forfeit",
        "aborted" => "abandoned",
        "adjudicated" => "adjudication",
        _ => "normal",
    }
}

fn is_symbol(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push(' ');
    out.push_str(&quote(value));
    out.push_str("]\n");
}

/// The game as PGN: tags, a blank line, the movetext in SAN ending with the result, and a
/// final newline.
pub fn write_pgn(game: &Game, tags: &PgnTags) -> String {
    write_pgn_ending(game, game.outcome(), tags)
}

/// Like [`write_pgn`], with the ending given by the caller: a referee that ends games by
/// resignation, agreement or time keeps that ending itself, outside the engine's game.
pub fn write_pgn_ending(game: &Game, outcome: Option<Outcome>, tags: &PgnTags) -> String {
    write_pgn_annotated(game, outcome, tags, &[], None)
}

/// Like [`write_pgn_ending`], with comments: `after` gives a comment to write after the
/// turn of each index (`{clue “drink”, word DRAT}`), `closing` one before the result.
/// A comment's braces become parentheses, so it cannot end early.
pub fn write_pgn_annotated(
    game: &Game,
    outcome: Option<Outcome>,
    tags: &PgnTags,
    after: &[(usize, String)],
    closing: Option<&str>,
) -> String {
    let result = outcome.map_or("*", |o| o.result.pgn());
    write_pgn_with_result(game, result, outcome, tags, after, closing)
}

/// Like [`write_pgn_annotated`], with the `Result` tag and the movetext's last token
/// given (`1/2-1/2` for a finished game of partners, which no side wins alone).
pub fn write_pgn_with_result(
    game: &Game,
    result: &str,
    outcome: Option<Outcome>,
    tags: &PgnTags,
    after: &[(usize, String)],
    closing: Option<&str>,
) -> String {
    write_pgn_marked(game, result, outcome, tags, after, closing, &[])
}

/// Like [`write_pgn_annotated`], with each turn's move assessment (`?!`, `?`, `??`,
/// written after its SAN as Lichess does) given by turn index in `glyphs`: an engine's
/// analysis, its evaluations in `after` as `[%eval 0.35]` comments.
pub fn write_pgn_analysed(
    game: &Game,
    outcome: Option<Outcome>,
    tags: &PgnTags,
    after: &[(usize, String)],
    glyphs: &[(usize, &str)],
) -> String {
    let result = outcome.map_or("*", |o| o.result.pgn());
    write_pgn_marked(game, result, outcome, tags, after, None, glyphs)
}

fn write_pgn_marked(
    game: &Game,
    result: &str,
    outcome: Option<Outcome>,
    tags: &PgnTags,
    after: &[(usize, String)],
    closing: Option<&str>,
    glyphs: &[(usize, &str)],
) -> String {
    let variant = game.variant();
    let mut all: Vec<(String, String)> = [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
        ("White", &tags.white),
        ("Black", &tags.black),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value.clone()))
    .collect();
    let mut add = |name: &str, value: &str| all.push((name.into(), value.into()));
    add("Result", result);
    match &tags.variant {
        Some(name) => add("Variant", name),
        None if variant != Variant::STANDARD => add(
            "Variant",
            variant.config().pgn_name.unwrap_or(variant.name()),
        ),
        None => {}
    }
    // Lichess's rule for the variants it knows: no FEN for a game from the standard array
    // (the variant's own start with the standard pieces: King of the Hill, Three-check,
    // Crazyhouse, whose empty pockets are no part of the array). The project's own
    // variants always say where they start.
    let start = game.start();
    let known = variant == Variant::STANDARD || variant.config().pgn_name.is_some();
    let array = |p: &Position| board_fen(p).split('[').next().map(str::to_owned);
    let standard_array = known
        && *start == Position::start(variant)
        && array(start) == array(&Position::start(Variant::STANDARD));
    if !standard_array || variant.config().start_in_pgn {
        add("SetUp", "1");
        add("FEN", &to_fen(start));
    }
    // Lichess's `ECO` and `Opening` tags, for the variants whose openings are chess's.
    if let Some(opening) = super::openings::classify(game) {
        add("ECO", opening.eco);
        add("Opening", opening.name);
    }
    if let Some(o) = outcome {
        if let Some([white, black]) = o.score {
            add("Score", &format!("{white}-{black}"));
        }
        let reason = o.reason.name();
        add("Termination", termination(&reason));
        add("PostalReason", &reason);
    }
    all.extend(tags.extra.iter().cloned());
    let mut out = tag_section(&all);
    out.push_str(&movetext(game, result, after, closing, glyphs));
    out.push('\n');
    out
}

/// `text` as a PGN comment, `{text}`, its own braces turned into parentheses.
pub fn comment(text: &str) -> String {
    let inner: String = text
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    format!("{{{inner}}}")
}

/// The moves of `game` in SAN with move numbers as separate tokens, numbered from the
/// game's starting position: `1.`, `e4`, `e5`, `2.`, `Nf3`; a game whose first move is
/// Black's starts `40...`, `h3`. A double move (Double Move Chess) is one turn: its two
/// halves joined by a comma and followed by a comment with the tokens left,
/// `Nf3,Ng5`, `{double move, 3 tokens left}`.
pub fn numbered_moves(game: &Game) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::with_capacity(game.moves().len() * 3 / 2 + 1);
    for (i, (pos, turn)) in game.turns().into_iter().enumerate() {
        push_numbered(&mut tokens, i == 0, pos, turn, turn_san(pos, turn));
    }
    tokens
}

/// Adds one turn to a numbered record ([`numbered_moves`]): its number where one is
/// written, its SAN (`san`, as [`turn_san`] writes it) and a double move's comment.
/// `first`: whether it is the game's first turn (a first move by Black is numbered
/// `40...`). A record kept with a game is extended by this as each turn is played.
pub fn push_numbered(
    tokens: &mut Vec<String>,
    first: bool,
    pos: &Position,
    turn: Turn,
    san: String,
) {
    match pos.turn() {
        Color::White => tokens.push(format!("{}.", pos.fullmoves())),
        Color::Black if first => tokens.push(format!("{}...", pos.fullmoves())),
        Color::Black => {}
    }
    tokens.push(san);
    if let Turn::Double(..) = turn {
        let left = pos.tokens()[pos.turn().index()].saturating_sub(1);
        tokens.push(format!(
            "{{double move, {left} token{} left}}",
            if left == 1 { "" } else { "s" }
        ));
    }
}

/// The turns' SAN in a numbered record written as [`numbered_moves`] joined by spaces:
/// the tokens that are neither move numbers nor comments.
pub fn sans_of_numbered(numbered: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = numbered.trim_start();
    while !rest.is_empty() {
        if rest.starts_with('{') {
            // A comment runs to its closing brace, spaces and all.
            rest = rest.find('}').map_or("", |end| &rest[end + 1..]);
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            let token = &rest[..end];
            if !token.ends_with('.') {
                out.push(token.to_string());
            }
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    out
}

/// A turn in SAN: the move, or a double move's halves joined by a comma (`Nf3,Ng5`), each
/// written in the position it is played from.
pub fn turn_san(pos: &Position, turn: Turn) -> String {
    match turn {
        Turn::Single(m) => san(pos, m),
        Turn::Double(a, b) => format!("{},{}", san(pos, a), san(&pos.first_half(a), b)),
    }
}

/// The SAN of every turn of `game`, as [`turn_san`] writes it.
pub fn turn_sans(game: &Game) -> Vec<String> {
    game.turns()
        .into_iter()
        .map(|(pos, turn)| turn_san(pos, turn))
        .collect()
}

/// `1. e4 e5 2. Nf3 ... result`, wrapped so no line is longer than 80 characters, with
/// the comments after the turns `after` names and `closing` before the result.
fn movetext(
    game: &Game,
    result: &str,
    after: &[(usize, String)],
    closing: Option<&str>,
    glyphs: &[(usize, &str)],
) -> String {
    let mut tokens = Vec::new();
    let mut turn = 0;
    for mut t in numbered_moves(game) {
        let is_move = !t.ends_with('.') && !t.starts_with('{');
        if is_move {
            if let Some((_, glyph)) = glyphs.iter().find(|(i, _)| *i == turn) {
                t.push_str(glyph);
            }
        }
        tokens.push(t);
        if is_move {
            for (_, text) in after.iter().filter(|(i, _)| *i == turn) {
                tokens.extend(
                    comment(text)
                        .split(' ')
                        .filter(|w| !w.is_empty())
                        .map(str::to_string),
                );
            }
            turn += 1;
        }
    }
    if let Some(text) = closing {
        tokens.extend(
            comment(text)
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(str::to_string),
        );
    }
    tokens.push(result.to_string());
    wrap_movetext(tokens)
}

/// Movetext tokens joined by spaces and wrapped so that no line is longer than 80
/// characters (a token is never split): for any game's record, a chess game's or a
/// variant's own.
pub fn wrap_movetext(tokens: impl IntoIterator<Item = String>) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > LINE_WIDTH {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(&t);
        line_len += t.len();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;
    use crate::notation::parse::parse_move;

    fn play(game: &mut Game, moves: &[&str]) {
        for text in moves {
            let m = parse_move(game.position(), text).unwrap();
            game.play(m).unwrap();
        }
    }

    #[test]
    fn fools_mate_is_written_exactly() {
        let mut game = Game::new(Variant::STANDARD);
        play(&mut game, &["f3", "e5", "g4", "Qh4"]);
        let tags = PgnTags {
            event: "Postal test".into(),
            site: "#games".into(),
            date: "2026.11.22".into(),
            round: "1".into(),
            white: "alice".into(),
            black: "bob".into(),
            variant: None,
            extra: vec![("TimeControl".into(), "-".into())],
        };
        assert_eq!(
            write_pgn(&game, &tags),
            "[Event \"Postal test\"]\n\
             [Site \"#games\"]\n\
             [Date \"2026.11.22\"]\n\
             [Round \"1\"]\n\
             [White \"alice\"]\n\
             [Black \"bob\"]\n\
             [Result \"0-1\"]\n\
             [ECO \"A00\"]\n\
             [Opening \"Barnes Opening: Fool's Mate\"]\n\
             [Termination \"normal\"]\n\
             [PostalReason \"checkmate\"]\n\
             [TimeControl \"-\"]\n\
             \n\
             1. f3 e5 2. g4 Qh4# 0-1\n"
        );
    }

    #[test]
    fn unfinished_game_ends_with_an_asterisk_and_defaults_are_question_marks() {
        let mut game = Game::new(Variant::STANDARD);
        play(&mut game, &["e4"]);
        assert_eq!(
            write_pgn(&game, &PgnTags::default()),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\
             [ECO \"B00\"]\n[Opening \"King's Pawn Game\"]\n\n1. e4 *\n"
        );
    }

    #[test]
    fn chess_sharp_writes_variant_setup_fen_and_score() {
        let mut game = Game::new(Variant::CHESS_SHARP);
        play(&mut game, &["K@e1", "N@g8"]);
        game.resign(Color::White).unwrap();
        let pgn = write_pgn(&game, &PgnTags::default());
        let expected_tags = "[Result \"0-1\"]\n\
             [Variant \"chess-sharp\"]\n\
             [SetUp \"1\"]\n\
             [FEN \"8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1\"]\n\
             [Score \"0-10\"]\n\
             [Termination \"normal\"]\n\
             [PostalReason \"resignation\"]\n\
             \n\
             1. K@e1 N@g8 0-1\n";
        assert!(pgn.ends_with(expected_tags), "{pgn}");
    }

    #[test]
    fn black_to_move_start_uses_the_ellipsis_and_its_move_number() {
        let start = parse_fen(
            Variant::STANDARD,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7",
        )
        .unwrap();
        let mut game = Game::from_position(start);
        play(&mut game, &["e5", "Nf3", "Nc6"]);
        let pgn = write_pgn(&game, &PgnTags::default());
        assert!(pgn.contains(
            "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7\"]\n"
        ));
        assert!(pgn.ends_with("\n\n7... e5 8. Nf3 Nc6 *\n"), "{pgn}");
    }

    #[test]
    fn los_alamos_names_its_variant() {
        let mut game = Game::new(Variant::LOS_ALAMOS);
        play(&mut game, &["d3"]);
        let pgn = write_pgn(&game, &PgnTags::default());
        assert!(pgn.contains(
            "[Variant \"los-alamos\"]\n[SetUp \"1\"]\n[FEN \"rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\"]\n"
        ));
        assert!(pgn.ends_with("\n\n1. d3 *\n"));
    }

    #[test]
    fn long_games_wrap_at_eighty_columns() {
        let mut game = Game::new(Variant::STANDARD);
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        for i in 0..16 {
            play(&mut game, &[shuffle[i % 4]]);
        }
        let pgn = write_pgn(&game, &PgnTags::default());
        let movetext = pgn.split("\n\n").nth(1).unwrap();
        assert!(movetext.lines().count() > 1);
        for line in movetext.lines() {
            assert!(line.len() <= 80, "{line}");
            assert!(!line.starts_with(' ') && !line.ends_with(' '));
        }
        let joined: Vec<&str> = movetext.split_whitespace().collect();
        assert_eq!(joined[..3], ["1.", "Nf3", "Nf6"]);
        // The start position's fifth occurrence ends the game.
        assert_eq!(joined.last(), Some(&"1/2-1/2"));
        assert!(pgn.contains("[Termination \"normal\"]\n[PostalReason \"fivefold-repetition\"]\n"));
    }

    #[test]
    fn a_variants_header_keeps_the_roster_order_and_says_how_the_game_ended() {
        let tags: Vec<(String, String)> = [
            ("Event", "Postal game #3"),
            ("Site", "Postal"),
            ("Date", "2026.11.24"),
            ("Round", "-"),
            ("White", "al \"the\" ice"),
            ("Black", "bob"),
            ("UTCDate", "2026.11.24"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let over = variant_header(
            &tags,
            "Gravity Chess",
            Some("8/8 w"),
            "1-0",
            Some("resignation"),
        );
        let names: Vec<&str> = over
            .lines()
            .filter_map(|l| l.strip_prefix('['))
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "Variant",
                "SetUp",
                "FEN",
                "Termination",
                "PostalReason",
                "UTCDate",
            ]
        );
        assert!(over.contains("[White \"al \\\"the\\\" ice\"]"), "{over}");
        assert!(over.contains("[Termination \"normal\"]\n[PostalReason \"resignation\"]"));
        assert!(over.ends_with("\n\n"));
        let live = variant_header(&tags, "Gravity Chess", None, "*", None);
        assert!(live.contains("[Result \"*\"]") && !live.contains("Termination"));
        assert!(!live.contains("FEN"));
    }

    /// The tag names of a record, in order.
    fn tag_names(pgn: &str) -> Vec<&str> {
        pgn.lines()
            .filter_map(|l| l.strip_prefix('['))
            .map(|l| l.split(' ').next().unwrap())
            .collect()
    }

    #[test]
    fn an_aborted_and_a_finished_game_write_their_tags_in_one_order() {
        let referee = |aborted: bool| -> Vec<(String, String)> {
            let mut t: Vec<(String, String)> = [
                ("Event", "Postal game #4"),
                ("Site", "Postal"),
                ("Date", "2026.01.02"),
                ("Round", "-"),
                ("White", "alice"),
                ("Black", "erin"),
                ("UTCDate", "2026.01.02"),
                ("UTCTime", "00:00:00"),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
            if aborted {
                t.push(("Termination".into(), "abandoned".into()));
                t.push(("PostalReason".into(), "aborted".into()));
            }
            t
        };
        let expected = [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Termination",
            "PostalReason",
            "UTCDate",
            "UTCTime",
        ];
        // Standard chess: the engine's ending, or the referee's abort among its tags.
        let chess_tags = |aborted: bool| {
            let given = referee(aborted);
            let value = |name: &str| given.iter().find(|(k, _)| k == name).unwrap().1.clone();
            PgnTags {
                event: value("Event"),
                site: value("Site"),
                date: value("Date"),
                round: value("Round"),
                white: value("White"),
                black: value("Black"),
                variant: None,
                extra: given[6..].to_vec(),
            }
        };
        let mut game = Game::new(Variant::STANDARD);
        play(&mut game, &["f3", "e5", "g4", "Qh4#"]);
        let finished = write_pgn(&game, &chess_tags(false));
        let aborted = write_pgn_ending(&Game::new(Variant::STANDARD), None, &chess_tags(true));
        // The finished game is named (Fool's mate's line); the opening's tags stand after
        // the result, before how it ended.
        let mut named = expected.to_vec();
        named.splice(7..7, ["ECO", "Opening"]);
        assert_eq!(tag_names(&finished), named, "{finished}");
        assert_eq!(tag_names(&aborted), expected, "{aborted}");
        // A variant that writes its own movetext: the same order, Variant in its place.
        let mut with_variant = expected.to_vec();
        with_variant.insert(7, "Variant");
        let over = variant_header(
            &referee(false),
            "Gravity Chess",
            None,
            "1-0",
            Some("resignation"),
        );
        let off = variant_header(&referee(true), "Gravity Chess", None, "*", Some("aborted"));
        assert_eq!(tag_names(&over), with_variant, "{over}");
        assert_eq!(tag_names(&off), with_variant, "{off}");
        // Each tag once: the referee's abort and the variant's ending are one Termination.
        assert_eq!(off.matches("[Termination ").count(), 1, "{off}");
    }

    #[test]
    fn tag_section_keeps_the_roster_first_and_the_other_tags_as_given() {
        let tags: Vec<(String, String)> = [
            ("UTCTime", "1"),
            ("Termination", "normal"),
            ("Zebra", "2"),
            ("Black", "b"),
            ("Event", "e"),
            ("Annotator", "3"),
            ("Bad Name", "x"),
            ("Event", "second"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(
            tag_section(&tags),
            "[Event \"e\"]\n[Black \"b\"]\n[Termination \"normal\"]\n[UTCTime \"1\"]\n[Zebra \"2\"]\n[Annotator \"3\"]\n\n"
        );
    }

    #[test]
    fn termination_values_are_the_pgn_standards() {
        assert_eq!(termination("checkmate"), "normal");
        assert_eq!(termination("fast-fifty"), "normal");
        assert_eq!(termination("timeout"), "time forfeit");
        assert_eq!(
            termination("timeout-vs-insufficient-material"),
            "time forfeit"
        );
        assert_eq!(termination("aborted"), "abandoned");
    }

    #[test]
    fn tag_values_are_escaped() {
        let game = Game::new(Variant::STANDARD);
        let tags = PgnTags {
            white: "a \"quoted\\\" name\nwith a newline".into(),
            extra: vec![
                ("Bad Name".into(), "x".into()),
                ("Annotator".into(), "p".into()),
            ],
            ..PgnTags::default()
        };
        let pgn = write_pgn(&game, &tags);
        assert!(pgn.contains("[White \"a \\\"quoted\\\\\\\" name with a newline\"]\n"));
        assert!(!pgn.contains("Bad Name"));
        assert!(pgn.contains("[Annotator \"p\"]\n"));
        assert!(pgn.ends_with("\n\n*\n"));
    }
}
