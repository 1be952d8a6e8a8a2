//! Why an action or command was refused: a kind to match on, and a sentence for people.

/// What kind of refusal: adapters and tests match on this, never on the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The command is badly written; the text shows the right form.
    Syntax,
    /// Not a move or answer the rules allow now.
    Illegal,
    /// The input fits more than one move or thing; the text lists them.
    Ambiguous,
    /// Someone else must act now.
    NotYourTurn,
    /// The user has no seat in the game, or the game is not theirs to see.
    NotYourGame,
    /// The command belongs to another variant.
    NotHere,
    /// The game is over, or not started.
    Over,
    /// A secret sent where others read it.
    Secret,
    /// Something the user named does not exist (a game, a variant, a user).
    Unknown,
    /// The game changed meanwhile; sending it again may work.
    Conflict,
    /// The user lacks the standing on the server the command needs (a server's settings
    /// or a moderator's tools).
    NotAllowed,
    /// The referee failed, through no fault of the command: a game's state or action
    /// that could not be written for the store. Nothing changed.
    Internal,
}

impl RefusalKind {
    /// Its name in snake case (`not_your_turn`), for logs and metrics.
    pub fn name(self) -> &'static str {
        match self {
            RefusalKind::Syntax => "syntax",
            RefusalKind::Illegal => "illegal",
            RefusalKind::Ambiguous => "ambiguous",
            RefusalKind::NotYourTurn => "not_your_turn",
            RefusalKind::NotYourGame => "not_your_game",
            RefusalKind::NotHere => "not_here",
            RefusalKind::Over => "over",
            RefusalKind::Secret => "secret",
            RefusalKind::Unknown => "unknown",
            RefusalKind::Conflict => "conflict",
            RefusalKind::NotAllowed => "not_allowed",
            RefusalKind::Internal => "internal",
        }
    }
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text}")]
pub struct RuleError {
    /// What kind of refusal.
    pub kind: RefusalKind,
    /// The reason, for people.
    pub text: String,
    /// The reason concerns what only the player may know (their hand): the referee tells
    /// it to them alone, and where others read says only that the action was refused
    /// ([`RuleError::privately`]).
    pub private: bool,
}

impl RuleError {
    /// A refusal of this kind.
    pub fn of(kind: RefusalKind, text: impl Into<String>) -> RuleError {
        RuleError {
            kind,
            text: text.into(),
            private: false,
        }
    }

    /// The same refusal, for the player alone: its reason may tell what they hold (a card
    /// they do not hold, or one that does not fit), which nobody else may learn, so every
    /// such refusal reads the same where others see it.
    pub fn privately(self) -> RuleError {
        RuleError {
            private: true,
            ..self
        }
    }

    /// Not allowed by the rules now (the commonest refusal).
    pub fn new(text: impl Into<String>) -> RuleError {
        RuleError::of(RefusalKind::Illegal, text)
    }

    /// Badly written.
    pub fn syntax(text: impl Into<String>) -> RuleError {
        RuleError::of(RefusalKind::Syntax, text)
    }

    /// Someone else must act.
    pub fn not_your_turn(text: impl Into<String>) -> RuleError {
        RuleError::of(RefusalKind::NotYourTurn, text)
    }

    /// Part of another variant.
    pub fn not_here(text: impl Into<String>) -> RuleError {
        RuleError::of(RefusalKind::NotHere, text)
    }

    /// Fits several things.
    pub fn ambiguous(text: impl Into<String>) -> RuleError {
        RuleError::of(RefusalKind::Ambiguous, text)
    }

    /// The game is over.
    pub fn over(text: impl Into<String>) -> RuleError {
        RuleError::of(RefusalKind::Over, text)
    }

    /// `what` (`the game's state`) could not be written as JSON for the store.
    pub fn unstorable(what: &str, e: &serde_json::Error) -> RuleError {
        RuleError::of(
            RefusalKind::Internal,
            format!("{what} could not be written for the store ({e}); nothing was done"),
        )
    }
}

/// `value` (`what`, for the error) as JSON for the store: a failure is an error of kind
/// [`RefusalKind::Internal`], never a `null` stored in its place.
pub fn to_stored<T: serde::Serialize + ?Sized>(
    what: &str,
    value: &T,
) -> Result<serde_json::Value, RuleError> {
    serde_json::to_value(value).map_err(|e| RuleError::unstorable(what, &e))
}

/// [`to_stored`] as text, for the store's columns: never an empty string in its place.
pub fn to_stored_text<T: serde::Serialize + ?Sized>(
    what: &str,
    value: &T,
) -> Result<String, RuleError> {
    serde_json::to_string(value).map_err(|e| RuleError::unstorable(what, &e))
}

impl From<crate::notation::MoveError> for RuleError {
    fn from(e: crate::notation::MoveError) -> RuleError {
        use crate::notation::MoveError as M;
        let kind = match &e {
            M::TooLong | M::Syntax { .. } => RefusalKind::Syntax,
            M::NoSuchPiece { .. } | M::Illegal { .. } | M::WrongNumber { .. } => {
                RefusalKind::Illegal
            }
            M::Ambiguous { .. } => RefusalKind::Ambiguous,
        };
        RuleError::of(kind, e.to_string())
    }
}
