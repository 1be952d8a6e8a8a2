//! What the game awaits from a seat: in words that fit, secret or public, with the
//! answers an adapter may offer as buttons.

/// A short stable name of what a prompt asks (`move`, `pick`, `decide`, `clue`), for
/// adapters and tests. Open: the platform names its own ([`PromptKind::MOVE`],
/// [`PromptKind::DRAW`]) and each variant its own, as constants beside its prompts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct PromptKind(pub &'static str);

impl PromptKind {
    /// A move on the board.
    pub const MOVE: PromptKind = PromptKind("move");
    /// The answer to a draw offer.
    pub const DRAW: PromptKind = PromptKind("draw");

    /// The name (`move`).
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl From<&'static str> for PromptKind {
    fn from(name: &'static str) -> PromptKind {
        PromptKind(name)
    }
}

impl PartialEq<&str> for PromptKind {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::fmt::Display for PromptKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// What an awaited seat is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What is asked, by its stable name.
    pub kind: PromptKind,
    /// What the seat is asked to do, after its player's name: `to move`, `to pick a
    /// piece (privately)`.
    pub ask: String,
    /// Whether it is asked and answered only in private.
    pub secret: bool,
    /// Whether the seat holds up the game until it answers, and so has a deadline (an
    /// answer to an offer does not: playing on declines it).
    pub turn: bool,
    /// Ready answers an adapter may offer as buttons to this seat's player alone.
    pub answers: Vec<Answer>,
}

/// One ready answer to a prompt: a label and the command it sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The button's label (`Piece stands`).
    pub label: String,
    /// The command text it sends, without a game id (`decide piece`).
    pub command: String,
    /// Whether the answer is the one to press in most cases (drawn prominently).
    pub primary: bool,
}

impl Prompt {
    /// A public turn prompt: the seat must act, anyone may see what for.
    pub fn turn(kind: impl Into<PromptKind>, ask: impl Into<String>) -> Prompt {
        Prompt {
            kind: kind.into(),
            ask: ask.into(),
            secret: false,
            turn: true,
            answers: Vec::new(),
        }
    }

    /// A secret turn prompt: asked and answered privately.
    pub fn secret(kind: impl Into<PromptKind>, ask: impl Into<String>) -> Prompt {
        Prompt {
            secret: true,
            ..Prompt::turn(kind, ask)
        }
    }

    /// An answer the seat may give but need not (an offer to accept): no deadline.
    pub fn optional(kind: impl Into<PromptKind>, ask: impl Into<String>) -> Prompt {
        Prompt {
            turn: false,
            ..Prompt::turn(kind, ask)
        }
    }

    /// This prompt with a ready answer.
    pub fn with_answer(mut self, label: &str, command: &str, primary: bool) -> Prompt {
        self.answers.push(Answer {
            label: label.into(),
            command: command.into(),
            primary,
        });
        self
    }
}

/// Who is awaited on a two-sided turn: `mover` for `prompt`, and, when a draw offer is
/// open to `offered_to`, its answer, added to the mover's prompt when the offer is theirs
/// to answer, or as a prompt of its own that holds nothing up.
pub fn with_draw_offer(
    mover: super::Seat,
    mut prompt: Prompt,
    offered_to: Option<super::Seat>,
) -> Vec<(super::Seat, Prompt)> {
    let answer = |p: Prompt| {
        p.with_answer("Accept draw", "draw accept", false)
            .with_answer("Decline draw", "draw decline", false)
    };
    let mut out = Vec::new();
    match offered_to {
        Some(to) if to == mover => {
            prompt.ask.push_str(", or answer the draw offer");
            prompt = answer(prompt);
        }
        Some(to) => out.push((
            to,
            answer(Prompt::optional(
                PromptKind::DRAW,
                "to answer the draw offer",
            )),
        )),
        None => {}
    }
    out.insert(0, (mover, prompt));
    out
}
