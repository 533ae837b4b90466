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
pub mod campaign;
mod lab;
mod legal;
mod mirror;
mod notation;
pub mod odds;
mod outcome;
mod plan;
mod resolve;
pub mod search;
pub mod setup;
pub mod state;
pub mod tactics;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use action::{Ability, Action, Fact, FireTarget};
pub use bot::GreedyBot;
pub use odds::{Odds, ShotProfile, SightLine};
pub use plan::Route;
pub use setup::{Build, Round, Rules, Scenario, ScenarioSetup, Terrain, UnitKind};
pub use state::{Role, TankCommander, Unit, UnitId};
pub use tactics::{Style, TacticalBot};

use crate::data::Diagnostics;
use crate::framework::bot::{Bot, RandomBot};
use crate::framework::{
    Game, InRecord, MatchRecord, MatchRng, Outcome, Playable, PlayerId, Refusal, SetupError,
};
use crate::rules::GameKind;

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
    ) -> Result<Vec<Fact>, Refusal> {
        if self.first_player.is_none() {
            return Err(Refusal::new(
                "tc.play.first-player",
                "the battle has not begun: roll for the first player first",
            ));
        }
        self.check(player, action)?;
        let facts = self.resolve(player, *action, rng);
        // The bots' cached distance fields trust this key: every change to the ground
        // must go through `wreck_ground`.
        debug_assert_eq!(
            self.terrain_key,
            state::terrain_key(&self.terrain),
            "the ground changed without its key"
        );
        Ok(facts)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    /// Everything, except (with hidden mines) the mines the other side laid.
    fn view(&self, player: PlayerId) -> TankCommander {
        let mut seen = self.clone();
        if self.hidden_mines {
            seen.mines.retain(|m| m.owner == player);
        }
        seen
    }

    fn describe_action(&self, action: &Action) -> String {
        self.action_words(action)
    }

    fn describe_fact(&self, fact: &Fact) -> String {
        self.fact_words(fact)
    }

    /// The rules check an action without playing it.
    fn refusal(&self, player: PlayerId, action: &Action, _rng: &MatchRng) -> Option<Refusal> {
        self.check(player, action).err()
    }
}

/// A battle ready to be fought: a validated scenario and the rules it was checked
/// against.
#[derive(Clone, Debug)]
pub struct Battle {
    pub scenario: Scenario,
    pub rules: Rules,
}

impl Battle {
    /// The default scenario with the built-in rules.
    #[must_use]
    pub fn builtin_default() -> Self {
        Self {
            scenario: Scenario::builtin_default(),
            rules: Rules::builtin(),
        }
    }
}

impl Playable for TankCommander {
    fn counted_rules() -> &'static [&'static str] {
        &[
            "tc.air.arrival",
            "tc.air.hit",
            "tc.air.mark",
            "tc.apc.bail-out",
            "tc.build.base-stats",
            "tc.build.he-rounds",
            "tc.build.mines",
            "tc.build.optics",
            "tc.crew.booming-voice",
            "tc.crew.bring-it-down",
            "tc.crew.lieutenant",
            "tc.crew.move-move-move",
            "tc.crew.quick-load",
            "tc.crew.roles",
            "tc.damage.cook-off",
            "tc.damage.disabled",
            "tc.damage.fire",
            "tc.damage.glancing",
            "tc.damage.penetrating",
            "tc.damage.wounds",
            "tc.hit.penetration",
            "tc.hit.roll",
            "tc.hit.strengths",
            "tc.ideas.flares",
            "tc.ideas.night",
            "tc.ideas.weather",
            "tc.infantry.any-hit",
            "tc.infantry.capture",
            "tc.infantry.disarm",
            "tc.infantry.fire-missile",
            "tc.infantry.mount",
            "tc.infantry.move",
            "tc.infantry.riders",
            "tc.infantry.take-cover",
            "tc.intro.activations",
            "tc.intro.battle-end",
            "tc.missions.aa-guns",
            "tc.missions.basic-training",
            "tc.play.action-points",
            "tc.play.deploy-smoke",
            "tc.play.extinguish",
            "tc.play.fire-anti-infantry",
            "tc.play.first-player",
            "tc.play.load",
            "tc.play.move",
            "tc.play.rotate-turret",
            "tc.play.turn",
            "tc.target.armor-facing",
            "tc.terrain.building-shot",
            "tc.terrain.forest",
            "tc.terrain.hill-behind",
            "tc.terrain.hill-on",
            "tc.terrain.mines",
            "tc.terrain.rough",
            "tc.wounds.gunner",
        ]
    }

    fn fact_rules(&self, fact: &Fact, out: &mut dyn FnMut(&'static str)) {
        lab::fact_rules(self, fact, out);
    }

    fn action_kind(action: &Action) -> &'static str {
        lab::action_kind(action)
    }

    fn action_kinds() -> &'static [&'static str] {
        lab::ACTION_KINDS
    }

    fn fact_rule(&self, fact: &Fact) -> Option<&'static str> {
        Some(match fact {
            Fact::FirstPlayerRolled { .. } => "tc.play.first-player",
            Fact::TurnStarted { .. } | Fact::TurnEnded { .. } => "tc.intro.activations",
            Fact::WeatherRolled { .. } => "tc.ideas.weather",
            Fact::UnitActivated { .. } | Fact::ActivationEnded { .. } => "tc.play.action-points",
            Fact::UnitMoved { .. } => "tc.play.move",
            Fact::UnitTurned { .. } => "tc.play.turn",
            Fact::TurretRotated { .. } => "tc.play.rotate-turret",
            Fact::GunLoaded { .. } => "tc.play.load",
            Fact::AbilityUsed { .. } => "tc.crew.roles",
            Fact::ShotResolved { .. } => "tc.hit.roll",
            Fact::AntiInfantryFired { .. } => "tc.play.fire-anti-infantry",
            Fact::UnitDestroyed { .. } => "tc.infantry.any-hit",
            Fact::InfantryMoved { .. } => "tc.infantry.move",
            Fact::TookCover { .. } => "tc.infantry.take-cover",
            Fact::ObjectiveCaptured { .. } => "tc.infantry.capture",
            Fact::MineDisarmed { .. } => "tc.infantry.disarm",
            Fact::Mounted { .. } | Fact::Dismounted { .. } => "tc.infantry.mount",
            Fact::BailedOut { .. } => "tc.apc.bail-out",
            Fact::BlastHit { .. } => "tc.damage.cook-off",
            Fact::BuildingDestroyed { .. } => "tc.terrain.building-shot",
            Fact::WoundRolled { .. } => "tc.damage.glancing",
            Fact::CrewWounded { .. } => "tc.damage.wounds",
            Fact::LieutenantTookOver { .. } => "tc.crew.lieutenant",
            Fact::HullDamaged { .. } => "tc.damage.penetrating",
            Fact::FireRolled { .. } => "tc.damage.fire",
            Fact::FireExtinguished { .. } => "tc.play.extinguish",
            Fact::SmokeDeployed { .. } => "tc.play.deploy-smoke",
            Fact::MineLaid { .. } => "tc.build.mines",
            Fact::MineExploded { .. } => "tc.terrain.mines",
            Fact::AirStrikeCalled { .. } => "tc.air.mark",
            Fact::FlareFired { .. } => "tc.ideas.flares",
            Fact::AirStrikeRolled { .. } => "tc.air.arrival",
            Fact::AntiAircraftFired { .. } => "tc.missions.aa-guns",
            Fact::AirStrikeLanded { .. } | Fact::StrikeHit { .. } => "tc.air.hit",
            Fact::UnitDisabled { .. } => "tc.damage.disabled",
            Fact::CookOffRolled { .. } | Fact::CookedOff { .. } => "tc.damage.cook-off",
            Fact::WaypointReached { .. } => "tc.missions.basic-training",
            Fact::Conceded { .. } | Fact::BattleEnded { .. } => "tc.intro.battle-end",
        })
    }

    fn holds_secrets(&self) -> bool {
        self.hidden_mines
    }

    /// Every action is seen by both sides, but where a hidden mine was laid.
    fn describe_action_for(&self, action: &Action, viewer: Option<PlayerId>) -> Option<String> {
        let own = viewer.is_none() || viewer == Some(self.current);
        Some(match action {
            Action::LayMine(_) if self.hidden_mines && !own => {
                let who = self
                    .activation()
                    .map_or(String::new(), |a| format!("{}: ", self.unit(a.unit).name));
                format!("{who}lay a hidden mine ({} AP)", self.rules.costs.lay_mine)
            }
            _ => self.describe_action(action),
        })
    }

    type Rules = Rules;
    type Setup = Battle;
    /// Records carry the scenario inline, so that a save survives edits to its file; the
    /// rules are the project's when it is read back.
    type SavedSetup = ScenarioSource;

    type Tuning = Rules;

    const KIND: GameKind = GameKind::TankCommander;

    fn load_rules(path: Option<&Path>) -> Result<Rules, Diagnostics> {
        Rules::load(path)
    }

    fn parse_setup(path: &Path, text: &str, rules: &Rules) -> Result<Battle, Diagnostics> {
        Ok(Battle {
            scenario: Scenario::parse(&path.display().to_string(), text, rules)?,
            rules: rules.clone(),
        })
    }

    fn setup_rules(setup: &Battle) -> Option<&Rules> {
        Some(&setup.rules)
    }

    fn rules_problems(rules: &Rules) -> crate::data::Problems {
        rules.problems()
    }

    fn save_setup(setup: &Battle) -> ScenarioSource {
        ScenarioSource::Inline(Box::new(setup.scenario.setup.clone()))
    }

    fn restore_setup(
        saved: ScenarioSource,
        record: &InRecord<'_>,
        rules: &Rules,
    ) -> Result<Battle, Diagnostics> {
        Ok(Battle {
            scenario: saved.load(record, rules)?,
            rules: rules.clone(),
        })
    }

    fn from_setup(setup: &Battle) -> Result<Self, SetupError> {
        Self::new(&setup.scenario, &setup.rules)
    }

    fn setup_title(setup: &Battle) -> (String, String) {
        let s = &setup.scenario.setup;
        (s.name.clone(), s.description.clone())
    }

    fn setup_seed(setup: &Battle) -> Option<u64> {
        setup.scenario.setup.seed
    }

    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "tactical" | "heuristic" => Some(Box::new(TacticalBot)),
            "veteran" => Some(Box::new(tactics::VeteranBot)),
            "greedy" => Some(Box::new(GreedyBot)),
            "random" => Some(Box::new(RandomBot)),
            #[cfg(test)]
            "tuned" => Some(Box::new(tactics::TunedBot::from_env())),
            #[cfg(test)]
            "search-tuned" => Some(Box::new(search::tuned_from_env())),
            _ => search::SearchBot::named(name).map(|b| Box::new(b) as Box<dyn Bot<Self>>),
        }
    }

    fn bot_names() -> &'static [&'static str] {
        &[
            "tactical", "veteran", "major", "general", "greedy", "random",
        ]
    }

    fn bot_about(name: &str) -> &'static str {
        match name {
            "random" => "Plays any legal action at random: for testing, not for a game",
            "greedy" => {
                "Fires at the best odds it can see and drives toward its mission and the enemy, \
                 without a thought for the enemy's guns: a plain opponent for a first game"
            }
            "veteran" => {
                "The tactical bot, wary of walking into the guns: when it has no shot to be \
                 had this turn it waits out of the enemy's reach instead of handing the enemy \
                 the first volley. Won 59.0% of 7,200 games against the greedy bot; a \
                 decision takes well under a millisecond"
            }
            "major" => {
                "Plans: tries each sensible action (what the veteran would do, a warier and \
                 a bolder plan, every shot at a unit, every unit it could move next) by \
                 playing the battle out to the end many times against each fast bot in \
                 turn, and leaves the veteran's choice only where the playouts are sure \
                 of a better one. Won 66% of 216 games against the greedy bot; about 0.01 s \
                 a decision, a third of a second at most"
            }
            "general" => {
                "The major's search with twice the playouts: about 0.03 s a decision, under \
                 a fifth of a second for 99 in a hundred and 0.6 s at most. Won 70% of 432 \
                 games against the greedy bot"
            }
            n if n.starts_with("search:") => {
                "The searching bot on a budget of your own: `search:N` plays out N actions a \
                 decision (the same choices on any machine), `search:1.5s` thinks 1.5 s"
            }
            _ => {
                "Fires at the best odds, and fears the enemy's guns: takes cover in forest and \
                 behind hills, keeps its front armor to the threat, lays smoke, loads HE where \
                 it pays, and uses every crew ability and upgrade"
            }
        }
    }

    fn tuning(setup: &Battle) -> Rules {
        setup.rules.clone()
    }

    fn retune(setup: &Battle, rules: Rules) -> Result<Battle, crate::data::Problems> {
        let problems = rules.problems();
        if !problems.is_empty() {
            return Err(problems);
        }
        let scenario = Scenario::validate(setup.scenario.setup.clone(), &rules)
            .map_err(|p| p.within("scenario"))?;
        Ok(Battle { scenario, rules })
    }

    fn tuning_notes() -> Vec<(&'static str, &'static str)> {
        vec![("", setup::BUILTIN_RULES)]
    }

    fn lab_finish(&self, tally: &mut crate::framework::tally::Tally) {
        lab::finish(self, tally);
    }

    fn lab_draws() -> Option<&'static str> {
        Some(lab::DRAWS)
    }

    fn lab_draft(setup: &Battle, rng: &mut crate::framework::MatchRng) -> Option<Battle> {
        Some(lab::draft(setup, rng))
    }

    fn rounds(&self) -> u32 {
        u32::from(self.turn().min(self.turn_limit()))
    }

    fn first_mover(&self) -> Option<PlayerId> {
        self.first_player()
    }

    const SWAPS_FIRST: bool = true;

    fn begin_swapped(&mut self, rng: &mut crate::framework::MatchRng) -> Vec<Fact> {
        self.begin_battle_with(rng, true)
    }

    fn waiting_for(&self, player: PlayerId) -> String {
        self.who_acts(player)
    }

    /// With hidden mines, the mines of the other side (every mine, for a spectator) are
    /// taken off the table; nothing else is secret.
    fn redacted(&self, viewer: Option<PlayerId>) -> Self {
        mirror::redacted(self, viewer)
    }

    fn to_mirror(&self) -> Vec<u8> {
        mirror::write(self)
    }

    fn from_mirror(bytes: &[u8]) -> Result<Self, crate::framework::MirrorError> {
        mirror::read(bytes)
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
    /// Validates the scenario: one written in the record is placed in it, one named by
    /// path is looked up beside it.
    ///
    /// # Errors
    /// Every problem in the scenario.
    pub fn load(&self, record: &InRecord<'_>, rules: &Rules) -> Result<Scenario, Diagnostics> {
        match self {
            // `scenario: Inline((...))`: the scenario is the variant's first value.
            ScenarioSource::Inline(setup) => Scenario::validate((**setup).clone(), rules)
                .map_err(|p| record.locate(p.within("[0]"))),
            ScenarioSource::Path(p) => {
                let path = resolve_path(p, record.folder());
                if !path.exists() {
                    return Err(crate::rules::catalogue::missing_setup(record.path, p));
                }
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
mod properties;
#[cfg(test)]
mod tests;
