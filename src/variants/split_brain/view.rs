//! What a Split-Brain game asks and shows: the prompts of whom it awaits, the private
//! instructions of a picking partner, and each viewer's projection. A pick leaves the
//! game only here, in its own seat's projection.

use super::{color_seat, square_list, team_of, Phase, SplitBrain};
use crate::render::{BoardCorner, Disc, Overlay};
use crate::variants::api::{
    command_mark, command_mark_str, GameRules, Projection, Prompt, PromptKind, Seat, Viewer,
};

/// A partner's secret pick: the chooser's piece or the mover's target.
pub const PICK: PromptKind = PromptKind("pick");
/// The opposing chooser's decision on an unplayable pair.
pub const DECIDE: PromptKind = PromptKind("decide");
/// The choice among equally close options.
pub const CHOOSE: PromptKind = PromptKind("choose");

/// The chooser's prompt: a piece, privately.
pub fn pick_piece_prompt() -> Prompt {
    Prompt::secret(PICK, "to pick a piece (privately)")
}

/// The mover's prompt: a target square, privately.
pub fn pick_target_prompt() -> Prompt {
    Prompt::secret(PICK, "to pick a target square (privately)")
}

/// The image's status while a team picks, the same before and after either pick.
pub const PICKING_WORDS: &str = "the chooser picks a piece and the mover a target (privately)";

/// The most squares a pick offers as ready answers (buttons); more are typed.
const SQUARE_ANSWERS: usize = 20;

/// `prompt` with a ready answer per square of `squares` (`pick d2`), when they are few
/// enough to show as buttons. The squares come from the public board alone (the pieces
/// that can move, the squares they reach), so the answers say nothing of a pick.
fn with_square_answers<S: std::fmt::Display>(mut prompt: Prompt, squares: &[S]) -> Prompt {
    if squares.len() <= SQUARE_ANSWERS {
        for sq in squares {
            prompt = prompt.with_answer(&sq.to_string(), &format!("pick {sq}"), false);
        }
    }
    prompt
}

/// The opposing chooser's prompt: which half of the revealed picks stands.
pub fn decide_prompt() -> Prompt {
    Prompt::turn(
        DECIDE,
        concat!(
            "to decide: ",
            command_mark_str!("decide piece"),
            " or ",
            command_mark_str!("decide target")
        ),
    )
    .with_answer("Piece stands", "decide piece", false)
    .with_answer("Target stands", "decide target", false)
}

/// The prompt to choose one of several equally close options (public, as the options
/// are).
pub fn choose_prompt(options: &[String]) -> Prompt {
    Prompt::turn(CHOOSE, format!("to choose one of {}", options.join(", ")))
}

/// Who must act now, and for what: both partners of the team to move while they pick
/// (each until they have picked), the opposing chooser while a decision is due, the
/// player who must break a tie; and a pending offer for either partner of the team it
/// was made to, when that partner is not awaited otherwise.
pub(super) fn awaiting(g: &SplitBrain) -> Vec<(Seat, Prompt)> {
    if g.is_over() {
        return Vec::new();
    }
    let team = g.team_to_move();
    let mut out = match &g.phase {
        Phase::Picking => {
            let mut v = Vec::new();
            if g.picks.piece.is_none() {
                let prompt = with_square_answers(pick_piece_prompt(), &g.piece_squares());
                v.push((g.chooser(team), prompt));
            }
            if g.picks.target.is_none() {
                let prompt = with_square_answers(pick_target_prompt(), &g.target_squares());
                v.push((g.mover(team), prompt));
            }
            v
        }
        Phase::Deciding => vec![(g.chooser(team.opposite()), decide_prompt())],
        Phase::Choosing { by, options, .. } => vec![(*by, choose_prompt(options))],
    };
    // The chess layer's prompts other than its move are the answers to an offer, asked
    // of the side it was made to: either partner may answer, and playing on declines it,
    // so it holds up nobody.
    for (s, p) in g.chess.awaiting() {
        if p.kind == PromptKind::MOVE {
            continue;
        }
        let answer = Prompt { turn: false, ..p };
        for partner in [s.0 * 2, s.0 * 2 + 1] {
            if !out.iter().any(|(o, _)| o.0 == partner) {
                out.push((Seat(partner), answer.clone()));
            }
        }
    }
    out
}

/// What `seat` is asked now, privately and in full: for a partner still to pick, the
/// squares it may pick; otherwise nothing.
pub(super) fn instructions(g: &SplitBrain, seat: Seat) -> Option<String> {
    if g.is_over() || g.phase != Phase::Picking {
        return None;
    }
    let team = g.team_to_move();
    let (role, what, squares) = if seat == g.chooser(team) && g.picks.piece.is_none() {
        (
            "chooser",
            "pick one of your pieces that can move",
            g.piece_squares(),
        )
    } else if seat == g.mover(team) && g.picks.target.is_none() {
        (
            "mover",
            "pick a square one of your pieces can reach",
            g.target_squares(),
        )
    } else {
        return None;
    };
    Some(format!(
        "you are the {role}: {what}, privately, e.g. {}. Your choices: {}",
        command_mark(&format!(
            "pick {}",
            squares.first().map(|s| s.to_string()).unwrap_or_default()
        )),
        square_list(&squares)
    ))
}

/// What `viewer` sees: the Los Alamos board from its team's side with the checker in its
/// corner, and for a seat its own pick (and nobody else's) and what it may pick.
pub(super) fn project(g: &SplitBrain, viewer: Viewer) -> Projection {
    let seat = match viewer {
        Viewer::Seat(s) if s.0 < 4 => Some(s),
        _ => None,
    };
    let inner = match seat {
        Some(s) => Viewer::Seat(color_seat(team_of(s))),
        None => Viewer::Public,
    };
    let mut p = g.chess.project(inner);
    // No seat types a move here (moves come from picks), so there is nothing to suggest.
    p.legal = Vec::new();
    let king_side = g.checker_on_king_side();
    p.board.overlays.push(Overlay::CornerMarker(BoardCorner {
        high_file: king_side,
        high_rank: true,
    }));
    let corner = if king_side { "f6" } else { "a6" };
    p.diagram.push_str(&format!(
        "\n  checker on {corner}: the {} partners choose",
        if king_side { "king-side" } else { "queen-side" }
    ));
    if g.phase == Phase::Picking && !g.is_over() {
        // The same words whoever has picked: the status line must not tell onlookers (or
        // the opponents) which partner is still to pick.
        p.board.caption.phase = Some(PICKING_WORDS.into());
    }
    if let Some(s) = seat {
        if let Some(sq) = g.own_pick(s) {
            p.board.overlays.push(Overlay::Discs(vec![Disc {
                square: sq,
                color: team_of(s),
                label: Some("?".into()),
            }]));
            p.diagram.push_str(&format!("\n  your pick: {sq}"));
        }
        p.instructions = instructions(g, s);
    }
    p
}
