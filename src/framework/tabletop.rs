//! Games played from one setup file, with no scenario map: Battle Tanks, Tank Combat and
//! the Range Duel.
//!
//! [`Tabletop`] is what the command line (`sim`, `record`, `replay`, `legal`, `check`) and
//! the client need beyond [`Game`]: reading a setup file, starting a match from it, and the
//! game's named bots. A setup is self-contained once read (anything it refers to is
//! resolved into it), so a match record carries its setup inline and replays exactly.

use std::fmt::Debug;
use std::path::Path;

use serde::{Serialize, de::DeserializeOwned};

use super::bot::Bot;
use super::{Game, PlayerId};
use crate::data::Diagnostics;

/// A game started from a setup file.
pub trait Tabletop: Game + Sized {
    /// A validated setup: players, options and every rules number the match uses.
    type Setup: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;

    /// The RON struct name that starts this game's setup files (`"BattleTanksSetup"`), so
    /// that a file can be recognised before it is parsed.
    const SETUP_TAG: &'static str;

    /// The game's name for people ("Battle Tanks").
    const TITLE: &'static str;

    /// Reads and validates a setup file's text. `path` names the file in diagnostics and
    /// is the base for any file the setup refers to.
    ///
    /// # Errors
    /// Every problem found, each as `file:line:col: what is wrong`.
    fn parse_setup(path: &Path, text: &str) -> Result<Self::Setup, Diagnostics>;

    /// A fresh match from a validated setup.
    ///
    /// # Errors
    /// A sentence when the setup cannot start a match.
    fn from_setup(setup: &Self::Setup) -> Result<Self, String>;

    /// The game's bots, by name. Every game has `"random"` and `"heuristic"`.
    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>>;

    /// The names [`Tabletop::bot`] knows, the default first.
    fn bot_names() -> &'static [&'static str];

    /// Rounds played so far: the game's measure of length for balance reports.
    fn rounds(&self) -> u32;

    /// What a seat is, for balance reports that group seats (a Tank Combat class). By
    /// default the seat's name.
    fn seat_label(&self, player: PlayerId) -> String {
        self.player_name(player)
    }
}
