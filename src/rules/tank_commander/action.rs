//! What a Tank Commander player can do, and the facts that result.

use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::setup::{ArmorFacing, Round};
use super::state::{Role, UnitId};
use crate::framework::{Outcome, PlayerId};
use crate::grid::{Facing, Rotation};

/// What a shot is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FireTarget {
    Unit(UnitId),
    /// A building hex, to turn it into rubble.
    Building(Hex),
}

/// What a unit fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Weapon {
    /// A tank's main gun, with the round loaded in it.
    #[default]
    MainGun,
    /// An infantry squad's missile launcher: AT or HE, no loading, at vehicles.
    Missile,
    /// An anti-infantry weapon: it fires only at infantry, and a hit destroys the squad.
    AntiInfantry,
}

impl Weapon {
    /// The weapon in words.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Weapon::MainGun => "main gun",
            Weapon::Missile => "missile launcher",
            Weapon::AntiInfantry => "anti-infantry weapon",
        }
    }
}

/// A crew member's once-per-battle ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ability {
    /// Commander: two extra action points this turn.
    BoomingVoice,
    /// Driver: one action carries the tank this many spaces straight ahead.
    MoveMoveMove { spaces: u8 },
    /// Gunner: hits on 2+ this turn.
    BringItDown,
    /// Loader: loading costs nothing this turn.
    QuickLoad,
}

impl Ability {
    /// The crew role that owns this ability.
    #[must_use]
    pub const fn role(self) -> Role {
        match self {
            Ability::BoomingVoice => Role::Commander,
            Ability::MoveMoveMove { .. } => Role::Driver,
            Ability::BringItDown => Role::Gunner,
            Ability::QuickLoad => Role::Loader,
        }
    }

    /// The ability of a crew role; the Lieutenant Commander has none of his own.
    #[must_use]
    pub const fn of_role(role: Role) -> Option<Self> {
        match role {
            Role::Commander => Some(Ability::BoomingVoice),
            Role::Driver => Some(Ability::MoveMoveMove { spaces: 1 }),
            Role::Gunner => Some(Ability::BringItDown),
            Role::Loader => Some(Ability::QuickLoad),
            Role::Lieutenant => None,
        }
    }

    /// The ability's name as printed on the crew card.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Ability::BoomingVoice => "Booming Voice",
            Ability::MoveMoveMove { .. } => "Move move move!",
            Ability::BringItDown => "Bring it down!",
            Ability::QuickLoad => "Quick Load",
        }
    }
}

/// A player's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Start activating one of your units that has not acted this turn.
    Activate(UnitId),
    /// Move one space forward.
    Move,
    /// Infantry: move one space in any direction.
    Step(Facing),
    /// Turn the hull 60°; the turret turns with it or keeps its direction.
    Turn {
        rotation: Rotation,
        turret_follows: bool,
    },
    /// Turn the turret 60° relative to the hull.
    RotateTurret(Rotation),
    /// Load a round into the main gun.
    Load(Round),
    /// Fire the loaded round.
    Fire(FireTarget),
    /// Infantry: fire the missile launcher at a vehicle, with either round.
    FireMissile(UnitId, Round),
    /// Fire the anti-infantry weapon at an infantry squad.
    FireAntiInfantry(UnitId),
    /// Infantry: take cover until the next turn (no more moving or firing this turn).
    TakeCover,
    /// Infantry: capture the objective the squad stands on.
    Capture,
    /// Infantry: disarm the mine in an adjacent space (with hidden mines: sweep it).
    Disarm(Hex),
    /// Infantry: climb onto an adjacent tank of its own side.
    Mount(UnitId),
    /// Infantry: climb down from its tank into an adjacent space.
    Dismount(Hex),
    /// Fire the smoke launcher at a space within range.
    DeploySmoke(Hex),
    /// Put out a fire on the tank.
    Extinguish,
    /// Lay an anti-tank mine in a space near the tank.
    LayMine(Hex),
    /// Mark a space for the tank's air strike (once per battle, with Air Support), or
    /// for one of its side's free strikes.
    CallAirStrike(Hex),
    /// Night Fighting: fire a flare that lights a space and those around it this turn.
    FireFlare(Hex),
    /// The Lieutenant Commander takes over the job of a killed crew member.
    TakeOver(Role),
    /// Use a crew member's ability.
    UseAbility(Ability),
    /// Finish this unit's activation; unspent action points are lost.
    EndActivation,
    /// Give up the battle.
    Concede,
}

impl Action {
    /// True for what only an infantry squad can do.
    #[must_use]
    pub const fn is_infantry_only(&self) -> bool {
        matches!(
            self,
            Action::Step(_)
                | Action::FireMissile(..)
                | Action::TakeCover
                | Action::Capture
                | Action::Disarm(_)
                | Action::Mount(_)
                | Action::Dismount(_)
        )
    }
}

/// A die rolled against a target number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieCheck {
    pub roll: u8,
    /// The roll needed (`need`+); 7 means it cannot succeed.
    pub need: u8,
    pub success: bool,
}

/// One modifier to a target number: positive makes it harder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub reason: String,
    pub delta: i8,
}

/// How the to-hit number was reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToHit {
    pub base: u8,
    pub base_reason: String,
    pub modifiers: Vec<Modifier>,
    /// `base` plus the modifiers (may be below 2 or above 6).
    pub need: i8,
    pub natural_one_misses: bool,
    pub natural_six_hits: bool,
}

/// The penetration roll of a hit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PenetrationRoll {
    pub roll: u8,
    pub strength: u8,
    pub armor_facing: ArmorFacing,
    pub armor: u8,
    /// Why this facing was hit ("shooter in the side arc", "target on a hill").
    pub facing_reason: String,
    pub penetrating: bool,
}

/// Where an air strike's blast spreads from the marked space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scatter {
    /// The direction die: 1 north, then clockwise.
    pub direction_roll: u8,
    pub direction: Facing,
    /// The distance die: that many spaces beyond the mark are hit.
    pub distance: u8,
}

/// Why hull points were lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageCause {
    Penetration,
    Fire,
}

/// Something that happened, with its reasons.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// Each side rolled a die (ties re-rolled); the highest goes first.
    FirstPlayerRolled {
        rounds: Vec<Vec<u8>>,
        first: PlayerId,
    },
    TurnStarted {
        turn: u8,
    },
    /// The Weather option's roll at the start of a turn: a storm on a low roll.
    WeatherRolled {
        roll: u8,
        storm: bool,
    },
    UnitActivated {
        unit: UnitId,
        action_points: u8,
        reasons: Vec<String>,
    },
    UnitMoved {
        unit: UnitId,
        from: Hex,
        to: Hex,
        cost: u8,
        dash: bool,
    },
    UnitTurned {
        unit: UnitId,
        from: Facing,
        to: Facing,
        turret: Facing,
        cost: u8,
    },
    TurretRotated {
        unit: UnitId,
        from: Facing,
        to: Facing,
        cost: u8,
    },
    GunLoaded {
        unit: UnitId,
        round: Round,
        cost: u8,
    },
    AbilityUsed {
        unit: UnitId,
        role: Role,
        ability: Ability,
    },
    ShotResolved {
        shooter: UnitId,
        target: FireTarget,
        /// The main gun, or an infantry squad's missile launcher.
        #[serde(default, skip_serializing_if = "is_main_gun")]
        weapon: Weapon,
        round: Round,
        to_hit: ToHit,
        roll: u8,
        hit: bool,
        penetration: Option<PenetrationRoll>,
    },
    /// An anti-infantry weapon fired at a squad: a hit destroys it.
    AntiInfantryFired {
        shooter: UnitId,
        target: UnitId,
        to_hit: ToHit,
        roll: u8,
        hit: bool,
    },
    /// A unit is gone from the table without a wreck (an infantry squad).
    UnitDestroyed {
        unit: UnitId,
        reason: String,
    },
    InfantryMoved {
        unit: UnitId,
        from: Hex,
        to: Hex,
        cost: u8,
    },
    TookCover {
        unit: UnitId,
        cost: u8,
    },
    ObjectiveCaptured {
        unit: UnitId,
        hex: Hex,
        /// The side that held it before, if any.
        from: Option<PlayerId>,
        cost: u8,
    },
    /// A squad disarmed (or swept) an adjacent space; `found` mines were removed.
    MineDisarmed {
        unit: UnitId,
        hex: Hex,
        found: u8,
        cost: u8,
    },
    Mounted {
        unit: UnitId,
        carrier: UnitId,
        cost: u8,
    },
    Dismounted {
        unit: UnitId,
        carrier: UnitId,
        to: Hex,
        cost: u8,
    },
    /// A squad riding inside an APC got out when the APC was knocked out.
    BailedOut {
        unit: UnitId,
        carrier: UnitId,
        to: Hex,
    },
    /// A cook-off's blast struck a unit.
    BlastHit {
        source: UnitId,
        target: UnitId,
        penetration: PenetrationRoll,
    },
    BuildingDestroyed {
        hex: Hex,
    },
    /// A glancing hit's roll to wound.
    WoundRolled {
        unit: UnitId,
        check: DieCheck,
    },
    /// `pick` of `of` living members was chosen at random.
    CrewWounded {
        unit: UnitId,
        role: Role,
        name: String,
        pick: u8,
        of: u8,
        killed: bool,
        treated: bool,
    },
    LieutenantTookOver {
        unit: UnitId,
        role: Role,
    },
    HullDamaged {
        unit: UnitId,
        amount: u8,
        remaining: u8,
        cause: DamageCause,
    },
    FireRolled {
        unit: UnitId,
        check: DieCheck,
    },
    FireExtinguished {
        unit: UnitId,
        cost: u8,
    },
    SmokeDeployed {
        unit: UnitId,
        hex: Hex,
        cost: u8,
    },
    MineLaid {
        unit: UnitId,
        hex: Hex,
        cost: u8,
    },
    /// A unit entered a mined space: the mine's hit, and the mine is gone.
    MineExploded {
        unit: UnitId,
        hex: Hex,
        owner: PlayerId,
        penetration: PenetrationRoll,
    },
    AirStrikeCalled {
        unit: UnitId,
        hex: Hex,
        cost: u8,
    },
    /// A flare lights `hex` and the spaces around it until the turn ends.
    FlareFired {
        unit: UnitId,
        hex: Hex,
        cost: u8,
    },
    /// The roll at the start of a turn for a called strike to come in.
    AirStrikeRolled {
        side: PlayerId,
        hex: Hex,
        /// Turns since the call (1 on the turn after it).
        waited: u8,
        check: DieCheck,
    },
    /// The enemy's AA guns fired at a strike coming in: on a success it is driven off
    /// and spent.
    AntiAircraftFired {
        side: PlayerId,
        hex: Hex,
        /// AA guns standing against it.
        guns: u8,
        check: DieCheck,
    },
    /// The strike came in: the marked space, then the scatter line, are hit.
    AirStrikeLanded {
        side: PlayerId,
        hex: Hex,
        scatter: Option<Scatter>,
        /// Every space hit, on the board, the marked one first.
        hexes: Vec<Hex>,
    },
    /// An air strike's hit on a unit.
    StrikeHit {
        target: UnitId,
        hex: Hex,
        penetration: PenetrationRoll,
    },
    UnitDisabled {
        unit: UnitId,
        reason: String,
    },
    CookOffRolled {
        unit: UnitId,
        check: DieCheck,
    },
    CookedOff {
        unit: UnitId,
        hex: Hex,
        immediate: bool,
    },
    WaypointReached {
        unit: UnitId,
        hex: Hex,
    },
    ActivationEnded {
        unit: UnitId,
        unused: u8,
    },
    TurnEnded {
        turn: u8,
    },
    Conceded {
        side: PlayerId,
    },
    BattleEnded {
        outcome: Outcome,
    },
}

fn is_main_gun(w: &Weapon) -> bool {
    *w == Weapon::MainGun
}
