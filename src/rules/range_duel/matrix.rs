//! The rulebook's two tables: the maneuver matrix and the collision types.

use serde::{Deserialize, Serialize};

use super::action::{Action, Presented};
use crate::framework::PlayerId;

/// A row of the maneuver matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Row {
    ChangeVsChange,
    ChangeVsManeuver,
    ManeuverVsManeuver,
    ChangeVsHullDown,
    ManeuverVsHullDown,
    HullDownVsHullDown,
}

impl Row {
    /// The row's number in the rulebook's matrix, from 1.
    #[must_use]
    pub const fn number(self) -> u8 {
        match self {
            Row::ChangeVsChange => 1,
            Row::ChangeVsManeuver => 2,
            Row::ManeuverVsManeuver => 3,
            Row::ChangeVsHullDown => 4,
            Row::ManeuverVsHullDown => 5,
            Row::HullDownVsHullDown => 6,
        }
    }

    /// The row's choices, "Tank 1" first.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Row::ChangeVsChange => "Change Range vs Change Range",
            Row::ChangeVsManeuver => "Change Range vs Maneuver",
            Row::ManeuverVsManeuver => "Maneuver vs Maneuver",
            Row::ChangeVsHullDown => "Change Range vs Hull Down",
            Row::ManeuverVsHullDown => "Maneuver vs Hull Down",
            Row::HullDownVsHullDown => "Hull Down vs Hull Down",
        }
    }

    /// What the row does, in short (with "Tank 1" the row's first tank).
    #[must_use]
    pub const fn summary(self) -> &'static str {
        match self {
            Row::ChangeVsChange => {
                "the Driving winner shifts the range 1 their way; 2 if both go the same way; \
                 each changer shows its front when closing, its rear when opening"
            }
            Row::ChangeVsManeuver => {
                "Tank 1 shifts the range 2 (1 if it fails Driving); Tank 2's facing is random \
                 unless Tank 2 wins Driving and chooses"
            }
            Row::ManeuverVsManeuver => {
                "range unchanged; the Driving winner chooses both facings; either may back \
                 off 1 before firing"
            }
            Row::ChangeVsHullDown => {
                "Tank 1 shifts the range 3 (2 if it fails Driving); Tank 2 negates non-turret \
                 hits if it passes Driving"
            }
            Row::ManeuverVsHullDown => {
                "Tank 1 shifts the range 1 if it passes Driving; Tank 2 negates non-turret \
                 hits if it passes Driving"
            }
            Row::HullDownVsHullDown => {
                "range unchanged; each tank that passes Driving negates non-turret hits"
            }
        }
    }
}

/// The row that applies to a pair of orders, and which seat plays "Tank 1" in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppliedRow {
    pub row: Row,
    /// The seat in the rulebook's "Tank 1" column (player 1 when both chose alike).
    pub tank1: PlayerId,
}

/// Looks up the matrix: the symmetric cases apply with the roles swapped.
#[must_use]
pub fn applied_row(orders: [Action; 2]) -> AppliedRow {
    let (a, b) = (orders[0].rank(), orders[1].rank());
    let tank1 = if b < a { PlayerId(1) } else { PlayerId(0) };
    let row = match (a.min(b), a.max(b)) {
        (0, 0) => Row::ChangeVsChange,
        (0, 1) => Row::ChangeVsManeuver,
        (1, 1) => Row::ManeuverVsManeuver,
        (0, 2) => Row::ChangeVsHullDown,
        (1, 2) => Row::ManeuverVsHullDown,
        _ => Row::HullDownVsHullDown,
    };
    AppliedRow { row, tank1 }
}

/// How two tanks meet in a ram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Collision {
    Sideswipe,
    TBone,
    HeadOn,
}

impl std::fmt::Display for Collision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Collision::Sideswipe => "Sideswipe",
            Collision::TBone => "T-Bone",
            Collision::HeadOn => "Head-On",
        })
    }
}

/// The collision type for the rammer's and the target's presented facings. The table
/// gives front/front Head-On, front/side T-Bone, side/side and front/rear Sideswipe; we
/// read it symmetrically and call every other meeting (any rear, side against rear) a
/// Sideswipe: the hulls glance off each other.
#[must_use]
pub fn collision(rammer: Presented, target: Presented) -> Collision {
    let side = |p: Presented| matches!(p, Presented::Left | Presented::Right);
    match (rammer, target) {
        (Presented::Front, Presented::Front) => Collision::HeadOn,
        (Presented::Front, t) if side(t) => Collision::TBone,
        (r, Presented::Front) if side(r) => Collision::TBone,
        _ => Collision::Sideswipe,
    }
}
