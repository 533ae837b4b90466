//! What a driver can order: the secret choice of each combat turn.

use serde::{Deserialize, Serialize};

use crate::rules::tank_commander::setup::ArmorFacing;

/// Which way a driver wants the range to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Closing in (pursuing).
    Closing,
    /// Opening the range (fleeing).
    Opening,
}

impl Direction {
    /// The sign of a range change in this direction: closing is negative.
    #[must_use]
    pub const fn sign(self) -> i16 {
        match self {
            Direction::Closing => -1,
            Direction::Opening => 1,
        }
    }
}

/// A driver's secret order for one combat turn.
///
/// The rulebook's follow-up decisions are folded into the order so that a turn is one
/// click per player: how far to go ("up to N") is the order's `most` (as far as allowed
/// without it; a closing tank stops at Adjacent unless it means to ram); a facing that is
/// "X's choice" is always X's best (its own front, the enemy's rear); Maneuver carries the
/// range change a maneuvering tank wants when the rules allow it one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Change Range: close in or open up. With `ram`, a closing tank drives through
    /// Adjacent and rams if its Driving test passes (else it overshoots to Close).
    /// `most`: the matrix moves the range "up to" N bands in this tank's favour, and the
    /// driver goes at most this many (`None`: as far as the matrix allows).
    ChangeRange {
        direction: Direction,
        ram: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        most: Option<u8>,
    },
    /// Maneuver for position. `drift` is the range change wanted where the matrix allows
    /// one (against Hull Down; Opening also declares the +1 against a Maneuver); `ram` as
    /// for Change Range, with `drift: Some(Closing)` only.
    Maneuver { drift: Option<Direction>, ram: bool },
    /// Go Hull Down: non-turret hits are negated if the Driving test passes.
    HullDown,
}

impl Action {
    /// Every order a driver may give.
    pub const ALL: [Action; 12] = [
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: false,
            most: None,
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: false,
            most: Some(1),
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: false,
            most: Some(2),
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: true,
            most: None,
        },
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: None,
        },
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: Some(1),
        },
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: Some(2),
        },
        Action::Maneuver {
            drift: None,
            ram: false,
        },
        Action::Maneuver {
            drift: Some(Direction::Closing),
            ram: false,
        },
        Action::Maneuver {
            drift: Some(Direction::Closing),
            ram: true,
        },
        Action::Maneuver {
            drift: Some(Direction::Opening),
            ram: false,
        },
        Action::HullDown,
    ];

    /// The matrix's column order: Change Range, Maneuver, Hull Down.
    #[must_use]
    pub const fn rank(self) -> u8 {
        match self {
            Action::ChangeRange { .. } => 0,
            Action::Maneuver { .. } => 1,
            Action::HullDown => 2,
        }
    }

    /// The range direction this order wants, if any.
    #[must_use]
    pub const fn direction(self) -> Option<Direction> {
        match self {
            Action::ChangeRange { direction, .. } => Some(direction),
            Action::Maneuver { drift, .. } => drift,
            Action::HullDown => None,
        }
    }

    /// The most bands this order moves the range, when its driver set a limit.
    #[must_use]
    pub const fn most(self) -> Option<u8> {
        match self {
            Action::ChangeRange { most, .. } => most,
            Action::Maneuver { .. } | Action::HullDown => None,
        }
    }

    /// True when the order means to ram.
    #[must_use]
    pub const fn rams(self) -> bool {
        match self {
            Action::ChangeRange { ram, .. } | Action::Maneuver { ram, .. } => ram,
            Action::HullDown => false,
        }
    }

    /// Why the order is not allowed, if it is not.
    #[must_use]
    pub fn problem(self) -> Option<&'static str> {
        match self {
            Action::ChangeRange {
                direction: Direction::Opening,
                ram: true,
                ..
            } => Some("only a closing tank can ram"),
            Action::ChangeRange { most: Some(0), .. } => {
                Some("a range change of no bands is a Maneuver: order Maneuver")
            }
            Action::ChangeRange {
                ram: true,
                most: Some(_),
                ..
            } => Some("a ram drives as far as it can: give no limit with a ram"),
            Action::Maneuver { drift, ram: true } if drift != Some(Direction::Closing) => {
                Some("a maneuvering tank rams only while drifting closer")
            }
            _ => None,
        }
    }
}

/// The side of a tank the enemy sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Presented {
    Front,
    Left,
    Right,
    Rear,
}

impl Presented {
    /// The Tank Commander armor facing of this side.
    #[must_use]
    pub const fn armor(self) -> ArmorFacing {
        match self {
            Presented::Front => ArmorFacing::Front,
            Presented::Left | Presented::Right => ArmorFacing::Side,
            Presented::Rear => ArmorFacing::Rear,
        }
    }

    /// A random facing from a d4: 1 front, 2 left, 3 right, 4 rear.
    #[must_use]
    pub const fn from_d4(roll: u32) -> Self {
        match roll {
            1 => Presented::Front,
            2 => Presented::Left,
            3 => Presented::Right,
            _ => Presented::Rear,
        }
    }
}

impl std::fmt::Display for Presented {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Presented::Front => "front",
            Presented::Left => "left side",
            Presented::Right => "right side",
            Presented::Rear => "rear",
        })
    }
}
