//! The framework's typed errors: why an action is refused, with the rule that refuses
//! it, and why a setup cannot start a match.

/// Why an action is refused: the rule of the game's rules map that forbids it, and the
/// reason in a sentence a player reads.
///
/// The rule is carried, never guessed from the sentence's words: the client links a
/// refusal to its rule, and the rules map's check proves every refusal's rule is on the
/// map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{why}")]
pub struct Refusal {
    /// The id of the refusing rule in the game's rules map (`tc.play.action-points`).
    pub rule: &'static str,
    /// Why, in a sentence.
    pub why: String,
}

impl Refusal {
    /// A refusal by `rule`, saying `why`.
    #[must_use]
    pub fn new(rule: &'static str, why: impl Into<String>) -> Self {
        Self {
            rule,
            why: why.into(),
        }
    }
}

/// Why a validated setup cannot start a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// More units than the game can number.
    #[error("too many units ({count}; at most {most})")]
    TooManyUnits { count: usize, most: usize },
}

/// Why bytes from the network are not a mirror of a game's state
/// ([`crate::framework::Playable::from_mirror`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MirrorError {
    /// No bytes at all.
    #[error("a {game} mirror cannot be empty")]
    Empty { game: &'static str },
    /// A mirror of another game.
    #[error("this is a mirror of `{found}`, not of `{game}`")]
    OtherGame { found: String, game: &'static str },
    /// Bytes that do not read as a mirror.
    #[error("not a {game} mirror: {why}")]
    Unreadable { game: &'static str, why: String },
    /// A mirror that reads but breaks what the rules rely on, in a sentence.
    #[error("{0}")]
    Invalid(String),
}
