//! How a chess game is written for people: the text diagram, a turn's announcement, the
//! PGN tags, and the double-move forms players type.

use crate::notation::san;
use crate::notation::PgnTags;
use crate::rules::{ClaimError, DoubleMoveError, MoveKind, Position, Turn};

/// The squares of a text diagram of a `width` x `height` board whose pieces `piece_at`
/// gives: ranks from the top, each after its number, `.` for an empty square, the files'
/// letters below.
pub fn grid(
    width: u8,
    height: u8,
    piece_at: impl Fn(crate::rules::Square) -> Option<crate::rules::Piece>,
) -> String {
    // Written as bytes into room made once (every character is ASCII), then taken as a
    // string: a diagram is drawn after every move, and a character pushed at a time onto
    // a string was half of its cost.
    let (w, h) = (usize::from(width), usize::from(height));
    let mut out: Vec<u8> = Vec::with_capacity((w + 3) * (h + 1));
    for rank in (0..height).rev() {
        out.push(b'1' + rank);
        out.push(b' ');
        for file in 0..width {
            let sq = crate::rules::Square::new(file, rank);
            out.push(piece_at(sq).map_or(b'.', |p| p.fen_char() as u8));
        }
        out.push(b'\n');
    }
    out.extend_from_slice(b"  ");
    out.extend((0..width).map(|file| b'a' + file));
    String::from_utf8(out).unwrap_or_default()
}

/// A text diagram: ranks from the top, `.` for an empty square, reserves below, then
/// the double-move tokens left and the checks given where the variant has them.
pub fn diagram(pos: &Position) -> String {
    let cfg = pos.config();
    let mut out = grid(cfg.width, cfg.height, |sq| pos.piece_at(sq));
    if cfg.drops.is_some() {
        let fen = crate::notation::fen::board_fen(pos);
        if let Some(i) = fen.find('[') {
            out.push_str("  reserve ");
            out.push_str(&fen[i..]);
        }
    }
    if let Some(dm) = cfg.double_move {
        let [w, b] = pos.tokens();
        out.push_str(&format!(
            "\ndouble-move tokens left: White {w} of {0}, Black {b} of {0}",
            dm.tokens
        ));
    }
    if let Some(limit) = cfg.endings.check_limit {
        let [w, b] = pos.checks_given();
        out.push_str(&format!(
            "\nchecks given: White {w} of {limit}, Black {b} of {limit}"
        ));
    }
    out
}

/// Why a double move starting with a move of `pos` was refused, its move in SAN (the
/// engine names moves in UCI).
pub(super) fn double_move_refusal(pos: &Position, e: &DoubleMoveError) -> String {
    match e {
        DoubleMoveError::FirstCaptures(m) => format!(
            "the first move of a double move may not capture ({} captures)",
            san(pos, *m)
        ),
        DoubleMoveError::FirstChecks(m) => format!(
            "the first move of a double move may not give check ({} gives check)",
            san(pos, *m)
        ),
        other => other.to_string(),
    }
}

/// Why a claim in `pos` was refused, its move in SAN (the engine names moves in UCI).
pub(super) fn claim_refusal(pos: &Position, e: &ClaimError) -> String {
    match e {
        ClaimError::KingCapturable(m) => {
            format!("you can capture the king with {}", san(pos, *m))
        }
        ClaimError::SafeMoveExists(m) => {
            format!("{} is a move that leaves your king safe", san(pos, *m))
        }
        other => other.to_string(),
    }
}

/// How a turn played from `pos` is announced, given its SAN (`text`, as [`turn_san`]
/// writes it): the SAN, a double move with the tokens left, and rule 5's capture with what
/// it takes.
///
/// [`turn_san`]: crate::notation::pgn::turn_san
pub(super) fn describe_turn(pos: &Position, turn: Turn, text: &str) -> String {
    let text = text.to_string();
    match turn {
        Turn::Double(..) => {
            let left = pos.tokens()[pos.turn().index()].saturating_sub(1);
            format!(
                "the double move {} ({left} token{} left)",
                text.replace(',', ", "),
                if left == 1 { "" } else { "s" }
            )
        }
        Turn::Single(m) if m.kind == MoveKind::CaptureTwiceMoved => {
            let at = pos.twice_moved().map(|(_, at)| at.to_string());
            format!(
                "{text}, taking the twice-moved {} on {} en passant",
                m.capture.map(|r| r.name()).unwrap_or("piece"),
                at.unwrap_or_default()
            )
        }
        Turn::Single(_) => text,
    }
}

/// The PGN tags of the values the service knows (`Event`, `White`, `Variant`, ...); a name
/// that is not one of the roster's is an extra tag.
pub fn pgn_tags(tags: &[(String, String)]) -> PgnTags {
    let mut t = PgnTags::default();
    for (k, v) in tags {
        let field = match k.as_str() {
            "Event" => &mut t.event,
            "Site" => &mut t.site,
            "Date" => &mut t.date,
            "Round" => &mut t.round,
            "White" => &mut t.white,
            "Black" => &mut t.black,
            "Variant" => {
                t.variant = Some(v.clone());
                continue;
            }
            _ => {
                t.extra.push((k.clone(), v.clone()));
                continue;
            }
        };
        *field = v.clone();
    }
    t
}

/// Double Move Chess: reads `FIRST, SECOND`, `FIRST then SECOND` or `FIRST and SECOND`
/// (any case) as the two halves of a double move.
pub fn split_double(text: &str) -> Option<(&str, &str)> {
    if let Some((a, b)) = text.split_once(',') {
        return Some((a.trim(), b.trim()));
    }
    let lower = text.to_ascii_lowercase();
    for word in [" then ", " and "] {
        if let Some(i) = lower.find(word) {
            return Some((text[..i].trim(), text[i + word.len()..].trim()));
        }
    }
    None
}
