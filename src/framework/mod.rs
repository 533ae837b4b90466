//! The match framework shared by every game.
//!
//! One trait, [`Game`], holds a game's rules: who must act, their legal actions, and
//! `apply`, which changes the state and returns fact events carrying their reasons. The
//! framework adds what every game needs on top:
//!
//! - [`MatchRng`]: chance from a seeded portable generator, or scripted dice;
//! - [`Match`]: a game in progress with its history, undo to any earlier action, and the
//!   state hash;
//! - [`MatchRecord`]: the RON record of a match that replays exactly;
//! - [`bot`]: bots that play any game through the trait;
//! - [`Playable`]: what every game offers beyond its rules (setup files, bots, records),
//!   so that one command line, one simulator and one client session serve all five;
//! - [`SeatedMatch`]: a match at a table, with a person or a bot in each seat, undo, replays
//!   and the privacy screen between people who hold secrets.
//!
//! Several players may be asked to act at once: simultaneous secret choices and interrupt
//! windows are both "these players must each answer before play goes on". The game keeps
//! the answers given so far in its state and hides them from the others through
//! [`Game::view`].

pub mod bot;
mod error;
pub mod hash;
pub mod kind;
#[cfg(test)]
pub(crate) mod long_run;
pub mod mirror;
mod play;
pub mod playable;
pub mod prob;
pub mod record;
pub mod rng;
pub mod seated;
pub mod strength;
pub mod tally;

#[cfg(test)]
mod tests;

use std::fmt::Debug;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

pub use error::{MirrorError, Refusal, SetupError};
pub use hash::stable_hash;
pub use play::{Match, PlayError, Step};
pub use playable::{
    BotsError, InRecord, Playable, RecordError, RecordPlace, Recorded, ReplayError, SaveError,
    StartError, UnknownBot,
};
pub use prob::Fraction;
pub use record::{MatchRecord, RecordedAction};
pub use rng::{MatchRng, Misscript};
pub use seated::{LogLine, Seat, SeatError, SeatedMatch, Seen};

/// A seat at the table, from 0. Games name their seats (sides, colours) themselves.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

impl PlayerId {
    /// A reader who holds no seat: a spectator of a game played across machines. What a
    /// game tells `Some(NOBODY)` ([`Playable::describe_action_for`],
    /// [`Playable::describe_fact_for`]) is what every seat may read, where `None` is the
    /// whole truth.
    pub const NOBODY: PlayerId = PlayerId(u8::MAX);

    /// The seat's position as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winners; empty for a draw or when no one wins.
    pub winners: Vec<PlayerId>,
    /// Why it ended, in plain words.
    pub reason: String,
}

impl Outcome {
    /// One winner.
    #[must_use]
    pub fn win(player: PlayerId, reason: impl Into<String>) -> Self {
        Self {
            winners: vec![player],
            reason: reason.into(),
        }
    }

    /// Nobody wins.
    #[must_use]
    pub fn draw(reason: impl Into<String>) -> Self {
        Self {
            winners: Vec::new(),
            reason: reason.into(),
        }
    }

    /// True when nobody won.
    #[must_use]
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty()
    }
}

/// The rules of one game, as a state machine.
///
/// The state is a plain value: clone it to search, serialize it to hash or save it.
/// Everything random comes from the [`MatchRng`] passed in, never from elsewhere.
pub trait Game: Clone + Debug + Serialize + Send + Sync + 'static {
    /// Something a player can do. Recorded in match records.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// Something that happened, with its reasons: every die, modifier and table lookup.
    type Fact: Clone + Debug + Serialize + Send + Sync;
    /// What one player may see of the state.
    type View: Serialize;

    /// The game's short name, as written in match records (`"tank-commander"`).
    const NAME: &'static str;

    /// Number of seats.
    fn player_count(&self) -> usize;

    /// Display name of a seat.
    fn player_name(&self, player: PlayerId) -> String {
        player.to_string()
    }

    /// Chance and announcements that happen before the first action (e.g. the roll for who
    /// goes first). Called once by [`Match::new`].
    fn begin(&mut self, _rng: &mut MatchRng) -> Vec<Self::Fact> {
        Vec::new()
    }

    /// The players who must act now: one for ordinary turns, several for simultaneous
    /// choices or an interrupt window, none once the match is over.
    fn to_act(&self) -> Vec<PlayerId>;

    /// Every legal action of `player` now; empty if they need not act.
    fn legal_actions(&self, player: PlayerId) -> Vec<Self::Action>;

    /// Checks and plays `action` for `player`, returning what happened.
    ///
    /// # Errors
    /// Why the action is not legal now, with the rule that says so; the state is
    /// unchanged.
    fn apply(
        &mut self,
        player: PlayerId,
        action: &Self::Action,
        rng: &mut MatchRng,
    ) -> Result<Vec<Self::Fact>, Refusal>;

    /// The result, once the match is over. Derived from the state.
    fn outcome(&self) -> Option<Outcome>;

    /// The state as `player` may see it.
    fn view(&self, player: PlayerId) -> Self::View;

    /// An action in the game's readable notation.
    fn describe_action(&self, action: &Self::Action) -> String;

    /// A fact in plain words, with its reasons.
    fn describe_fact(&self, fact: &Self::Fact) -> String;

    /// A hash of the whole state, equal on every machine for equal states.
    fn state_hash(&self) -> u64 {
        stable_hash(self)
    }

    /// Why `action` would be refused for `player` now, if it would (the caller has
    /// checked that the match is on and `player` must act). By default the action is
    /// tried on a clone of the state with a clone of the generator; a game that can check
    /// without playing overrides this.
    fn refusal(&self, player: PlayerId, action: &Self::Action, rng: &MatchRng) -> Option<Refusal> {
        let mut probe = self.clone();
        probe.apply(player, action, &mut rng.clone()).err()
    }
}
