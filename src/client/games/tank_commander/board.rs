//! The table: its surface and light, and a model for every mirrored tile, shaped and
//! coloured by terrain (mud, rubble, forest, buildings, hills, smoke). Tiles answer the
//! pointer. A tile's look follows the rules once the effects that changed it have played.

use bevy::camera::visibility::NoFrustumCulling;
use bevy::prelude::*;

use super::mirror::{HexPos, Terrain, Tile};
use super::{HEX_SIZE, hex_to_world};
use crate::client::session::{Busy, Session};
use crate::client::{ClientSystems, GameScreen};
use crate::rules::tank_commander::TankCommander;
use crate::rules::tank_commander::Terrain as Ground;
use crate::rules::tank_commander::setup::MissionRules;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_assets).add_systems(
        Update,
        (lay_surface, dress_tiles, mark_waypoints)
            .in_set(ClientSystems::Scene)
            .after(super::effects::EffectsSystems)
            .run_if(resource_exists::<Session<TankCommander>>),
    );
}

/// Meshes and materials of the board, made once.
#[derive(Resource)]
pub struct BoardAssets {
    tile: Handle<Mesh>,
    hill: Handle<Mesh>,
    block: Handle<Mesh>,
    chimney: Handle<Mesh>,
    trees: Handle<Mesh>,
    trunks: Handle<Mesh>,
    rocks: Handle<Mesh>,
    cloud: Handle<Mesh>,
    ring: Handle<Mesh>,
    terrain: Vec<(Ground, Handle<StandardMaterial>)>,
    tree_mat: Handle<StandardMaterial>,
    trunk_mat: Handle<StandardMaterial>,
    roof_mat: Handle<StandardMaterial>,
    rock_mat: Handle<StandardMaterial>,
    smoke_mat: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
    dim: Handle<StandardMaterial>,
}

/// The colour of a terrain's tile.
#[must_use]
pub fn terrain_color(t: Ground) -> Color {
    match t {
        Ground::Open => Color::srgb(0.47, 0.56, 0.33),
        Ground::Mud => Color::srgb(0.36, 0.27, 0.17),
        Ground::Rubble => Color::srgb(0.52, 0.50, 0.47),
        Ground::Forest => Color::srgb(0.22, 0.40, 0.20),
        Ground::Building => Color::srgb(0.60, 0.55, 0.50),
        Ground::Hill => Color::srgb(0.60, 0.58, 0.36),
    }
}

/// Where a forest's three trees stand on its tile, and their sizes.
const FOREST: [(f32, f32, f32); 3] = [(-0.3, -0.2, 1.0), (0.3, -0.15, 0.85), (0.0, 0.32, 1.1)];

/// Where rubble's four rocks lie on its tile, and how each is turned.
const RUBBLE: [(f32, f32, f32); 4] = [
    (-0.25, 0.1, 0.3),
    (0.2, -0.2, 1.1),
    (0.15, 0.3, 2.0),
    (-0.1, -0.35, 0.7),
];

/// One mesh of several parts of the same material: a tile's dressing is one or two
/// entities rather than up to six, which halves the board's entities on a 30×30 battle.
fn merged(parts: impl IntoIterator<Item = Mesh>) -> Mesh {
    let mut parts = parts.into_iter();
    let mut mesh = parts.next().expect("at least one part");
    for part in parts {
        mesh.merge(&part)
            .expect("parts built from Bevy's primitives share their attributes");
    }
    mesh
}

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let terrain = [
        Ground::Open,
        Ground::Mud,
        Ground::Rubble,
        Ground::Forest,
        Ground::Building,
        Ground::Hill,
    ]
    .into_iter()
    .map(|t| {
        (
            t,
            materials.add(StandardMaterial {
                base_color: terrain_color(t),
                perceptual_roughness: 0.95,
                ..default()
            }),
        )
    })
    .collect();
    commands.insert_resource(BoardAssets {
        // A flat-topped hexagon: Bevy's cylinder puts a corner on +X at resolution 6. The
        // gap between tiles draws the grid.
        tile: meshes.add(Cylinder::new(HEX_SIZE * 0.95, 0.2).mesh().resolution(6)),
        hill: meshes.add(
            Cylinder::new(HEX_SIZE * 0.95, 0.5)
                .mesh()
                .resolution(6)
                .build()
                .translated_by(Vec3::Y * 0.15),
        ),
        block: meshes.add(
            Cuboid::new(1.05, 1.0, 0.9)
                .mesh()
                .build()
                .translated_by(Vec3::Y * 0.5),
        ),
        chimney: meshes.add(
            Cuboid::new(0.45, 0.3, 0.45)
                .mesh()
                .build()
                .translated_by(Vec3::new(0.2, 1.15, 0.1)),
        ),
        trees: meshes.add(merged(FOREST.iter().map(|&(dx, dz, s)| {
            Mesh::from(Cone {
                radius: 0.28,
                height: 0.8,
            })
            .transformed_by(
                Transform::from_translation(Vec3::new(dx, 0.55 * s, dz)).with_scale(Vec3::splat(s)),
            )
        }))),
        trunks: meshes.add(merged(FOREST.iter().map(|&(dx, dz, _)| {
            Mesh::from(Cylinder::new(0.05, 0.2)).translated_by(Vec3::new(dx, 0.1, dz))
        }))),
        rocks: meshes.add(merged(RUBBLE.iter().map(|&(dx, dz, r)| {
            Mesh::from(Cuboid::new(0.3, 0.18, 0.25)).transformed_by(
                Transform::from_translation(Vec3::new(dx, 0.09, dz))
                    .with_rotation(Quat::from_rotation_y(r)),
            )
        }))),
        cloud: meshes.add(Sphere::new(0.55)),
        ring: meshes.add(Torus::new(0.45, 0.6)),
        terrain,
        tree_mat: materials.add(Color::srgb(0.14, 0.30, 0.13)),
        trunk_mat: materials.add(Color::srgb(0.30, 0.20, 0.12)),
        roof_mat: materials.add(Color::srgb(0.55, 0.30, 0.25)),
        rock_mat: materials.add(Color::srgb(0.40, 0.38, 0.36)),
        smoke_mat: materials.add(StandardMaterial {
            base_color: Color::srgba(0.85, 0.85, 0.88, 0.55),
            alpha_mode: AlphaMode::Blend,
            ..default()
        }),
        gold: materials.add(StandardMaterial {
            base_color: Color::srgb(0.95, 0.78, 0.15),
            emissive: LinearRgba::rgb(0.4, 0.3, 0.0),
            ..default()
        }),
        dim: materials.add(Color::srgb(0.5, 0.45, 0.3)),
    });
}

/// The table surface and the light of the current battle.
#[derive(Component)]
struct Surface;

/// Lays the table surface and the light under a newly opened battle.
fn lay_surface(
    mut commands: Commands,
    view: Res<crate::client::camera::View>,
    mut rig: ResMut<crate::client::camera::Rig>,
    table: Res<Session<TankCommander>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    old: Query<Entity, With<Surface>>,
    mut last: Local<Option<u64>>,
) {
    if *last == Some(table.generation) && !old.is_empty() {
        return;
    }
    *last = Some(table.generation);
    for e in &old {
        commands.entity(e).despawn();
    }
    let board = table.state().board();
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
        Surface,
        DespawnOnExit(GameScreen::TankCommander),
        Mesh3d(meshes.add(Cuboid::new(w, 0.1, h))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.33, 0.23, 0.15),
            perceptual_roughness: 0.8,
            ..default()
        })),
        Transform::from_translation(centre),
    ));
    commands.spawn((
        Surface,
        DespawnOnExit(GameScreen::TankCommander),
        crate::client::effects::table_light(9_000.0),
        Transform::from_translation(centre + Vec3::new(-6.0, 14.0, 8.0))
            .looking_at(centre, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 350.0,
        ..default()
    });
    // Fit the longer side of the board, centred between the panels; seen at an angle, the
    // action bar covers the bottom of the screen, so aim a little south.
    let span = (f32::from(board.width) * 1.5).max(f32::from(board.height) * 1.73);
    let focus = Vec3::new(centre.x, 0.0, centre.z)
        + Vec3::new(0.0, 0.0, if view.top_down { 0.0 } else { span * 0.12 });
    let distance = span * if view.top_down { 1.15 } else { 1.5 };
    rig.frame_view(focus, distance, view.top_down);
}

/// The terrain a tile's model shows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
struct Shown(Terrain);

/// Gives tiles their model, and re-dresses a tile whose terrain changed once no effect is
/// playing (a building shot to rubble, a wreck cooked off, smoke laid). The table is
/// small and seen whole: its models skip the per-frame frustum test, which on a 30×30
/// board was the largest single cost of a frame's visibility work.
fn dress_tiles(
    mut commands: Commands,
    a: Res<BoardAssets>,
    busy: Res<Busy>,
    new: Query<(Entity, &HexPos, &Terrain), Added<Tile>>,
    changed: Query<(Entity, &HexPos, &Terrain, &Shown), With<Tile>>,
) {
    for (e, at, terrain) in &new {
        let mut tile = commands.entity(e);
        tile.insert((
            Transform::from_translation(hex_to_world(at.0)),
            Visibility::default(),
            NoFrustumCulling,
        ));
        dress(&mut commands, e, *terrain, &a);
    }
    if busy.held {
        return;
    }
    for (e, _, terrain, shown) in &changed {
        if shown.0 != *terrain {
            commands.entity(e).despawn_children();
            dress(&mut commands, e, *terrain, &a);
        }
    }
}

fn dress(commands: &mut Commands, e: Entity, terrain: Terrain, a: &BoardAssets) {
    let ground = terrain.terrain;
    let mat = a
        .terrain
        .iter()
        .find(|(t, _)| *t == ground)
        .map(|(_, m)| m.clone())
        .unwrap_or_default();
    let (mesh, height) = if ground == Ground::Hill {
        (a.hill.clone(), 0.5)
    } else {
        (a.tile.clone(), 0.2)
    };
    let top = Vec3::Y * (height - 0.1);
    // The tile's own entity carries its model; the dressing stands on it as children.
    let part = |mesh: &Handle<Mesh>, material: &Handle<StandardMaterial>| {
        (
            NoFrustumCulling,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(top),
        )
    };
    let mut tile = commands.entity(e);
    tile.insert((Shown(terrain), Mesh3d(mesh), MeshMaterial3d(mat)));
    match ground {
        Ground::Forest => {
            tile.with_children(|p| {
                p.spawn(part(&a.trunks, &a.trunk_mat));
                p.spawn(part(&a.trees, &a.tree_mat));
            });
        }
        Ground::Building => {
            tile.with_children(|p| {
                p.spawn(part(&a.block, &a.roof_mat));
                p.spawn(part(&a.chimney, &a.rock_mat));
            });
        }
        Ground::Rubble => {
            tile.with_children(|p| {
                p.spawn(part(&a.rocks, &a.rock_mat));
            });
        }
        _ => {}
    }
    if terrain.smoke {
        tile.with_children(|p| {
            p.spawn((
                NoFrustumCulling,
                Mesh3d(a.cloud.clone()),
                MeshMaterial3d(a.smoke_mat.clone()),
                Transform::from_translation(top + Vec3::Y * 0.6)
                    .with_scale(Vec3::new(1.3, 0.8, 1.3)),
            ));
        });
    }
}

/// A training waypoint's ring.
#[derive(Component)]
struct Waypoint;

/// Training waypoints: gold rings, dimmed once reached.
fn mark_waypoints(
    mut commands: Commands,
    table: Res<Session<TankCommander>>,
    a: Res<BoardAssets>,
    old: Query<Entity, With<Waypoint>>,
    mut last: Local<Option<(u64, Vec<bool>)>>,
) {
    let battle = table.state();
    let MissionRules::Training { waypoints } = battle.mission() else {
        return;
    };
    let key = (table.generation, battle.waypoints_reached().to_vec());
    if last.as_ref() == Some(&key) {
        return;
    }
    *last = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    for (hex, reached) in waypoints.iter().zip(battle.waypoints_reached()) {
        let height = if battle.terrain(*hex) == Ground::Hill {
            0.4
        } else {
            0.1
        };
        commands.spawn((
            Waypoint,
            DespawnOnExit(GameScreen::TankCommander),
            Mesh3d(a.ring.clone()),
            MeshMaterial3d(if *reached {
                a.dim.clone()
            } else {
                a.gold.clone()
            }),
            Transform::from_translation(hex_to_world(*hex) + Vec3::Y * (height + 0.02)),
        ));
    }
}
