//! The table and its hex tiles, coloured and shaped by terrain; rebuilt when the battle
//! changes (rubble, smoke, wrecks).

use bevy::prelude::*;

use super::units::{UnitAssets, spawn_units};
use super::{HEX_SIZE, Table, hex_to_world};
use crate::rules::tank_commander::setup::MissionRules;
use crate::rules::tank_commander::{TankCommander, Terrain};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .init_resource::<Clicked>()
        .add_systems(Startup, (load_assets, spawn_surface))
        .add_systems(Update, rebuild_table);
}

/// Everything drawn from the battle state; despawned and drawn again when it changes.
#[derive(Component)]
pub struct OnTable;

/// A hex tile (or a unit model standing on one), for picking.
#[derive(Component, Clone, Copy, Debug)]
pub struct HexTile(pub hexx::Hex);

/// The hex under the pointer.
#[derive(Resource, Default, Debug)]
pub struct Hovered(pub Option<hexx::Hex>);

/// A hex the player clicked, waiting to be turned into a command.
#[derive(Resource, Default, Debug)]
pub struct Clicked(pub Option<hexx::Hex>);

fn hover_tile(over: On<Pointer<Over>>, tiles: Query<&HexTile>, mut hovered: ResMut<Hovered>) {
    if let Ok(tile) = tiles.get(over.entity) {
        hovered.0 = Some(tile.0);
    }
}

fn leave_tile(out: On<Pointer<Out>>, tiles: Query<&HexTile>, mut hovered: ResMut<Hovered>) {
    if tiles.get(out.entity).is_ok_and(|t| Some(t.0) == hovered.0) {
        hovered.0 = None;
    }
}

fn click_tile(click: On<Pointer<Click>>, tiles: Query<&HexTile>, mut clicked: ResMut<Clicked>) {
    if click.button == PointerButton::Primary
        && let Ok(tile) = tiles.get(click.entity)
    {
        clicked.0 = Some(tile.0);
    }
}

/// Makes an entity answer the pointer for `hex`.
pub fn pickable(entity: &mut EntityCommands<'_>, hex: hexx::Hex) {
    entity
        .insert(HexTile(hex))
        .observe(hover_tile)
        .observe(leave_tile)
        .observe(click_tile);
}

/// Meshes and materials of the board, made once.
#[derive(Resource)]
pub struct BoardAssets {
    tile: Handle<Mesh>,
    hill: Handle<Mesh>,
    block: Handle<Mesh>,
    tree: Handle<Mesh>,
    rock: Handle<Mesh>,
    cloud: Handle<Mesh>,
    ring: Handle<Mesh>,
    terrain: Vec<(Terrain, Handle<StandardMaterial>)>,
    tree_mat: Handle<StandardMaterial>,
    roof_mat: Handle<StandardMaterial>,
    rock_mat: Handle<StandardMaterial>,
    smoke_mat: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
    dim: Handle<StandardMaterial>,
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

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let terrain = [
        Terrain::Open,
        Terrain::Mud,
        Terrain::Rubble,
        Terrain::Forest,
        Terrain::Building,
        Terrain::Hill,
    ]
    .into_iter()
    .map(|t| (t, materials.add(terrain_color(t))))
    .collect();
    commands.insert_resource(BoardAssets {
        // A flat-topped hexagon: Bevy's cylinder puts a corner on +X at resolution 6.
        tile: meshes.add(Cylinder::new(HEX_SIZE * 0.96, 0.2).mesh().resolution(6)),
        hill: meshes.add(Cylinder::new(HEX_SIZE * 0.96, 0.5).mesh().resolution(6)),
        block: meshes.add(Cuboid::new(1.1, 1.0, 1.1)),
        tree: meshes.add(Cone {
            radius: 0.28,
            height: 0.9,
        }),
        rock: meshes.add(Cuboid::new(0.3, 0.18, 0.25)),
        cloud: meshes.add(Sphere::new(0.55)),
        ring: meshes.add(Torus::new(0.45, 0.6)),
        terrain,
        tree_mat: materials.add(Color::srgb(0.16, 0.30, 0.14)),
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

/// The table surface and the light: drawn once.
fn spawn_surface(
    mut commands: Commands,
    table: Res<Table>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let board = table.battle().board();
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

/// Draws the battle again whenever its revision changes.
fn rebuild_table(
    mut commands: Commands,
    table: Res<Table>,
    board_assets: Res<BoardAssets>,
    unit_assets: Res<UnitAssets>,
    drawn: Query<Entity, With<OnTable>>,
    mut last: Local<Option<u64>>,
) {
    if *last == Some(table.revision) {
        return;
    }
    *last = Some(table.revision);
    for e in &drawn {
        commands.entity(e).despawn();
    }
    spawn_tiles(&mut commands, table.battle(), &board_assets);
    spawn_units(&mut commands, table.battle(), &unit_assets);
}

fn spawn_tiles(commands: &mut Commands, battle: &TankCommander, a: &BoardAssets) {
    for hex in battle.board().hexes() {
        let terrain = battle.terrain(hex);
        let at = hex_to_world(hex);
        let mat = a
            .terrain
            .iter()
            .find(|(t, _)| *t == terrain)
            .map(|(_, m)| m.clone())
            .unwrap_or_default();
        let (mesh, height) = if terrain == Terrain::Hill {
            (a.hill.clone(), 0.5)
        } else {
            (a.tile.clone(), 0.2)
        };
        let mut tile = commands.spawn((
            OnTable,
            Mesh3d(mesh),
            MeshMaterial3d(mat),
            Transform::from_translation(at + Vec3::Y * (height / 2.0 - 0.1)),
        ));
        pickable(&mut tile, hex);
        let top = at + Vec3::Y * (height - 0.1);
        match terrain {
            Terrain::Forest => {
                for (dx, dz) in [(-0.3, -0.2), (0.3, -0.15), (0.0, 0.3)] {
                    commands.spawn((
                        OnTable,
                        Mesh3d(a.tree.clone()),
                        MeshMaterial3d(a.tree_mat.clone()),
                        Transform::from_translation(top + Vec3::new(dx, 0.45, dz)),
                    ));
                }
            }
            Terrain::Building => {
                commands.spawn((
                    OnTable,
                    Mesh3d(a.block.clone()),
                    MeshMaterial3d(a.roof_mat.clone()),
                    Transform::from_translation(top + Vec3::Y * 0.5),
                ));
            }
            Terrain::Rubble => {
                for (dx, dz, r) in [(-0.25, 0.1, 0.3), (0.2, -0.2, 1.1), (0.15, 0.3, 2.0)] {
                    commands.spawn((
                        OnTable,
                        Mesh3d(a.rock.clone()),
                        MeshMaterial3d(a.rock_mat.clone()),
                        Transform::from_translation(top + Vec3::new(dx, 0.09, dz))
                            .with_rotation(Quat::from_rotation_y(r)),
                    ));
                }
            }
            _ => {}
        }
        if battle.smoke(hex) {
            commands.spawn((
                OnTable,
                Mesh3d(a.cloud.clone()),
                MeshMaterial3d(a.smoke_mat.clone()),
                Transform::from_translation(top + Vec3::Y * 0.6)
                    .with_scale(Vec3::new(1.3, 0.8, 1.3)),
            ));
        }
    }
    // Training waypoints: gold rings, dimmed once reached.
    if let MissionRules::Training { waypoints } = battle.mission() {
        for (hex, reached) in waypoints.iter().zip(battle.waypoints_reached()) {
            let height = if battle.terrain(*hex) == Terrain::Hill {
                0.4
            } else {
                0.1
            };
            commands.spawn((
                OnTable,
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
}
