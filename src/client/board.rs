//! The table and its hex tiles, coloured and shaped by terrain.

use bevy::prelude::*;

use super::{HEX_SIZE, Table, hex_to_world};
use crate::rules::tank_commander::Terrain;
use crate::rules::tank_commander::setup::MissionRules;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_board);
}

fn terrain_color(t: Terrain) -> Color {
    match t {
        Terrain::Open => Color::srgb(0.47, 0.56, 0.33),
        Terrain::Mud => Color::srgb(0.36, 0.27, 0.17),
        Terrain::Rubble => Color::srgb(0.52, 0.50, 0.47),
        Terrain::Forest => Color::srgb(0.22, 0.40, 0.20),
        Terrain::Building => Color::srgb(0.60, 0.55, 0.50),
        Terrain::Hill => Color::srgb(0.60, 0.58, 0.36),
    }
}

fn spawn_board(
    mut commands: Commands,
    table: Res<Table>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let battle = &table.battle;
    let board = battle.board();
    // A flat-topped hexagon: Bevy's cylinder puts a corner on +X at resolution 6.
    let tile = meshes.add(Cylinder::new(HEX_SIZE * 0.96, 0.2).mesh().resolution(6));
    let hill = meshes.add(Cylinder::new(HEX_SIZE * 0.96, 0.5).mesh().resolution(6));
    let block = meshes.add(Cuboid::new(1.1, 1.0, 1.1));
    let tree = meshes.add(Cone {
        radius: 0.28,
        height: 0.9,
    });
    let rock = meshes.add(Cuboid::new(0.3, 0.18, 0.25));
    let cloud = meshes.add(Sphere::new(0.55));
    let trunk_mat = materials.add(Color::srgb(0.16, 0.30, 0.14));
    let roof_mat = materials.add(Color::srgb(0.55, 0.30, 0.25));
    let rock_mat = materials.add(Color::srgb(0.40, 0.38, 0.36));
    let smoke_mat = materials.add(StandardMaterial {
        base_color: Color::srgba(0.85, 0.85, 0.88, 0.55),
        alpha_mode: AlphaMode::Blend,
        ..default()
    });
    let mut tile_mats = std::collections::HashMap::new();

    for hex in board.hexes() {
        let terrain = battle.terrain(hex);
        let at = hex_to_world(hex);
        let mat = tile_mats
            .entry(terrain)
            .or_insert_with(|| materials.add(terrain_color(terrain)))
            .clone();
        let (mesh, height) = if terrain == Terrain::Hill {
            (hill.clone(), 0.5)
        } else {
            (tile.clone(), 0.2)
        };
        commands.spawn((
            Mesh3d(mesh),
            MeshMaterial3d(mat),
            Transform::from_translation(at + Vec3::Y * (height / 2.0 - 0.1)),
        ));
        let top = at + Vec3::Y * (height - 0.1);
        match terrain {
            Terrain::Forest => {
                for (dx, dz) in [(-0.3, -0.2), (0.3, -0.15), (0.0, 0.3)] {
                    commands.spawn((
                        Mesh3d(tree.clone()),
                        MeshMaterial3d(trunk_mat.clone()),
                        Transform::from_translation(top + Vec3::new(dx, 0.45, dz)),
                    ));
                }
            }
            Terrain::Building => {
                commands.spawn((
                    Mesh3d(block.clone()),
                    MeshMaterial3d(roof_mat.clone()),
                    Transform::from_translation(top + Vec3::Y * 0.5),
                ));
            }
            Terrain::Rubble => {
                for (dx, dz, r) in [(-0.25, 0.1, 0.3), (0.2, -0.2, 1.1), (0.15, 0.3, 2.0)] {
                    commands.spawn((
                        Mesh3d(rock.clone()),
                        MeshMaterial3d(rock_mat.clone()),
                        Transform::from_translation(top + Vec3::new(dx, 0.09, dz))
                            .with_rotation(Quat::from_rotation_y(r)),
                    ));
                }
            }
            _ => {}
        }
        if battle.smoke(hex) {
            commands.spawn((
                Mesh3d(cloud.clone()),
                MeshMaterial3d(smoke_mat.clone()),
                Transform::from_translation(top + Vec3::Y * 0.6)
                    .with_scale(Vec3::new(1.3, 0.8, 1.3)),
            ));
        }
    }

    // Training waypoints: gold rings, dimmed once reached.
    if let MissionRules::Training { waypoints } = battle.mission() {
        let ring = meshes.add(Torus::new(0.45, 0.6));
        let gold = materials.add(StandardMaterial {
            base_color: Color::srgb(0.95, 0.78, 0.15),
            emissive: LinearRgba::rgb(0.4, 0.3, 0.0),
            ..default()
        });
        let dim = materials.add(Color::srgb(0.5, 0.45, 0.3));
        for (hex, reached) in waypoints.iter().zip(battle.waypoints_reached()) {
            let height = if battle.terrain(*hex) == Terrain::Hill {
                0.4
            } else {
                0.1
            };
            commands.spawn((
                Mesh3d(ring.clone()),
                MeshMaterial3d(if *reached { dim.clone() } else { gold.clone() }),
                Transform::from_translation(hex_to_world(*hex) + Vec3::Y * (height + 0.02)),
            ));
        }
    }

    // The table surface under the board.
    let (w, h) = (
        f32::from(board.width) * 1.5 + 3.0,
        f32::from(board.height) * 1.75 + 3.0,
    );
    let centre = Vec3::new(
        f32::from(board.width) * 0.75 - 0.75,
        -0.15,
        f32::from(board.height) * 0.87 - 0.4,
    );
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(w, 0.1, h))),
        MeshMaterial3d(materials.add(Color::srgb(0.33, 0.23, 0.15))),
        Transform::from_translation(centre),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_translation(centre + Vec3::new(-6.0, 14.0, 8.0))
            .looking_at(centre, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 350.0,
        ..default()
    });
}
