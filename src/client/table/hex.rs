//! The one hex layout of the table: hexes to world positions and back, for the game and
//! the editor alike. `hexx`'s flat-topped layout, one hex size across, with the rows
//! running south along the world's +Z.

use bevy::prelude::*;
use hexx::{Hex, HexLayout};

use crate::grid::Facing;

/// Size of a hex in world units (centre to corner).
pub const HEX_SIZE: f32 = 1.0;

/// The layout: flat-topped hexes of [`HEX_SIZE`], the origin hex's centre at the world's
/// origin; the layout's second axis is the world's Z.
pub const LAYOUT: HexLayout = HexLayout::flat().with_hex_size(HEX_SIZE);

/// World position of a hex centre on the table surface.
#[must_use]
pub fn hex_to_world(hex: Hex) -> Vec3 {
    let at = LAYOUT.hex_to_world_pos(hex);
    Vec3::new(at.x, 0.0, at.y)
}

/// The hex whose centre is nearest to `world` on the table (the inverse of
/// [`hex_to_world`]; height is ignored).
#[must_use]
pub fn world_to_hex(world: Vec3) -> Hex {
    LAYOUT.world_pos_to_hex(Vec2::new(world.x, world.z))
}

/// Rotation that turns a model built facing north (−Z) to `facing`.
#[must_use]
pub fn facing_rotation(facing: Facing) -> Quat {
    #[allow(clippy::cast_possible_truncation, reason = "angles are small")]
    Quat::from_rotation_y(-(facing.degrees() as f32).to_radians())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_puts_hexes_where_the_rules_measure_them() {
        for q in -6..12 {
            for r in -6..12 {
                let hex = Hex::new(q, r);
                let (x, z) = crate::grid::hex::center(hex);
                let world = hex_to_world(hex);
                assert!((f64::from(world.x) - x).abs() < 1e-4, "{hex:?}");
                assert!((f64::from(world.z) - z).abs() < 1e-4, "{hex:?}");
                assert_eq!(world_to_hex(world + Vec3::new(0.3, 0.0, -0.2)), hex);
            }
        }
    }
}
