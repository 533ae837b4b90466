//! Procedural tank models: hull, tracks, a turret that turns on its own, a barrel; wrecks
//! and fires marked.

use bevy::prelude::*;

use super::board::OnTable;
use super::{facing_rotation, hex_to_world};
use crate::rules::tank_commander::setup::UnitKind;
use crate::rules::tank_commander::state::Status;
use crate::rules::tank_commander::{TankCommander, Terrain};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, load_assets);
}

/// Side colours: blue for the first side, red for the second.
pub fn side_color(side: u8) -> Color {
    match side {
        0 => Color::srgb(0.20, 0.36, 0.85),
        1 => Color::srgb(0.85, 0.22, 0.18),
        _ => Color::srgb(0.8, 0.8, 0.2),
    }
}

/// Meshes and materials of the unit models, made once.
#[derive(Resource)]
pub struct UnitAssets {
    hull: Handle<Mesh>,
    track: Handle<Mesh>,
    turret: Handle<Mesh>,
    barrel: Handle<Mesh>,
    glacis: Handle<Mesh>,
    target: Handle<Mesh>,
    bullseye: Handle<Mesh>,
    flame: Handle<Mesh>,
    paint: Vec<Handle<StandardMaterial>>,
    wreck: Handle<StandardMaterial>,
    dark: Handle<StandardMaterial>,
    white: Handle<StandardMaterial>,
    fire: Handle<StandardMaterial>,
}

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(UnitAssets {
        hull: meshes.add(Cuboid::new(0.62, 0.26, 0.9)),
        track: meshes.add(Cuboid::new(0.14, 0.22, 0.98)),
        turret: meshes.add(Cylinder::new(0.22, 0.2)),
        barrel: meshes.add(Cylinder::new(0.045, 0.7)),
        glacis: meshes.add(Cuboid::new(0.5, 0.06, 0.12)),
        target: meshes.add(Cuboid::new(0.7, 0.7, 0.12)),
        bullseye: meshes.add(Cylinder::new(0.18, 0.13)),
        flame: meshes.add(Cone {
            radius: 0.22,
            height: 0.6,
        }),
        paint: (0..3).map(|s| materials.add(side_color(s))).collect(),
        wreck: materials.add(Color::srgb(0.22, 0.21, 0.2)),
        dark: materials.add(Color::srgb(0.12, 0.12, 0.12)),
        white: materials.add(Color::srgb(0.95, 0.95, 0.9)),
        fire: materials.add(StandardMaterial {
            base_color: Color::srgb(1.0, 0.45, 0.05),
            emissive: LinearRgba::rgb(4.0, 1.2, 0.1),
            ..default()
        }),
    });
}

/// Spawns a model for every unit on the table.
pub fn spawn_units(commands: &mut Commands, battle: &TankCommander, a: &UnitAssets) {
    for u in battle.units() {
        if u.status == Status::Destroyed {
            continue;
        }
        let lift = if battle.terrain(u.at) == Terrain::Hill {
            0.4
        } else {
            0.1
        };
        let base = hex_to_world(u.at) + Vec3::Y * lift;
        let paint = if u.status == Status::Disabled {
            a.wreck.clone()
        } else {
            a.paint[usize::from(u.side.0).min(2)].clone()
        };
        if u.kind == UnitKind::Target {
            let mut target = commands.spawn((
                OnTable,
                Mesh3d(a.target.clone()),
                MeshMaterial3d(paint),
                Transform::from_translation(base + Vec3::Y * 0.35)
                    .with_rotation(facing_rotation(u.facing)),
                children![(
                    Mesh3d(a.bullseye.clone()),
                    MeshMaterial3d(a.white.clone()),
                    Transform::from_xyz(0.0, 0.0, -0.01)
                        .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                )],
            ));
            super::board::pickable(&mut target, u.at);
            continue;
        }
        // The turret's rotation relative to the hull.
        let turret_turn = facing_rotation(u.facing).inverse() * facing_rotation(u.turret);
        let mut tank = commands.spawn((
            OnTable,
            Transform::from_translation(base)
                .with_rotation(facing_rotation(u.facing))
                .with_scale(Vec3::splat(1.25)),
            Visibility::default(),
            children![
                (
                    Mesh3d(a.hull.clone()),
                    MeshMaterial3d(paint.clone()),
                    Transform::from_xyz(0.0, 0.2, 0.0)
                ),
                // A pale plate on the front of the hull shows which way it faces.
                (
                    Mesh3d(a.glacis.clone()),
                    MeshMaterial3d(a.white.clone()),
                    Transform::from_xyz(0.0, 0.34, -0.38)
                ),
                (
                    Mesh3d(a.track.clone()),
                    MeshMaterial3d(a.dark.clone()),
                    Transform::from_xyz(-0.36, 0.13, 0.0)
                ),
                (
                    Mesh3d(a.track.clone()),
                    MeshMaterial3d(a.dark.clone()),
                    Transform::from_xyz(0.36, 0.13, 0.0)
                ),
                (
                    Transform::from_xyz(0.0, 0.43, 0.05).with_rotation(turret_turn),
                    Visibility::default(),
                    children![
                        (
                            Mesh3d(a.turret.clone()),
                            MeshMaterial3d(paint.clone()),
                            Transform::default()
                        ),
                        (
                            Mesh3d(a.barrel.clone()),
                            MeshMaterial3d(a.dark.clone()),
                            Transform::from_xyz(0.0, 0.02, -0.5)
                                .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
                        ),
                    ],
                ),
            ],
        ));
        super::board::pickable(&mut tank, u.at);
        if u.on_fire {
            tank.with_child((
                Mesh3d(a.flame.clone()),
                MeshMaterial3d(a.fire.clone()),
                Transform::from_xyz(0.0, 0.75, 0.25),
            ));
        }
    }
}
