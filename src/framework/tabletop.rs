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
use super::hash::format_hash;
use super::{Game, Match, MatchRecord, MatchRng, PlayerId, RecordedAction};
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

    /// Whether players hold secrets (hands, unrevealed choices): hot seat then hides the
    /// screen between seats.
    const SECRETS: bool = false;

    /// A fact as `viewer` may read it: `None` hides it from them, and a fact about a
    /// secret may read differently to its owner ("you draw High Explosive") than to the
    /// others ("Ann draws a card"). `None` as the viewer is the whole truth (replays).
    fn describe_fact_for(&self, fact: &Self::Fact, viewer: Option<PlayerId>) -> Option<String> {
        let _ = viewer;
        Some(self.describe_fact(fact))
    }

    /// What a seat is, for balance reports that group seats (a Tank Combat class). By
    /// default the seat's name.
    fn seat_label(&self, player: PlayerId) -> String {
        self.player_name(player)
    }
}

/// A match record of a [`Tabletop`] game: the setup inline, so it replays on its own.
pub type TabletopRecord<G> = MatchRecord<<G as Tabletop>::Setup, <G as Game>::Action>;

/// Reads and validates a setup file.
///
/// # Errors
/// Every problem, each as `file:line:col: what is wrong`.
pub fn load_setup<G: Tabletop>(path: &Path) -> Result<G::Setup, Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
    G::parse_setup(path, &text)
}

/// A new match on `setup` with the seeded generator, after `dice` scripted values.
///
/// # Errors
/// A sentence when the setup cannot start a match.
pub fn start<G: Tabletop>(setup: &G::Setup, seed: u64, dice: &[u32]) -> Result<Match<G>, String> {
    let game = G::from_setup(setup)?;
    Ok(Match::with_rng(
        game,
        MatchRng::scripted(seed, dice.iter().copied()),
    ))
}

/// The record of `game`, played from `setup` with `seed` and `dice`.
#[must_use]
pub fn record_of<G: Tabletop>(
    setup: &G::Setup,
    seed: u64,
    dice: &[u32],
    game: &Match<G>,
) -> TabletopRecord<G> {
    MatchRecord {
        game: G::NAME.to_string(),
        scenario: setup.clone(),
        seed,
        dice: dice.to_vec(),
        actions: game
            .history()
            .iter()
            .map(|s| RecordedAction {
                player: s.player,
                action: s.action.clone(),
            })
            .collect(),
        final_hash: Some(format_hash(game.state_hash())),
    }
}

/// Reads a match record of `G`.
///
/// # Errors
/// The RON problems, located in the file, or a record of another game.
pub fn parse_record<G: Tabletop>(
    path: &Path,
    text: &str,
) -> Result<TabletopRecord<G>, Diagnostics> {
    let name = path.display().to_string();
    let (record, _): (TabletopRecord<G>, _) = crate::data::load_ron(&name, text)?;
    if record.game != G::NAME {
        return Err(Diagnostics::whole_file(
            &name,
            format!(
                "this is a record of `{}`, not of `{}`",
                record.game,
                G::NAME
            ),
        ));
    }
    Ok(record)
}

/// Plays a record's actions from its setup, checking the final hash when it has one.
///
/// # Errors
/// The first action that does not play, or a final state that differs from the record's.
pub fn replay<G: Tabletop>(record: &TabletopRecord<G>) -> Result<Match<G>, String> {
    let mut game = start::<G>(&record.scenario, record.seed, &record.dice)?;
    for (i, step) in record.actions.iter().enumerate() {
        let (said, who) = (
            game.state().describe_action(&step.action),
            game.state().player_name(step.player),
        );
        game.play(step.player, &step.action)
            .map_err(|e| format!("action {} ({said} by {who}): {e}", i + 1))?;
    }
    if let Some(expected) = &record.final_hash {
        let got = format_hash(game.state_hash());
        if &got != expected {
            return Err(format!(
                "the replay ends in state {got}, but the record says {expected}: the rules or the setup changed since it was written"
            ));
        }
    }
    Ok(game)
}
