//! What the playtest lab counts in a Tank Commander battle: every unit and every upgrade
//! a side fielded, whether it lasted, and where tanks were lost.

use super::TankCommander;
use super::setup::{Build, UnitKind};
use super::state::Status;
use crate::lab::{Piece, Tally};

/// The upgrades of a build by name (armor counts once, whatever its points).
fn upgrades(build: &Build) -> Vec<&'static str> {
    let flags = [
        (
            build.armor.front + build.armor.side + build.armor.rear > 0,
            "Armor",
        ),
        (build.engine, "Engine"),
        (build.barrel, "Barrel"),
        (build.optics, "Optics"),
        (build.he_rounds, "HE rounds"),
        (build.anti_infantry, "Anti-infantry"),
        (build.smoke_launcher, "Smoke launcher"),
        (build.medkit, "Medkit"),
        (build.lieutenant, "Lieutenant"),
        (build.air_support, "Air support"),
        (build.mines > 0, "Mines"),
    ];
    flags
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect()
}

/// Counts a finished battle: each unit (by name) and each upgrade on a tank (as
/// "upgrade: Engine"), with whether it lasted to the end; the spaces where tanks fell.
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
