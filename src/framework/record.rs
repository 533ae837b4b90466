//! Match records: enough to replay a match exactly.

use serde::{Deserialize, Serialize};

use super::{PlayerId, Seat};

/// One action as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedAction<A> {
    pub player: PlayerId,
    pub action: A,
}

/// A match record, generic over the game's scenario type `S` and action type `A`.
///
/// Replaying the actions from the scenario with the seed (and any scripted dice) must
/// reach `final_hash`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord<S, A, R = ()> {
    /// The game's short name, [`super::Game::NAME`].
    pub game: String,
    /// The scenario: a path, or the scenario itself.
    pub scenario: S,
    /// Seed of the match's generator.
    pub seed: u64,
    /// Scripted dice used before the seeded stream (tests and puzzles).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<u32>,
    /// Who sat in each seat: a person or a bot by name. Records written before seats
    /// were kept have none: every seat is a person then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Seat>,
    /// The actions, in order.
    pub actions: Vec<RecordedAction<A>>,
    /// The state hash after the last action, as `0x` and 16 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_hash: Option<String>,
    /// The rules tables the match was played under, so that it still replays after the
    /// project's tables change. Records from before rules were kept have none: they
    /// replay under the current tables.
    #[serde(default = "no_rules", skip_serializing_if = "Option::is_none")]
    pub rules: Option<R>,
}

/// A record's rules when it carries none (without asking `R` for a default).
fn no_rules<R>() -> Option<R> {
    None
}
