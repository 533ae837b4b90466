//! Procedural tank models: hull, tracks, a turret that turns on its own, a barrel.

use bevy::prelude::*;

use super::{Table, facing_rotation, hex_to_world};
use crate::rules::tank_commander::setup::UnitKind;
use crate::rules::tank_commander::state::Status;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_units);
}

/// Side colours: blue for the first side, red for the second.
pub fn side_color(side: u8) -> Color {
    match side {
        0 => Color::srgb(0.20, 0.36, 0.85),
        1 => Color::srgb(0.85, 0.22, 0.18),
        _ => Color::srgb(0.8, 0.8, 0.2),
    }
}

fn spawn_units(
    mut commands: Commands,
    table: Res<Table>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let battle = &table.battle;
    let hull = meshes.add(Cuboid::new(0.62, 0.26, 0.9));
    let track = meshes.add(Cuboid::new(0.14, 0.22, 0.98));
    let turret = meshes.add(Cylinder::new(0.22, 0.2));
    let barrel = meshes.add(Cylinder::new(0.045, 0.7));
    let glacis = meshes.add(Cuboid::new(0.5, 0.06, 0.12));
    let target = meshes.add(Cuboid::new(0.7, 0.7, 0.12));
    let track_mat = materials.add(Color::srgb(0.12, 0.12, 0.12));
    let white = materials.add(Color::srgb(0.95, 0.95, 0.9));
    for u in battle.units() {
        if u.status == Status::Destroyed {
            continue;
        }
        let base = hex_to_world(u.at)
            + Vec3::Y
                * (if battle.terrain(u.at) == crate::rules::tank_commander::Terrain::Hill {
                    0.4
                } else {
                    0.1
                });
        let paint = materials.add(side_color(u.side.0));
        if u.kind == UnitKind::Target {
            commands.spawn((
                Mesh3d(target.clone()),
                MeshMaterial3d(paint),
                Transform::from_translation(base + Vec3::Y * 0.35)
                    .with_rotation(facing_rotation(u.facing)),
                children![(
                    Mesh3d(meshes.add(Cylinder::new(0.18, 0.13))),
                    MeshMaterial3d(white.clone()),
                    Transform::from_xyz(0.0, 0.0, -0.01)
                        .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                )],
            ));
            continue;
        }
        // The turret's rotation relative to the hull.
        let turret_turn = facing_rotation(u.facing).inverse() * facing_rotation(u.turret);
        commands.spawn((
            Transform::from_translation(base)
                .with_rotation(facing_rotation(u.facing))
                .with_scale(Vec3::splat(1.25)),
            Visibility::default(),
            children![
                (
                    Mesh3d(hull.clone()),
                    MeshMaterial3d(paint.clone()),
                    Transform::from_xyz(0.0, 0.2, 0.0)
                ),
                // A pale plate on the front of the hull shows which way it faces.
                (
                    Mesh3d(glacis.clone()),
                    MeshMaterial3d(white.clone()),
                    Transform::from_xyz(0.0, 0.34, -0.38)
                ),
                (
                    Mesh3d(track.clone()),
                    MeshMaterial3d(track_mat.clone()),
                    Transform::from_xyz(-0.36, 0.13, 0.0)
                ),
                (
                    Mesh3d(track.clone()),
                    MeshMaterial3d(track_mat.clone()),
                    Transform::from_xyz(0.36, 0.13, 0.0)
                ),
                (
                    Transform::from_xyz(0.0, 0.43, 0.05).with_rotation(turret_turn),
                    Visibility::default(),
                    children![
                        (
                            Mesh3d(turret.clone()),
                            MeshMaterial3d(paint.clone()),
                            Transform::default()
                        ),
                        (
                            Mesh3d(barrel.clone()),
                            MeshMaterial3d(track_mat.clone()),
                            Transform::from_xyz(0.0, 0.02, -0.5)
                                .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
                        ),
                    ],
                ),
            ],
        ));
    }
}
