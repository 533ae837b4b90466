//! The state of a Tank Commander battle.

use std::sync::Arc;

use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::setup::{
    Armor, Build, MissionRules, Movement, Round, Rules, Scenario, Terrain, UnitInit, UnitKind,
    UnitStats,
};
use crate::framework::{PlayerId, SetupError};
use crate::grid::{Facing, HexBoard};

/// A unit's index in the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub u8);

impl UnitId {
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A crew position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    Commander,
    Driver,
    Gunner,
    Loader,
    Lieutenant,
}

impl Role {
    /// The four roles every tank has.
    pub const CORE: [Role; 4] = [Role::Commander, Role::Driver, Role::Gunner, Role::Loader];

    /// The core roles from the one whose loss hurts most (no firing) to the least (no
    /// loading, and a loaded round can still be fired): the order in which the bot, and
    /// the action bar's shortcut, have the Lieutenant Commander take over.
    pub const BY_NEED: [Role; 4] = [Role::Gunner, Role::Driver, Role::Commander, Role::Loader];
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Commander => "Commander",
            Role::Driver => "Driver",
            Role::Gunner => "Gunner",
            Role::Loader => "Loader",
            Role::Lieutenant => "Lieutenant Commander",
        })
    }
}

/// How well a role is being done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoleState {
    Healthy,
    /// Wounded without treatment, or covered by the lieutenant.
    Impaired,
    /// Killed and not covered.
    Out,
}

/// One crew member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrewMember {
    pub role: Role,
    pub name: String,
    /// 0 healthy, 1 wounded, 2 killed.
    pub wounds: u8,
    /// The medkit treated this member's wound: it carries no penalty.
    pub treated: bool,
    /// The ability has been used as often as this member may (once a battle, a veteran
    /// `campaign.veteran_ability_uses` times).
    pub ability_used: bool,
    /// A veteran (campaigns): more uses of the ability.
    #[serde(default, skip_serializing_if = "is_false")]
    pub veteran: bool,
    /// Uses of the ability left beyond the last one (a veteran's extra uses).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spare_uses: u8,
}

impl CrewMember {
    /// A healthy crew member, a veteran or not.
    #[must_use]
    pub fn new(role: Role, name: &str, veteran: bool, rules: &super::setup::Rules) -> Self {
        Self {
            role,
            name: name.to_string(),
            wounds: 0,
            treated: false,
            ability_used: false,
            veteran,
            spare_uses: if veteran {
                rules.campaign.veteran_ability_uses.saturating_sub(1)
            } else {
                0
            },
        }
    }

    /// Uses of the ability left this battle.
    #[must_use]
    pub fn ability_uses_left(&self) -> u8 {
        if self.ability_used {
            0
        } else {
            1 + self.spare_uses
        }
    }

    #[must_use]
    pub const fn is_alive(&self) -> bool {
        self.wounds < 2
    }

    /// Condition in words.
    #[must_use]
    pub fn condition(&self) -> &'static str {
        match (self.wounds, self.treated) {
            (0, _) => "healthy",
            (1, true) => "wounded (treated)",
            (1, false) => "wounded",
            _ => "killed",
        }
    }
}

/// Whether a unit can still fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Active,
    /// No hull points left (or no crew): it stays on the table and may cook off.
    Disabled,
    /// Cooked off: gone, a rubble hex in its place.
    Destroyed,
}

/// A unit on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub name: String,
    pub side: PlayerId,
    pub kind: UnitKind,
    pub at: Hex,
    pub facing: Facing,
    pub turret: Facing,
    pub build: Build,
    pub armor: Armor,
    pub base: UnitStats,
    pub hull: u8,
    pub crew: Vec<CrewMember>,
    /// The role the lieutenant has taken over, if any.
    pub lieutenant_covers: Option<Role>,
    pub medkit_unused: bool,
    /// Mines still carried.
    pub mines_left: u8,
    /// The air strike has not been called yet (only with the Air Support upgrade).
    pub air_strike_ready: bool,
    pub loaded: Option<Round>,
    pub on_fire: bool,
    pub status: Status,
    /// Infantry: taking cover until the next turn starts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_cover: bool,
    /// Infantry: the tank it rides on, or the APC it rides inside (it stands on the
    /// carrier's space, and moves with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub riding: Option<UnitId>,
    /// Infantry: the turn it last mounted or dismounted (once per turn).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub boarded_on: u8,
    /// Flares still carried (the Night Fighting option).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub flares_left: u8,
    /// The rules table's unit type, if the scenario gave it one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_type: Option<String>,
    /// How it moves beyond its chassis (a unit type's crossing water, ignoring rough
    /// ground, turning for free).
    #[serde(default, skip_serializing_if = "Movement::is_plain")]
    pub movement: Movement,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn all_zero(v: &[u8]) -> bool {
    v.iter().all(|n| *n == 0)
}

/// How the job of `role` is done by `crew`: a wounded (untreated) member, or the
/// lieutenant covering a killed one, is impaired; nobody left is out.
#[must_use]
pub fn crew_role_state(
    crew: &[CrewMember],
    lieutenant_covers: Option<Role>,
    role: Role,
) -> RoleState {
    let member = |r: Role| crew.iter().find(|m| m.role == r);
    let Some(m) = member(role) else {
        return RoleState::Out;
    };
    if m.is_alive() {
        if m.wounds == 1 && !m.treated {
            RoleState::Impaired
        } else {
            RoleState::Healthy
        }
    } else if lieutenant_covers == Some(role)
        && member(Role::Lieutenant).is_some_and(CrewMember::is_alive)
    {
        RoleState::Impaired
    } else {
        RoleState::Out
    }
}

impl Unit {
    /// Unit `id` as `init` places it at the start of a battle, `night` or not: whole,
    /// loaded, with its crew, mines, flares and air strike.
    fn placed(id: UnitId, init: &UnitInit, rules: &Rules, night: bool) -> Self {
        let s = &init.setup;
        let base = rules.profile(s.kind, s.unit_type.as_deref());
        let mut crew = Vec::new();
        if s.kind == UnitKind::Tank {
            let lieutenant = s.build.lieutenant.then_some(Role::Lieutenant);
            for role in Role::CORE.into_iter().chain(lieutenant) {
                crew.push(CrewMember::new(
                    role,
                    s.crew.of(role),
                    s.veterans.contains(&role),
                    rules,
                ));
            }
        }
        Unit {
            id,
            name: s.name.clone(),
            side: PlayerId(init.side),
            kind: s.kind,
            at: init.at,
            facing: s.facing,
            turret: init.turret,
            build: s.build,
            armor: s.build.armor(base.armor),
            base,
            hull: base.hull,
            crew,
            lieutenant_covers: None,
            medkit_unused: s.build.medkit,
            mines_left: if s.kind == UnitKind::Tank {
                s.build.mines
            } else {
                0
            },
            air_strike_ready: s.kind == UnitKind::Tank && s.build.air_support,
            loaded: if s.kind == UnitKind::Tank {
                Some(s.loaded.unwrap_or(Round::At))
            } else {
                None
            },
            on_fire: false,
            status: Status::Active,
            in_cover: false,
            riding: None,
            boarded_on: 0,
            flares_left: if s.kind == UnitKind::Tank && night {
                rules.night.flares_per_tank
            } else {
                0
            },
            unit_type: s.unit_type.clone(),
            movement: rules.movement(s.unit_type.as_deref()),
        }
    }

    /// What its main gun needs to hit before range, terrain and the target count: the
    /// base accuracy with optics and a wounded gunner (the first two modifiers of every
    /// shot's odds, `TankCommander::shot_profile`). The unit card and the pointer card
    /// both show it, so that they agree.
    #[must_use]
    pub fn gun_need(&self, rules: &super::Rules) -> u8 {
        let mut need = i16::from(self.base.accuracy);
        if self.build.optics {
            need -= i16::from(rules.upgrades.optics_accuracy);
        }
        if self.role_state(Role::Gunner) == RoleState::Impaired {
            need += i16::from(rules.firing.wounded_gunner_penalty);
        }
        u8::try_from(need.max(1)).unwrap_or(u8::MAX)
    }

    /// The crew member in `role`, if the tank has one.
    #[must_use]
    pub fn member(&self, role: Role) -> Option<&CrewMember> {
        self.crew.iter().find(|m| m.role == role)
    }

    /// How the job of `role` is being done. Units without a crew (infantry) do every
    /// job themselves, unhurt.
    #[must_use]
    pub fn role_state(&self, role: Role) -> RoleState {
        if !self.kind.has_crew() {
            return RoleState::Healthy;
        }
        crew_role_state(&self.crew, self.lieutenant_covers, role)
    }

    /// True for infantry squads.
    #[must_use]
    pub fn is_infantry(&self) -> bool {
        self.kind == UnitKind::Infantry
    }

    /// The range of this unit's anti-infantry weapon, if it has one.
    #[must_use]
    pub fn anti_infantry_range(&self, rules: &Rules) -> Option<u8> {
        match self.kind {
            UnitKind::Infantry => Some(rules.anti_infantry.infantry_range),
            UnitKind::Tank if self.build.anti_infantry => Some(rules.anti_infantry.tank_range),
            UnitKind::Apc => Some(rules.apc.anti_infantry_range),
            _ => None,
        }
    }

    /// Shots this unit's weapons that need no loading (missiles, anti-infantry weapons)
    /// may fire in one activation.
    #[must_use]
    pub fn free_shots(&self, rules: &Rules) -> u8 {
        match self.kind {
            UnitKind::Infantry => rules.infantry.shots_per_activation,
            _ => rules.anti_infantry.tank_shots_per_activation,
        }
    }

    /// True while the unit can take part (not disabled or destroyed).
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// True while the unit is on the table (active or disabled).
    #[must_use]
    pub fn on_table(&self) -> bool {
        self.status != Status::Destroyed
    }

    /// True for units that activate and spend actions.
    #[must_use]
    pub fn acts(&self) -> bool {
        !matches!(self.kind, UnitKind::Target | UnitKind::AaGun) && self.is_active()
    }

    /// True when the unit may enter `terrain`: never a building; water only for a unit
    /// type that crosses it.
    #[must_use]
    pub fn may_enter(&self, terrain: Terrain) -> bool {
        self.movement.may_enter(terrain)
    }

    /// True for AA gun emplacements.
    #[must_use]
    pub fn is_aa_gun(&self) -> bool {
        self.kind == UnitKind::AaGun
    }

    /// Action points at the start of an activation.
    #[must_use]
    pub fn action_points(&self, rules: &Rules) -> u8 {
        let penalty = match self.role_state(Role::Commander) {
            RoleState::Healthy => 0,
            RoleState::Impaired => rules.crew.commander_wounded_actions,
            RoleState::Out => rules.crew.commander_killed_actions,
        };
        self.base.actions.saturating_sub(penalty)
    }

    /// Spaces the tank may move this turn.
    #[must_use]
    pub fn move_cap(&self, rules: &Rules) -> u8 {
        let engine = if self.build.engine {
            rules.upgrades.engine_moves
        } else {
            0
        };
        let cap = self.base.move_cap + engine;
        match self.role_state(Role::Driver) {
            RoleState::Healthy => cap,
            RoleState::Impaired => cap.saturating_sub(rules.crew.driver_wounded_moves),
            RoleState::Out => 0,
        }
    }

    /// Main gun range.
    #[must_use]
    pub fn gun_range(&self, rules: &Rules) -> u8 {
        self.base.gun_range
            + if self.build.barrel {
                rules.upgrades.barrel_range
            } else {
                0
            }
    }

    /// Action points a load costs now, or `None` if the tank cannot load.
    #[must_use]
    pub fn load_cost(&self, rules: &Rules, quick_load: bool) -> Option<u8> {
        match self.role_state(Role::Loader) {
            RoleState::Out => None,
            _ if quick_load => Some(0),
            RoleState::Healthy => Some(rules.costs.load),
            RoleState::Impaired => Some(rules.costs.load_wounded_loader),
        }
    }

    /// Rounds this unit carries (an infantry squad: its missiles; an APC: none).
    #[must_use]
    pub fn rounds(&self) -> &'static [Round] {
        match self.kind {
            // A squad's missile launcher fires AT or HE.
            UnitKind::Infantry => &[Round::At, Round::He],
            UnitKind::Tank if self.build.he_rounds => &[Round::At, Round::He],
            UnitKind::Tank => &[Round::At],
            UnitKind::Apc | UnitKind::Target | UnitKind::AaGun => &[],
        }
    }

    /// True for APCs.
    #[must_use]
    pub fn is_apc(&self) -> bool {
        self.kind == UnitKind::Apc
    }

    /// True for a unit that carries squads inside it (an APC), rather than on its
    /// outside (a tank), where any hit on it kills them.
    #[must_use]
    pub fn carries_inside(&self) -> bool {
        self.kind == UnitKind::Apc
    }

    /// Living crew members, in crew order.
    pub fn living_crew(&self) -> impl Iterator<Item = &CrewMember> {
        self.crew.iter().filter(|m| m.is_alive())
    }
}

/// An anti-tank mine on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mine {
    pub at: Hex,
    /// The side that laid it: with hidden mines, the only side that sees it.
    pub owner: PlayerId,
}

/// An air strike that has been called and not yet come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirStrike {
    pub at: Hex,
    pub side: PlayerId,
    pub caller: UnitId,
    /// The turn it was called on; the first roll is at the start of the next.
    pub called_on: u8,
}

impl AirStrike {
    /// Turns waited at the start of `turn` (1 on the turn after the call).
    #[must_use]
    pub fn waited(&self, turn: u8) -> u8 {
        turn.saturating_sub(self.called_on)
    }
}

/// The unit now spending action points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub unit: UnitId,
    pub action_points: u8,
    pub moves: u8,
    /// A crew ability was used this turn (only one per turn).
    pub ability_used: bool,
    pub bring_it_down: bool,
    pub quick_load: bool,
    pub smoke_deployed: u8,
    /// Shots fired by weapons that need no loading (missiles, anti-infantry weapons).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub free_shots: u8,
}

impl Activation {
    /// A unit's activation as it begins: `action_points` to spend, nothing done yet.
    #[must_use]
    pub fn begin(unit: UnitId, action_points: u8) -> Self {
        Self {
            unit,
            action_points,
            moves: 0,
            ability_used: false,
            bring_it_down: false,
            quick_load: false,
            smoke_deployed: 0,
            free_shots: 0,
        }
    }
}

/// An objective space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Objective {
    pub at: Hex,
    /// The side that captured it last; it holds it until the enemy captures it.
    pub holder: Option<PlayerId>,
}

/// A Tank Commander battle.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TankCommander {
    /// Carried beside the state in a mirror, with the scenario's name and the free air
    /// strikes given ([`crate::framework::Playable::to_mirror`]).
    #[serde(skip, default = "super::mirror::unset_rules")]
    pub(crate) rules: Arc<Rules>,
    #[serde(skip)]
    pub(crate) scenario_name: Arc<str>,
    pub(crate) board: HexBoard,
    pub(crate) terrain: Vec<Terrain>,
    /// A hash of `terrain`, kept with it by [`Self::wreck_ground`]: the bots' distance
    /// fields are cached per ground, and hashing the whole board at every lookup took a
    /// third of their time.
    #[serde(skip)]
    pub(crate) terrain_key: u64,
    pub(crate) smoke: Vec<bool>,
    pub(crate) mines: Vec<Mine>,
    /// Each side sees only its own mines.
    pub(crate) hidden_mines: bool,
    /// The Weather option is on: a storm may blow in at the start of each turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) weather: bool,
    /// A storm blows this turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) storm: bool,
    pub(crate) strikes: Vec<AirStrike>,
    /// Free air strikes each side may still call (a scenario's `air_support`).
    #[serde(default, skip_serializing_if = "all_zero")]
    pub(crate) strike_pool: Vec<u8>,
    /// Free air strikes each side was given at the start.
    #[serde(skip)]
    pub(crate) strikes_given: Vec<u8>,
    /// The Night Fighting option is on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) night: bool,
    /// Where flares burn this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) flares: Vec<Hex>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) objectives: Vec<Objective>,
    pub(crate) sides: Vec<String>,
    pub(crate) units: Vec<Unit>,
    pub(crate) mission: MissionRules,
    pub(crate) turn_limit: u8,
    pub(crate) at_turn_limit: super::setup::TurnLimitResult,
    /// The current turn, from 1; past the limit once the battle is over.
    pub(crate) turn: u8,
    pub(crate) first_player: Option<PlayerId>,
    /// The side choosing the next activation.
    pub(crate) current: PlayerId,
    pub(crate) activated: Vec<bool>,
    pub(crate) active: Option<Activation>,
    pub(crate) conceded: Option<PlayerId>,
    pub(crate) waypoints_reached: Vec<bool>,
    /// Objectives each side held when the last turn ended (the capture mission is decided
    /// then).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) held_at_turn_end: Vec<u8>,
    /// Take Area: the turn at whose end the attacker held the area alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) area_taken_on: Option<u8>,
}

impl TankCommander {
    /// Sets up a battle. The first player is rolled when the match begins.
    ///
    /// # Errors
    /// [`SetupError::TooManyUnits`] if the scenario holds more units than the game can
    /// number.
    pub fn new(scenario: &Scenario, rules: &Rules) -> Result<Self, SetupError> {
        let most = usize::from(u8::MAX);
        if scenario.units.len() > most {
            return Err(SetupError::TooManyUnits {
                count: scenario.units.len(),
                most,
            });
        }
        let units = scenario
            .units
            .iter()
            .enumerate()
            .map(|(i, init)| {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "checked above: at most 255 units"
                )]
                let id = UnitId(i as u8);
                Unit::placed(id, init, rules, scenario.setup.night)
            })
            .collect::<Vec<_>>();
        let waypoints = match &scenario.mission {
            MissionRules::Training { waypoints } => waypoints.len(),
            _ => 0,
        };
        Ok(Self {
            rules: Arc::new(rules.clone()),
            scenario_name: Arc::from(scenario.setup.name.as_str()),
            board: scenario.board,
            terrain: scenario.terrain.clone(),
            terrain_key: terrain_key(&scenario.terrain),
            smoke: scenario.smoke.clone(),
            mines: scenario
                .mines
                .iter()
                .map(|&(at, side)| Mine {
                    at,
                    owner: PlayerId(side),
                })
                .collect(),
            hidden_mines: scenario.setup.mines.hidden,
            weather: scenario.setup.weather,
            storm: false,
            strikes: Vec::new(),
            strike_pool: scenario.air_support.clone(),
            strikes_given: scenario.air_support.clone(),
            night: scenario.setup.night,
            flares: Vec::new(),
            objectives: scenario
                .objectives
                .iter()
                .map(|&at| Objective { at, holder: None })
                .collect(),
            sides: scenario
                .setup
                .sides
                .iter()
                .map(|s| s.name.clone())
                .collect(),
            activated: vec![false; units.len()],
            units,
            mission: scenario.mission.clone(),
            turn_limit: scenario.turn_limit,
            at_turn_limit: scenario.setup.victory.at_turn_limit,
            turn: 1,
            first_player: None,
            current: PlayerId(0),
            active: None,
            conceded: None,
            waypoints_reached: vec![false; waypoints],
            held_at_turn_end: Vec::new(),
            area_taken_on: None,
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn scenario_name(&self) -> &str {
        &self.scenario_name
    }

    pub fn board(&self) -> HexBoard {
        self.board
    }

    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.index()]
    }

    /// The unit called `name`.
    pub fn unit_named(&self, name: &str) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.name.eq_ignore_ascii_case(name))
    }

    /// The unit standing on `hex` (active or disabled); infantry riding on a tank are
    /// not counted (the tank is).
    pub fn unit_at(&self, hex: Hex) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.on_table() && u.at == hex && u.riding.is_none())
    }

    /// True when `unit` rides inside an APC, where blasts and shots do not reach it.
    #[must_use]
    pub fn is_inside(&self, unit: &Unit) -> bool {
        unit.riding
            .is_some_and(|c| self.units[c.index()].carries_inside())
    }

    /// The infantry riding on `carrier`.
    pub fn riders(&self, carrier: UnitId) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.riding == Some(carrier) && u.on_table())
    }

    /// The objective spaces and who holds them.
    pub fn objectives(&self) -> &[Objective] {
        &self.objectives
    }

    /// Objectives held by `side`.
    pub fn objectives_held(&self, side: PlayerId) -> usize {
        self.objectives
            .iter()
            .filter(|o| o.holder == Some(side))
            .count()
    }

    /// Terrain at `hex`; off-board hexes read as buildings (impassable, blocking).
    pub fn terrain(&self, hex: Hex) -> Terrain {
        self.board
            .index(hex)
            .map_or(Terrain::Building, |i| self.terrain[i])
    }

    /// Turns the ground of board index `i` to rubble (a building shot down, a wreck),
    /// keeping [`Self::terrain_key`] with it.
    pub(crate) fn wreck_ground(&mut self, i: usize) {
        if let Some(t) = self.terrain.get_mut(i) {
            *t = Terrain::Rubble;
            self.terrain_key = terrain_key(&self.terrain);
        }
    }

    /// Smoke at `hex`.
    pub fn smoke(&self, hex: Hex) -> bool {
        self.board.index(hex).is_some_and(|i| self.smoke[i])
    }

    pub fn side_name(&self, side: PlayerId) -> &str {
        self.sides.get(side.index()).map_or("?", String::as_str)
    }

    pub fn turn(&self) -> u8 {
        self.turn
    }

    pub fn turn_limit(&self) -> u8 {
        self.turn_limit
    }

    pub fn current_side(&self) -> PlayerId {
        self.current
    }

    pub fn first_player(&self) -> Option<PlayerId> {
        self.first_player
    }

    pub fn activation(&self) -> Option<&Activation> {
        self.active.as_ref()
    }

    /// True once `unit` has been activated this turn.
    pub fn has_activated(&self, unit: UnitId) -> bool {
        self.activated[unit.index()]
    }

    pub fn mission(&self) -> &MissionRules {
        &self.mission
    }

    /// Which training waypoints have been reached.
    pub fn waypoints_reached(&self) -> &[bool] {
        &self.waypoints_reached
    }

    /// Every mine on the table, seen or not.
    pub fn mines(&self) -> &[Mine] {
        &self.mines
    }

    /// The mines `side` knows about: all of them, or with hidden mines its own.
    pub fn mines_seen_by(&self, side: PlayerId) -> impl Iterator<Item = &Mine> {
        self.mines
            .iter()
            .filter(move |m| !self.hidden_mines || m.owner == side)
    }

    /// True when a storm blows this turn (the Weather option).
    #[must_use]
    pub fn storm(&self) -> bool {
        self.storm
    }

    /// True when the scenario plays with the Weather option.
    #[must_use]
    pub fn weather(&self) -> bool {
        self.weather
    }

    /// True when the scenario is fought at night.
    #[must_use]
    pub fn night(&self) -> bool {
        self.night
    }

    /// Where flares burn this turn.
    #[must_use]
    pub fn flares(&self) -> &[Hex] {
        &self.flares
    }

    /// True when `hex` can be seen as by day: always by day; at night when a flare burns
    /// within its radius, or (with `night.fires_light`) a unit there is on fire.
    #[must_use]
    pub fn lit(&self, hex: Hex) -> bool {
        if !self.night {
            return true;
        }
        let radius = u32::from(self.rules.night.flare_radius);
        self.flares
            .iter()
            .any(|f| f.unsigned_distance_to(hex) <= radius)
            || (self.rules.night.fires_light
                && self
                    .units
                    .iter()
                    .any(|u| u.on_fire && u.on_table() && u.at == hex))
    }

    /// Free air strikes `side` may still call.
    #[must_use]
    pub fn free_strikes(&self, side: PlayerId) -> u8 {
        self.strike_pool.get(side.index()).copied().unwrap_or(0)
    }

    /// Free air strikes `side` was given at the start of the battle.
    #[must_use]
    pub fn strikes_given(&self, side: PlayerId) -> u8 {
        self.strikes_given.get(side.index()).copied().unwrap_or(0)
    }

    /// AA guns still standing on sides other than `side`: they fire at `side`'s strikes.
    #[must_use]
    pub fn aa_guns_against(&self, side: PlayerId) -> usize {
        self.units
            .iter()
            .filter(|u| u.side != side && u.is_aa_gun() && u.is_active())
            .count()
    }

    /// True when `unit` has called an air strike this turn.
    #[must_use]
    pub fn called_strike_this_turn(&self, unit: UnitId) -> bool {
        self.strikes
            .iter()
            .any(|s| s.caller == unit && s.called_on == self.turn)
    }

    /// Spaces `unit` may move this turn: its own limit, less the storm's for infantry.
    #[must_use]
    pub fn moves_allowed(&self, unit: &Unit) -> u8 {
        let cap = unit.move_cap(&self.rules);
        if self.storm && unit.is_infantry() {
            cap.saturating_sub(self.rules.weather.storm_infantry_moves)
        } else {
            cap
        }
    }

    /// True when mines are hidden from the side that did not lay them.
    pub fn hidden_mines(&self) -> bool {
        self.hidden_mines
    }

    /// True when `hex` holds a mine (seen or not).
    pub fn mined(&self, hex: Hex) -> bool {
        self.mines.iter().any(|m| m.at == hex)
    }

    /// Air strikes called and still to come.
    pub fn air_strikes(&self) -> &[AirStrike] {
        &self.strikes
    }

    /// The label of a hex (`C5`).
    pub fn label(&self, hex: Hex) -> String {
        self.board.label(hex)
    }
}

/// A hash of the ground, for [`TankCommander::terrain_key`].
pub(super) fn terrain_key(terrain: &[Terrain]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(terrain)
}
