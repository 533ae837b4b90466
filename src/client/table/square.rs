//! The one square layout of the table: squares to world positions and back, for Tank
//! Chess and the editor's square boards alike. A board of `width` × `height` squares of
//! one world unit, centred on the origin, its north towards −Z.

use bevy::prelude::*;

use crate::rules::tank_chess::{Dir8, Square};

/// Centre of a square on a `width` × `height` board.
#[must_use]
pub fn square_centre((w, h): (u8, u8), sq: Square) -> Vec3 {
    Vec3::new(
        f32::from(sq.col) - f32::from(w) / 2.0 + 0.5,
        0.0,
        f32::from(h) / 2.0 - 0.5 - f32::from(sq.row),
    )
}

/// The cell (column, row) under a point of the table, on the board or off it.
#[must_use]
pub fn world_to_cell((w, h): (u8, u8), at: Vec3) -> [i32; 2] {
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a point of the table is a few dozen units from the origin"
    )]
    [
        (at.x + f32::from(w) / 2.0).floor() as i32,
        (f32::from(h) / 2.0 - at.z).floor() as i32,
    ]
}

/// The square under a point of the table, the inverse of [`square_centre`].
#[must_use]
pub fn world_to_square((w, h): (u8, u8), at: Vec3) -> Option<Square> {
    let [col, row] = world_to_cell((w, h), at);
    Some(Square {
        col: u8::try_from(col).ok().filter(|&c| c < w)?,
        row: u8::try_from(row).ok().filter(|&r| r < h)?,
    })
}

/// Rotation that turns a model built facing north (−Z) to `d`.
#[must_use]
pub fn dir_rotation(d: Dir8) -> Quat {
    Quat::from_rotation_y(-f32::from(d.index()) * std::f32::consts::FRAC_PI_4)
}
