//! What a driver can order: the secret choice of each combat turn.

use serde::{Deserialize, Serialize};

use crate::framework::Refusal;
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
/// "X's choice" is the order's `facings` (by default its own front and the enemy's rear);
/// Maneuver carries the range change a maneuvering tank wants when the rules allow it one.
/// Hull Down's choice (only Hull Down against Hull Down, where nobody can ram) is always
/// the best for firing: its own front, the enemy's rear.
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
        #[serde(default, skip_serializing_if = "Facings::is_usual")]
        facings: Facings,
    },
    /// Maneuver for position. `drift` is the range change wanted where the matrix allows
    /// one (against Hull Down; Opening also declares the +1 against a Maneuver); `ram` as
    /// for Change Range, with `drift: Some(Closing)` only.
    Maneuver {
        drift: Option<Direction>,
        ram: bool,
        #[serde(default, skip_serializing_if = "Facings::is_usual")]
        facings: Facings,
    },
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
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: false,
            most: Some(1),
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: false,
            most: Some(2),
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: true,
            most: None,
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: None,
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: Some(1),
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: Some(2),
            facings: Facings::USUAL,
        },
        Action::Maneuver {
            drift: None,
            ram: false,
            facings: Facings::USUAL,
        },
        Action::Maneuver {
            drift: Some(Direction::Closing),
            ram: false,
            facings: Facings::USUAL,
        },
        Action::Maneuver {
            drift: Some(Direction::Closing),
            ram: true,
            facings: Facings::USUAL,
        },
        Action::Maneuver {
            drift: Some(Direction::Opening),
            ram: false,
            facings: Facings::USUAL,
        },
        Action::HullDown,
    ];

    /// The facings this order picks where the matrix lets its driver choose.
    #[must_use]
    pub const fn facings(self) -> Facings {
        match self {
            Action::ChangeRange { facings, .. } | Action::Maneuver { facings, .. } => facings,
            Action::HullDown => Facings::USUAL,
        }
    }

    /// This order with facing choice `facings` (Hull Down keeps the usual one).
    #[must_use]
    pub const fn with_facings(self, facings: Facings) -> Self {
        match self {
            Action::ChangeRange {
                direction,
                ram,
                most,
                ..
            } => Action::ChangeRange {
                direction,
                ram,
                most,
                facings,
            },
            Action::Maneuver { drift, ram, .. } => Action::Maneuver {
                drift,
                ram,
                facings,
            },
            Action::HullDown => Action::HullDown,
        }
    }

    /// Every order the rules accept: each of [`Action::ALL`] with every facing choice.
    #[must_use]
    pub fn every() -> Vec<Action> {
        let mut out = Vec::new();
        for a in Action::ALL {
            if a == Action::HullDown {
                out.push(a);
                continue;
            }
            for own in Presented::ALL {
                for enemy in Presented::ALL {
                    out.push(a.with_facings(Facings { own, enemy }));
                }
            }
        }
        out
    }

    /// The orders worth offering a player (and weighing, for the bot): [`Action::ALL`]
    /// with the usual facings, and the facing choices that change a collision: a rammer
    /// aiming for the enemy's side (a T-Bone: the lesser of speed and armor to both)
    /// instead of its rear (a Sideswipe), and a maneuvering tank showing its side to a
    /// rammer instead of its front (a T-Bone instead of a Head-On). Away from a ram the
    /// usual choice is the best for firing; the rules accept any pair ([`Action::every`]).
    #[must_use]
    pub fn offered() -> Vec<Action> {
        let side_on = |a: Action, own, enemy| a.with_facings(Facings { own, enemy });
        let mut out = Action::ALL.to_vec();
        for a in Action::ALL {
            if a.rams() {
                out.push(side_on(a, Presented::Front, Presented::Left));
            }
        }
        out.push(side_on(
            Action::Maneuver {
                drift: None,
                ram: false,
                facings: Facings::USUAL,
            },
            Presented::Left,
            Presented::Rear,
        ));
        out
    }

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

    /// Why the order is not allowed, if it is not, with the rule that forbids it.
    #[must_use]
    pub fn problem(self) -> Option<Refusal> {
        let (rule, why) = match self {
            Action::ChangeRange {
                direction: Direction::Opening,
                ram: true,
                ..
            } => ("rd.ram.who", "only a closing tank can ram"),
            Action::ChangeRange { most: Some(0), .. } => (
                "rd.chart.up-to",
                "a range change of no bands is a Maneuver: order Maneuver",
            ),
            Action::ChangeRange {
                ram: true,
                most: Some(_),
                ..
            } => (
                "rd.chart.up-to",
                "a ram drives as far as it can: give no limit with a ram",
            ),
            Action::Maneuver {
                drift, ram: true, ..
            } if drift != Some(Direction::Closing) => (
                "rd.ram.who",
                "a maneuvering tank rams only while drifting closer",
            ),
            _ => return None,
        };
        Some(Refusal::new(rule, why))
    }
}

/// The facings a driver picks where the matrix gives it the choice ("X's choice"): the
/// side its own tank shows and the side the enemy shows. Usually its front and the
/// enemy's rear, the best for firing; in a ram another may be better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Facings {
    pub own: Presented,
    pub enemy: Presented,
}

impl Facings {
    /// Its own front, the enemy's rear.
    pub const USUAL: Facings = Facings {
        own: Presented::Front,
        enemy: Presented::Rear,
    };

    /// Whether this is the usual choice (left out of records).
    #[must_use]
    pub fn is_usual(&self) -> bool {
        *self == Self::USUAL
    }
}

impl Default for Facings {
    fn default() -> Self {
        Self::USUAL
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
    pub const ALL: [Presented; 4] = [
        Presented::Front,
        Presented::Left,
        Presented::Right,
        Presented::Rear,
    ];

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
