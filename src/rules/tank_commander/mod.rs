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
mod plan;
mod resolve;
pub mod setup;
pub mod state;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use action::{Ability, Action, Fact, FireTarget};
pub use bot::GreedyBot;
pub use odds::{Odds, ShotProfile, SightLine};
pub use plan::Route;
pub use setup::{Build, Round, Rules, Scenario, ScenarioSetup, Terrain};
pub use state::{Role, TankCommander, Unit, UnitId};

use crate::data::Diagnostics;
use crate::framework::{Game, Match, MatchRecord, MatchRng, Outcome, PlayerId};

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

    fn apply(
        &mut self,
        player: PlayerId,
        action: &Action,
        rng: &mut MatchRng,
    ) -> Result<Vec<Fact>, String> {
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
    Inline(Box<ScenarioSetup>),
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
            ScenarioSource::Inline(setup) => Scenario::validate((**setup).clone(), rules)
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

/// A fact as told in a replay.
#[derive(Clone, Debug, Serialize)]
pub struct Told {
    /// Index of the action that caused it; `None` for the opening roll.
    pub action: Option<usize>,
    pub fact: Fact,
    pub text: String,
}

/// Replays `record` from `scenario`, telling every fact in plain words, and checks the
/// final hash when the record carries one.
///
/// # Errors
/// A sentence when an action cannot be played or the hash differs.
pub fn replay_record(
    record: &Record,
    scenario: &Scenario,
    rules: &Rules,
) -> Result<(Match<TankCommander>, Vec<Told>), String> {
    if record.game != TankCommander::NAME {
        return Err(format!(
            "this is a `{}` record, not a `{}` one",
            record.game,
            TankCommander::NAME
        ));
    }
    let game = TankCommander::new(scenario, rules)?;
    let mut m = Match::with_rng(
        game,
        MatchRng::scripted(record.seed, record.dice.iter().copied()),
    );
    let mut told: Vec<Told> = m
        .opening_facts()
        .iter()
        .map(|f| Told {
            action: None,
            fact: f.clone(),
            text: m.state().describe_fact(f),
        })
        .collect();
    for (i, step) in record.actions.iter().enumerate() {
        let facts = m
            .play(step.player, &step.action)
            .map_err(|e| format!("action {} ({:?}) cannot be played: {e}", i + 1, step.action))?
            .to_vec();
        told.extend(facts.into_iter().map(|f| Told {
            action: Some(i),
            text: m.state().describe_fact(&f),
            fact: f,
        }));
    }
    let hash = crate::framework::hash::format_hash(m.state_hash());
    if let Some(expected) = &record.final_hash
        && *expected != hash
    {
        return Err(format!(
            "the replay ends in state {hash}, but the record says {expected}: the rules or the scenario changed since it was recorded"
        ));
    }
    Ok((m, told))
}

#[cfg(test)]
mod tests;
