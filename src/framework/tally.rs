//! What a game counts for the playtest lab beyond wins and length: the framework's
//! side of [`Playable::lab_note`](super::Playable::lab_note), so that the core trait does
//! not depend on the lab above it.

use serde::{Deserialize, Serialize};

/// What a game counts for the lab beyond wins and length ([`Playable::lab_note`](super::Playable::lab_note)).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Units and upgrades each seat fielded, and whether each lasted to the end.
    pub pieces: Vec<Piece>,
    /// Board spaces (column, row) where tanks were lost.
    pub losses: Vec<[i32; 2]>,
    /// The board's size, when the game has one.
    pub board: Option<[i32; 2]>,
    /// Named events, once per time they happened (a duel's matrix rows).
    pub counts: Vec<String>,
    /// What each seat chose before play (its upgrades, by name), once each: with random
    /// choices, the report compares the games where a seat took a thing with those where
    /// it did not.
    #[serde(default)]
    pub taken: Vec<(u8, String)>,
    /// The rules of the game's rules map this game applied, by id, with how many times
    /// ([`Playable::fact_rules`](super::Playable::fact_rules)): which rules the bots' play met.
    #[serde(default)]
    pub rules: Vec<(String, u32)>,
    /// The kinds of action the seats took ([`Playable::action_kind`](super::Playable::action_kind)), with how many
    /// times.
    #[serde(default)]
    pub actions: Vec<(String, u32)>,
}

/// A unit or upgrade a seat fielded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    pub seat: u8,
    pub name: String,
    /// Still working at the end.
    pub lasted: bool,
}
