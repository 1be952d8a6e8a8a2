//! Opening names: the ECO code and name of a game's opening, from Lichess's
//! public-domain table (lichess-org/chess-openings, CC0; `openings.tsv` beside this file,
//! the five volumes joined with their move numbers left out).
//!
//! A game is classified as Lichess classifies it (scalachess's `OpeningDb.search`): its
//! positions are looked up from the start, at most [`SEARCH_PLIES`] plies deep, while at
//! least [`SEARCH_MIN_PIECES`] pieces stand on the board and before any drop; the deepest
//! position the table names gives the opening. A position is compared by its board (a
//! Crazyhouse pocket left out), the side to move, the castling rights and a legal
//! en-passant square, so a transposition into a named line is named too. Only games
//! that begin at the standard start of a variant whose config says its openings are
//! chess's ([`VariantConfig::opening_names`](crate::rules::VariantConfig)) are
//! classified.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::notation::parse_move;
use crate::rules::fen::to_fen;
use crate::rules::{Game, Position, Variant};

/// The table: `eco<TAB>name<TAB>moves` per line, `#` lines are comments.
const TABLE: &str = include_str!("openings.tsv");

/// The deepest ply looked at (scalachess `OpeningDb.SEARCH_MAX_PLIES`).
pub const SEARCH_PLIES: usize = 40;

/// The fewest pieces on the board for a position to be looked up (scalachess
/// `OpeningDb.SEARCH_MIN_PIECES`): past heavy exchanges a game has left its opening.
pub const SEARCH_MIN_PIECES: u32 = 20;

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its code in the Encyclopaedia of Chess Openings (`C60`).
    pub eco: &'static str,
    /// Its name, family first (`Ruy Lopez: Morphy Defense`).
    pub name: &'static str,
}

/// What a position is compared by: the FEN's board (without a pocket), side to move,
/// castling rights and legal en-passant square.
fn key(pos: &Position) -> String {
    let fen = to_fen(pos);
    let mut fields = fen.split(' ');
    let board = fields.next().unwrap_or_default();
    let board = board.split('[').next().unwrap_or_default();
    let rest: Vec<&str> = fields.take(3).collect();
    format!("{board} {}", rest.join(" "))
}

/// The table read once: each named line's last position to its opening (where two lines
/// reach one position the later line's name is kept, as scalachess keeps it), and every
/// position on a line (the book) to the opening of the deepest named position before or
/// at it on the first line through it.
struct Tables {
    named: HashMap<String, Opening>,
    book: HashMap<String, Opening>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let lines: Vec<(Opening, Vec<String>)> = TABLE
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|line| {
                let mut fields = line.split('\t');
                let (eco, name, moves) = (fields.next()?, fields.next()?, fields.next()?);
                Some((Opening { eco, name }, line_keys(moves)?))
            })
            .collect();
        let mut named = HashMap::with_capacity(4096);
        for (opening, keys) in &lines {
            if let Some(last) = keys.last() {
                named.insert(last.clone(), *opening);
            }
        }
        let mut book = HashMap::with_capacity(16384);
        for (_, keys) in &lines {
            let mut carried = None;
            for k in keys {
                carried = named.get(k).copied().or(carried);
                if let Some(opening) = carried {
                    book.entry(k.clone()).or_insert(opening);
                }
            }
        }
        Tables { named, book }
    })
}

/// The keys of the positions after each of the SAN moves `moves` from the standard start,
/// `None` if one of them is not legal there (a table line that does not play is left out,
/// and the unit test below fails on it).
fn line_keys(moves: &str) -> Option<Vec<String>> {
    let mut game = Game::new(Variant::STANDARD);
    let mut keys = Vec::new();
    for san in moves.split_whitespace() {
        let m = parse_move(game.position(), san).ok()?;
        game.play(m).ok()?;
        keys.push(key(game.position()));
    }
    Some(keys)
}

/// Whether a game of `start`'s variant from `start` is named by the table.
fn classifiable(start: &Position) -> bool {
    let variant = start.variant();
    variant.config().opening_names && *start == Position::start(variant)
}

/// The opening a game left with its last move, from `before` (after `plies_before`
/// plies) to `after`: `Some` when `before` was on a line of the table, within the depth
/// and material Lichess searches, and `after` is on none; the name is that of the deepest
/// named position on the first line through `before`. A game that later transposes back
/// into a named line is named by it in its record ([`classify`]), though its thread was
/// told the opening it left.
pub fn left_book(
    start: &Position,
    before: &Position,
    plies_before: usize,
    after: &Position,
) -> Option<Opening> {
    if !classifiable(start)
        || plies_before >= SEARCH_PLIES
        || before.occupied().count() < SEARCH_MIN_PIECES
    {
        return None;
    }
    let book = &tables().book;
    let opening = book.get(&key(before))?;
    (!book.contains_key(&key(after))).then_some(*opening)
}

/// The opening of `game`, if it began at its variant's standard start, its variant's
/// openings are chess's, and one of its first positions is named.
pub fn classify(game: &Game) -> Option<Opening> {
    if !game.is_complete() || !classifiable(game.start()) {
        return None;
    }
    let table = &tables().named;
    let mut found = None;
    for (ply, pos) in game.positions().iter().enumerate().take(SEARCH_PLIES + 1) {
        if pos.occupied().count() < SEARCH_MIN_PIECES {
            break;
        }
        if ply > 0 {
            if let Some(opening) = table.get(&key(pos)) {
                found = Some(*opening);
            }
        }
        if game.moves().get(ply).is_some_and(|m| m.is_drop()) {
            break;
        }
    }
    found
}

/// How many positions the table names (for the documentation and its test).
pub fn table_size() -> usize {
    tables().named.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_of(variant: Variant, moves: &str) -> Game {
        let mut game = Game::new(variant);
        for san in moves.split_whitespace() {
            let m = parse_move(game.position(), san).expect(san);
            game.play(m).expect(san);
        }
        game
    }

    #[test]
    fn every_line_of_the_table_plays_from_the_start() {
        let bad: Vec<&str> = TABLE
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter(|l| line_keys(l.split('\t').nth(2).unwrap_or("")).is_none())
            .collect();
        assert!(bad.is_empty(), "lines that do not play: {bad:?}");
        assert!(table_size() > 3000, "{} positions", table_size());
    }

    #[test]
    fn the_deepest_named_position_names_the_game() {
        let game = game_of(Variant::STANDARD, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7");
        let opening = classify(&game).expect("named");
        assert_eq!(opening.eco, "C84");
        assert!(opening.name.starts_with("Ruy Lopez"), "{}", opening.name);
        // Past the book the name stays that of the last named position.
        let later = game_of(
            Variant::STANDARD,
            "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 h3 h6 a3 a5",
        );
        assert_eq!(classify(&later).map(|o| o.eco), Some("C84"));
    }

    #[test]
    fn a_transposition_is_named_by_its_position() {
        // The Italian Game's position, reached with the knight first.
        let direct = classify(&game_of(Variant::STANDARD, "e4 e5 Nf3 Nc6 Bc4")).unwrap();
        let other = classify(&game_of(Variant::STANDARD, "Nf3 Nc6 e4 e5 Bc4")).unwrap();
        assert_eq!(direct, other);
        assert!(direct.name.starts_with("Italian Game"), "{}", direct.name);
    }

    #[test]
    fn no_name_before_a_move_or_for_a_variant_whose_openings_differ() {
        assert_eq!(classify(&Game::new(Variant::STANDARD)), None);
        // Double Move Chess starts from the standard array, but its tokens make its
        // openings its own.
        let double = game_of(Variant::DOUBLE_MOVE, "e4 e5 Nf3 Nc6 Bc4");
        assert_eq!(classify(&double), None);
    }

    #[test]
    fn leaving_the_book_names_the_opening_left() {
        let game = game_of(Variant::STANDARD, "e4 e5 Nf3 Nc6 Bc4 Bc5");
        let start = game.start();
        let before = game.position();
        // A king's walk is in no line of the Giuoco Piano.
        let mut next = game.clone();
        next.play(parse_move(before, "Kf1").expect("Kf1"))
            .expect("legal");
        let left = left_book(start, before, 6, next.position()).expect("left the book");
        assert_eq!(left.eco, "C50");
        assert!(left.name.starts_with("Italian Game"), "{}", left.name);
        // A move along a book line does not leave it.
        let mut on = game.clone();
        on.play(parse_move(before, "c3").expect("c3"))
            .expect("legal");
        assert_eq!(left_book(start, before, 6, on.position()), None);
        // Nor does a move past the plies Lichess searches.
        assert_eq!(
            left_book(start, before, SEARCH_PLIES, next.position()),
            None
        );
    }
}
