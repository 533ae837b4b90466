//! Tank Commander: the flagship hex-grid tank battle.
//!
//! ```
//! use tanktable::framework::{Game, Match};
//! use tanktable::rules::tank_commander::{Rules, Scenario, TankCommander};
//!
//! let rules = Rules::builtin();
//! let scenario = Scenario::builtin_default();
//! let mut battle = Match::new(TankCommander::new(&scenario, &rules).unwrap(), 1);
//! let side = battle.state().to_act()[0];
//! let first = battle.state().legal_actions(side)[0];
//! let facts = battle.play(side, &first).unwrap();
//! assert!(!facts.is_empty());
//! ```

pub mod action;
pub mod bot;
mod legal;
mod notation;
pub mod odds;
mod outcome;
mod resolve;
pub mod setup;
pub mod state;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use action::{Ability, Action, Fact, FireTarget};
pub use bot::GreedyBot;
pub use odds::{Odds, ShotProfile, SightLine};
pub use setup::{Build, Round, Rules, Scenario, ScenarioSetup, Terrain};
pub use state::{Role, TankCommander, Unit, UnitId};

use crate::data::Diagnostics;
use crate::framework::{Game, MatchRecord, MatchRng, Outcome, PlayerId};

impl Game for TankCommander {
    type Action = Action;
    type Fact = Fact;
    type View = TankCommander;

    const NAME: &'static str = "tank-commander";

    fn player_count(&self) -> usize {
        self.sides.len()
    }

    fn player_name(&self, player: PlayerId) -> String {
        self.side_name(player).to_string()
    }

    fn begin(&mut self, rng: &mut MatchRng) -> Vec<Fact> {
        self.begin_battle(rng)
    }

    fn to_act(&self) -> Vec<PlayerId> {
        if self.outcome_now().is_some() || self.first_player.is_none() {
            Vec::new()
        } else {
            vec![self.current]
        }
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        self.legal(player)
    }

    fn apply(&mut self, player: PlayerId, action: &Action, rng: &mut MatchRng) -> Result<Vec<Fact>, String> {
        if self.first_player.is_none() {
            return Err("the battle has not begun: roll for the first player first".into());
        }
        self.check(player, action)?;
        Ok(self.resolve(player, *action, rng))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    /// Tank Commander has no hidden information.
    fn view(&self, _player: PlayerId) -> TankCommander {
        self.clone()
    }

    fn describe_action(&self, action: &Action) -> String {
        self.action_words(action)
    }

    fn describe_fact(&self, fact: &Fact) -> String {
        self.fact_words(fact)
    }
}

/// Where a record's scenario comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ScenarioSource {
    /// A scenario file, relative to the record's folder or the project.
    Path(String),
    /// The scenario itself, so that saves survive edits to the file.
    Inline(ScenarioSetup),
}

/// A Tank Commander match record.
pub type Record = MatchRecord<ScenarioSource, Action>;

impl ScenarioSource {
    /// Validates the scenario. `base` is the folder of the file that named it.
    ///
    /// # Errors
    /// Every problem in the scenario.
    pub fn load(&self, base: Option<&Path>, rules: &Rules) -> Result<Scenario, Diagnostics> {
        match self {
            ScenarioSource::Inline(setup) => Scenario::validate(setup.clone(), rules)
                .map_err(|p| p.locate("<inline scenario>", &crate::data::SourceMap::default())),
            ScenarioSource::Path(p) => {
                let path = resolve_path(p, base);
                Scenario::load(&path, rules)
            }
        }
    }
}

/// Finds a file named in a record or on the command line: beside the naming file, then
/// relative to the working directory, then to the project.
#[must_use]
pub fn resolve_path(name: &str, base: Option<&Path>) -> PathBuf {
    let p = PathBuf::from(name);
    if p.is_absolute() {
        return p;
    }
    if let Some(b) = base {
        let beside = b.join(&p);
        if beside.is_file() {
            return beside;
        }
    }
    if p.is_file() {
        return p;
    }
    setup::find_project_file(name).unwrap_or(p)
}

/// Seed a match uses: the one given, else the scenario's, else 0.
#[must_use]
pub fn choose_seed(given: Option<u64>, scenario: &Scenario) -> u64 {
    given.or(scenario.setup.seed).unwrap_or(0)
}

#[cfg(test)]
mod tests;
