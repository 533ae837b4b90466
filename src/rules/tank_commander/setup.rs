//! Tank Commander's data: the rules tables (`assets/rules/tank-commander.ron`) and
//! scenarios (`scenarios/*.ron`), read into `*Setup` types and validated.

use std::path::Path;

use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::state::{Role, UnitId};
use crate::data::{self, Diagnostics, Problems, SourceMap};
use crate::grid::{Facing, HexBoard};

/// The rules tables shipped with the game, compiled in as a fallback.
pub const BUILTIN_RULES: &str = include_str!("../../../assets/rules/tank-commander.ron");
/// The default scenario, compiled in as a fallback.
pub const BUILTIN_SCENARIO: &str = include_str!("../../../scenarios/skirmish.ron");
/// Where the rules file lives, relative to the project root.
pub const RULES_PATH: &str = "assets/rules/tank-commander.ron";

/// Armor values of the three facings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Armor {
    pub front: u8,
    pub side: u8,
    pub rear: u8,
}

impl Armor {
    /// The armor of one facing.
    #[must_use]
    pub fn facing(self, facing: ArmorFacing) -> u8 {
        match facing {
            ArmorFacing::Front => self.front,
            ArmorFacing::Side => self.side,
            ArmorFacing::Rear => self.rear,
        }
    }
}

/// Which armor a hit strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArmorFacing {
    Front,
    Side,
    Rear,
}

impl std::fmt::Display for ArmorFacing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ArmorFacing::Front => "front",
            ArmorFacing::Side => "side",
            ArmorFacing::Rear => "rear",
        })
    }
}

/// A unit type's base profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitStats {
    pub armor: Armor,
    /// The to-hit target number: 4 means 4+.
    pub accuracy: u8,
    pub hull: u8,
    pub actions: u8,
    /// Spaces a unit may move in one turn.
    pub move_cap: u8,
    /// Main gun range in spaces.
    pub gun_range: u8,
}

/// Upgrade costs, caps and budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpgradeRules {
    pub budget: u8,
    pub painted_bonus: u8,
    pub named_bonus: u8,
    pub armor_per_point: u8,
    pub armor_max_per_facing: u8,
    pub engine: u8,
    pub barrel: u8,
    pub optics: u8,
    pub he_rounds: u8,
    pub anti_infantry: u8,
    pub smoke_launcher: u8,
    pub medkit: u8,
    pub lieutenant: u8,
    pub air_support: u8,
    pub mines: u8,
    pub mines_max: u8,
    /// What the engine adds to the move cap.
    pub engine_moves: u8,
    /// What the extended barrel adds to the gun range.
    pub barrel_range: u8,
    /// What enhanced optics take off the to-hit target number.
    pub optics_accuracy: u8,
}

/// Action point costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCosts {
    #[serde(rename = "move")]
    pub move_forward: u8,
    /// Cost of a move out of a mud or rubble space.
    pub leave_rough: u8,
    pub turn: u8,
    pub turret: u8,
    pub load: u8,
    pub load_wounded_loader: u8,
    pub fire: u8,
    pub smoke: u8,
    pub extinguish: u8,
    /// Laying one anti-tank mine.
    #[serde(default = "one")]
    pub lay_mine: u8,
    /// Calling in the air strike.
    #[serde(default = "one")]
    pub air_strike: u8,
    /// Infantry taking cover.
    #[serde(default = "one")]
    pub take_cover: u8,
    /// Infantry capturing the objective they stand on.
    #[serde(default = "one")]
    pub capture: u8,
    /// Infantry disarming (or, with hidden mines, sweeping) an adjacent space.
    #[serde(default = "one")]
    pub disarm: u8,
    /// Infantry mounting a tank, or dismounting from one.
    #[serde(default = "one")]
    pub mount: u8,
    /// Firing a flare (the Night Fighting option).
    #[serde(default = "one")]
    pub flare: u8,
}

/// The default of a cost that a rules table may leave out.
const fn one() -> u8 {
    1
}

/// How a line that runs exactly along a hexside is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HexsideRule {
    /// The hexside blocks (or gives cover) only when the hexes on both sides do.
    BothSides,
    /// Either hex is enough.
    EitherSide,
}

/// Who wins a tie when the shooter stands exactly on the line between two armor arcs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArcBoundary {
    /// The stronger facing (the defender's favour).
    Defender,
    /// The weaker facing.
    Attacker,
}

/// Firing rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiringRules {
    pub at_strength: u8,
    pub he_strength: u8,
    /// Full width of the turret's arc of fire in degrees: 60, 120, 180 or 360.
    pub turret_arc_degrees: u16,
    /// Full width of the front armor arc in degrees (the rear arc is the same width).
    pub front_arc_degrees: u16,
    pub arc_boundary: ArcBoundary,
    pub hexside: HexsideRule,
    pub natural_one_misses: bool,
    pub natural_six_hits: bool,
    pub forest_penalty: u8,
    pub hill_penalty: u8,
    pub wounded_gunner_penalty: u8,
    /// "Bring it down!": the gunner's base target number for the turn.
    pub bring_it_down_target: u8,
    /// "Bring it down!" hits on its number flat: the target's cover does not count either.
    /// Off: cover still applies on top of it.
    #[serde(default = "yes")]
    pub bring_it_down_flat: bool,
    /// A tank on a hill is hit on its rear armor from every direction.
    pub hill_hits_rear: bool,
    /// A building must be hit with a to-hit roll before it turns to rubble.
    pub building_needs_hit_roll: bool,
}

/// The default of a switch that is on unless a rules table says otherwise.
const fn yes() -> bool {
    true
}

/// Damage, fire and cook-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRules {
    /// A glancing hit wounds on this roll or more.
    pub glancing_wound_on: u8,
    /// An HE hit starts a fire on this roll or more.
    pub fire_on: u8,
    pub fire_damage: u8,
    pub cook_off_on: u8,
    pub cook_off_radius: u8,
    pub cook_off_strength: u8,
    /// A tank whose whole crew is killed is disabled.
    pub crewless_disabled: bool,
}

/// Crew penalties and abilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrewRules {
    pub commander_wounded_actions: u8,
    pub commander_killed_actions: u8,
    pub driver_wounded_moves: u8,
    pub booming_voice_actions: u8,
    /// Spaces "Move move move!" carries the tank straight ahead for one action.
    pub dash_spaces: u8,
    /// The dash's spaces count towards the turn's move cap, so it can never carry a tank
    /// further in a turn than moving could (false: the dash comes on top of the cap).
    #[serde(default = "yes")]
    pub dash_within_cap: bool,
    /// A dash that leaves mud or rubble pays the extra action points each such space
    /// costs (false: one action point carries the tank through rough ground too).
    #[serde(default = "yes")]
    pub dash_pays_rough: bool,
    /// When the Lieutenant Commander takes over a killed crew member's job.
    #[serde(default)]
    pub lieutenant: LieutenantRule,
}

/// When the Lieutenant Commander takes over a killed crew member's job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum LieutenantRule {
    /// His side chooses: during the tank's activation, take over any role whose member
    /// is dead, or wait for a later death (he takes over one role for the battle).
    #[default]
    Choice,
    /// He takes over the first role whose member is killed, at once.
    FirstDeath,
}

/// Anti-tank mines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MineRules {
    /// Strength of the AT hit a vehicle takes when it enters a mined space.
    pub strength: u8,
    /// The armor a mine's hit is taken against (it strikes from below, where no facing
    /// faces the enemy).
    pub armor_facing: ArmorFacing,
    /// How far from the tank a mine may be laid.
    pub lay_range: u8,
}

impl Default for MineRules {
    fn default() -> Self {
        Self {
            strength: 6,
            armor_facing: ArmorFacing::Rear,
            lay_range: 1,
        }
    }
}

/// Air strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AirStrikeRules {
    /// Strength of the AT hit on every space the strike hits.
    pub strength: u8,
    /// The roll needed on the turn after the call (6 = 6+).
    pub first_need: u8,
    /// The roll needed never drops below this (2: a 1 never calls the strike in).
    pub best_need: u8,
    /// The armor a strike from the air is taken against.
    pub armor_facing: ArmorFacing,
    /// After the marked space, a line of spaces in a rolled direction is hit too
    /// (direction d6: 1 north, then clockwise; length d6).
    pub scatter: bool,
}

impl Default for AirStrikeRules {
    fn default() -> Self {
        Self {
            strength: 6,
            first_need: 6,
            best_need: 2,
            armor_facing: ArmorFacing::Rear,
            scatter: true,
        }
    }
}

impl AirStrikeRules {
    /// The roll a strike needs on the `waited`-th turn after it was called (from 1).
    #[must_use]
    pub fn need(&self, waited: u8) -> u8 {
        self.first_need
            .saturating_sub(waited.saturating_sub(1))
            .max(self.best_need)
    }
}

/// Smoke launchers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmokeRules {
    pub range: u8,
    pub per_turn: u8,
}

/// Infantry squads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct InfantryRules {
    /// The squad's profile; `gun_range` is the missile launcher's range.
    pub stats: UnitStats,
    /// What Take Cover adds to the roll enemies need to hit the squad.
    pub cover_penalty: u8,
    /// A squad next to a tank of its own side cannot be targeted.
    pub shielded_by_friendly_tank: bool,
    /// Infantry set off anti-tank mines they walk onto (false: too light to).
    pub trips_mines: bool,
    /// Shots a squad may fire in one activation (its weapons need no loading).
    pub shots_per_activation: u8,
    /// Squads that may ride on the outside of one tank.
    pub riders_per_tank: u8,
}

impl Default for InfantryRules {
    fn default() -> Self {
        Self {
            stats: UnitStats {
                armor: Armor {
                    front: 3,
                    side: 3,
                    rear: 3,
                },
                accuracy: 4,
                hull: 1,
                actions: 3,
                move_cap: 2,
                gun_range: 3,
            },
            cover_penalty: 1,
            shielded_by_friendly_tank: true,
            trips_mines: false,
            shots_per_activation: 1,
            riders_per_tank: 1,
        }
    }
}

/// Anti-infantry weapons: they fire only at infantry, in any direction, and a hit
/// destroys the squad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AntiInfantryRules {
    /// Range of a tank's weapon (the Anti-Infantry Weapons upgrade).
    pub tank_range: u8,
    /// Range of an infantry squad's own weapon.
    pub infantry_range: u8,
    /// Shots a tank's weapon may fire in one activation (it needs no loading).
    pub tank_shots_per_activation: u8,
}

impl Default for AntiInfantryRules {
    fn default() -> Self {
        Self {
            tank_range: 2,
            infantry_range: 2,
            tank_shots_per_activation: 1,
        }
    }
}

/// Armored personnel carriers: vehicles with no crew, no turret and no main gun, that
/// carry infantry inside and fire an anti-infantry weapon all round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ApcRules {
    /// The APC's profile; it has no main gun, so `gun_range` is 0.
    pub stats: UnitStats,
    /// Upgrade points an APC spends at the start (no painted or named bonus).
    pub budget: u8,
    /// Range of its anti-infantry weapon.
    pub anti_infantry_range: u8,
    /// The most upgrade points one facing's armor may take.
    pub armor_max_per_facing: u8,
    /// Squads that may ride inside one APC.
    pub capacity: u8,
    /// When the APC is knocked out, the squads inside bail out into free spaces next to
    /// it (false: they are lost with it).
    pub bail_out: bool,
}

/// The Weather option: a storm may blow in at the start of each turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WeatherRules {
    /// A storm blows this turn on this roll of a d6 or lower.
    pub storm_on: u8,
    /// What tanks and APCs need more to hit during a storm.
    pub storm_vehicle_accuracy: u8,
    /// Spaces fewer an infantry squad may move during a storm.
    pub storm_infantry_moves: u8,
}

impl Default for WeatherRules {
    fn default() -> Self {
        Self {
            storm_on: 1,
            storm_vehicle_accuracy: 1,
            storm_infantry_moves: 1,
        }
    }
}

/// The Night Fighting option: shots are harder and see less far, except at spaces lit by
/// a flare or a fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NightRules {
    /// What every shot at an unlit target needs more to hit.
    pub accuracy_penalty: u8,
    /// The farthest an unlit target can be picked out, in spaces.
    pub sight_range: u8,
    /// Flares each tank carries into a night battle.
    pub flares_per_tank: u8,
    /// How far from the tank a flare may be fired, in spaces.
    pub flare_range: u8,
    /// A flare lights its space and every space this close to it, for the rest of the
    /// turn.
    pub flare_radius: u8,
    /// A unit on fire lights its own space.
    pub fires_light: bool,
}

impl Default for NightRules {
    fn default() -> Self {
        Self {
            accuracy_penalty: 1,
            sight_range: 3,
            flares_per_tank: 2,
            flare_range: 6,
            flare_radius: 1,
            fires_light: true,
        }
    }
}

/// Campaigns: what crews earn from battle to battle, and what becomes of knocked-out
/// tanks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignRules {
    /// Experience each crew member who lives through a battle earns.
    pub xp_per_battle: u8,
    /// Experience each crew member earns for every enemy unit their tank knocks out.
    pub xp_per_knock_out: u8,
    /// The experience that makes a veteran.
    pub veteran_at: u8,
    /// Times a veteran may use their crew ability in a battle (others: once).
    pub veteran_ability_uses: u8,
    /// A tank knocked out (not burned out) in a battle its side lost is recovered and
    /// repaired too (false: it is left on the field and lost).
    pub repair_after_loss: bool,
}

impl Default for CampaignRules {
    fn default() -> Self {
        Self {
            xp_per_battle: 1,
            xp_per_knock_out: 1,
            veteran_at: 4,
            veteran_ability_uses: 2,
            repair_after_loss: false,
        }
    }
}

/// Anti-aircraft guns: static emplacements that drive off the enemy's air strikes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AaGunRules {
    /// The emplacement's profile (it never acts, so actions, moves and range are 0).
    pub stats: UnitStats,
    /// The roll (d6) on which the guns drive off an arriving enemy strike, by the number
    /// of them still standing: the first entry for one gun, the second for two … the last
    /// for that many or more. 7 means never; with no gun standing nothing is rolled.
    pub shoot_down_on: Vec<u8>,
}

impl Default for AaGunRules {
    fn default() -> Self {
        Self {
            stats: UnitStats {
                armor: Armor {
                    front: 4,
                    side: 4,
                    rear: 4,
                },
                accuracy: 6,
                hull: 2,
                actions: 0,
                move_cap: 0,
                gun_range: 0,
            },
            shoot_down_on: vec![6, 4, 2],
        }
    }
}

impl AaGunRules {
    /// The roll that drives off a strike with `standing` guns up (7: it cannot be).
    #[must_use]
    pub fn shoot_down_need(&self, standing: usize) -> u8 {
        if standing == 0 {
            return 7;
        }
        self.shoot_down_on
            .get(standing - 1)
            .or(self.shoot_down_on.last())
            .copied()
            .unwrap_or(7)
    }
}

impl Default for ApcRules {
    fn default() -> Self {
        Self {
            stats: UnitStats {
                armor: Armor {
                    front: 4,
                    side: 4,
                    rear: 4,
                },
                accuracy: 4,
                hull: 2,
                actions: 3,
                move_cap: 3,
                gun_range: 0,
            },
            budget: 4,
            armor_max_per_facing: 2,
            anti_infantry_range: 3,
            capacity: 2,
            bail_out: true,
        }
    }
}

/// How a unit type made in the rules table moves, beyond its chassis's own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Movement {
    /// It may enter water (nothing enters a building).
    pub crosses_water: bool,
    /// Leaving mud or rubble costs it no more than leaving open ground.
    pub ignores_rough: bool,
    /// Turning costs it no action points.
    pub free_turns: bool,
}

impl Movement {
    /// True when a unit moving so may enter `terrain`: never a building; water only when
    /// it crosses water.
    #[must_use]
    pub fn may_enter(self, terrain: Terrain) -> bool {
        match terrain {
            Terrain::Building => false,
            Terrain::Water => self.crosses_water,
            _ => true,
        }
    }

    /// True when nothing sets this movement apart.
    #[must_use]
    pub fn is_plain(&self) -> bool {
        *self == Self::default()
    }
}

/// The model the client draws for a unit type made in the rules table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum UnitModel {
    /// The chassis's own model.
    #[default]
    Standard,
    /// A hull floating over a skirt, without tracks.
    Hover,
    /// A hull carried on legs.
    Walker,
}

/// A unit type a rules table adds without code: one of the chassis's ways of acting (a
/// tank's crew, turret and gun; an APC's; a squad's) with a profile and movement of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitType {
    /// The chassis it acts as: `Tank`, `Apc` or `Infantry`.
    pub base: UnitKind,
    /// One sentence for the unit card.
    #[serde(default)]
    pub description: String,
    pub stats: UnitStats,
    #[serde(default)]
    pub movement: Movement,
    #[serde(default)]
    pub model: UnitModel,
}

/// Every number and switch of Tank Commander, as read from the rules file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub tank: UnitStats,
    /// The static targets of training ranges.
    pub target: UnitStats,
    pub upgrades: UpgradeRules,
    pub costs: ActionCosts,
    pub firing: FiringRules,
    pub damage: DamageRules,
    pub crew: CrewRules,
    pub smoke: SmokeRules,
    #[serde(default)]
    pub mines: MineRules,
    #[serde(default)]
    pub air_strike: AirStrikeRules,
    #[serde(default)]
    pub infantry: InfantryRules,
    #[serde(default)]
    pub anti_infantry: AntiInfantryRules,
    #[serde(default)]
    pub apc: ApcRules,
    #[serde(default)]
    pub weather: WeatherRules,
    #[serde(default)]
    pub night: NightRules,
    #[serde(default)]
    pub aa_gun: AaGunRules,
    #[serde(default)]
    pub campaign: CampaignRules,
    /// Unit types made in the table (hover tanks, walkers …), by name; a scenario's unit
    /// takes one with `type: "…"`.
    #[serde(default)]
    pub unit_types: std::collections::BTreeMap<String, UnitType>,
    pub default_turn_limit: u8,
}

impl Rules {
    /// The rules compiled into the binary.
    ///
    /// # Panics
    /// Never in a release: a unit test checks the shipped file.
    #[must_use]
    pub fn builtin() -> Self {
        Self::parse(RULES_PATH, BUILTIN_RULES).expect("the shipped rules file is valid")
    }

    /// Reads and validates rules text.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(file: &str, text: &str) -> Result<Self, Diagnostics> {
        let (rules, map, mut problems): (Rules, SourceMap, _) =
            data::load_ron_collecting(file, text)?;
        problems.extend(rules.problems());
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(problems.locate(file, &map))
        }
    }

    /// Loads the rules: `path` if given, else the project's rules file if present, else
    /// the compiled-in copy.
    ///
    /// # Errors
    /// Every problem in the file.
    pub fn load(path: Option<&Path>) -> Result<Self, Diagnostics> {
        data::load_table(path, RULES_PATH, Self::builtin, Self::parse)
    }

    /// The base profile of a unit of `kind`.
    #[must_use]
    pub fn stats(&self, kind: UnitKind) -> UnitStats {
        match kind {
            UnitKind::Tank => self.tank,
            UnitKind::Target => self.target,
            UnitKind::Infantry => self.infantry.stats,
            UnitKind::Apc => self.apc.stats,
            UnitKind::AaGun => self.aa_gun.stats,
        }
    }

    /// The base profile of a unit of `kind`, or of the table's `unit_type` when it names
    /// one.
    #[must_use]
    pub fn profile(&self, kind: UnitKind, unit_type: Option<&str>) -> UnitStats {
        unit_type
            .and_then(|t| self.unit_types.get(t))
            .map_or_else(|| self.stats(kind), |t| t.stats)
    }

    /// How a unit of the table's `unit_type` moves (plain for the built-in kinds).
    #[must_use]
    pub fn movement(&self, unit_type: Option<&str>) -> Movement {
        unit_type
            .and_then(|t| self.unit_types.get(t))
            .map(|t| t.movement)
            .unwrap_or_default()
    }

    /// Every unit profile of the table, with its place in the file.
    fn profiles(&self) -> impl Iterator<Item = (String, &UnitStats)> {
        [
            ("tank", &self.tank),
            ("target", &self.target),
            ("infantry.stats", &self.infantry.stats),
            ("apc.stats", &self.apc.stats),
            ("aa_gun.stats", &self.aa_gun.stats),
        ]
        .into_iter()
        .map(|(path, s)| (path.to_string(), s))
        .chain(
            self.unit_types
                .iter()
                .map(|(n, t)| (format!("unit_types.{n}.stats"), &t.stats)),
        )
    }

    /// Every rule of the table that a number or a name breaks, by path.
    pub(crate) fn problems(&self) -> Problems {
        let mut p = Problems::default();
        self.unit_type_problems(&mut p);
        self.profile_problems(&mut p);
        self.arc_problems(&mut p);
        self.roll_problems(&mut p);
        if self.mines.lay_range == 0 {
            p.push(
                "mines.lay_range",
                "a mine is laid at least 1 space away: a tank cannot lay one under itself",
            );
        }
        if self.default_turn_limit == 0 {
            p.push("default_turn_limit", "the turn limit must be at least 1");
        }
        self.range_problems(&mut p);
        p
    }

    /// Unit types built on a kind that takes no type, nameless, or squads that swim.
    fn unit_type_problems(&self, p: &mut Problems) {
        for (name, t) in &self.unit_types {
            let at = format!("unit_types.{name}");
            if !matches!(t.base, UnitKind::Tank | UnitKind::Apc | UnitKind::Infantry) {
                p.push(
                    format!("{at}.base"),
                    format!(
                        "a unit type is built on a Tank, an Apc or Infantry, not {}",
                        t.base.a_noun()
                    ),
                );
            }
            if name.trim().is_empty() || name.chars().any(char::is_control) {
                p.push(
                    at.clone(),
                    "a unit type needs a name without control characters",
                );
            }
            if t.movement.crosses_water && t.base == UnitKind::Infantry {
                p.push(
                    format!("{at}.movement.crosses_water"),
                    "squads ride across water only in a vehicle: give crossing to a Tank or Apc type",
                );
            }
        }
    }

    /// Profiles whose accuracy is no d6 roll, with no hull, or with armor thicker behind
    /// than in front.
    fn profile_problems(&self, p: &mut Problems) {
        for (path, s) in self.profiles() {
            if !(2..=6).contains(&s.accuracy) {
                p.push(
                    format!("{path}.accuracy"),
                    "accuracy is a d6 target number: 2 to 6",
                );
            }
            if s.hull == 0 {
                p.push(format!("{path}.hull"), "hull points must be at least 1");
            }
            if s.armor.side > s.armor.front || s.armor.rear > s.armor.side {
                p.push(
                    format!("{path}.armor"),
                    "base armor must have side <= front and rear <= side",
                );
            }
        }
    }

    /// Turret and front arcs that are not whole sixths of the hexes around.
    fn arc_problems(&self, p: &mut Problems) {
        if ![60, 120, 180, 360].contains(&self.firing.turret_arc_degrees) {
            p.push(
                "firing.turret_arc_degrees",
                "the turret arc must be 60, 120, 180 or 360 degrees",
            );
        }
        if !(60..=180).contains(&self.firing.front_arc_degrees)
            || !self.firing.front_arc_degrees.is_multiple_of(60)
        {
            p.push(
                "firing.front_arc_degrees",
                "the front arc must be 60, 120 or 180 degrees",
            );
        }
    }

    /// Target numbers no d6 roll can meet, and air strikes that get harder to call in.
    fn roll_problems(&self, p: &mut Problems) {
        for (path, v) in [
            ("damage.glancing_wound_on", self.damage.glancing_wound_on),
            ("damage.fire_on", self.damage.fire_on),
            ("damage.cook_off_on", self.damage.cook_off_on),
            (
                "firing.bring_it_down_target",
                self.firing.bring_it_down_target,
            ),
            ("air_strike.first_need", self.air_strike.first_need),
        ] {
            if !(1..=7).contains(&v) {
                p.push(path, "a d6 target number must be 1 to 6 (7 for never)");
            }
        }
        let a = &self.air_strike;
        if !(2..=6).contains(&a.best_need) {
            p.push(
                "air_strike.best_need",
                "the best roll an air strike can need is 2 to 6: a 1 never calls it in",
            );
        } else if a.best_need > a.first_need {
            p.push(
                "air_strike.best_need",
                format!(
                    "the best roll needed ({}+) cannot be harder than the first ({}+)",
                    a.best_need, a.first_need
                ),
            );
        }
    }

    /// Every number kept to a range that no sum of them can overflow: stats and
    /// upgrades at most 20 (armor 20 + 20 upgrade points still fits a byte many times
    /// over), costs and penalties far below that.
    fn range_problems(&self, p: &mut Problems) {
        self.profile_range_problems(p);
        self.upgrade_range_problems(p);
        self.cost_range_problems(p);
        self.combat_range_problems(p);
        self.option_range_problems(p);
        self.veteran_aa_gun_storm_problems(p);
    }

    /// Profile stats over the largest stat.
    fn profile_range_problems(&self, p: &mut Problems) {
        for (unit, s) in self.profiles() {
            at_most(
                p,
                STAT_MAX,
                &[
                    (&format!("{unit}.armor.front"), s.armor.front),
                    (&format!("{unit}.armor.side"), s.armor.side),
                    (&format!("{unit}.armor.rear"), s.armor.rear),
                    (&format!("{unit}.hull"), s.hull),
                    (&format!("{unit}.actions"), s.actions),
                    (&format!("{unit}.move_cap"), s.move_cap),
                    (&format!("{unit}.gun_range"), s.gun_range),
                ],
            );
        }
    }

    /// The upgrade budget over 100, and upgrade costs and effects over the largest stat.
    fn upgrade_range_problems(&self, p: &mut Problems) {
        let u = &self.upgrades;
        at_most(p, 100, &[("upgrades.budget", u.budget)]);
        at_most(
            p,
            STAT_MAX,
            &[
                ("upgrades.painted_bonus", u.painted_bonus),
                ("upgrades.named_bonus", u.named_bonus),
                ("upgrades.armor_per_point", u.armor_per_point),
                ("upgrades.armor_max_per_facing", u.armor_max_per_facing),
                ("upgrades.engine", u.engine),
                ("upgrades.barrel", u.barrel),
                ("upgrades.optics", u.optics),
                ("upgrades.he_rounds", u.he_rounds),
                ("upgrades.anti_infantry", u.anti_infantry),
                ("upgrades.smoke_launcher", u.smoke_launcher),
                ("upgrades.medkit", u.medkit),
                ("upgrades.lieutenant", u.lieutenant),
                ("upgrades.air_support", u.air_support),
                ("upgrades.mines", u.mines),
                ("upgrades.mines_max", u.mines_max),
                ("upgrades.engine_moves", u.engine_moves),
                ("upgrades.barrel_range", u.barrel_range),
                ("upgrades.optics_accuracy", u.optics_accuracy),
            ],
        );
    }

    /// Action costs over the largest stat.
    fn cost_range_problems(&self, p: &mut Problems) {
        let c = &self.costs;
        at_most(
            p,
            STAT_MAX,
            &[
                ("costs.move", c.move_forward),
                ("costs.leave_rough", c.leave_rough),
                ("costs.turn", c.turn),
                ("costs.turret", c.turret),
                ("costs.load", c.load),
                ("costs.load_wounded_loader", c.load_wounded_loader),
                ("costs.fire", c.fire),
                ("costs.smoke", c.smoke),
                ("costs.extinguish", c.extinguish),
                ("costs.lay_mine", c.lay_mine),
                ("costs.air_strike", c.air_strike),
                ("costs.take_cover", c.take_cover),
                ("costs.capture", c.capture),
                ("costs.disarm", c.disarm),
                ("costs.mount", c.mount),
                ("costs.flare", c.flare),
            ],
        );
    }

    /// Firing, damage, crew, smoke, mine and air strike numbers over the largest stat.
    fn combat_range_problems(&self, p: &mut Problems) {
        let (f, d, cr, sm) = (&self.firing, &self.damage, &self.crew, &self.smoke);
        at_most(
            p,
            STAT_MAX,
            &[
                ("firing.at_strength", f.at_strength),
                ("firing.he_strength", f.he_strength),
                ("firing.forest_penalty", f.forest_penalty),
                ("firing.hill_penalty", f.hill_penalty),
                ("firing.wounded_gunner_penalty", f.wounded_gunner_penalty),
                ("damage.fire_damage", d.fire_damage),
                ("damage.cook_off_radius", d.cook_off_radius),
                ("damage.cook_off_strength", d.cook_off_strength),
                (
                    "crew.commander_wounded_actions",
                    cr.commander_wounded_actions,
                ),
                ("crew.commander_killed_actions", cr.commander_killed_actions),
                ("crew.driver_wounded_moves", cr.driver_wounded_moves),
                ("crew.booming_voice_actions", cr.booming_voice_actions),
                ("crew.dash_spaces", cr.dash_spaces),
                ("smoke.range", sm.range),
                ("smoke.per_turn", sm.per_turn),
                ("mines.strength", self.mines.strength),
                ("mines.lay_range", self.mines.lay_range),
                ("air_strike.strength", self.air_strike.strength),
            ],
        );
    }

    /// Infantry, APC, weather, night and campaign numbers over the largest stat.
    fn option_range_problems(&self, p: &mut Problems) {
        at_most(
            p,
            STAT_MAX,
            &[
                ("infantry.cover_penalty", self.infantry.cover_penalty),
                (
                    "infantry.shots_per_activation",
                    self.infantry.shots_per_activation,
                ),
                ("infantry.riders_per_tank", self.infantry.riders_per_tank),
                ("anti_infantry.tank_range", self.anti_infantry.tank_range),
                (
                    "anti_infantry.infantry_range",
                    self.anti_infantry.infantry_range,
                ),
                (
                    "anti_infantry.tank_shots_per_activation",
                    self.anti_infantry.tank_shots_per_activation,
                ),
                ("apc.budget", self.apc.budget),
                ("apc.armor_max_per_facing", self.apc.armor_max_per_facing),
                ("apc.anti_infantry_range", self.apc.anti_infantry_range),
                ("apc.capacity", self.apc.capacity),
                (
                    "weather.storm_vehicle_accuracy",
                    self.weather.storm_vehicle_accuracy,
                ),
                (
                    "weather.storm_infantry_moves",
                    self.weather.storm_infantry_moves,
                ),
                ("night.accuracy_penalty", self.night.accuracy_penalty),
                ("night.sight_range", self.night.sight_range),
                ("night.flares_per_tank", self.night.flares_per_tank),
                ("night.flare_range", self.night.flare_range),
                ("night.flare_radius", self.night.flare_radius),
                ("campaign.xp_per_battle", self.campaign.xp_per_battle),
                ("campaign.xp_per_knock_out", self.campaign.xp_per_knock_out),
                ("campaign.veteran_at", self.campaign.veteran_at),
                (
                    "campaign.veteran_ability_uses",
                    self.campaign.veteran_ability_uses,
                ),
            ],
        );
    }

    /// A veteran ability never usable, an AA gun table empty or too long, a d6 roll in it
    /// no die can meet, and a storm on every roll.
    fn veteran_aa_gun_storm_problems(&self, p: &mut Problems) {
        if self.campaign.veteran_ability_uses == 0 {
            p.push(
                "campaign.veteran_ability_uses",
                "a veteran uses their ability at least once a battle, like everyone",
            );
        }
        if self.aa_gun.shoot_down_on.is_empty() {
            p.push(
                "aa_gun.shoot_down_on",
                "give the roll that drives a strike off with 1, 2, 3 … AA guns standing, \
                 e.g. [6, 4, 2]",
            );
        }
        if self.aa_gun.shoot_down_on.len() > 16 {
            p.push(
                "aa_gun.shoot_down_on",
                "at most 16 entries (the last one counts for any more guns)",
            );
        }
        for (k, &need) in self.aa_gun.shoot_down_on.iter().enumerate() {
            if !(1..=7).contains(&need) {
                p.push(
                    format!("aa_gun.shoot_down_on[{k}]"),
                    "a d6 target number must be 1 to 6 (7 for never)",
                );
            }
        }
        if self.weather.storm_on > 6 {
            p.push(
                "weather.storm_on",
                format!(
                    "a storm comes on a d6 roll of at most {}: that is every roll; use 0 to 6",
                    self.weather.storm_on
                ),
            );
        }
    }
}

/// A problem at each of `fields` whose value is over `limit`, in order.
fn at_most(p: &mut Problems, limit: u8, fields: &[(&str, u8)]) {
    for &(field, v) in fields {
        if v > limit {
            p.push(
                field,
                format!("{v} is too large here: the rules allow at most {limit}"),
            );
        }
    }
}

/// The largest stat, upgrade or cost a rules table may give: sums of a few of them (base
/// armor plus upgrades, a build's cost) stay far inside their integer types.
pub const STAT_MAX: u8 = 20;

pub use crate::data::find_project_file;

/// Terrain of one hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Terrain {
    #[default]
    Open,
    Mud,
    Rubble,
    Forest,
    Building,
    Hill,
    /// Open water (a sea, a river): no unit enters it, and it hides nothing.
    Water,
}

impl Terrain {
    /// The character used for this terrain in scenario `rows`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Mud => 'm',
            Terrain::Rubble => 'r',
            Terrain::Forest => 'f',
            Terrain::Building => 'B',
            Terrain::Hill => 'h',
            Terrain::Water => 'w',
        }
    }

    /// The terrain for a `rows` character; `s` is open ground under smoke.
    #[must_use]
    pub fn from_symbol(c: char) -> Option<(Terrain, bool)> {
        Some(match c {
            '.' => (Terrain::Open, false),
            'm' => (Terrain::Mud, false),
            'r' => (Terrain::Rubble, false),
            'f' => (Terrain::Forest, false),
            'B' => (Terrain::Building, false),
            'h' => (Terrain::Hill, false),
            'w' => (Terrain::Water, false),
            's' => (Terrain::Open, true),
            _ => return None,
        })
    }

    /// Leaving this hex costs the rough-ground price.
    #[must_use]
    pub const fn is_rough(self) -> bool {
        matches!(self, Terrain::Mud | Terrain::Rubble)
    }

    /// The terrain as the object of a sentence: "a building", "water".
    #[must_use]
    pub const fn a_noun(self) -> &'static str {
        match self {
            Terrain::Open => "open ground",
            Terrain::Mud => "mud",
            Terrain::Rubble => "rubble",
            Terrain::Forest => "forest",
            Terrain::Building => "a building",
            Terrain::Hill => "a hill",
            Terrain::Water => "water",
        }
    }

    /// No unit enters it: a building, or water.
    #[must_use]
    pub const fn is_impassable(self) -> bool {
        matches!(self, Terrain::Building | Terrain::Water)
    }

    #[must_use]
    pub const fn blocks_sight(self) -> bool {
        matches!(self, Terrain::Building)
    }
}

impl std::fmt::Display for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Terrain::Open => "open ground",
            Terrain::Mud => "mud",
            Terrain::Rubble => "rubble",
            Terrain::Forest => "forest",
            Terrain::Building => "building",
            Terrain::Hill => "hill",
            Terrain::Water => "water",
        })
    }
}

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum UnitKind {
    #[default]
    Tank,
    /// A static target on a training range: it never acts and has no crew.
    Target,
    /// An armored personnel carrier: no crew, turret or main gun; it carries infantry
    /// inside and fires an anti-infantry weapon.
    Apc,
    /// An infantry squad: moves in any direction, fires a missile launcher and an
    /// anti-infantry weapon, captures objectives, disarms mines, rides on tanks.
    Infantry,
    /// An anti-aircraft gun emplacement: it never moves or fires at the ground, and while
    /// it stands it may drive off the enemy's air strikes.
    AaGun,
}

impl UnitKind {
    /// True for units with a crew of named members (only tanks).
    #[must_use]
    pub const fn has_crew(self) -> bool {
        matches!(self, UnitKind::Tank)
    }

    /// True for tanks and APCs: units that drive forward and turn, take penetration
    /// rolls, burn and cook off.
    #[must_use]
    pub const fn is_vehicle(self) -> bool {
        matches!(self, UnitKind::Tank | UnitKind::Apc)
    }

    /// True for units that may carry infantry: on the outside (tanks) or inside (APCs).
    #[must_use]
    pub const fn is_carrier(self) -> bool {
        matches!(self, UnitKind::Tank | UnitKind::Apc)
    }

    /// The kind in words, with its article, for sentences.
    #[must_use]
    pub const fn a_noun(self) -> &'static str {
        match self {
            UnitKind::Tank => "a tank",
            UnitKind::Target => "a training target",
            UnitKind::Apc => "an APC",
            UnitKind::Infantry => "an infantry squad",
            UnitKind::AaGun => "an AA gun",
        }
    }
}

/// A round for the main gun.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Round {
    #[serde(rename = "AT")]
    At,
    #[serde(rename = "HE")]
    He,
}

impl std::fmt::Display for Round {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Round::At => "AT",
            Round::He => "HE",
        })
    }
}

/// Upgrade points spent on armor, per facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ArmorPoints {
    pub front: u8,
    pub side: u8,
    pub rear: u8,
}

/// A tank's upgrade build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Build {
    pub armor: ArmorPoints,
    pub engine: bool,
    pub barrel: bool,
    pub optics: bool,
    pub he_rounds: bool,
    pub anti_infantry: bool,
    pub smoke_launcher: bool,
    pub medkit: bool,
    pub lieutenant: bool,
    pub air_support: bool,
    pub mines: u8,
}

/// Why a build is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildProblem {
    /// The field at fault, relative to the build (`armor.side`), or empty.
    pub field: &'static str,
    pub message: String,
}

impl Build {
    /// The id, in Tank Commander's rules map, of the rule a problem on a unit's `field`
    /// breaks: the field relative to the unit, as the scenario check names it
    /// (`build.armor.side`, `build.engine`, `build` for the budget, `loaded`, `named`).
    #[must_use]
    pub fn rule_of(kind: UnitKind, field: &str) -> &'static str {
        let apc = kind == UnitKind::Apc;
        let Some(build) = field.strip_prefix("build") else {
            return match field {
                "loaded" => "tc.build.he-rounds",
                f if f.starts_with("veterans") => "tc.ideas.campaign",
                _ => "tc.build.painted-named",
            };
        };
        match build.trim_start_matches('.') {
            f if f.starts_with("armor") && apc => "tc.apc.armor",
            f if f.starts_with("armor") => "tc.build.armor",
            "" if apc => "tc.apc.budget",
            "" => "tc.build.budget",
            _ if apc => "tc.apc.engine-smoke",
            "engine" => "tc.build.engine",
            "barrel" => "tc.build.barrel",
            "optics" => "tc.build.optics",
            "he_rounds" => "tc.build.he-rounds",
            "anti_infantry" => "tc.build.anti-infantry",
            "smoke_launcher" => "tc.build.smoke-launcher",
            "medkit" => "tc.build.medkit",
            "lieutenant" => "tc.build.lieutenant",
            "air_support" => "tc.build.air-support",
            "mines" => "tc.build.mines",
            _ => "tc.build.budget",
        }
    }

    /// The on/off upgrades of the build that are on, by name ("engine", "long barrel"),
    /// in the builder's order; armor points and mines are counted apart.
    #[must_use]
    pub fn switched_on(&self) -> Vec<&'static str> {
        [
            (self.engine, "engine"),
            (self.barrel, "long barrel"),
            (self.optics, "optics"),
            (self.he_rounds, "HE rounds"),
            (self.smoke_launcher, "smoke launcher"),
            (self.medkit, "medkit"),
            (self.lieutenant, "lieutenant"),
            (self.anti_infantry, "anti-infantry"),
            (self.air_support, "air support"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }

    /// Upgrade points this build costs.
    #[must_use]
    pub fn cost(&self, u: &UpgradeRules) -> u32 {
        let flag = |on: bool, cost: u8| if on { u32::from(cost) } else { 0 };
        (u32::from(self.armor.front) + u32::from(self.armor.side) + u32::from(self.armor.rear))
            * u32::from(u.armor_per_point)
            + flag(self.engine, u.engine)
            + flag(self.barrel, u.barrel)
            + flag(self.optics, u.optics)
            + flag(self.he_rounds, u.he_rounds)
            + flag(self.anti_infantry, u.anti_infantry)
            + flag(self.smoke_launcher, u.smoke_launcher)
            + flag(self.medkit, u.medkit)
            + flag(self.lieutenant, u.lieutenant)
            + flag(self.air_support, u.air_support)
            + u32::from(self.mines) * u32::from(u.mines)
    }

    /// Points available to a tank with these flags.
    #[must_use]
    pub fn budget(u: &UpgradeRules, painted: bool, named: bool) -> u32 {
        u32::from(u.budget)
            + if painted {
                u32::from(u.painted_bonus)
            } else {
                0
            }
            + if named { u32::from(u.named_bonus) } else { 0 }
    }

    /// Points available to a unit of `kind`: a tank's budget with its bonuses, an APC's
    /// flat budget, nothing for the rest.
    #[must_use]
    pub fn budget_for(kind: UnitKind, rules: &Rules, painted: bool, named: bool) -> u32 {
        match kind {
            UnitKind::Tank => Self::budget(&rules.upgrades, painted, named),
            UnitKind::Apc => u32::from(rules.apc.budget),
            UnitKind::Target | UnitKind::Infantry | UnitKind::AaGun => 0,
        }
    }

    /// The most upgrade points one facing's armor may take on a unit of `kind`.
    #[must_use]
    pub fn armor_cap(kind: UnitKind, rules: &Rules) -> u8 {
        match kind {
            UnitKind::Apc => rules.apc.armor_max_per_facing,
            _ => rules.upgrades.armor_max_per_facing,
        }
    }

    /// True when a unit of `kind` may take the upgrade in build field `field`
    /// (`armor.front`, `engine`, `mines` …): tanks take every one; APCs armor, the
    /// engine and the smoke launcher.
    #[must_use]
    pub fn allows(kind: UnitKind, field: &str) -> bool {
        match kind {
            UnitKind::Tank => true,
            UnitKind::Apc => {
                field.starts_with("armor.") || matches!(field, "engine" | "smoke_launcher")
            }
            UnitKind::Target | UnitKind::Infantry | UnitKind::AaGun => false,
        }
    }

    /// The build's one-point upgrades, by field name, and whether each is taken.
    #[must_use]
    pub fn flags(&self) -> [(&'static str, bool); 9] {
        [
            ("engine", self.engine),
            ("barrel", self.barrel),
            ("optics", self.optics),
            ("he_rounds", self.he_rounds),
            ("anti_infantry", self.anti_infantry),
            ("smoke_launcher", self.smoke_launcher),
            ("medkit", self.medkit),
            ("lieutenant", self.lieutenant),
            ("air_support", self.air_support),
        ]
    }

    /// The armor this build gives on top of `base`.
    #[must_use]
    pub fn armor(&self, base: Armor) -> Armor {
        Armor {
            front: base.front.saturating_add(self.armor.front),
            side: base.side.saturating_add(self.armor.side),
            rear: base.rear.saturating_add(self.armor.rear),
        }
    }

    /// Every rule this build breaks on a unit of `kind`, each with a sentence saying why.
    #[must_use]
    pub fn problems(
        &self,
        kind: UnitKind,
        rules: &Rules,
        painted: bool,
        named: bool,
    ) -> Vec<BuildProblem> {
        self.problems_on(kind, rules.stats(kind).armor, rules, (painted, named, 0))
    }

    /// [`Build::problems`] on a unit whose base armor is `base` (a unit type of the rules
    /// table has its own).
    #[must_use]
    ///
    /// `(painted, named, earned)` make the budget: its bonuses, and the points a
    /// campaign's tank has earned.
    pub fn problems_on(
        &self,
        kind: UnitKind,
        base: Armor,
        rules: &Rules,
        (painted, named, earned): (bool, bool, u32),
    ) -> Vec<BuildProblem> {
        let u = &rules.upgrades;
        let mut out = Vec::new();
        self.upgrades_not_allowed(kind, rules, &mut out);
        self.armor_order_problems(base, &mut out);
        if self.mines > u.mines_max {
            out.push(BuildProblem {
                field: "mines",
                message: format!(
                    "a tank carries at most {} mines, not {}",
                    u.mines_max, self.mines
                ),
            });
        }
        self.cost_problems(kind, rules, (painted, named, earned), &mut out);
        out
    }

    /// Upgrades a unit of `kind` may not take, and armor upgrades over its cap.
    fn upgrades_not_allowed(&self, kind: UnitKind, rules: &Rules, out: &mut Vec<BuildProblem>) {
        let cap = Self::armor_cap(kind, rules);
        for (field, v) in [
            ("armor.front", self.armor.front),
            ("armor.side", self.armor.side),
            ("armor.rear", self.armor.rear),
        ] {
            if v > 0 && !Self::allows(kind, field) {
                out.push(BuildProblem {
                    field,
                    message: format!("{} takes no armor upgrades", kind.a_noun()),
                });
            } else if v > cap {
                out.push(BuildProblem {
                    field,
                    message: format!(
                        "{} armor takes at most {cap} upgrade points, not {v}",
                        &field[6..],
                    ),
                });
            }
        }
        for (field, on) in self.flags().into_iter().chain([("mines", self.mines > 0)]) {
            if on && !Self::allows(kind, field) {
                out.push(BuildProblem {
                    field,
                    message: format!(
                        "{} cannot take the {} upgrade",
                        kind.a_noun(),
                        field.replace('_', " ")
                    ),
                });
            }
        }
    }

    /// Armor that would be thicker at the side than the front, or at the rear than the side.
    fn armor_order_problems(&self, base: Armor, out: &mut Vec<BuildProblem>) {
        let armor = self.armor(base);
        if armor.side > armor.front {
            out.push(BuildProblem {
                field: "armor.side",
                message: format!(
                    "side armor {} cannot exceed front armor {}",
                    armor.side, armor.front
                ),
            });
        }
        if armor.rear > armor.side {
            out.push(BuildProblem {
                field: "armor.rear",
                message: format!(
                    "rear armor {} cannot exceed side armor {}",
                    armor.rear, armor.side
                ),
            });
        }
    }

    /// A build that costs more than the unit's budget, with where the budget comes from.
    fn cost_problems(
        &self,
        kind: UnitKind,
        rules: &Rules,
        (painted, named, earned): (bool, bool, u32),
        out: &mut Vec<BuildProblem>,
    ) {
        let u = &rules.upgrades;
        let cost = self.cost(u);
        let budget = Self::budget_for(kind, rules, painted, named) + earned;
        if kind == UnitKind::Apc && cost > budget {
            out.push(BuildProblem {
                field: "",
                message: format!("the build costs {cost} upgrade points but an APC has {budget}"),
            });
        } else if cost > budget {
            out.push(BuildProblem {
                field: "",
                message: format!(
                    "the build costs {cost} upgrade points but only {budget} are available ({} base{}{}{})",
                    u.budget,
                    if painted { format!(", +{} painted", u.painted_bonus) } else { String::new() },
                    if named { format!(", +{} named", u.named_bonus) } else { String::new() },
                    if earned > 0 { format!(", +{earned} earned in the campaign") } else { String::new() },
                ),
            });
        }
    }
}

/// Crew names. A tank counts as "named" for the bonus point only when every member it
/// carries has a name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct CrewNames {
    pub commander: String,
    pub driver: String,
    pub gunner: String,
    pub loader: String,
    pub lieutenant: String,
}

impl CrewNames {
    /// The name of the crew member in `role`.
    #[must_use]
    pub fn of(&self, role: Role) -> &str {
        match role {
            Role::Commander => &self.commander,
            Role::Driver => &self.driver,
            Role::Gunner => &self.gunner,
            Role::Loader => &self.loader,
            Role::Lieutenant => &self.lieutenant,
        }
    }

    /// The name of the crew member in `role`, to set.
    pub fn of_mut(&mut self, role: Role) -> &mut String {
        match role {
            Role::Commander => &mut self.commander,
            Role::Driver => &mut self.driver,
            Role::Gunner => &mut self.gunner,
            Role::Loader => &mut self.loader,
            Role::Lieutenant => &mut self.lieutenant,
        }
    }

    /// Notes every crew name (under `at`, `units[2].crew`) holding a control character:
    /// names are echoed to the terminal and the log, so an escape would act on them.
    pub fn check(&self, at: &str, p: &mut Problems) {
        for (role, name) in [
            ("commander", &self.commander),
            ("driver", &self.driver),
            ("gunner", &self.gunner),
            ("loader", &self.loader),
            ("lieutenant", &self.lieutenant),
        ] {
            if name.chars().any(char::is_control) {
                p.push(
                    format!("{at}.{role}"),
                    format!("the {role}'s name {name:?} holds a control character (a tab, a line break or a terminal escape)"),
                );
            }
        }
    }
}

/// A tank's design, as saved in `builds/*.ron`: everything about a tank that does not
/// depend on where it stands.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename = "TankDesign")]
pub struct TankDesign {
    pub name: String,
    #[serde(default)]
    pub painted: bool,
    /// Claims the named bonus: an epic name and a name for every crew member carried.
    #[serde(default)]
    pub named: bool,
    #[serde(default)]
    pub crew: CrewNames,
    #[serde(default)]
    pub build: Build,
}

impl Default for TankDesign {
    fn default() -> Self {
        Self {
            name: "New tank".into(),
            painted: false,
            named: false,
            crew: CrewNames::default(),
            build: Build::default(),
        }
    }
}

impl TankDesign {
    /// The design of a scenario's tank.
    #[must_use]
    pub fn of(unit: &UnitSetup) -> Self {
        Self {
            name: unit.name.clone(),
            painted: unit.painted,
            named: unit.named,
            crew: unit.crew.clone(),
            build: unit.build,
        }
    }

    /// Gives `unit` this design's name, paint, crew and build; where it stands, and the
    /// round in its gun, stay as they are.
    pub fn apply_to(&self, unit: &mut UnitSetup) {
        unit.name.clone_from(&self.name);
        unit.painted = self.painted;
        unit.named = self.named;
        unit.crew.clone_from(&self.crew);
        unit.build = self.build;
    }

    /// A tank with this design, placed nowhere (the standalone builder).
    #[must_use]
    pub fn unit(&self) -> UnitSetup {
        let mut unit = UnitSetup {
            side: String::new(),
            kind: UnitKind::Tank,
            name: String::new(),
            at: String::new(),
            facing: Facing::N,
            turret: None,
            build: Build::default(),
            crew: CrewNames::default(),
            painted: false,
            named: false,
            loaded: None,
            unit_type: None,
            veterans: Vec::new(),
            earned: 0,
        };
        self.apply_to(&mut unit);
        unit
    }
}

/// A side of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSetup {
    pub name: String,
}

/// A unit as written in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSetup {
    /// The side's name, as in `sides`.
    pub side: String,
    #[serde(default)]
    pub kind: UnitKind,
    pub name: String,
    /// The hex, like `C5`.
    pub at: String,
    pub facing: Facing,
    /// Turret direction; the hull facing when left out.
    #[serde(default)]
    pub turret: Option<Facing>,
    #[serde(default)]
    pub build: Build,
    #[serde(default)]
    pub crew: CrewNames,
    #[serde(default)]
    pub painted: bool,
    #[serde(default)]
    pub named: bool,
    /// The round in the gun at the start; AT when left out.
    #[serde(default)]
    pub loaded: Option<Round>,
    /// A unit type of the rules table (`type: "Hover Tank"`): its profile and movement
    /// replace the chassis's.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub unit_type: Option<String>,
    /// Crew members who are veterans (a campaign's, or the designer's choice): each may
    /// use their ability `campaign.veteran_ability_uses` times a battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub veterans: Vec<Role>,
    /// Upgrade points a campaign's tank has earned in its battles, on top of its budget
    /// (`docs/rules/tank-commander.md`, Campaigns: refits between battles).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub earned: u32,
}

impl UnitSetup {
    /// The upgrade points its build may cost: its kind's budget with its bonuses, and the
    /// points it earned in a campaign.
    #[must_use]
    pub fn budget(&self, rules: &Rules) -> u32 {
        Build::budget_for(self.kind, rules, self.painted, self.named) + self.earned
    }
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if"
)]
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A patch of terrain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainPatch {
    pub at: Vec<String>,
    pub terrain: Terrain,
}

/// The board's terrain: a default, then painted rows, then patches; smoke on top.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct TerrainSetup {
    pub default: Terrain,
    /// One string per row, one character per hex: `.` open, `m` mud, `r` rubble,
    /// `f` forest, `B` building, `h` hill, `w` water, `s` smoke over open ground. Spaces are
    /// ignored.
    pub rows: Vec<String>,
    pub patches: Vec<TerrainPatch>,
    pub smoke: Vec<String>,
}

/// The board's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSetup {
    pub width: u16,
    pub height: u16,
}

/// An edge of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edge {
    North,
    South,
    East,
    West,
}

/// What a side must do to win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Mission {
    /// Disable or destroy every enemy unit.
    #[default]
    DestroyAll,
    /// The attacker wins by driving a tank onto the far edge; the defender wins by
    /// holding until the turn limit or destroying the attackers.
    Breakthrough { attacker: String, edge: Edge },
    /// One side drives its tank through every waypoint and knocks out every target.
    Training { waypoints: Vec<String> },
    /// The first side to hold `count` of the scenario's objectives wins; infantry
    /// capture them by standing on them.
    CaptureObjectives { count: u8 },
    /// The `escort` side wins by bringing the infantry squad named `squad` alive onto
    /// the `edge` (on foot or carried); the other side wins by destroying it or by
    /// holding until the turn limit.
    Escort {
        escort: String,
        squad: String,
        edge: Edge,
    },
    /// The `attacker` wins by knocking out the enemy unit named `unit`, or by bringing
    /// down the building at `building` (one of the two); the defender wins by knocking
    /// out the attackers or by holding until the turn limit.
    DestroyTarget {
        attacker: String,
        #[serde(default)]
        unit: Option<String>,
        #[serde(default)]
        building: Option<String>,
    },
    /// The `attacker` wins by knocking out every AA gun of the other side; the defender
    /// wins by knocking out the attackers or by holding until the turn limit.
    DisableAaGuns { attacker: String },
    /// The `attacker` wins when a turn ends with one of its working units inside `area`
    /// and none of the defender's; the defender wins by knocking out the attackers or by
    /// holding until the turn limit.
    TakeArea { attacker: String, area: Vec<String> },
    /// The `attacker` wins when `tanks` of its working tanks stand on the `edge` at once,
    /// across the minefield between; the defender wins when the attacker has fewer
    /// working tanks than that, by knocking out the attackers, or by holding until the
    /// turn limit.
    CrossMinefield {
        attacker: String,
        edge: Edge,
        tanks: u8,
    },
}

/// What a Destroy Target mission must destroy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissionTarget {
    Unit(UnitId),
    Building(Hex),
}

/// What happens when the turn limit is reached without a winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TurnLimitResult {
    /// The battle is drawn.
    #[default]
    Draw,
    /// The side with more working units wins; then more hull points; else a draw.
    Points,
}

/// Victory rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct VictorySetup {
    pub mission: Mission,
    /// Turns in the battle; the rules' default when left out.
    pub turn_limit: Option<u8>,
    pub at_turn_limit: TurnLimitResult,
}

/// A scenario file as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Scenario")]
pub struct ScenarioSetup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub board: BoardSetup,
    #[serde(default)]
    pub terrain: TerrainSetup,
    pub sides: Vec<SideSetup>,
    pub units: Vec<UnitSetup>,
    #[serde(default)]
    pub victory: VictorySetup,
    #[serde(default)]
    pub mines: MinesSetup,
    /// Objective spaces that infantry can capture.
    #[serde(default)]
    pub objectives: Vec<String>,
    #[serde(default)]
    pub seed: Option<u64>,
    /// The Weather option: a storm may blow in at the start of each turn.
    #[serde(default)]
    pub weather: bool,
    /// The Night Fighting option: shots see less far and need more, flares light spaces.
    #[serde(default)]
    pub night: bool,
    /// Air strikes a side may call without the Air Support upgrade (any of its tanks
    /// calls one, at most one a turn each).
    #[serde(default)]
    pub air_support: Vec<AirSupportSetup>,
}

/// Free air strikes for one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirSupportSetup {
    /// The side, as in `sides`.
    pub side: String,
    pub strikes: u8,
}

/// Mines laid before the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct MinesSetup {
    /// Each side sees only its own mines (in hot seat, behind the privacy screen).
    pub hidden: bool,
    pub fields: Vec<MineField>,
}

/// Mines laid by one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MineField {
    /// The side that laid them, as in `sides`.
    pub side: String,
    pub at: Vec<String>,
}

/// A unit ready to be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitInit {
    pub setup: UnitSetup,
    pub side: u8,
    pub at: Hex,
    pub turret: Facing,
}

/// A validated mission.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissionRules {
    DestroyAll,
    Breakthrough { attacker: u8, edge: Edge },
    Training { waypoints: Vec<Hex> },
    CaptureObjectives { count: u8 },
    Escort { side: u8, squad: UnitId, edge: Edge },
    DestroyTarget { attacker: u8, target: MissionTarget },
    DisableAaGuns { attacker: u8 },
    TakeArea { attacker: u8, area: Vec<Hex> },
    CrossMinefield { attacker: u8, edge: Edge, tanks: u8 },
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub setup: ScenarioSetup,
    pub board: HexBoard,
    pub terrain: Vec<Terrain>,
    pub smoke: Vec<bool>,
    pub units: Vec<UnitInit>,
    /// Mines laid before the battle: where, and whose.
    pub mines: Vec<(Hex, u8)>,
    /// Objective spaces, in file order.
    pub objectives: Vec<Hex>,
    pub mission: MissionRules,
    pub turn_limit: u8,
    /// Free air strikes per side, by side index.
    pub air_support: Vec<u8>,
}

impl Scenario {
    /// Reads and validates scenario text.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(file: &str, text: &str, rules: &Rules) -> Result<Self, Diagnostics> {
        data::parse_validated(file, text, |setup: ScenarioSetup| {
            Self::validate(setup, rules)
        })
    }

    /// Reads and validates a scenario file.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn load(path: &Path, rules: &Rules) -> Result<Self, Diagnostics> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
        Self::parse(&name, &text, rules)
    }

    /// The default scenario, compiled in.
    ///
    /// # Panics
    /// Never in a release: a unit test checks the shipped file.
    #[must_use]
    pub fn builtin_default() -> Self {
        Self::parse(
            "scenarios/skirmish.ron",
            BUILTIN_SCENARIO,
            &Rules::builtin(),
        )
        .expect("the shipped default scenario is valid")
    }

    /// Validates a setup, listing every problem by path.
    ///
    /// # Errors
    /// Every problem found.
    pub fn validate(setup: ScenarioSetup, rules: &Rules) -> Result<Self, Problems> {
        let mut problems = Problems::default();
        let mut check = ScenarioCheck::on_board(&setup, rules, &mut problems);
        check.lay_terrain_rows(&mut problems);
        check.lay_terrain_patches(&mut problems);
        check.lay_smoke(&mut problems);
        check.check_side_count(&mut problems);
        check.check_side_and_unit_names(&mut problems);
        check.check_crews(&mut problems);
        let (units, occupied) = check.place_units(&mut problems);
        check.check_unit_count(&mut problems);
        let mines = check.lay_mines(&occupied, &mut problems);
        let objectives = check.objectives(&mut problems);
        let mission = check.mission(&units, &objectives, &mut problems);
        let air_support = check.air_support(&mut problems);
        check.check_sides_fielded(&units, &mut problems);
        let turn_limit = check.turn_limit(&mut problems);
        check.check_units_present(&mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        let ScenarioCheck {
            board,
            terrain,
            smoke,
            ..
        } = check;
        Ok(Scenario {
            setup,
            board,
            terrain,
            smoke,
            units,
            mines,
            objectives,
            mission,
            turn_limit,
            air_support,
        })
    }
}

/// A scenario being validated: the file, the rules it is checked against, and the ground
/// laid so far. Each check lists its problems in file order; `Scenario::validate` runs
/// them in the order a reader meets the fields.
struct ScenarioCheck<'a> {
    setup: &'a ScenarioSetup,
    rules: &'a Rules,
    board: HexBoard,
    terrain: Vec<Terrain>,
    smoke: Vec<bool>,
}

impl<'a> ScenarioCheck<'a> {
    /// Checks the board's size and covers a board of that size (clamped) with the default
    /// terrain, without smoke.
    fn on_board(setup: &'a ScenarioSetup, rules: &'a Rules, problems: &mut Problems) -> Self {
        let BoardSetup { width, height } = setup.board;
        if !(2..=60).contains(&width) {
            problems.push(
                "board.width",
                format!("the board must be 2 to 60 hexes wide, not {width}"),
            );
        }
        if !(2..=60).contains(&height) {
            problems.push(
                "board.height",
                format!("the board must be 2 to 60 hexes high, not {height}"),
            );
        }
        let board = HexBoard::new(width.clamp(2, 60), height.clamp(2, 60));
        Self {
            setup,
            rules,
            board,
            terrain: vec![setup.terrain.default; board.len()],
            smoke: vec![false; board.len()],
        }
    }

    /// Paints the terrain rows, checking their count, their widths and their symbols.
    fn lay_terrain_rows(&mut self, problems: &mut Problems) {
        let setup = self.setup;
        let rows = &setup.terrain.rows;
        let board = self.board;
        if !rows.is_empty() && rows.len() != usize::from(board.height) {
            problems.push(
                "terrain.rows",
                format!(
                    "there are {} terrain rows but the board is {} rows high",
                    rows.len(),
                    board.height
                ),
            );
        }
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.len() != usize::from(board.width) {
                problems.push(
                    format!("terrain.rows[{r}]"),
                    format!(
                        "row {} has {} hexes but the board is {} wide",
                        r + 1,
                        cells.len(),
                        board.width
                    ),
                );
            }
            for (c, ch) in cells.iter().enumerate() {
                let hex = board.hex_at(c as i32, r as i32);
                let Some(i) = board.index(hex) else { continue };
                match Terrain::from_symbol(*ch) {
                    Some((t, s)) => {
                        self.terrain[i] = t;
                        self.smoke[i] = s;
                    }
                    None => problems.push(
                        format!("terrain.rows[{r}]"),
                        format!(
                            "`{ch}` in row {} is not a terrain: use . m r f B h w s",
                            r + 1
                        ),
                    ),
                }
            }
        }
    }

    /// Paints the terrain patches over the rows.
    fn lay_terrain_patches(&mut self, problems: &mut Problems) {
        let setup = self.setup;
        for (k, patch) in setup.terrain.patches.iter().enumerate() {
            for (j, label) in patch.at.iter().enumerate() {
                if let Some(h) =
                    self.hex_of(problems, format!("terrain.patches[{k}].at[{j}]"), label)
                    && let Some(i) = self.board.index(h)
                {
                    self.terrain[i] = patch.terrain;
                }
            }
        }
    }

    /// Lays the smoke listed on its own over the painted terrain.
    fn lay_smoke(&mut self, problems: &mut Problems) {
        let setup = self.setup;
        for (j, label) in setup.terrain.smoke.iter().enumerate() {
            if let Some(h) = self.hex_of(problems, format!("terrain.smoke[{j}]"), label)
                && let Some(i) = self.board.index(h)
            {
                self.smoke[i] = true;
            }
        }
    }

    /// The space `label` names, or a problem at `path` when it names none on the board.
    fn hex_of(&self, problems: &mut Problems, path: String, label: &str) -> Option<Hex> {
        let board = self.board;
        match board.parse(label) {
            Ok(h) if board.contains(h) => Some(h),
            Ok(_) => {
                problems.push(
                    path,
                    format!(
                        "{label} is off the board ({} columns A-{}, rows 1-{})",
                        board.width,
                        crate::grid::hex::column_letters(i32::from(board.width) - 1),
                        board.height
                    ),
                );
                None
            }
            Err(e) => {
                problems.push(path, e);
                None
            }
        }
    }

    /// What stands on a space no unit enters, if anything does.
    fn blocked(&self, h: Hex) -> Option<Terrain> {
        self.board
            .index(h)
            .map(|i| self.terrain[i])
            .filter(|t| t.is_impassable())
    }

    /// Distinct spaces that a unit can stand on, from `labels` at `path[j]`; `on` says
    /// what a space that none can is, `twice` what a space named again is.
    fn open_spaces(
        &self,
        problems: &mut Problems,
        path: &str,
        labels: &[String],
        on: &dyn Fn(&str, Terrain) -> String,
        twice: &dyn Fn(&str) -> String,
    ) -> Vec<Hex> {
        let mut hexes = Vec::new();
        for (j, label) in labels.iter().enumerate() {
            let at = format!("{path}[{j}]");
            let Some(h) = self.hex_of(problems, at.clone(), label) else {
                continue;
            };
            if let Some(t) = self.blocked(h) {
                problems.push(at, on(label, t));
            } else if hexes.contains(&h) {
                problems.push(at, twice(label));
            } else {
                hexes.push(h);
            }
        }
        hexes
    }

    /// The index of the side called `name`, if the scenario has one.
    fn side_index(&self, name: &str) -> Option<usize> {
        self.setup.sides.iter().position(|s| s.name == name)
    }

    /// Checks that the battle has exactly two sides.
    fn check_side_count(&self, problems: &mut Problems) {
        if self.setup.sides.len() != 2 {
            problems.push(
                "sides",
                format!(
                    "Tank Commander is played by 2 sides, not {}",
                    self.setup.sides.len()
                ),
            );
        }
    }

    /// Checks that every side and every unit has a name of its own.
    fn check_side_and_unit_names(&self, problems: &mut Problems) {
        let setup = self.setup;
        data::check_names(
            problems,
            ("a side", "sides"),
            setup
                .sides
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("sides[{i}].name"), s.name.as_str())),
        );
        data::check_names(
            problems,
            ("a unit", "units"),
            setup
                .units
                .iter()
                .enumerate()
                .map(|(k, u)| (format!("units[{k}].name"), u.name.as_str())),
        );
    }

    /// Checks each unit's crew names and which of its crew are veterans.
    fn check_crews(&self, problems: &mut Problems) {
        for (k, u) in self.setup.units.iter().enumerate() {
            u.crew.check(&format!("units[{k}].crew"), problems);
            for (i, role) in u.veterans.iter().enumerate() {
                let at = format!("units[{k}].veterans[{i}]");
                if u.kind != UnitKind::Tank {
                    problems.push(at, "only a tank's crew can be veterans");
                } else if *role == Role::Lieutenant && !u.build.lieutenant {
                    problems.push(
                        at,
                        "this tank has no Lieutenant Commander (the `lieutenant` upgrade)",
                    );
                } else if u.veterans[..i].contains(role) {
                    problems.push(at, format!("the {role} is named twice"));
                }
            }
        }
    }

    /// Checks every unit and places, in file order, those whose side and space are known;
    /// also says which unit stands where, for the mines.
    fn place_units(&self, problems: &mut Problems) -> (Vec<UnitInit>, Vec<(Hex, String)>) {
        let mut units = Vec::new();
        let mut occupied: Vec<(Hex, String)> = Vec::new();
        for (k, u) in self.setup.units.iter().enumerate() {
            let path = format!("units[{k}]");
            let side = self.unit_side(&path, u, problems);
            check_kind_fields(&path, u, problems);
            self.check_unit_type(&path, u, problems);
            let at = self.place_unit(&path, u, &mut occupied, problems);
            if u.kind.is_vehicle() {
                self.check_vehicle(&path, u, problems);
            } else if u.build != Build::default() {
                problems.push(
                    format!("{path}.build"),
                    format!("`{}` is {} and takes no upgrades", u.name, u.kind.a_noun()),
                );
            }
            if let (Some(side), Some(at)) = (side, at) {
                units.push(UnitInit {
                    setup: u.clone(),
                    side: side as u8,
                    at,
                    turret: u.turret.unwrap_or(u.facing),
                });
            }
        }
        (units, occupied)
    }

    /// The index of the unit's side, or a problem when the scenario has no such side.
    fn unit_side(&self, path: &str, u: &UnitSetup, problems: &mut Problems) -> Option<usize> {
        let side = self.side_index(&u.side);
        if side.is_none() {
            let names: Vec<&str> = self.setup.sides.iter().map(|s| s.name.as_str()).collect();
            problems.push(
                format!("{path}.side"),
                format!(
                    "`{}` is not a side of this scenario (sides: {})",
                    u.side,
                    names.join(", ")
                ),
            );
        }
        side
    }

    /// Checks that the unit's `type`, if any, is in the rules table and built on its kind.
    fn check_unit_type(&self, path: &str, u: &UnitSetup, problems: &mut Problems) {
        let Some(name) = &u.unit_type else {
            return;
        };
        match self.rules.unit_types.get(name) {
            None => {
                let known: Vec<&str> = self.rules.unit_types.keys().map(String::as_str).collect();
                problems.push(
                    format!("{path}.type"),
                    format!(
                        "`{}` is of type `{name}`, which the rules table does not \
                         define ({})",
                        u.name,
                        if known.is_empty() {
                            "it defines no unit types".to_string()
                        } else {
                            format!("types: {}", known.join(", "))
                        }
                    ),
                );
            }
            Some(t) if t.base != u.kind => problems.push(
                format!("{path}.kind"),
                format!(
                    "`{}` is a {name}, which is built on {}: write `kind: {:?}`",
                    u.name,
                    t.base.a_noun(),
                    t.base
                ),
            ),
            Some(_) => {}
        }
    }

    /// The unit's space, checking that it may stand there and stands there alone; the
    /// unit is added to `occupied`.
    fn place_unit(
        &self,
        path: &str,
        u: &UnitSetup,
        occupied: &mut Vec<(Hex, String)>,
        problems: &mut Problems,
    ) -> Option<Hex> {
        let at = self.hex_of(problems, format!("{path}.at"), &u.at);
        if let Some(h) = at {
            let terrain = &self.terrain;
            let i = self.board.index(h).unwrap_or(0);
            let afloat = terrain[i] == Terrain::Water
                && self.rules.movement(u.unit_type.as_deref()).crosses_water;
            if terrain[i].is_impassable() && !afloat {
                problems.push(
                    format!("{path}.at"),
                    format!(
                        "`{}` is placed on {} at {}",
                        u.name,
                        terrain[i].a_noun(),
                        u.at
                    ),
                );
            }
            if let Some((_, other)) = occupied.iter().find(|(o, _)| *o == h) {
                problems.push(
                    format!("{path}.at"),
                    format!("`{}` and `{other}` are both placed at {}", u.name, u.at),
                );
            }
            occupied.push((h, u.name.clone()));
        }
        at
    }

    /// Checks a vehicle's upgrades, its loaded round and, if it claims the named bonus,
    /// its crew's names.
    fn check_vehicle(&self, path: &str, u: &UnitSetup, problems: &mut Problems) {
        let rules = self.rules;
        let base = rules.profile(u.kind, u.unit_type.as_deref()).armor;
        for problem in u
            .build
            .problems_on(u.kind, base, rules, (u.painted, u.named, u.earned))
        {
            let field = if problem.field.is_empty() {
                format!("{path}.build")
            } else {
                format!("{path}.build.{}", problem.field)
            };
            problems.push(field, format!("`{}`: {}", u.name, problem.message));
        }
        if u.loaded == Some(Round::He) && !u.build.he_rounds {
            problems.push(
                format!("{path}.loaded"),
                format!(
                    "`{}` starts with HE loaded but has no HE rounds upgrade",
                    u.name
                ),
            );
        }
        if u.named {
            check_named_crew(path, u, problems);
        }
    }

    /// Checks that the scenario holds no more units than a battle can number.
    fn check_unit_count(&self, problems: &mut Problems) {
        if self.setup.units.len() > 250 {
            problems.push("units", "a scenario holds at most 250 units");
        }
    }

    /// The mines laid before the battle, each on open ground no unit stands on, once.
    fn lay_mines(&self, occupied: &[(Hex, String)], problems: &mut Problems) -> Vec<(Hex, u8)> {
        let mut mines = Vec::new();
        for (k, field) in self.setup.mines.fields.iter().enumerate() {
            let side = self.side_index(&field.side);
            if side.is_none() {
                problems.push(
                    format!("mines.fields[{k}].side"),
                    format!("`{}` is not a side of this scenario", field.side),
                );
            }
            for (j, label) in field.at.iter().enumerate() {
                let path = format!("mines.fields[{k}].at[{j}]");
                let Some(h) = self.hex_of(problems, path.clone(), label) else {
                    continue;
                };
                if let Some(t) = self.blocked(h) {
                    problems.push(
                        path,
                        format!("a mine at {label} would lie in {}", t.a_noun()),
                    );
                } else if let Some((_, who)) = occupied.iter().find(|(o, _)| *o == h) {
                    problems.push(
                        path,
                        format!("a mine at {label} would lie under `{who}` before the battle"),
                    );
                } else if mines.iter().any(|(m, _)| *m == h) {
                    problems.push(path, format!("{label} is mined twice"));
                } else if let Some(side) = side {
                    mines.push((h, side as u8));
                }
            }
        }
        mines
    }

    /// The objective spaces, each one a squad could reach, once.
    fn objectives(&self, problems: &mut Problems) -> Vec<Hex> {
        self.open_spaces(
            problems,
            "objectives",
            &self.setup.objectives,
            &|label, t| {
                format!(
                    "the objective at {label} is on {}: no squad could reach it",
                    t.a_noun()
                )
            },
            &|label| format!("{label} is an objective twice"),
        )
    }

    /// The mission, checked against the sides, units and objectives placed; a mission
    /// that cannot be played falls back to Destroy All, with its problems listed.
    fn mission(
        &self,
        units: &[UnitInit],
        objectives: &[Hex],
        problems: &mut Problems,
    ) -> MissionRules {
        match &self.setup.victory.mission {
            Mission::DestroyAll => MissionRules::DestroyAll,
            Mission::Breakthrough { attacker, edge } => {
                self.breakthrough_mission(attacker, *edge, problems)
            }
            Mission::Training { waypoints } => self.training_mission(waypoints, units, problems),
            Mission::CaptureObjectives { count } => {
                self.capture_mission(*count, units, objectives, problems)
            }
            Mission::Escort {
                escort,
                squad,
                edge,
            } => self.escort_mission(escort, squad, *edge, problems),
            Mission::DestroyTarget {
                attacker,
                unit,
                building,
            } => self.destroy_target_mission(
                attacker,
                unit.as_deref(),
                building.as_deref(),
                problems,
            ),
            Mission::DisableAaGuns { attacker } => {
                self.disable_aa_mission(attacker, units, problems)
            }
            Mission::TakeArea { attacker, area } => {
                self.take_area_mission(attacker, area, problems)
            }
            Mission::CrossMinefield {
                attacker,
                edge,
                tanks,
            } => self.cross_minefield_mission(attacker, *edge, *tanks, units, problems),
        }
    }

    /// Breakthrough: the attacker must be a side.
    fn breakthrough_mission(
        &self,
        attacker: &str,
        edge: Edge,
        problems: &mut Problems,
    ) -> MissionRules {
        match self.side_index(attacker) {
            Some(a) => MissionRules::Breakthrough {
                attacker: a as u8,
                edge,
            },
            None => {
                problems.push(
                    "victory.mission",
                    format!("the attacker `{attacker}` is not a side of this scenario"),
                );
                MissionRules::DestroyAll
            }
        }
    }

    /// Training: waypoints on the board, and a tank on the first side to drive through them.
    fn training_mission(
        &self,
        waypoints: &[String],
        units: &[UnitInit],
        problems: &mut Problems,
    ) -> MissionRules {
        let mut hexes = Vec::new();
        for (j, w) in waypoints.iter().enumerate() {
            if let Some(h) = self.hex_of(problems, format!("victory.mission.waypoints[{j}]"), w) {
                if let Some(t) = self.blocked(h) {
                    problems.push(
                        format!("victory.mission.waypoints[{j}]"),
                        format!("waypoint {w} is on {}", t.a_noun()),
                    );
                }
                hexes.push(h);
            }
        }
        let tanks = units
            .iter()
            .filter(|u| u.side == 0 && u.setup.kind == UnitKind::Tank)
            .count();
        if tanks == 0 {
            problems.push(
                "victory.mission",
                "a training range needs a tank on the first side",
            );
        }
        MissionRules::Training { waypoints: hexes }
    }

    /// Capture Objectives: enough objectives to capture `count` of, and infantry to
    /// capture them.
    fn capture_mission(
        &self,
        count: u8,
        units: &[UnitInit],
        objectives: &[Hex],
        problems: &mut Problems,
    ) -> MissionRules {
        if self.setup.objectives.is_empty() {
            problems.push(
                "victory.mission",
                "capturing objectives needs `objectives: [...]` in the scenario",
            );
        } else if count == 0 || usize::from(count) > objectives.len() {
            problems.push(
                "victory.mission.count",
                format!(
                    "a side must capture 1 to {n} objectives (the scenario has {n} valid \
                     ones), not {count}",
                    n = objectives.len()
                ),
            );
        }
        if !units.iter().any(|u| u.setup.kind == UnitKind::Infantry) {
            problems.push(
                "victory.mission",
                "only infantry capture objectives: the scenario needs infantry",
            );
        }
        MissionRules::CaptureObjectives { count }
    }

    /// Escort: the escort must be a side, and the squad an infantry unit of that side.
    fn escort_mission(
        &self,
        escort: &str,
        squad: &str,
        edge: Edge,
        problems: &mut Problems,
    ) -> MissionRules {
        let units = &self.setup.units;
        let side = self.side_index(escort);
        if side.is_none() {
            problems.push(
                "victory.mission.escort",
                format!("the escort `{escort}` is not a side of this scenario"),
            );
        }
        let found = units.iter().position(|u| u.name == squad);
        match found.map(|k| (k, &units[k])) {
            None => problems.push(
                "victory.mission.squad",
                format!("no unit is called `{squad}`"),
            ),
            Some((_, u)) if u.kind != UnitKind::Infantry => problems.push(
                "victory.mission.squad",
                format!(
                    "`{squad}` is {}: the escorted unit must be an infantry squad",
                    u.kind.a_noun()
                ),
            ),
            Some((_, u)) if side.is_some() && self.side_index(&u.side) != side => problems.push(
                "victory.mission.squad",
                format!(
                    "`{squad}` belongs to `{}`, not to the escort `{escort}`",
                    u.side
                ),
            ),
            Some(_) => {}
        }
        MissionRules::Escort {
            side: side.unwrap_or(0) as u8,
            squad: UnitId(found.unwrap_or(0) as u8),
            edge,
        }
    }

    /// Destroy Target: the attacker must be a side, with exactly one target named, an
    /// enemy unit or a building.
    fn destroy_target_mission(
        &self,
        attacker: &str,
        unit: Option<&str>,
        building: Option<&str>,
        problems: &mut Problems,
    ) -> MissionRules {
        let side = self.side_index(attacker);
        if side.is_none() {
            problems.push(
                "victory.mission.attacker",
                format!("the attacker `{attacker}` is not a side of this scenario"),
            );
        }
        let target = match (unit, building) {
            (Some(_), Some(_)) => {
                problems.push(
                    "victory.mission",
                    "name one target, a `unit` or a `building`, not both",
                );
                None
            }
            (None, None) => {
                problems.push(
                    "victory.mission",
                    "name the target: `unit: \"…\"` or `building: \"F3\"`",
                );
                None
            }
            (Some(name), None) => self.target_unit(attacker, side, name, problems),
            (None, Some(label)) => self.target_building(label, problems),
        };
        match target {
            Some(target) => MissionRules::DestroyTarget {
                attacker: side.unwrap_or(0) as u8,
                target,
            },
            None => MissionRules::DestroyAll,
        }
    }

    /// The unit called `name` as a target, if there is one and it is not the attacker's.
    fn target_unit(
        &self,
        attacker: &str,
        side: Option<usize>,
        name: &str,
        problems: &mut Problems,
    ) -> Option<MissionTarget> {
        let units = &self.setup.units;
        let found = units.iter().position(|u| u.name == name);
        match found.map(|k| (k, &units[k])) {
            None => {
                problems.push(
                    "victory.mission.unit",
                    format!("no unit is called `{name}`"),
                );
                None
            }
            Some((_, u)) if side.is_some() && self.side_index(&u.side) == side => {
                problems.push(
                    "victory.mission.unit",
                    format!(
                        "`{name}` belongs to the attacker `{attacker}`: the \
                         target must be an enemy unit"
                    ),
                );
                None
            }
            Some((k, _)) => Some(MissionTarget::Unit(UnitId(k as u8))),
        }
    }

    /// The building at `label` as a target, if that space holds one.
    fn target_building(&self, label: &str, problems: &mut Problems) -> Option<MissionTarget> {
        let path = "victory.mission.building".to_string();
        self.hex_of(problems, path.clone(), label).and_then(|h| {
            let is_building = self
                .board
                .index(h)
                .is_some_and(|i| self.terrain[i] == Terrain::Building);
            if is_building {
                Some(MissionTarget::Building(h))
            } else {
                problems.push(path, format!("{label} is not a building"));
                None
            }
        })
    }

    /// Disable AA Guns: the attacker must be a side, and its enemy must field an AA gun.
    fn disable_aa_mission(
        &self,
        attacker: &str,
        units: &[UnitInit],
        problems: &mut Problems,
    ) -> MissionRules {
        match self.side_index(attacker) {
            Some(a) => {
                let guns = units
                    .iter()
                    .filter(|u| usize::from(u.side) != a && u.setup.kind == UnitKind::AaGun)
                    .count();
                if guns == 0 {
                    problems.push(
                        "victory.mission",
                        format!(
                            "the defender of `{attacker}` has no AA gun to disable: add \
                             units of `kind: AaGun`"
                        ),
                    );
                }
                MissionRules::DisableAaGuns { attacker: a as u8 }
            }
            None => {
                problems.push(
                    "victory.mission.attacker",
                    format!("the attacker `{attacker}` is not a side of this scenario"),
                );
                MissionRules::DestroyAll
            }
        }
    }

    /// Take Area: the attacker must be a side, and the area spaces a unit can stand on.
    fn take_area_mission(
        &self,
        attacker: &str,
        area: &[String],
        problems: &mut Problems,
    ) -> MissionRules {
        let side = self.side_index(attacker);
        if side.is_none() {
            problems.push(
                "victory.mission.attacker",
                format!("the attacker `{attacker}` is not a side of this scenario"),
            );
        }
        if area.is_empty() {
            problems.push(
                "victory.mission.area",
                "name the spaces to take: `area: [\"F6\", \"G6\"]`",
            );
        }
        let hexes = self.open_spaces(
            problems,
            "victory.mission.area",
            area,
            &|label, t| format!("{label} is {}: no unit could stand there", t.a_noun()),
            &|label| format!("{label} is named twice"),
        );
        match side {
            Some(a) => MissionRules::TakeArea {
                attacker: a as u8,
                area: hexes,
            },
            None => MissionRules::DestroyAll,
        }
    }

    /// Cross the Minefield: the attacker must be a side fielding the tanks to bring
    /// across, and the scenario must lay mines.
    fn cross_minefield_mission(
        &self,
        attacker: &str,
        edge: Edge,
        tanks: u8,
        units: &[UnitInit],
        problems: &mut Problems,
    ) -> MissionRules {
        match self.side_index(attacker) {
            Some(a) => {
                let fielded = units
                    .iter()
                    .filter(|u| usize::from(u.side) == a && u.setup.kind == UnitKind::Tank)
                    .count();
                if tanks == 0 || usize::from(tanks) > fielded {
                    problems.push(
                        "victory.mission.tanks",
                        format!(
                            "`{attacker}` fields {fielded} tank(s): the tanks to bring \
                             across must be from 1 to {fielded}, not {tanks}"
                        ),
                    );
                }
                if self.setup.mines.fields.is_empty() {
                    problems.push(
                        "victory.mission",
                        "a minefield to cross needs mines: add `mines: (fields: [...])`",
                    );
                }
                MissionRules::CrossMinefield {
                    attacker: a as u8,
                    edge,
                    tanks,
                }
            }
            None => {
                problems.push(
                    "victory.mission.attacker",
                    format!("the attacker `{attacker}` is not a side of this scenario"),
                );
                MissionRules::DestroyAll
            }
        }
    }

    /// Free air strikes per side, by side index, each side named and within the cap.
    fn air_support(&self, problems: &mut Problems) -> Vec<u8> {
        let mut air_support = vec![0; self.setup.sides.len()];
        for (k, a) in self.setup.air_support.iter().enumerate() {
            match self.side_index(&a.side) {
                Some(i) => air_support[i] = a.strikes.min(STAT_MAX),
                None => problems.push(
                    format!("air_support[{k}].side"),
                    format!("`{}` is not a side of this scenario", a.side),
                ),
            }
            if a.strikes > STAT_MAX {
                problems.push(
                    format!("air_support[{k}].strikes"),
                    format!("at most {STAT_MAX} free air strikes, not {}", a.strikes),
                );
            }
        }
        air_support
    }

    /// Checks that each of the two sides has a unit placed, when the scenario has any.
    fn check_sides_fielded(&self, units: &[UnitInit], problems: &mut Problems) {
        let setup = self.setup;
        for side in 0..setup.sides.len().min(2) {
            if !units.iter().any(|u| usize::from(u.side) == side) && !setup.units.is_empty() {
                problems.push(
                    "units",
                    format!("side `{}` has no units", setup.sides[side].name),
                );
            }
        }
    }

    /// The turn limit, the rules' default when the file leaves it out; at least 1.
    fn turn_limit(&self, problems: &mut Problems) -> u8 {
        let turn_limit = self
            .setup
            .victory
            .turn_limit
            .unwrap_or(self.rules.default_turn_limit);
        if turn_limit == 0 {
            problems.push("victory.turn_limit", "the turn limit must be at least 1");
        }
        turn_limit
    }

    /// Checks that the scenario has units at all.
    fn check_units_present(&self, problems: &mut Problems) {
        if self.setup.units.is_empty() {
            problems.push("units", "a scenario needs units");
        }
    }
}

/// Checks the fields a unit's kind has no use for: an AA gun, a squad or an APC loads no
/// round, and a squad or an APC has no turret.
fn check_kind_fields(path: &str, u: &UnitSetup, problems: &mut Problems) {
    match u.kind {
        UnitKind::Tank | UnitKind::Target => {}
        UnitKind::AaGun => {
            if u.loaded.is_some() {
                problems.push(
                    format!("{path}.loaded"),
                    format!(
                        "`{}` is an AA gun: it fires only at aircraft, so leave `loaded` out",
                        u.name
                    ),
                );
            }
        }
        UnitKind::Infantry => {
            if u.loaded.is_some() {
                problems.push(
                    format!("{path}.loaded"),
                    format!(
                        "`{}` is infantry: its missiles need no loading, so leave `loaded` out",
                        u.name
                    ),
                );
            }
            if u.turret.is_some() {
                problems.push(
                    format!("{path}.turret"),
                    format!("`{}` is infantry and has no turret", u.name),
                );
            }
        }
        UnitKind::Apc => {
            if u.loaded.is_some() {
                problems.push(
                    format!("{path}.loaded"),
                    format!(
                        "`{}` is an APC: it has no main gun, so leave `loaded` out",
                        u.name
                    ),
                );
            }
            if u.turret.is_some() {
                problems.push(
                    format!("{path}.turret"),
                    format!("`{}` is an APC and has no turret", u.name),
                );
            }
        }
    }
}

/// Checks that a unit claiming the named bonus names every crew member it carries.
fn check_named_crew(path: &str, u: &UnitSetup, problems: &mut Problems) {
    let c = &u.crew;
    let mut missing: Vec<&str> = [
        ("commander", &c.commander),
        ("driver", &c.driver),
        ("gunner", &c.gunner),
        ("loader", &c.loader),
    ]
    .into_iter()
    .filter(|(_, n)| n.trim().is_empty())
    .map(|(r, _)| r)
    .collect();
    if u.build.lieutenant && c.lieutenant.trim().is_empty() {
        missing.push("lieutenant");
    }
    if !missing.is_empty() {
        problems.push(
            format!("{path}.named"),
            format!(
                "`{}` claims the named bonus but its {} has no name",
                u.name,
                missing.join(", ")
            ),
        );
    }
}
