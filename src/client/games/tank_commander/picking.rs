//! The pointer finds tiles by geometry: a ray from the camera meets the hill tops, then
//! the ground, and the hex there is the tile under the pointer. The board is drawn as a
//! few merged meshes (see `board`), so there is no mesh per tile to ray-cast; units are
//! still found by Bevy's mesh picking, and the nearer hit wins.

use bevy::picking::PickingSystems;
use bevy::picking::backend::PointerHits;
use bevy::picking::backend::ray::RayMap;
use bevy::prelude::*;

use super::mirror::Tile;
use super::table::TileIndex;
use super::world_to_hex;
use crate::client::core::session::Session;
use crate::rules::tank_commander::TankCommander;

/// Heights of the tops of hill and other tiles (their models are 0.5 and 0.2 tall, set
/// 0.1 into the table).
const HILL_TOP: f32 = 0.4;
const GROUND_TOP: f32 = 0.1;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        pick_tiles
            .in_set(PickingSystems::Backend)
            .run_if(resource_exists::<Session<TankCommander>>),
    );
}

/// The tile under each pointer, reported as a picking hit.
fn pick_tiles(
    rays: Res<RayMap>,
    cameras: Query<&Camera>,
    index: Res<TileIndex>,
    tiles: Query<(), With<Tile>>,
    mut hits: MessageWriter<PointerHits>,
) {
    crate::client::frame::input::report_board_hits(&rays, &cameras, &mut hits, |ray| {
        tile_under(ray, &index).filter(|(tile, ..)| tiles.contains(*tile))
    });
}

/// The tile `ray` meets first: a hill whose top it crosses, else the tile where it meets
/// the ground (the side of a hill counts as that hill).
fn tile_under(ray: &Ray3d, index: &TileIndex) -> Option<(Entity, f32, Vec3)> {
    [(HILL_TOP, true), (GROUND_TOP, false)]
        .into_iter()
        .find_map(|(height, hills_only)| {
            let depth = ray.intersect_plane(Vec3::Y * height, InfinitePlane3d::new(Vec3::Y))?;
            let point = ray.get_point(depth);
            let &(tile, hill) = index.0.get(&world_to_hex(point))?;
            (hill || !hills_only).then_some((tile, depth, point))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::games::tank_commander::hex_to_world;

    #[test]
    fn the_ray_finds_the_hex_below_and_a_hill_before_the_ground_behind_it() {
        let hexes: Vec<hexx::Hex> = (0..6)
            .flat_map(|q| (0..6).map(move |r| hexx::Hex::new(q, r)))
            .collect();
        for h in &hexes {
            assert_eq!(world_to_hex(hex_to_world(*h)), *h);
            // Anywhere well inside the hex.
            let off = hex_to_world(*h) + Vec3::new(0.4, 0.0, -0.3);
            assert_eq!(world_to_hex(off), *h);
        }
        let hill = hexx::Hex::new(2, 2);
        let behind = hexx::Hex::new(2, 3);
        let mut index = TileIndex::default();
        for (n, h) in hexes.iter().enumerate() {
            index.0.insert(
                *h,
                (Entity::from_raw_u32(n as u32 + 1).unwrap(), *h == hill),
            );
        }
        let entity = |h: hexx::Hex| index.0[&h].0;
        // Straight down onto a hex.
        let down = |h: hexx::Hex| Ray3d::new(hex_to_world(h) + Vec3::Y * 10.0, Dir3::NEG_Y);
        assert_eq!(tile_under(&down(behind), &index).unwrap().0, entity(behind));
        assert_eq!(tile_under(&down(hill), &index).unwrap().0, entity(hill));
        // A slanting ray that crosses the hill's top on its way to the ground behind it.
        let ground = hex_to_world(behind) + Vec3::Y * GROUND_TOP;
        let over_hill = hex_to_world(hill) + Vec3::Y * HILL_TOP;
        let dir = Dir3::new(ground - over_hill).unwrap();
        let from = over_hill - dir * 5.0;
        assert_eq!(
            tile_under(&Ray3d::new(from, dir), &index).unwrap().0,
            entity(hill)
        );
        // Off the board: nothing.
        assert!(tile_under(&down(hexx::Hex::new(40, 40)), &index).is_none());
    }
}
