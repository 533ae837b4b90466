//! Battle Tanks: a dice game of 2 to 8 commanders, each with an arsenal of Tanks (d6) and
//! Nukes (d6 +1, a 6 is a Meganuke).
//!
//! Each battle, every commander still in the game declares a Tank or a Nuke in seat order
//! (from a first declarer who rotates each battle); the Tank declarers who spoke before a
//! Nuke may answer by switching to their own Nuke; then every declared die is rolled at
//! once ([`Fact::Rolled`]). The highest unmatched roll takes the whole Battlefield; matches
//! (and anything higher) go to War and roll again; Meganukes win outright, destroy the
//! Battlefield in pairs and end the world in threes. Commanders with empty arsenals are
//! out; the last two fight the Final Battle ([`Action::Launch`]).
//!
//! ```
//! use tanktable::framework::{Game, MatchRng, PlayerId};
//! use tanktable::rules::battle_tanks::{BattleSetup, BattleTanks};
//! let mut game = BattleTanks::new(&BattleSetup::with_players(3));
//! // The first roll of the game allows no Nukes: everyone's Tank is declared and rolled.
//! let facts = game.begin(&mut MatchRng::scripted(1, [6, 3, 2]));
//! assert!(!facts.is_empty());
//! assert_eq!(game.player(PlayerId(0)).tanks, 7);
//! ```

pub mod bot;
mod mirror;
pub mod notation;
pub mod resolve;
pub mod setup;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use resolve::{Ending, Fact, FinalDie, Forced, WinReason};
pub use setup::{
    BUILTIN_SETUP, BattleRules, BattleSetup, BattleTanksSetup, TwoPlayerStart, WarMatches,
};

use crate::data::Diagnostics;
use crate::framework::bot::{Bot, RandomBot};
use crate::framework::{
    Game, InRecord, MatchRng, Outcome, Playable, PlayerId, Refusal, SetupError,
};
use crate::rules::GameKind;

/// What a die is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DieKind {
    /// A regular die: its face is its value.
    Tank,
    /// The odd die: +1 to its roll, a 6 is a Meganuke.
    Nuke,
    /// A die from the bag, rolled by a commander at War with an empty arsenal: -1 to its
    /// roll. Won, it becomes a Tank.
    Free,
}

/// A player's answer to the rules. Declarations and answers are public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Declare a Tank for the coming roll.
    Tank,
    /// Declare (announce) a Nuke for the coming roll.
    Nuke,
    /// Answer window: keep the Tank declared earlier.
    Keep,
    /// Answer window: answer a later Nuke announcement by switching to a Nuke.
    SwitchToNuke,
    /// Final Battle: launch every die of the arsenal.
    Launch,
}

/// Counts of dice by kind (free dice that were won count as Tanks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DieCounts {
    pub tanks: u32,
    pub nukes: u32,
}

impl DieCounts {
    /// Every die counted.
    #[must_use]
    pub fn total(self) -> u32 {
        self.tanks + self.nukes
    }
}

/// One commander.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commander {
    pub name: String,
    /// Tanks in the arsenal.
    pub tanks: u32,
    /// Nukes in the arsenal.
    pub nukes: u32,
    /// Out of the game (ended a battle with an empty arsenal).
    pub out: bool,
    /// Their last roll was a Nuke: they may not roll one next unless only Nukes are left.
    pub rolled_nuke_last: bool,
}

impl Commander {
    /// Dice in the arsenal.
    #[must_use]
    pub fn arsenal(&self) -> u32 {
        self.tanks + self.nukes
    }

    /// Barred from a Nuke on the next roll by the "no Nuke twice in a row" rule.
    #[must_use]
    pub fn nuke_barred(&self) -> bool {
        self.rolled_nuke_last && self.tanks > 0
    }
}

/// A die on the Battlefield.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleDie {
    /// Unique within the match, so the client can follow the die.
    pub id: u32,
    /// Who rolled it.
    pub owner: PlayerId,
    pub kind: DieKind,
    /// The face rolled, 1 to 6.
    pub face: u8,
    /// The roll after modifiers: 0 for a misfire, a Nuke's face +1, a free die's -1.
    pub value: u8,
    pub misfire: bool,
    pub meganuke: bool,
    /// It sent its owner to the current War (false: it is loot).
    pub at_war: bool,
}

/// A declaration made for the coming roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    pub player: PlayerId,
    /// Tank, Nuke, or a free die; `None` when they leave the War (no die, empty bag).
    pub kind: Option<DieKind>,
    /// Why it was made for them, when they had no choice.
    pub forced: Option<Forced>,
    /// They switched to a Nuke in the answer window.
    pub switched: bool,
}

/// Where the declaration of the coming roll stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Who rolls, in declaration order.
    pub rollers: Vec<PlayerId>,
    /// The declarations made so far, in order.
    pub declarations: Vec<Declaration>,
    /// Tank declarers still to answer a later Nuke announcement, in order; filled once
    /// every roller has declared.
    pub answering: Vec<PlayerId>,
    /// The answer window has been opened (it opens once per roll).
    pub window_opened: bool,
}

/// What the game is waiting for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Before [`Game::begin`].
    NotStarted,
    /// Declarations (and answers) for the next roll of the current battle.
    Declaring(Round),
    /// The last two commanders each launch their whole arsenal.
    FinalBattle {
        players: [PlayerId; 2],
        launched: Vec<PlayerId>,
    },
    /// The game has ended.
    Over(Ending),
}

/// One commander's Final Battle volley.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Volley {
    pub player: PlayerId,
    pub dice: Vec<FinalDie>,
    pub damage: u32,
}

/// A Battle Tanks game in progress. It holds no secrets: declarations are public and the
/// dice to come live in the match's generator.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BattleTanks {
    /// Carried beside the state in a mirror ([`Playable::to_mirror`]).
    #[serde(skip, default = "mirror::unset_setup")]
    pub(crate) setup: Arc<BattleSetup>,
    pub(crate) players: Vec<Commander>,
    pub(crate) battlefield: Vec<BattleDie>,
    /// Free dice left in the bag.
    pub(crate) bag: u32,
    pub(crate) destroyed: DieCounts,
    /// Battles started (a War continues its battle).
    pub(crate) battle: u32,
    /// Rolls of the current battle so far (0 before its opening roll; each War adds one).
    pub(crate) roll_in_battle: u32,
    /// Rolls made in the whole game.
    pub(crate) rolls: u32,
    /// Who declares first in the current battle.
    pub(crate) first: PlayerId,
    /// Commanders in the current War (every living commander before the opening roll).
    pub(crate) contenders: Vec<PlayerId>,
    pub(crate) phase: Phase,
    /// The Final Battle's volleys, once rolled.
    pub(crate) final_battle: Vec<Volley>,
    pub(crate) next_die_id: u32,
}

impl BattleTanks {
    /// A game at its start; [`Game::begin`] opens the first battle.
    #[must_use]
    pub fn new(setup: &BattleSetup) -> Self {
        let r = &setup.rules;
        let players = setup
            .players
            .iter()
            .map(|name| Commander {
                name: name.clone(),
                tanks: u32::from(r.tanks),
                nukes: u32::from(r.nukes),
                out: false,
                rolled_nuke_last: false,
            })
            .collect();
        Self {
            setup: Arc::new(setup.clone()),
            players,
            battlefield: Vec::new(),
            bag: u32::from(r.bag),
            destroyed: DieCounts::default(),
            battle: 0,
            roll_in_battle: 0,
            rolls: 0,
            first: PlayerId(0),
            contenders: Vec::new(),
            phase: Phase::NotStarted,
            final_battle: Vec::new(),
            next_die_id: 0,
        }
    }

    /// The validated setup.
    #[must_use]
    pub fn setup(&self) -> &BattleSetup {
        &self.setup
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &BattleRules {
        &self.setup.rules
    }

    /// Every commander, in seat order.
    #[must_use]
    pub fn players(&self) -> &[Commander] {
        &self.players
    }

    /// One commander.
    ///
    /// # Panics
    /// When `player` has no seat.
    #[must_use]
    pub fn player(&self, player: PlayerId) -> &Commander {
        &self.players[player.index()]
    }

    /// The dice on the Battlefield.
    #[must_use]
    pub fn battlefield(&self) -> &[BattleDie] {
        &self.battlefield
    }

    /// Free dice left in the bag.
    #[must_use]
    pub fn bag(&self) -> u32 {
        self.bag
    }

    /// Dice destroyed by Double Meganukes.
    #[must_use]
    pub fn destroyed(&self) -> DieCounts {
        self.destroyed
    }

    /// The current battle's number (1 for the first); 0 before the game begins.
    #[must_use]
    pub fn battle(&self) -> u32 {
        self.battle
    }

    /// The War under way: 0 while the battle's opening roll is declared, 1 once it ended
    /// in a War, and so on (the `war` number the coming [`Fact::Rolled`] will carry).
    #[must_use]
    pub fn war(&self) -> u32 {
        match self.phase {
            Phase::Declaring(_) => self.roll_in_battle,
            _ => 0,
        }
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Commanders in the current War (or the whole battle before its opening roll).
    #[must_use]
    pub fn contenders(&self) -> &[PlayerId] {
        &self.contenders
    }

    /// Whether a War is under way (a battle roll ended in matches).
    #[must_use]
    pub fn at_war(&self) -> bool {
        self.roll_in_battle > 0 && matches!(self.phase, Phase::Declaring(_))
    }

    /// The Final Battle's volleys, once rolled.
    #[must_use]
    pub fn final_battle(&self) -> &[Volley] {
        &self.final_battle
    }

    /// Commanders still in the game, in seat order.
    #[must_use]
    pub fn living(&self) -> Vec<PlayerId> {
        self.seats().filter(|&p| !self.player(p).out).collect()
    }

    /// Every seat.
    pub fn seats(&self) -> impl Iterator<Item = PlayerId> + use<> {
        (0..u8::try_from(self.players.len()).unwrap_or(8)).map(PlayerId)
    }

    /// Where every die is: arsenals, Battlefield, destroyed, and the bag. The total never
    /// changes during a game.
    #[must_use]
    pub fn census(&self) -> Census {
        let mut arsenals = DieCounts::default();
        for c in &self.players {
            arsenals.tanks += c.tanks;
            arsenals.nukes += c.nukes;
        }
        let mut battlefield = DieCounts::default();
        let mut free_on_battlefield = 0;
        for d in &self.battlefield {
            match d.kind {
                DieKind::Tank => battlefield.tanks += 1,
                DieKind::Nuke => battlefield.nukes += 1,
                DieKind::Free => free_on_battlefield += 1,
            }
        }
        Census {
            arsenals,
            battlefield,
            free_on_battlefield,
            destroyed: self.destroyed,
            bag: self.bag,
        }
    }

    /// The Tank/Nuke choices `player` has for the coming roll, with the reason when there
    /// is only one (or none: a free die, or leaving the War).
    #[must_use]
    pub fn weapon_choices(&self, player: PlayerId) -> (Vec<DieKind>, Option<Forced>) {
        let c = self.player(player);
        if c.arsenal() == 0 {
            let promised = match &self.phase {
                Phase::Declaring(round) => round
                    .declarations
                    .iter()
                    .filter(|d| d.kind == Some(DieKind::Free) && d.player != player)
                    .count(),
                _ => 0,
            };
            return if self.bag as usize > promised {
                (vec![DieKind::Free], Some(Forced::EmptyArsenal))
            } else {
                (Vec::new(), Some(Forced::BagEmpty))
            };
        }
        if c.tanks == 0 {
            return (vec![DieKind::Nuke], Some(Forced::OnlyNukes));
        }
        if c.nukes == 0 {
            return (vec![DieKind::Tank], Some(Forced::NoNuke));
        }
        if self.rolls == 0 && self.setup.rules.first_roll_no_nuke {
            return (vec![DieKind::Tank], Some(Forced::FirstRoll));
        }
        if c.nuke_barred() {
            return (vec![DieKind::Tank], Some(Forced::NukeBarred));
        }
        (vec![DieKind::Tank, DieKind::Nuke], None)
    }

    /// The value of `face` on a die of `kind` under `rules`, and its misfire and Meganuke
    /// flags. The resolver and the bot share it.
    #[must_use]
    pub fn die_value(rules: &BattleRules, kind: DieKind, face: u8) -> (u8, bool, bool) {
        if face <= 1 {
            return (0, true, false);
        }
        match kind {
            DieKind::Tank => (face, false, false),
            DieKind::Nuke => (face + rules.nuke_bonus, false, face == 6),
            DieKind::Free => (face.saturating_sub(rules.free_die_penalty), false, false),
        }
    }
}

/// Where the dice are; see [`BattleTanks::census`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Census {
    pub arsenals: DieCounts,
    pub battlefield: DieCounts,
    pub free_on_battlefield: u32,
    pub destroyed: DieCounts,
    pub bag: u32,
}

impl Census {
    /// Every die in the game, the bag's included.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.arsenals.total()
            + self.battlefield.total()
            + self.free_on_battlefield
            + self.destroyed.total()
            + self.bag
    }

    /// Nukes anywhere (they are never created).
    #[must_use]
    pub fn nukes(&self) -> u32 {
        self.arsenals.nukes + self.battlefield.nukes + self.destroyed.nukes
    }
}

/// One commander as everybody sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommanderView {
    pub player: PlayerId,
    pub name: String,
    pub tanks: u32,
    pub nukes: u32,
    pub out: bool,
    /// Their last roll was a Nuke.
    pub rolled_nuke_last: bool,
    /// They may not roll a Nuke next (rolled one last, and still have Tanks).
    pub nuke_barred: bool,
    /// In the current War (false before a battle's opening roll).
    pub at_war: bool,
    /// Asked to act now.
    pub to_act: bool,
}

/// What the game is waiting for, as the client shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PhaseView {
    NotStarted,
    /// Declarations for the next roll; `answering` is true during the answer window.
    Declaring {
        answering: bool,
        /// Who rolls, in declaration order.
        rollers: Vec<PlayerId>,
        /// The declarations so far (public).
        declarations: Vec<Declaration>,
    },
    FinalBattle {
        players: [PlayerId; 2],
        launched: Vec<PlayerId>,
    },
    Over,
}

/// What one commander may see: everything (declarations are public; nothing is secret).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleTanksView {
    pub you: PlayerId,
    pub setup_name: String,
    pub players: Vec<CommanderView>,
    pub battlefield: Vec<BattleDie>,
    pub phase: PhaseView,
    /// The battle's number (1 for the first).
    pub battle: u32,
    pub battle_limit: u32,
    /// The War under way in this battle (0: the opening roll).
    pub war: u32,
    /// The next roll is the game's first (no Nukes, by default).
    pub first_roll: bool,
    pub bag: u32,
    pub destroyed: DieCounts,
    /// The Final Battle's volleys and damage, once rolled.
    pub final_battle: Vec<Volley>,
    pub outcome: Option<Outcome>,
}

impl Game for BattleTanks {
    type Action = Action;
    type Fact = Fact;
    type View = BattleTanksView;

    const NAME: &'static str = "battle-tanks";

    fn player_count(&self) -> usize {
        self.players.len()
    }

    fn player_name(&self, player: PlayerId) -> String {
        self.players
            .get(player.index())
            .map_or_else(|| player.to_string(), |c| c.name.clone())
    }

    fn begin(&mut self, rng: &mut MatchRng) -> Vec<Fact> {
        resolve::begin(self, rng)
    }

    fn to_act(&self) -> Vec<PlayerId> {
        match &self.phase {
            Phase::Declaring(round) => round
                .answering
                .first()
                .or_else(|| round.rollers.get(round.declarations.len()))
                .copied()
                .into_iter()
                .collect(),
            Phase::FinalBattle { players, launched } => players
                .iter()
                .copied()
                .filter(|p| !launched.contains(p))
                .take(1)
                .collect(),
            Phase::NotStarted | Phase::Over(_) => Vec::new(),
        }
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        if !self.to_act().contains(&player) {
            return Vec::new();
        }
        match &self.phase {
            Phase::Declaring(round) if !round.answering.is_empty() => {
                vec![Action::Keep, Action::SwitchToNuke]
            }
            Phase::Declaring(_) => self
                .weapon_choices(player)
                .0
                .into_iter()
                .filter_map(|k| match k {
                    DieKind::Tank => Some(Action::Tank),
                    DieKind::Nuke => Some(Action::Nuke),
                    DieKind::Free => None,
                })
                .collect(),
            Phase::FinalBattle { .. } => vec![Action::Launch],
            Phase::NotStarted | Phase::Over(_) => Vec::new(),
        }
    }

    fn apply(
        &mut self,
        player: PlayerId,
        action: &Action,
        rng: &mut MatchRng,
    ) -> Result<Vec<Fact>, Refusal> {
        resolve::apply(self, player, *action, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        match &self.phase {
            Phase::Over(ending) => Some(ending.outcome(self)),
            _ => None,
        }
    }

    fn view(&self, player: PlayerId) -> BattleTanksView {
        let to_act = self.to_act();
        let at_war = self.at_war();
        BattleTanksView {
            you: player,
            setup_name: self.setup.name.clone(),
            players: self
                .seats()
                .map(|p| {
                    let c = self.player(p);
                    CommanderView {
                        player: p,
                        name: c.name.clone(),
                        tanks: c.tanks,
                        nukes: c.nukes,
                        out: c.out,
                        rolled_nuke_last: c.rolled_nuke_last,
                        nuke_barred: c.nuke_barred(),
                        at_war: at_war && self.contenders.contains(&p),
                        to_act: to_act.contains(&p),
                    }
                })
                .collect(),
            battlefield: self.battlefield.clone(),
            phase: match &self.phase {
                Phase::NotStarted => PhaseView::NotStarted,
                Phase::Declaring(round) => PhaseView::Declaring {
                    answering: !round.answering.is_empty(),
                    rollers: round.rollers.clone(),
                    declarations: round.declarations.clone(),
                },
                Phase::FinalBattle { players, launched } => PhaseView::FinalBattle {
                    players: *players,
                    launched: launched.clone(),
                },
                Phase::Over(_) => PhaseView::Over,
            },
            battle: self.battle,
            battle_limit: self.setup.rules.battle_limit,
            war: self.war(),
            first_roll: self.rolls == 0,
            bag: self.bag,
            destroyed: self.destroyed,
            final_battle: self.final_battle.clone(),
            outcome: self.outcome(),
        }
    }

    fn describe_action(&self, action: &Action) -> String {
        notation::action_text(*action).to_string()
    }

    fn describe_fact(&self, fact: &Fact) -> String {
        notation::fact_text(self, fact)
    }
}

impl Playable for BattleTanks {
    fn counted_rules() -> &'static [&'static str] {
        &[
            "bt.basic.announce",
            "bt.basic.final-two",
            "bt.basic.highest-wins",
            "bt.basic.one-die",
            "bt.basic.same-time",
            "bt.basic.war",
            "bt.dice.empty-bag",
            "bt.dice.out",
            "bt.double.destroys",
            "bt.final.launch",
            "bt.final.meganuke",
            "bt.final.most-damage",
            "bt.meganuke.wins",
            "bt.misfire.all",
            "bt.misfire.double",
            "bt.terms.start",
            "bt.triple.world-ends",
        ]
    }

    fn action_kind(action: &Action) -> &'static str {
        match action {
            Action::Tank => "declare a Tank",
            Action::Nuke => "declare a Nuke",
            Action::Keep => "keep the Tank",
            Action::SwitchToNuke => "switch to a Nuke",
            Action::Launch => "launch (Final Battle)",
        }
    }

    fn action_kinds() -> &'static [&'static str] {
        &[
            "declare a Tank",
            "declare a Nuke",
            "keep the Tank",
            "switch to a Nuke",
            "launch (Final Battle)",
        ]
    }

    fn fact_rule(&self, fact: &Fact) -> Option<&'static str> {
        Some(match fact {
            Fact::Began { .. } => "bt.terms.start",
            Fact::BattleBegins { .. } => "bt.basic.one-die",
            Fact::Declared { .. } | Fact::AnswerWindow { .. } | Fact::Answered { .. } => {
                "bt.basic.announce"
            }
            Fact::Rolled { .. } => "bt.basic.same-time",
            Fact::Misfires { .. } => "bt.misfire.double",
            Fact::AllMisfired { .. } => "bt.misfire.all",
            Fact::War { .. } => "bt.basic.war",
            Fact::BattleWon {
                reason: WinReason::Meganuke,
                ..
            } => "bt.meganuke.wins",
            Fact::BattleWon {
                reason: WinReason::Unopposed,
                ..
            } => "bt.dice.empty-bag",
            Fact::BattleWon { .. } => "bt.basic.highest-wins",
            Fact::DoubleMeganuke { .. } => "bt.double.destroys",
            Fact::WorldEnds { .. } => "bt.triple.world-ends",
            Fact::CalledOff { .. } => "bt.dice.empty-bag",
            Fact::Eliminated { .. } => "bt.dice.out",
            Fact::FinalBattleBegins { .. } => "bt.basic.final-two",
            Fact::Launched { .. } => "bt.final.launch",
            Fact::Volley(_) => "bt.final.meganuke",
            Fact::GameOver { .. } => "bt.final.most-damage",
        })
    }

    /// Every number lives in the setup's `rules` section.
    type Rules = ();
    type Setup = BattleSetup;
    type SavedSetup = BattleSetup;

    type Tuning = BattleRules;

    const KIND: GameKind = GameKind::BattleTanks;

    fn load_rules(path: Option<&Path>) -> Result<(), Diagnostics> {
        no_rules_table(path, "Battle Tanks")
    }

    fn parse_setup(path: &Path, text: &str, _rules: &()) -> Result<BattleSetup, Diagnostics> {
        BattleSetup::parse(path, text)
    }

    fn save_setup(setup: &BattleSetup) -> BattleSetup {
        setup.clone()
    }

    fn restore_setup(
        saved: BattleSetup,
        record: &InRecord<'_>,
        _: &(),
    ) -> Result<BattleSetup, Diagnostics> {
        BattleSetup::validate(saved.into()).map_err(|p| record.locate(p))
    }

    fn from_setup(setup: &BattleSetup) -> Result<Self, SetupError> {
        Ok(Self::new(setup))
    }

    fn setup_title(setup: &BattleSetup) -> (String, String) {
        (setup.name.clone(), described(setup))
    }

    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "heuristic" | "greedy" => Some(Box::new(bot::HeuristicBot)),
            "random" => Some(Box::new(RandomBot)),
            _ => None,
        }
    }

    fn bot_names() -> &'static [&'static str] {
        &["heuristic", "random"]
    }

    fn tuning(setup: &BattleSetup) -> BattleRules {
        setup.rules.clone()
    }

    fn retune(
        setup: &BattleSetup,
        rules: BattleRules,
    ) -> Result<BattleSetup, crate::data::Problems> {
        let mut file: setup::BattleTanksSetup = setup.clone().into();
        file.rules = rules;
        BattleSetup::validate(file).map_err(crate::data::Problems::outside_rules)
    }

    fn tuning_notes() -> Vec<(&'static str, &'static str)> {
        vec![("", include_str!("../../../assets/lab/battle-tanks.ron"))]
    }

    fn rounds(&self) -> u32 {
        self.battle
    }

    fn to_mirror(&self) -> Vec<u8> {
        mirror::write(self)
    }

    fn from_mirror(bytes: &[u8]) -> Result<Self, crate::framework::MirrorError> {
        mirror::read(bytes)
    }
}

/// `load_rules` of a game whose numbers all live in its setups: a rules file given on the
/// command line is refused with a sentence saying where the numbers are.
///
/// # Errors
/// When `path` names a file.
pub(crate) fn no_rules_table(path: Option<&Path>, title: &str) -> Result<(), Diagnostics> {
    match path {
        None => Ok(()),
        Some(p) => Err(Diagnostics::whole_file(
            &p.display().to_string(),
            format!(
                "{title} has no rules table: its numbers and readings are in each setup's `rules` section"
            ),
        )),
    }
}

/// A setup's description for menus, with the free-die bag, which the rulebook does not
/// have: a commander at War with an empty arsenal has nothing to roll there.
fn described(setup: &BattleSetup) -> String {
    let bag = match setup.rules.bag {
        0 => "no free dice: a commander at War with no dice leaves it".to_string(),
        n => format!(
            "free-die bag of {n}: a commander at War with no dice rolls one at -1 (a Tanktable addition, not in the rulebook)"
        ),
    };
    if setup.description.is_empty() {
        format!("{}.", capitalised(&bag))
    } else {
        format!("{} · {bag}.", setup.description.trim_end_matches('.'))
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
