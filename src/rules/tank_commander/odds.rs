//! Line of sight, the shot profile and exact odds.
//!
//! Resolution and the odds preview both start from [`TankCommander::shot_profile`], so
//! what a player is shown and what the dice do cannot disagree.

use hexx::Hex;
use serde::Serialize;

use super::action::{FireTarget, Modifier, ToHit, Weapon};
use super::setup::{ArcBoundary, ArmorFacing, HexsideRule, Round, Terrain, UnitKind};
use super::state::{Role, RoleState, TankCommander, Unit, UnitId};
use crate::framework::{Fraction, Refusal};
use crate::grid::Facing;
use crate::grid::hex::{LineStep, line_between, sector_of};

/// The words a to-hit modifier, a base or an armor facing is given for: the log prints
/// them, and the lab maps each to its rule ([`super::lab`]).
pub mod reason {
    /// The shooter's own accuracy (the unit's base stats, or its type's).
    pub const BASE: &str = "base";
    pub const OPTICS: &str = "optics";
    pub const WOUNDED_GUNNER: &str = "wounded gunner";
    pub const LIEUTENANT_GUNNER: &str = "lieutenant as gunner";
    pub const IN_FOREST: &str = "target in forest";
    pub const FOREST_BETWEEN: &str = "forest in the way";
    pub const BEHIND_HILL: &str = "behind a hill";
    pub const TAKING_COVER: &str = "target taking cover";
    pub const STORM: &str = "storm";
    pub const NIGHT: &str = "night";
    pub const BRING_IT_DOWN: &str = "Bring it down!";
    pub const ON_HILL: &str = "target on a hill: every hit strikes the rear";

    use super::Weapon;

    /// The weapons each modifier of a shot reaches, where its rule names them: Enhanced
    /// Optics improve the main gun (`tc.build.optics`). A modifier not listed reaches
    /// every weapon: it comes from the gunner, the target or the field, whatever fires.
    pub const REACHES: &[(&str, &[Weapon])] = &[(OPTICS, &[Weapon::MainGun])];

    /// Whether the modifier `reason` counts for a shot of `weapon` ([`REACHES`]).
    #[must_use]
    pub fn reaches(reason: &str, weapon: Weapon) -> bool {
        REACHES
            .iter()
            .find(|(r, _)| *r == reason)
            .is_none_or(|(_, weapons)| weapons.contains(&weapon))
    }
}

/// Why a weapon cannot aim at a space ([`TankCommander::aim_block`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AimBlock {
    /// Out of reach: the range in spaces.
    Range(u32),
    /// Outside the turret's arc.
    Arc,
    /// Too far to see at night, and unlit: the range in spaces.
    Dark(u32),
    /// The line of sight is blocked, by what.
    Blocked(String),
}

/// What a line between two hex centres meets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SightLine {
    /// The hexes between the ends.
    pub steps: Vec<LineStep>,
    /// The first hex that blocks the line, and why.
    pub blocked: Option<(Hex, String)>,
    /// Forest along the line (not counting the ends).
    pub forest_between: bool,
    /// A hill in the last hex before the target.
    pub hill_before_target: bool,
}

impl SightLine {
    #[must_use]
    pub fn is_clear(&self) -> bool {
        self.blocked.is_none()
    }
}

/// Exact chances of a shot's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Odds {
    pub hit: Fraction,
    pub penetrating: Fraction,
    pub glancing: Fraction,
    pub crew_wound: Fraction,
    pub fire: Fraction,
    /// Expected hull points lost to this shot (fire damage later is not counted).
    pub expected_hull_loss: Fraction,
    /// Chance the shot disables the target outright.
    pub disable: Fraction,
}

/// Everything that decides a shot, before any die is rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShotProfile {
    pub shooter: UnitId,
    pub target: FireTarget,
    pub weapon: Weapon,
    pub round: Round,
    pub to_hit: ToHit,
    pub strength: u8,
    /// For vehicle targets: the facing hit, its armor, and why. None for buildings, and
    /// for infantry, which any hit destroys.
    pub armor: Option<(ArmorFacing, u8, String)>,
}

impl ToHit {
    /// Whether a natural `roll` hits.
    #[must_use]
    pub fn hits(&self, roll: u8) -> bool {
        if roll == 1 && self.natural_one_misses {
            return false;
        }
        if roll == 6 && self.natural_six_hits {
            return true;
        }
        i16::from(roll) >= i16::from(self.need)
    }

    /// The roll shown to players: `need` clamped to what a d6 can show.
    #[must_use]
    pub fn shown_need(&self) -> u8 {
        let lowest = if self.natural_one_misses { 2 } else { 1 };
        let highest = if self.natural_six_hits { 6 } else { 7 };
        #[allow(
            clippy::cast_sign_loss,
            clippy::cast_possible_truncation,
            reason = "clamped to 1..=7"
        )]
        {
            i16::from(self.need).clamp(lowest, highest) as u8
        }
    }

    /// The exact chance to hit.
    #[must_use]
    pub fn chance(&self) -> Fraction {
        Fraction::new((1..=6).filter(|&r| self.hits(r)).count() as u64, 6)
    }

    /// "needs 4+: base 4, forest +1".
    #[must_use]
    pub fn explain(&self) -> String {
        let mut parts = vec![format!("{} {}", self.base_reason, self.base)];
        for m in &self.modifiers {
            parts.push(format!(
                "{} {}{}",
                m.reason,
                if m.delta >= 0 { "+" } else { "−" },
                m.delta.unsigned_abs()
            ));
        }
        let need = self.shown_need();
        let head = if need >= 7 {
            "cannot hit".to_string()
        } else {
            format!("needs {need}+")
        };
        format!("{head}: {}", parts.join(", "))
    }
}

impl TankCommander {
    /// True when something in `hex` blocks sight: a building, smoke, or a unit on the table.
    fn blocks_sight(&self, hex: Hex) -> Option<String> {
        if self.terrain(hex).blocks_sight() {
            return Some(format!("a building at {}", self.label(hex)));
        }
        if self.smoke(hex) {
            return Some(format!("smoke at {}", self.label(hex)));
        }
        self.unit_at(hex)
            .map(|u| format!("{} at {}", u.name, self.label(hex)))
    }

    fn step_counts(&self, step: LineStep, test: impl Fn(Hex) -> bool) -> bool {
        match step {
            LineStep::Through(h) => test(h),
            LineStep::Hexside(a, b) => match self.rules.firing.hexside {
                HexsideRule::BothSides => test(a) && test(b),
                HexsideRule::EitherSide => test(a) || test(b),
            },
        }
    }

    /// True when buildings and smoke leave the line from `from` to `to` open (units,
    /// which move, are not counted): what a plan for a later turn can rely on.
    #[must_use]
    pub fn ground_sight_clear(&self, from: Hex, to: Hex) -> bool {
        line_between(from, to).into_iter().all(|step| {
            !self.step_counts(step, |h| self.terrain(h).blocks_sight() || self.smoke(h))
        })
    }

    /// Traces the line from `from` to `to`, centre to centre.
    #[must_use]
    pub fn sight_line(&self, from: Hex, to: Hex) -> SightLine {
        let steps = line_between(from, to);
        let mut blocked = None;
        for &step in &steps {
            if self.step_counts(step, |h| self.blocks_sight(h).is_some()) {
                let hex = step
                    .hexes()
                    .find(|&h| self.blocks_sight(h).is_some())
                    .unwrap_or(from);
                blocked = self.blocks_sight(hex).map(|why| (hex, why));
                break;
            }
        }
        let forest_between = steps
            .iter()
            .any(|&s| self.step_counts(s, |h| self.terrain(h) == Terrain::Forest));
        let hill_before_target = steps
            .last()
            .is_some_and(|&s| self.step_counts(s, |h| self.terrain(h) == Terrain::Hill));
        SightLine {
            steps,
            blocked,
            forest_between,
            hill_before_target,
        }
    }

    /// Which armor facing of `target` a hit coming from `from` strikes, and why.
    #[must_use]
    pub fn armor_facing_hit(&self, target: &Unit, from: Hex) -> (ArmorFacing, String) {
        let f = &self.rules.firing;
        if f.hill_hits_rear && self.terrain(target.at) == Terrain::Hill {
            return (ArmorFacing::Rear, reason::ON_HILL.into());
        }
        let half = f64::from(f.front_arc_degrees) / 2.0;
        let s = sector_of(target.at, target.facing, from);
        let defender = f.arc_boundary == ArcBoundary::Defender;
        let (facing, why) = if s.on(half) {
            if defender {
                (
                    ArmorFacing::Front,
                    "on the front/side line, the stronger armor counts",
                )
            } else {
                (
                    ArmorFacing::Side,
                    "on the front/side line, the weaker armor counts",
                )
            }
        } else if s.on(180.0 - half) {
            if defender {
                (
                    ArmorFacing::Side,
                    "on the side/rear line, the stronger armor counts",
                )
            } else {
                (
                    ArmorFacing::Rear,
                    "on the side/rear line, the weaker armor counts",
                )
            }
        } else if s.within(half) {
            (ArmorFacing::Front, "from the front arc")
        } else if s.within(180.0 - half) {
            (ArmorFacing::Side, "from the side arc")
        } else {
            (ArmorFacing::Rear, "from the rear arc")
        };
        (facing, why.into())
    }

    /// Why `shooter` cannot aim `weapon` at `target` now, if it cannot: range, arc,
    /// sight, target.
    fn aim_problem(&self, shooter: &Unit, target: FireTarget, weapon: Weapon) -> Option<Refusal> {
        let to = match target {
            FireTarget::Unit(t) => {
                let Some(t) = self.units.get(t.index()) else {
                    return Some(Refusal::new("tc.target.who", "there is no such unit"));
                };
                if !t.is_active() {
                    return Some(Refusal::new(
                        "tc.damage.disabled",
                        format!("{} is already knocked out", t.name),
                    ));
                }
                if let Some(refusal) = self.untargetable(t) {
                    return Some(refusal);
                }
                t.at
            }
            FireTarget::Building(h) => {
                if self.terrain(h) != Terrain::Building || !self.board.contains(h) {
                    return Some(Refusal::new(
                        "tc.terrain.building-shot",
                        format!("there is no building at {}", self.label(h)),
                    ));
                }
                h
            }
        };
        let max = self.weapon_range(shooter, weapon);
        // Only the main gun sits in the turret; the other weapons fire all round.
        let turret = (weapon == Weapon::MainGun).then_some(shooter.turret);
        let sight = self.rules.night.sight_range;
        let (rule, why) = match self.aim_block(shooter.at, turret, to, max)? {
            AimBlock::Range(range) => (
                "tc.target.range-and-arc",
                format!(
                    "{} is {range} spaces away; the {} reaches {max}",
                    self.label(to),
                    weapon.title()
                ),
            ),
            AimBlock::Arc => (
                "tc.target.range-and-arc",
                format!(
                    "{} is outside the turret's {}° arc (turret faces {})",
                    self.label(to),
                    self.rules.firing.turret_arc_degrees,
                    shooter.turret
                ),
            ),
            AimBlock::Dark(range) => (
                "tc.ideas.night",
                format!(
                    "{} is {range} spaces away in the dark: at night a target is made out \
                     only within {sight} spaces, unless a flare or a fire lights it",
                    self.label(to)
                ),
            ),
            AimBlock::Blocked(why) => (
                "tc.target.line-of-sight",
                format!("line of sight to {} is blocked by {why}", self.label(to)),
            ),
        };
        Some(Refusal::new(rule, why))
    }

    /// What keeps a weapon reaching `max` spaces at `from` from aiming at `to`, in the
    /// order the rules ask: the range, the turret's arc (when `turret` is its facing; a
    /// weapon that fires all round has none), the dark, the line of sight.
    pub(super) fn aim_block(
        &self,
        from: Hex,
        turret: Option<Facing>,
        to: Hex,
        max: u8,
    ) -> Option<AimBlock> {
        let range = self.board_distance(from, to);
        if range > u32::from(max) {
            return Some(AimBlock::Range(range));
        }
        let half = f64::from(self.rules.firing.turret_arc_degrees) / 2.0;
        if turret.is_some_and(|t| !sector_of(from, t, to).within(half)) {
            return Some(AimBlock::Arc);
        }
        if self.night && range > u32::from(self.rules.night.sight_range) && !self.lit(to) {
            return Some(AimBlock::Dark(range));
        }
        self.sight_line(from, to)
            .blocked
            .map(|(_, why)| AimBlock::Blocked(why))
    }

    /// The range of `unit`'s `weapon` (0 if it has none).
    #[must_use]
    pub fn weapon_range(&self, unit: &Unit, weapon: Weapon) -> u8 {
        match weapon {
            Weapon::MainGun | Weapon::Missile => unit.gun_range(&self.rules),
            Weapon::AntiInfantry => unit.anti_infantry_range(&self.rules).unwrap_or(0),
        }
    }

    /// The weapon `unit` fires at `target` with: infantry fire missiles at vehicles and
    /// their anti-infantry weapon at infantry; tanks fire the main gun.
    #[must_use]
    pub fn weapon_for(&self, unit: &Unit, target: &Unit) -> Weapon {
        match (unit.kind, target.is_infantry()) {
            (UnitKind::Infantry, true) | (UnitKind::Apc, _) => Weapon::AntiInfantry,
            (UnitKind::Infantry, false) => Weapon::Missile,
            _ => Weapon::MainGun,
        }
    }

    /// Why `target` cannot be picked as a target wherever the shooter stands: it rides
    /// on a tank, or it is infantry next to a tank of its own side.
    #[must_use]
    pub fn untargetable(&self, target: &Unit) -> Option<Refusal> {
        if let Some(carrier) = target.riding {
            let c = &self.units[carrier.index()];
            return Some(if c.carries_inside() {
                Refusal::new(
                    "tc.apc.inside-safe",
                    format!(
                        "{} rides inside {}: it gets out only when it dismounts or the APC is \
                         knocked out",
                        target.name, c.name
                    ),
                )
            } else {
                Refusal::new(
                    "tc.infantry.mount",
                    format!(
                        "{} rides on {}: only a hit on the tank can harm it",
                        target.name, c.name
                    ),
                )
            });
        }
        if target.is_infantry() && self.rules.infantry.shielded_by_friendly_tank {
            let shield = self.units.iter().find(|u| {
                u.side == target.side
                    && u.kind == UnitKind::Tank
                    && u.is_active()
                    && u.at.unsigned_distance_to(target.at) == 1
            });
            if let Some(tank) = shield {
                return Some(Refusal::new(
                    "tc.infantry.shielded",
                    format!(
                        "{} is next to {}, a tank of its own side: it cannot be targeted",
                        target.name, tank.name
                    ),
                ));
            }
        }
        None
    }

    /// Whether `hex` lies in `unit`'s turret arc within gun range (a squad: within missile
    /// range all round); sight not considered.
    #[must_use]
    pub fn covers(&self, unit: &Unit, hex: Hex) -> bool {
        if unit.is_apc() {
            let range = unit.anti_infantry_range(&self.rules).unwrap_or(0);
            return hex != unit.at && self.board_distance(unit.at, hex) <= u32::from(range);
        }
        hex != unit.at
            && self.board_distance(unit.at, hex) <= u32::from(unit.gun_range(&self.rules))
            // A squad's missile launcher fires all round.
            && (unit.is_infantry()
                || sector_of(unit.at, unit.turret, hex)
                    .within(f64::from(self.rules.firing.turret_arc_degrees) / 2.0))
    }

    /// Hex distance.
    #[must_use]
    pub fn board_distance(&self, a: Hex, b: Hex) -> u32 {
        a.unsigned_distance_to(b)
    }

    /// The profile of a shot by `shooter` at `target` with `round`, ignoring whether the
    /// gun is loaded or action points remain; `bring_it_down` applies the gunner's ability.
    ///
    /// # Errors
    /// Why the target cannot be aimed at, with the rule that says so: out of range,
    /// outside the arc, no line of sight, a friendly or knocked-out unit, or a dead gunner.
    pub fn shot_profile(
        &self,
        shooter: UnitId,
        target: FireTarget,
        round: Round,
        bring_it_down: bool,
    ) -> Result<ShotProfile, Refusal> {
        self.weapon_profile(shooter, target, Weapon::MainGun, round, bring_it_down)
    }

    /// The profile of a shot by `shooter`'s `weapon` at `target`, as
    /// [`TankCommander::shot_profile`] is for the main gun.
    ///
    /// # Errors
    /// Why the target cannot be aimed at with that weapon, with the rule that says so.
    pub fn weapon_profile(
        &self,
        shooter: UnitId,
        target: FireTarget,
        weapon: Weapon,
        round: Round,
        bring_it_down: bool,
    ) -> Result<ShotProfile, Refusal> {
        if self.units.get(shooter.index()).is_none() {
            return Err(Refusal::new("tc.target.who", "there is no such unit"));
        }
        if let Some(refusal) = self.why_not_aimable(shooter, target, weapon) {
            return Err(refusal);
        }
        Ok(self.shot_profile_anyway(shooter, target, weapon, round, bring_it_down))
    }

    /// Why `shooter` could not fire `weapon` at `target` now (range, arc, sight, target,
    /// gunner), with the rule that says so.
    #[must_use]
    pub fn why_not_aimable(
        &self,
        shooter: UnitId,
        target: FireTarget,
        weapon: Weapon,
    ) -> Option<Refusal> {
        let s = self.units.get(shooter.index())?;
        self.why_never_aimable(shooter, target, weapon)
            .or_else(|| self.aim_problem(s, target, weapon))
    }

    /// Why `shooter` could never fire `weapon` at `target`, wherever the two stood: a
    /// training target never fires, a tank whose gunner is dead fires nothing, a unit
    /// fires only the weapons it carries, each at what it is made for, and only at the
    /// enemy. "What if" odds make sense only when this is `None`.
    #[must_use]
    pub fn why_never_aimable(
        &self,
        shooter: UnitId,
        target: FireTarget,
        weapon: Weapon,
    ) -> Option<Refusal> {
        let s = self.units.get(shooter.index())?;
        if s.kind == UnitKind::Target {
            return Some(Refusal::new(
                "tc.missions.basic-training",
                format!("{} is a training target: it never fires", s.name),
            ));
        }
        if s.role_state(Role::Gunner) == RoleState::Out {
            return Some(super::legal::gunner_dead(s));
        }
        if let Some(refusal) = self.weapon_not_carried(s, weapon) {
            return Some(refusal);
        }
        let FireTarget::Unit(t) = target else {
            return (weapon != Weapon::MainGun).then(|| {
                Refusal::new(
                    "tc.terrain.building-shot",
                    "only a tank's main gun can knock down a building",
                )
            });
        };
        let t = self.units.get(t.index())?;
        if t.id == s.id {
            return Some(Refusal::new(
                "tc.target.who",
                format!("{} cannot fire at itself", s.name),
            ));
        }
        if t.side == s.side {
            return Some(Refusal::new(
                "tc.target.who",
                format!("{} is on {}'s own side", t.name, s.name),
            ));
        }
        match weapon {
            Weapon::Missile if t.is_infantry() => Some(Refusal::new(
                "tc.infantry.fire-missile",
                format!(
                    "missiles are for vehicles: fire the anti-infantry weapon at {}",
                    t.name
                ),
            )),
            Weapon::AntiInfantry if !t.is_infantry() => Some(Refusal::new(
                anti_infantry_rule(s),
                format!(
                    "the anti-infantry weapon fires only at infantry, and {} is {}",
                    t.name,
                    t.kind.a_noun()
                ),
            )),
            _ => None,
        }
    }

    /// Why `shooter` cannot fire `weapon` at all, if it does not carry it: each unit
    /// fires only the weapons its kind and upgrades give it.
    fn weapon_not_carried(&self, shooter: &Unit, weapon: Weapon) -> Option<Refusal> {
        let name = &shooter.name;
        match weapon {
            Weapon::MainGun => match shooter.kind {
                UnitKind::Infantry => Some(Refusal::new(
                    "tc.infantry.weapons",
                    format!(
                        "{name} is infantry and has no main gun: it fires its missile launcher"
                    ),
                )),
                UnitKind::Apc => Some(Refusal::new(
                    "tc.apc.profile",
                    format!(
                        "{name} is an APC and has no main gun: it fires its anti-infantry weapon"
                    ),
                )),
                _ => None,
            },
            Weapon::Missile => (!shooter.is_infantry()).then(|| {
                Refusal::new(
                    "tc.infantry.weapons",
                    format!("only infantry carry missile launchers, not {name}"),
                )
            }),
            Weapon::AntiInfantry => shooter.anti_infantry_range(&self.rules).is_none().then(|| {
                Refusal::new(
                    "tc.build.anti-infantry",
                    format!(
                        "{name} has no anti-infantry weapon (the Anti-Infantry Weapons upgrade)"
                    ),
                )
            }),
        }
    }

    /// The profile of a shot as if it could be taken from where both units stand, whatever
    /// the range, arc or line of sight: for "what if" odds. Resolution never uses this
    /// without [`TankCommander::shot_profile`]'s checks.
    ///
    /// # Panics
    /// If `shooter` or a unit `target` is not a unit of this battle.
    #[must_use]
    pub fn shot_profile_anyway(
        &self,
        shooter: UnitId,
        target: FireTarget,
        weapon: Weapon,
        round: Round,
        bring_it_down: bool,
    ) -> ShotProfile {
        let s = &self.units[shooter.index()];
        let f = &self.rules.firing;
        let mut modifiers = Vec::new();
        let (base, base_reason) = self.aim_base(s, weapon, bring_it_down, &mut modifiers);
        let strength = match round {
            Round::At => f.at_strength,
            Round::He => f.he_strength,
        };
        // "Bring it down!" hits on its number flat, cover or not (unless the switch is off).
        let cover = !(bring_it_down && f.bring_it_down_flat);
        let armor = match target {
            FireTarget::Unit(t) => {
                self.cover_modifiers(s, &self.units[t.index()], cover, &mut modifiers)
            }
            FireTarget::Building(_) => None,
        };
        self.condition_modifiers(s, target, cover, &mut modifiers);
        // A building cannot be missed when the switch says so: the die is still rolled and
        // shown, and every face hits.
        let sure = matches!(target, FireTarget::Building(_)) && !f.building_needs_hit_roll;
        let (base, base_reason) = if sure {
            modifiers.clear();
            (1, "a building is not missed".to_string())
        } else {
            (base, base_reason)
        };
        let need = base as i8 + modifiers.iter().map(|m| m.delta).sum::<i8>();
        ShotProfile {
            shooter,
            target,
            weapon,
            round,
            to_hit: ToHit {
                base,
                base_reason,
                modifiers,
                need,
                natural_one_misses: f.natural_one_misses && !sure,
                natural_six_hits: f.natural_six_hits,
            },
            strength,
            armor,
        }
    }

    /// The to-hit base before cover and conditions, and why: "Bring it down!"'s number,
    /// else the shooter's accuracy with its optics and a wounded gunner in `modifiers`.
    fn aim_base(
        &self,
        s: &Unit,
        weapon: Weapon,
        bring_it_down: bool,
        modifiers: &mut Vec<Modifier>,
    ) -> (u8, String) {
        let f = &self.rules.firing;
        let gunner = s.role_state(Role::Gunner);
        if bring_it_down {
            (f.bring_it_down_target, reason::BRING_IT_DOWN.to_string())
        } else {
            if s.build.optics && reason::reaches(reason::OPTICS, weapon) {
                modifiers.push(Modifier {
                    reason: reason::OPTICS.into(),
                    delta: -(self.rules.upgrades.optics_accuracy as i8),
                });
            }
            if gunner == RoleState::Impaired {
                let why = if s.lieutenant_covers == Some(Role::Gunner) {
                    reason::LIEUTENANT_GUNNER
                } else {
                    reason::WOUNDED_GUNNER
                };
                modifiers.push(Modifier {
                    reason: why.into(),
                    delta: f.wounded_gunner_penalty as i8,
                });
            }
            (s.base.accuracy, reason::BASE.to_string())
        }
    }

    /// Adds to `modifiers` the cover unit `t` has from shooter `s` (when `cover` counts);
    /// the armor facing the shot hits, for a vehicle.
    fn cover_modifiers(
        &self,
        s: &Unit,
        t: &Unit,
        cover: bool,
        modifiers: &mut Vec<Modifier>,
    ) -> Option<(ArmorFacing, u8, String)> {
        let f = &self.rules.firing;
        let line = self.sight_line(s.at, t.at);
        let in_forest = self.terrain(t.at) == Terrain::Forest;
        let covers = [
            (in_forest, reason::IN_FOREST, f.forest_penalty),
            (
                !in_forest && line.forest_between,
                reason::FOREST_BETWEEN,
                f.forest_penalty,
            ),
            (line.hill_before_target, reason::BEHIND_HILL, f.hill_penalty),
        ];
        let taking_cover = (
            t.in_cover,
            reason::TAKING_COVER,
            self.rules.infantry.cover_penalty,
        );
        for (applies, reason, penalty) in covers.into_iter().chain([taking_cover]) {
            if cover && applies {
                modifiers.push(Modifier {
                    reason: reason.into(),
                    delta: penalty as i8,
                });
            }
        }
        if t.is_infantry() {
            return None;
        }
        let (facing, why) = self.armor_facing_hit(t, s.at);
        Some((facing, t.armor.facing(facing), why))
    }

    /// Adds to `modifiers` what the storm and the night take from a shot by `s` at
    /// `target` (when `cover` counts).
    fn condition_modifiers(
        &self,
        s: &Unit,
        target: FireTarget,
        cover: bool,
        modifiers: &mut Vec<Modifier>,
    ) {
        // A storm spoils the aim of vehicle gunners (the Weather option); like cover, it
        // does not touch "Bring it down!"'s flat number.
        if self.storm && s.kind.is_vehicle() && cover {
            modifiers.push(Modifier {
                reason: reason::STORM.into(),
                delta: self.rules.weather.storm_vehicle_accuracy as i8,
            });
        }
        // Night spoils every shot at a target no flare or fire lights (Night Fighting);
        // like cover, it does not touch "Bring it down!"'s flat number.
        let target_hex = match target {
            FireTarget::Unit(t) => self.units[t.index()].at,
            FireTarget::Building(h) => h,
        };
        if self.night && cover && !self.lit(target_hex) {
            modifiers.push(Modifier {
                reason: reason::NIGHT.into(),
                delta: self.rules.night.accuracy_penalty as i8,
            });
        }
    }

    /// The exact odds of a shot profile.
    #[must_use]
    pub fn odds(&self, profile: &ShotProfile) -> Odds {
        let hit = profile.to_hit.chance();
        let d = &self.rules.damage;
        // Any hit destroys an infantry squad.
        if let FireTarget::Unit(t) = profile.target
            && self.units[t.index()].is_infantry()
        {
            return Odds {
                hit,
                penetrating: Fraction::ZERO,
                glancing: Fraction::ZERO,
                crew_wound: Fraction::ZERO,
                fire: Fraction::ZERO,
                expected_hull_loss: hit,
                disable: hit,
            };
        }
        let Some((_, armor, _)) = profile.armor else {
            return Odds {
                hit,
                penetrating: Fraction::ZERO,
                glancing: Fraction::ZERO,
                crew_wound: Fraction::ZERO,
                fire: Fraction::ZERO,
                expected_hull_loss: Fraction::ZERO,
                disable: Fraction::ZERO,
            };
        };
        let FireTarget::Unit(t) = profile.target else {
            unreachable!("armor is only set for units")
        };
        let target = &self.units[t.index()];
        let pen_faces = (1..=6u8).filter(|r| r + profile.strength > armor).count() as u64;
        let penetrating = hit * Fraction::new(pen_faces, 6);
        let glancing = hit - penetrating;
        let has_crew = target.living_crew().next().is_some();
        let crew_wound = if has_crew {
            penetrating + glancing * Fraction::d6_at_least(d.glancing_wound_on)
        } else {
            Fraction::ZERO
        };
        let fire = if profile.round == Round::He && !target.on_fire {
            hit * Fraction::d6_at_least(d.fire_on)
        } else {
            Fraction::ZERO
        };
        let disable = if target.hull <= 1 {
            penetrating
        } else {
            Fraction::ZERO
        };
        Odds {
            hit,
            penetrating,
            glancing,
            crew_wound,
            fire,
            expected_hull_loss: penetrating,
            disable,
        }
    }
}

impl TankCommander {
    /// The roll `strike` needs at its next roll (the start of the next turn).
    #[must_use]
    pub fn air_strike_need(&self, strike: &super::state::AirStrike) -> u8 {
        let waited = strike.waited(self.turn.saturating_add(1));
        self.rules.air_strike.need(waited.max(1))
    }

    /// The chance `strike` comes in at its next roll.
    #[must_use]
    pub fn air_strike_chance(&self, strike: &super::state::AirStrike) -> Fraction {
        Fraction::new(
            u64::from(7u8.saturating_sub(self.air_strike_need(strike))),
            6,
        )
    }

    /// The roll on which the AA guns standing against `side` drive off its strike as it
    /// comes in, and how many stand; `None` when none stand (or they cannot hit).
    #[must_use]
    pub fn anti_aircraft_need(&self, side: crate::framework::PlayerId) -> Option<(u8, usize)> {
        let guns = self.aa_guns_against(side);
        let need = self.rules.aa_gun.shoot_down_need(guns);
        (guns > 0 && need <= 6).then_some((need, guns))
    }

    /// What the AA guns standing against `side` would do to its strike, in words ("while 3
    /// AA guns stand, it is driven off on a 2+"); `None` when none stand.
    #[must_use]
    pub fn anti_aircraft_words(&self, side: crate::framework::PlayerId) -> Option<String> {
        self.anti_aircraft_need(side).map(|(need, guns)| {
            format!(
                "while {guns} AA gun{} stand{}, it is driven off on a {need}+",
                if guns == 1 { "" } else { "s" },
                if guns == 1 { "s" } else { "" },
            )
        })
    }

    /// The chance a strike of `side` that comes in gets past the AA guns standing now.
    #[must_use]
    pub fn air_strike_gets_through(&self, side: crate::framework::PlayerId) -> Fraction {
        match self.anti_aircraft_need(side) {
            Some((need, _)) => Fraction::new(u64::from(need - 1), 6),
            None => Fraction::new(1, 1),
        }
    }

    /// The chance `strike` comes in at its next roll and gets past the AA guns standing
    /// now: the chance it hits its mark next turn.
    #[must_use]
    pub fn air_strike_lands_chance(&self, strike: &super::state::AirStrike) -> Fraction {
        self.air_strike_chance(strike) * self.air_strike_gets_through(strike.side)
    }

    /// Every space a strike marked on `mark` can hit once it comes in, with the chance
    /// it is hit: the mark always, a space `k` along one of the six scatter lines when the
    /// direction die shows that line (1 in 6) and the distance die shows `k` or more.
    #[must_use]
    pub fn air_strike_reach(&self, mark: Hex) -> Vec<(Hex, Fraction)> {
        let mut reach = vec![(mark, Fraction::new(1, 1))];
        if self.rules.air_strike.scatter {
            for facing in crate::grid::Facing::ALL {
                for k in 1..=6u8 {
                    let hex = mark + facing.offset() * i32::from(k);
                    if self.board.contains(hex) {
                        reach.push((hex, Fraction::new(u64::from(7 - k), 36)));
                    }
                }
            }
        }
        reach
    }
}

/// The rule that aims an anti-infantry weapon in `shooter`'s hands: a squad's, an APC's
/// or a tank's (the upgrade).
fn anti_infantry_rule(shooter: &Unit) -> &'static str {
    match shooter.kind {
        UnitKind::Infantry => "tc.infantry.fire-anti-infantry",
        UnitKind::Apc => "tc.apc.fire-anti-infantry",
        _ => "tc.build.anti-infantry",
    }
}
