//! The Range Duel: two Tank Commander tanks fight without a map.
//!
//! Each combat turn both drivers give a secret order ([`Action`]): Change Range, Maneuver
//! or Hull Down. Once both have chosen, the orders are revealed and the rulebook's matrix
//! ([`matrix::applied_row`]) decides the new range band, the facing each tank shows and
//! whether Hull Down protects it, from each driver's Driving test. A closing tank may ram;
//! then both guns fire. A tank is knocked out as in Tank Commander (no hull points, or no
//! living crew), which ends the duel; the turn limit draws it.
//!
//! ```
//! use tanktable::framework::{Game, MatchRng, PlayerId};
//! use tanktable::rules::range_duel::{Action, DuelSetup, RangeDuel};
//! let mut duel = RangeDuel::new(&DuelSetup::builtin_default());
//! let mut rng = MatchRng::new(1);
//! duel.apply(PlayerId(0), &Action::HullDown, &mut rng).unwrap();
//! assert_eq!(duel.to_act(), vec![PlayerId(1)]);
//! let facts = duel.apply(PlayerId(1), &Action::HullDown, &mut rng).unwrap();
//! assert!(!facts.is_empty());
//! assert_eq!(duel.turn(), 1);
//! ```

pub mod action;
pub mod bot;
pub mod matrix;
mod mirror;
pub mod notation;
pub mod resolve;
pub mod search;
pub mod setup;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use action::{Action, Direction, Facings, Presented};
pub use matrix::{AppliedRow, Collision, Row};
pub use resolve::{CannotFire, Fact, Modifier, Wound};
pub use setup::{DuelRules, DuelSetup, DuelTable, RangeDuelSetup};

use crate::data::Diagnostics;
use crate::framework::bot::{Bot, RandomBot};
use crate::framework::{
    Game, InRecord, MatchRng, Outcome, Playable, PlayerId, Refusal, SetupError,
};
use crate::rules::GameKind;
use crate::rules::tank_commander::setup::{Armor, Build, Rules as TankRules, TankDesign};
use crate::rules::tank_commander::state::{CrewMember, Role, RoleState};

/// One tank of the duel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelTank {
    pub name: String,
    pub build: Build,
    pub armor: Armor,
    pub hull: u8,
    pub crew: Vec<CrewMember>,
    /// The role the lieutenant has taken over, if any.
    pub lieutenant_covers: Option<Role>,
    pub medkit_unused: bool,
    /// A round is in the gun (it is reloaded after each shot while a loader works).
    pub loaded: bool,
    /// Out of the duel: no hull points or no living crew.
    pub knocked_out: bool,
}

impl DuelTank {
    /// A fresh tank of `design`.
    #[must_use]
    pub fn new(design: &TankDesign, rules: &TankRules) -> Self {
        let names = &design.crew;
        let mut crew: Vec<CrewMember> = [
            (Role::Commander, &names.commander),
            (Role::Driver, &names.driver),
            (Role::Gunner, &names.gunner),
            (Role::Loader, &names.loader),
        ]
        .into_iter()
        .map(|(role, name)| member(role, name))
        .collect();
        if design.build.lieutenant {
            crew.push(member(Role::Lieutenant, &names.lieutenant));
        }
        Self {
            name: design.name.clone(),
            build: design.build,
            armor: design.build.armor(rules.tank.armor),
            hull: rules.tank.hull,
            crew,
            lieutenant_covers: None,
            medkit_unused: design.build.medkit,
            loaded: true,
            knocked_out: false,
        }
    }

    /// The crew member in `role`, if the tank has one.
    #[must_use]
    pub fn member(&self, role: Role) -> Option<&CrewMember> {
        self.crew.iter().find(|m| m.role == role)
    }

    /// How the job of `role` is being done (Tank Commander's reading: a wounded member,
    /// or the lieutenant covering a killed one, is impaired).
    #[must_use]
    pub fn role_state(&self, role: Role) -> RoleState {
        crate::rules::tank_commander::state::crew_role_state(
            &self.crew,
            self.lieutenant_covers,
            role,
        )
    }

    /// Top Speed: the Tank Commander move cap (engine and driver included).
    #[must_use]
    pub fn top_speed(&self, rules: &TankRules) -> u8 {
        let engine = if self.build.engine {
            rules.upgrades.engine_moves
        } else {
            0
        };
        let cap = rules.tank.move_cap + engine;
        match self.role_state(Role::Driver) {
            RoleState::Healthy => cap,
            RoleState::Impaired => cap.saturating_sub(rules.crew.driver_wounded_moves),
            RoleState::Out => 0,
        }
    }

    /// Main gun range in hexes.
    #[must_use]
    pub fn gun_range(&self, rules: &TankRules) -> u8 {
        rules.tank.gun_range
            + if self.build.barrel {
                rules.upgrades.barrel_range
            } else {
                0
            }
    }

    /// Living crew members, in crew order.
    pub fn living_crew(&self) -> impl Iterator<Item = &CrewMember> {
        self.crew.iter().filter(|m| m.is_alive())
    }
}

fn member(role: Role, name: &str) -> CrewMember {
    CrewMember {
        role,
        name: name.to_string(),
        wounds: 0,
        treated: false,
        ability_used: false,
        veteran: false,
        spare_uses: 0,
    }
}

/// A Range Duel in progress.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RangeDuel {
    /// Carried beside the state in a mirror ([`Playable::to_mirror`]).
    #[serde(skip, default = "mirror::unset_setup")]
    pub(crate) setup: Arc<DuelSetup>,
    pub(crate) tanks: [DuelTank; 2],
    /// The current range band's index (0 is Adjacent).
    pub(crate) range: u8,
    /// Combat turns played.
    pub(crate) turn: u16,
    /// Orders given this turn, hidden from the other player until both are in.
    pub(crate) orders: [Option<Action>; 2],
    /// What each tank showed the enemy in the last turn.
    pub(crate) presented: [Option<Presented>; 2],
    /// Whether each tank's non-turret hits were negated in the last turn.
    pub(crate) hull_down: [bool; 2],
}

impl RangeDuel {
    /// A duel at its start.
    #[must_use]
    pub fn new(setup: &DuelSetup) -> Self {
        let tanks = [
            DuelTank::new(&setup.tanks[0], &setup.tank_rules),
            DuelTank::new(&setup.tanks[1], &setup.tank_rules),
        ];
        Self {
            range: setup.start_range.min(setup.table.farthest()),
            setup: Arc::new(setup.clone()),
            tanks,
            turn: 0,
            orders: [None, None],
            presented: [None, None],
            hull_down: [false, false],
        }
    }

    /// The validated setup.
    #[must_use]
    pub fn setup(&self) -> &DuelSetup {
        &self.setup
    }

    /// Both tanks, player 1's first.
    #[must_use]
    pub fn tanks(&self) -> &[DuelTank; 2] {
        &self.tanks
    }

    /// One tank.
    #[must_use]
    pub fn tank(&self, player: PlayerId) -> &DuelTank {
        &self.tanks[player.index().min(1)]
    }

    /// The current range band's index.
    #[must_use]
    pub fn range(&self) -> u8 {
        self.range
    }

    /// The current range band's name.
    #[must_use]
    pub fn range_name(&self) -> &str {
        &self.setup.table.band(self.range).name
    }

    /// Combat turns played.
    #[must_use]
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// True once `player` has given this turn's order.
    #[must_use]
    pub fn has_chosen(&self, player: PlayerId) -> bool {
        self.orders[player.index().min(1)].is_some()
    }

    /// What each tank showed the enemy last turn, and whether Hull Down protected it.
    #[must_use]
    pub fn last_posture(&self, player: PlayerId) -> (Option<Presented>, bool) {
        let i = player.index().min(1);
        (self.presented[i], self.hull_down[i])
    }

    /// Plays a combat turn on `orders` (the first side's, then the second's) as
    /// [`Game::apply`] would, with the same dice, but writes no facts: for a bot that
    /// plays turns out on copies of the duel. False, and nothing played, when the duel is
    /// over or an order is refused.
    pub(crate) fn play_quietly(&mut self, orders: [Action; 2], rng: &mut MatchRng) -> bool {
        if self.is_over()
            || self.orders != [None, None]
            || (0..2u8).any(|p| {
                self.order_problem(PlayerId(p), orders[usize::from(p)])
                    .is_some()
            })
        {
            return false;
        }
        resolve::combat_turn(self, orders, rng, &mut resolve::Facts::quiet());
        true
    }

    /// Whether the duel is over (as [`Game::outcome`] says, without its words).
    fn is_over(&self) -> bool {
        self.tanks.iter().any(|t| t.knocked_out) || self.turn >= self.setup.rules.turn_limit
    }

    /// Makes this duel the same as `other`, a duel of the same setup, without allocating:
    /// the names of tanks and crews stay, every other field is copied. The structs are
    /// taken apart whole, so a field added to them must be named here.
    pub(crate) fn copy_play_from(&mut self, other: &Self) {
        let Self {
            setup,
            tanks,
            range,
            turn,
            orders,
            presented,
            hull_down,
        } = other;
        debug_assert!(Arc::ptr_eq(&self.setup, setup));
        (self.range, self.turn, self.orders) = (*range, *turn, *orders);
        (self.presented, self.hull_down) = (*presented, *hull_down);
        for (mine, theirs) in self.tanks.iter_mut().zip(tanks) {
            let DuelTank {
                name: _,
                build,
                armor,
                hull,
                crew,
                lieutenant_covers,
                medkit_unused,
                loaded,
                knocked_out,
            } = theirs;
            (mine.build, mine.armor, mine.hull) = (*build, *armor, *hull);
            (mine.lieutenant_covers, mine.medkit_unused) = (*lieutenant_covers, *medkit_unused);
            (mine.loaded, mine.knocked_out) = (*loaded, *knocked_out);
            for (m, t) in mine.crew.iter_mut().zip(crew) {
                let CrewMember {
                    role,
                    name: _,
                    wounds,
                    treated,
                    ability_used,
                    veteran,
                    spare_uses,
                } = t;
                (m.role, m.wounds, m.treated) = (*role, *wounds, *treated);
                (m.ability_used, m.veteran, m.spare_uses) = (*ability_used, *veteran, *spare_uses);
            }
        }
        debug_assert_eq!(&self.tanks, tanks);
    }

    /// The to-hit target number `shooter` needs at band `range`, with its modifiers.
    ///
    /// # Errors
    /// Why the tank cannot fire there.
    pub fn to_hit(&self, shooter: PlayerId, range: u8) -> Result<(u8, Vec<Modifier>), CannotFire> {
        resolve::to_hit(&self.setup, self.tank(shooter), range)
    }
}

/// What one player may see: everything but the other driver's order before both are in.
#[derive(Clone, Debug, Serialize)]
pub struct DuelView {
    pub you: PlayerId,
    pub name: String,
    pub range: u8,
    pub range_name: String,
    pub bands: Vec<String>,
    pub turn: u16,
    pub turn_limit: u16,
    pub tanks: [DuelTank; 2],
    /// Your order this turn, if given.
    pub your_order: Option<Action>,
    /// Whether the enemy has given its order (not what it is).
    pub enemy_has_chosen: bool,
    pub presented: [Option<Presented>; 2],
    pub hull_down: [bool; 2],
}

/// The seat's side name.
#[must_use]
pub fn side_name(player: PlayerId) -> &'static str {
    if player.0 == 0 { "Tank 1" } else { "Tank 2" }
}

impl Game for RangeDuel {
    type Action = Action;
    type Fact = Fact;
    type View = DuelView;

    const NAME: &'static str = "range-duel";

    fn player_count(&self) -> usize {
        2
    }

    fn player_name(&self, player: PlayerId) -> String {
        format!("{} ({})", side_name(player), self.tank(player).name)
    }

    fn begin(&mut self, _rng: &mut MatchRng) -> Vec<Fact> {
        vec![Fact::Began {
            tanks: [self.tanks[0].name.clone(), self.tanks[1].name.clone()],
            range: self.range,
            range_name: self.range_name().to_string(),
            turn_limit: self.setup.rules.turn_limit,
        }]
    }

    fn to_act(&self) -> Vec<PlayerId> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..2u8)
            .map(PlayerId)
            .filter(|p| self.orders[p.index()].is_none())
            .collect()
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        if !self.to_act().contains(&player) {
            return Vec::new();
        }
        Action::every()
            .into_iter()
            .filter(|a| self.order_problem(player, *a).is_none())
            .collect()
    }

    fn apply(
        &mut self,
        player: PlayerId,
        action: &Action,
        rng: &mut MatchRng,
    ) -> Result<Vec<Fact>, Refusal> {
        if let Some(outcome) = self.outcome() {
            let rule = if self.tanks.iter().any(|t| t.knocked_out) {
                "rd.turn.knock-out"
            } else {
                "rd.turn.turn-limit"
            };
            return Err(Refusal::new(
                rule,
                format!("the duel is over: {}", outcome.reason),
            ));
        }
        if player.index() > 1 {
            return Err(Refusal::new(
                "rd.turn.tanks",
                format!("{player} has no seat in a duel"),
            ));
        }
        if self.orders[player.index()].is_some() {
            return Err(Refusal::new(
                "rd.turn.three-orders",
                format!("{} has already given this turn's order", side_name(player)),
            ));
        }
        if let Some(why) = self.order_problem(player, *action) {
            return Err(why);
        }
        self.orders[player.index()] = Some(*action);
        let mut facts = resolve::Facts::kept(vec![Fact::Chosen { player }]);
        if let [Some(a), Some(b)] = self.orders {
            self.orders = [None, None];
            resolve::combat_turn(self, [a, b], rng, &mut facts);
        }
        Ok(facts.into_vec())
    }

    fn outcome(&self) -> Option<Outcome> {
        let [a, b] = [self.tanks[0].knocked_out, self.tanks[1].knocked_out];
        match (a, b) {
            (true, true) => Some(Outcome::draw("both tanks were knocked out together")),
            (true, false) => Some(Outcome::win(
                PlayerId(1),
                format!("{} knocked out {}", self.tanks[1].name, self.tanks[0].name),
            )),
            (false, true) => Some(Outcome::win(
                PlayerId(0),
                format!("{} knocked out {}", self.tanks[0].name, self.tanks[1].name),
            )),
            (false, false) if self.turn >= self.setup.rules.turn_limit => Some(Outcome::draw(
                format!("both tanks survived {} combat turns", self.turn),
            )),
            _ => None,
        }
    }

    fn view(&self, player: PlayerId) -> DuelView {
        let me = player.index().min(1);
        DuelView {
            you: player,
            name: self.setup.name.clone(),
            range: self.range,
            range_name: self.range_name().to_string(),
            bands: self
                .setup
                .table
                .bands
                .iter()
                .map(|b| b.name.clone())
                .collect(),
            turn: self.turn,
            turn_limit: self.setup.rules.turn_limit,
            tanks: self.tanks.clone(),
            your_order: self.orders[me],
            enemy_has_chosen: self.orders[1 - me].is_some(),
            presented: self.presented,
            hull_down: self.hull_down,
        }
    }

    fn describe_action(&self, action: &Action) -> String {
        notation::action_text(*action)
    }

    fn describe_fact(&self, fact: &Fact) -> String {
        notation::fact_text(self, fact)
    }
}

impl RangeDuel {
    /// Why `player`'s tank may not be given `action`, whoever's turn it is: an order that
    /// contradicts itself, or a range change for a tank with no driver.
    #[must_use]
    pub fn order_problem(&self, player: PlayerId, action: Action) -> Option<Refusal> {
        if let Some(refusal) = action.problem() {
            return Some(Refusal::new(
                refusal.rule,
                format!("{}: {}", notation::action_text(action), refusal.why),
            ));
        }
        let tank = self.tanks.get(player.index())?;
        if action.direction().is_some()
            && !self.setup.rules.driverless_moves
            && tank.top_speed(&self.setup.tank_rules) == 0
        {
            return Some(Refusal::new(
                "rd.turn.driverless",
                format!(
                    "{} has no driver: a tank without its driver cannot move, so it cannot change the range (it may Maneuver in place or go Hull Down)",
                    tank.name
                ),
            ));
        }
        None
    }
}

/// An order's matrix row name: what it does, without the ram or drift.
fn order_kind(order: Action) -> &'static str {
    match order {
        Action::ChangeRange {
            direction: Direction::Closing,
            ..
        } => "Close",
        Action::ChangeRange {
            direction: Direction::Opening,
            ..
        } => "Open",
        Action::Maneuver { .. } => "Maneuver",
        Action::HullDown => "Hull Down",
    }
}

/// What the playtest lab may change in a duel: the setup's readings and the range table.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct DuelTuning {
    pub rules: DuelRules,
    pub table: DuelTable,
}

impl Playable for RangeDuel {
    fn counted_rules() -> &'static [&'static str] {
        &[
            "rd.chart.choice",
            "rd.chart.hull-down",
            "rd.chart.overshoot",
            "rd.ram.hull",
            "rd.ram.test",
            "rd.ram.types",
            "rd.turn.bands",
            "rd.turn.chart",
            "rd.turn.driving-test",
            "rd.turn.driving-winner",
            "rd.turn.knock-out",
            "rd.turn.penetration",
            "rd.turn.reach",
            "rd.turn.secret-orders",
            "rd.turn.to-hit",
        ]
    }

    fn action_kind(action: &Action) -> &'static str {
        match action {
            Action::ChangeRange {
                direction: Direction::Closing,
                ram: true,
                ..
            } => "close in and ram",
            Action::ChangeRange {
                direction: Direction::Closing,
                ..
            } => "close in",
            Action::ChangeRange { .. } => "open up",
            Action::Maneuver { ram: true, .. } => "maneuver and ram",
            Action::Maneuver {
                drift: Some(Direction::Closing),
                ..
            } => "maneuver, drifting closer",
            Action::Maneuver {
                drift: Some(Direction::Opening),
                ..
            } => "maneuver, drifting away",
            Action::Maneuver { drift: None, .. } => "maneuver",
            Action::HullDown => "hull down",
        }
    }

    fn action_kinds() -> &'static [&'static str] {
        &[
            "close in",
            "close in and ram",
            "open up",
            "maneuver",
            "maneuver, drifting closer",
            "maneuver, drifting away",
            "maneuver and ram",
            "hull down",
        ]
    }

    fn fact_rule(&self, fact: &Fact) -> Option<&'static str> {
        Some(match fact {
            Fact::Began { .. } => "rd.turn.bands",
            Fact::Chosen { .. } | Fact::Revealed { .. } => "rd.turn.secret-orders",
            Fact::DrivingTest { .. } => "rd.turn.driving-test",
            Fact::DrivingWinner { .. } => "rd.turn.driving-winner",
            Fact::Overshoot { .. } => "rd.chart.overshoot",
            Fact::RamAttempt { .. } => "rd.ram.test",
            Fact::RangeChanged { .. } => "rd.turn.chart",
            Fact::Facing { .. } => "rd.chart.choice",
            Fact::HullDown { .. } => "rd.chart.hull-down",
            Fact::Collision { .. } => "rd.ram.types",
            Fact::CollisionDamage { .. } => "rd.ram.hull",
            Fact::CannotFire { .. } => "rd.turn.reach",
            Fact::Shot { .. } => "rd.turn.to-hit",
            Fact::Wounded { .. } | Fact::HullLost { .. } => "rd.turn.penetration",
            Fact::KnockedOut { .. } | Fact::Ended { .. } => "rd.turn.knock-out",
        })
    }

    /// The duel's own table and the Tank Commander rules the tanks are built with.
    type Rules = (DuelTable, TankRules);
    type Setup = DuelSetup;
    /// A setup carries both tables, so a record replays on its own.
    type SavedSetup = DuelSetup;

    type Tuning = DuelTuning;

    const KIND: GameKind = GameKind::RangeDuel;
    /// The drivers' orders are secret until both are given.
    const SECRETS: bool = true;

    /// `path` may be either table: a Tank Commander `Rules(…)` file replaces the tank
    /// rules, anything else the duel's table.
    fn load_rules(path: Option<&Path>) -> Result<Self::Rules, Diagnostics> {
        let tank_table = path.filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|t| {
                crate::rules::detect(p, &t).is_ok_and(|d| d.game == GameKind::TankCommander)
            })
        });
        match tank_table {
            Some(p) => Ok((DuelTable::load(None)?, TankRules::load(Some(p))?)),
            None => Ok((DuelTable::load(path)?, TankRules::load(None)?)),
        }
    }

    fn parse_setup(path: &Path, text: &str, rules: &Self::Rules) -> Result<DuelSetup, Diagnostics> {
        DuelSetup::parse_with(path, text, &rules.0, &rules.1)
    }

    fn save_setup(setup: &DuelSetup) -> DuelSetup {
        setup.clone()
    }

    /// A record carries both tables it was played with, so it replays under them even
    /// after the project's files change; they are checked as the files would be.
    fn restore_setup(
        saved: DuelSetup,
        record: &InRecord<'_>,
        _: &Self::Rules,
    ) -> Result<DuelSetup, Diagnostics> {
        DuelSetup::revalidate(saved, record.folder().unwrap_or(Path::new("")))
            .map_err(|p| record.locate(p))
    }

    fn from_setup(setup: &DuelSetup) -> Result<Self, SetupError> {
        Ok(Self::new(setup))
    }

    fn setup_title(setup: &DuelSetup) -> (String, String) {
        (setup.name.clone(), setup.description.clone())
    }

    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "heuristic" | "greedy" => Some(Box::new(bot::HeuristicBot)),
            "planner" => Some(Box::new(search::PlannerBot::default())),
            "random" => Some(Box::new(RandomBot)),
            _ => None,
        }
    }

    fn bot_names() -> &'static [&'static str] {
        &["heuristic", "planner", "random"]
    }

    fn bot_about(name: &str) -> &'static str {
        match name {
            "random" => "Plays any legal order at random: for testing, not for a game",
            "planner" => {
                "Reads you: expects the order a sensible driver would give in your seat \
                 (without peeking at yours), plays the turn out 600 times for each of its \
                 orders and takes the best. Won 62% of 3,200 duels \
                 against the heuristic bot; a few thousandths of a second a decision"
            }
            _ => {
                "Plays each of its orders against every order you might give, one turn \
                 ahead, and takes the one that leaves it best off: a fair, steady opponent"
            }
        }
    }

    fn tuning(setup: &DuelSetup) -> DuelTuning {
        DuelTuning {
            rules: setup.rules.clone(),
            table: setup.table.clone(),
        }
    }

    fn retune(setup: &DuelSetup, tuning: DuelTuning) -> Result<DuelSetup, crate::data::Problems> {
        let changed = DuelSetup {
            rules: tuning.rules,
            table: tuning.table,
            ..setup.clone()
        };
        DuelSetup::revalidate(changed, Path::new(""))
    }

    fn tuning_notes() -> Vec<(&'static str, &'static str)> {
        vec![
            ("table", setup::BUILTIN_TABLE),
            ("", include_str!("../../../assets/lab/range-duel.ron")),
        ]
    }

    fn lab_note(&self, facts: &[Fact], tally: &mut crate::framework::tally::Tally) {
        for fact in facts {
            if let Fact::Revealed { orders, .. } = fact {
                let mut names = [order_kind(orders[0]), order_kind(orders[1])];
                names.sort_unstable();
                tally.counts.push(format!("{} / {}", names[0], names[1]));
            }
        }
    }

    fn rounds(&self) -> u32 {
        u32::from(self.turn)
    }

    fn seat_label(&self, player: PlayerId) -> String {
        self.tank(player).name.clone()
    }

    /// The other driver's order, given and not yet revealed, becomes a stand-in (a
    /// spectator sees neither): the seat knows it was given, not what it is.
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
