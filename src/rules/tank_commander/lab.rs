//! What the playtest lab counts in a Tank Commander battle: every unit and every upgrade
//! a side fielded, whether it lasted, and where tanks were lost.

use super::TankCommander;
use super::setup::{Build, UnitKind};
use super::state::Status;
use crate::lab::{Piece, Tally};

/// The upgrades of a build by name: its on/off upgrades, and armor and mines once each
/// whatever their points.
fn upgrades(build: &Build) -> Vec<&'static str> {
    let mut names = build.switched_on();
    if build.armor.front + build.armor.side + build.armor.rear > 0 {
        names.push("armor");
    }
    if build.mines > 0 {
        names.push("mines");
    }
    names
}

/// Counts a finished battle: each unit (by name) and each upgrade on a tank (as
/// "upgrade: engine"), with whether it lasted to the end; the spaces where tanks fell.
pub(super) fn finish(game: &TankCommander, tally: &mut Tally) {
    let board = game.board;
    tally.board = Some([i32::from(board.width), i32::from(board.height)]);
    for unit in &game.units {
        if unit.kind == UnitKind::Target {
            continue;
        }
        let lasted = unit.status == Status::Active;
        tally.pieces.push(Piece {
            seat: unit.side.0,
            name: unit.name.clone(),
            lasted,
        });
        if unit.kind == UnitKind::Tank {
            for upgrade in upgrades(&unit.build) {
                tally.pieces.push(Piece {
                    seat: unit.side.0,
                    name: format!("upgrade: {upgrade}"),
                    lasted,
                });
            }
            if !lasted {
                tally.losses.push(board.offset_of(unit.at));
            }
        }
    }
}
