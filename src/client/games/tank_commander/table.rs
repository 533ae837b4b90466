//! The table: its surface and light, and the models of the mirrored tiles, shaped and
//! coloured by terrain (mud, rubble, forest, buildings, hills, smoke) and merged into one
//! mesh per material. Tiles answer the pointer. A tile's look follows the rules once the
//! effects that changed it have played.

use bevy::prelude::*;

use super::mirror::{HexPos, Terrain, Tile};
use super::{HEX_SIZE, hex_to_world};
use crate::client::core::session::{Busy, Session};
use crate::client::core::{ClientSystems, GameScreen};
use crate::client::table::theme;
use crate::rules::tank_commander::TankCommander;
use crate::rules::tank_commander::Terrain as Ground;
use crate::rules::tank_commander::setup::MissionRules;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TileIndex>()
        .add_systems(Startup, load_assets)
        .add_systems(
            Update,
            (
                lay_surface,
                dress_tiles,
                mark_waypoints,
                mark_goal_edge,
                storm_light.after(lay_surface),
                night_lights,
            )
                .in_set(ClientSystems::Scene)
                .after(super::anims::EffectsSystems)
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
    goal_tile: Handle<Mesh>,
    goal_mat: Handle<StandardMaterial>,
    flare: Handle<Mesh>,
    flare_mat: Handle<StandardMaterial>,
    terrain: Vec<(Ground, Handle<StandardMaterial>)>,
    tree_mat: Handle<StandardMaterial>,
    trunk_mat: Handle<StandardMaterial>,
    roof_mat: Handle<StandardMaterial>,
    rock_mat: Handle<StandardMaterial>,
    smoke_mat: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
    dim: Handle<StandardMaterial>,
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

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let terrain = terrain_materials(&mut materials);
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
        trees: meshes.add(trees_mesh()),
        trunks: meshes.add(trunks_mesh()),
        rocks: meshes.add(rocks_mesh()),
        cloud: meshes.add(crate::client::table::shapes::sphere(0.55)),
        ring: meshes.add(crate::client::table::shapes::torus(0.45, 0.6)),
        goal_tile: meshes.add(RegularPolygon::new(HEX_SIZE * 0.86, 6)),
        terrain,
        tree_mat: materials.add(theme::TREE),
        trunk_mat: materials.add(theme::TRUNK),
        roof_mat: materials.add(theme::ROOF),
        rock_mat: materials.add(theme::ROCK),
        smoke_mat: materials.add(StandardMaterial {
            base_color: theme::SMOKE_CLOUD,
            alpha_mode: AlphaMode::Blend,
            ..default()
        }),
        gold: materials.add(StandardMaterial {
            base_color: theme::GOLD_RING,
            emissive: theme::WAYPOINT_GLOW,
            ..default()
        }),
        dim: materials.add(theme::WAYPOINT_REACHED),
        goal_mat: materials.add(StandardMaterial {
            base_color: theme::GOAL_AREA,
            emissive: theme::GOAL_AREA_GLOW,
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            ..default()
        }),
        flare: meshes.add(crate::client::table::shapes::sphere(0.16)),
        flare_mat: materials.add(StandardMaterial {
            base_color: theme::FLARE,
            emissive: theme::FLARE_GLOW,
            unlit: true,
            ..default()
        }),
    });
}

/// A material for each kind of ground: water shines, the ground does not.
fn terrain_materials(
    materials: &mut Assets<StandardMaterial>,
) -> Vec<(Ground, Handle<StandardMaterial>)> {
    [
        Ground::Open,
        Ground::Mud,
        Ground::Rubble,
        Ground::Forest,
        Ground::Building,
        Ground::Hill,
        Ground::Water,
    ]
    .into_iter()
    .map(|t| {
        let water = t == Ground::Water;
        (
            t,
            materials.add(StandardMaterial {
                base_color: theme::terrain_color(t),
                perceptual_roughness: if water { 0.15 } else { 0.95 },
                reflectance: if water { 0.8 } else { 0.5 },
                ..default()
            }),
        )
    })
    .collect()
}

/// The crowns of a forest hex's trees, in one mesh.
fn trees_mesh() -> Mesh {
    crate::client::table::shapes::merged(FOREST.iter().map(|&(dx, dz, s)| {
        crate::client::table::shapes::cone(0.28, 0.8, 10).transformed_by(
            Transform::from_translation(Vec3::new(dx, 0.55 * s, dz)).with_scale(Vec3::splat(s)),
        )
    }))
}

/// The trunks of a forest hex's trees, in one mesh.
fn trunks_mesh() -> Mesh {
    crate::client::table::shapes::merged(FOREST.iter().map(|&(dx, dz, _)| {
        crate::client::table::shapes::cylinder_of(0.05, 0.2, 6)
            .translated_by(Vec3::new(dx, 0.1, dz))
    }))
}

/// The stones of a rubble hex, in one mesh.
fn rocks_mesh() -> Mesh {
    crate::client::table::shapes::merged(RUBBLE.iter().map(|&(dx, dz, r)| {
        Mesh::from(Cuboid::new(0.3, 0.18, 0.25)).transformed_by(
            Transform::from_translation(Vec3::new(dx, 0.09, dz))
                .with_rotation(Quat::from_rotation_y(r)),
        )
    }))
}

/// The table surface and the light of the current battle.
#[derive(Component)]
struct Surface;

/// Lays the table surface and the light under a newly opened battle.
fn lay_surface(
    mut commands: Commands,
    view: Res<crate::client::table::camera::View>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
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
            base_color: theme::TABLE_WOOD,
            perceptual_roughness: 0.8,
            ..default()
        })),
        Transform::from_translation(centre),
        bevy::light::NotShadowCaster,
    ));
    commands.spawn((
        Surface,
        DespawnOnExit(GameScreen::TankCommander),
        crate::client::table::effects::table_light(DAYLIGHT.0),
        Transform::from_translation(centre + Vec3::new(-6.0, 14.0, 8.0))
            .looking_at(centre, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: DAYLIGHT.1,
        ..default()
    });
    // The whole board in view beside the panels: every hex, with its rim, to the height
    // of a tank on a hill.
    let (lo, hi) = board.hexes().map(hex_to_world).fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    );
    let rim = Vec3::new(HEX_SIZE, 0.0, HEX_SIZE);
    framing.show(
        crate::client::table::framing::box_outline(lo - rim, hi + rim + Vec3::Y * 1.5),
        view.top_down,
    );
}

/// The terrain a tile's model shows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
struct Shown(Terrain);

/// The board's models: one mesh per material for every tile and its dressing, so that a
/// 30×30 board is a dozen entities for visibility, shadows and transforms instead of
/// about 1,500. Tiles stay entities (with no model) for the pointer: see
/// [`super::picking`].
#[derive(Component)]
struct BoardModel;

/// Where each tile stands, for the pointer: the tile entity and whether it is a hill.
#[derive(Resource, Default)]
pub struct TileIndex(pub std::collections::HashMap<hexx::Hex, (Entity, bool)>);

/// Lays out the board's models when tiles appear, and again when a tile's terrain
/// changed once no effect is playing (a building shot to rubble, a wreck cooked off,
/// smoke laid). Smoke clouds, see-through and few, stay models of their own.
fn dress_tiles(
    mut commands: Commands,
    a: Res<BoardAssets>,
    busy: Res<Busy>,
    time: Res<Time>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut index: ResMut<TileIndex>,
    tiles: Query<(Entity, &HexPos, &Terrain, Option<&Shown>), With<Tile>>,
    models: Query<Entity, With<BoardModel>>,
) {
    let fresh = tiles.iter().any(|(.., shown)| shown.is_none());
    let changed = !busy.busy(time.elapsed_secs())
        && tiles
            .iter()
            .any(|(_, _, terrain, shown)| shown.is_some_and(|s| s.0 != *terrain));
    if !fresh && !changed {
        return;
    }
    for e in &models {
        commands.entity(e).despawn();
    }
    index.0.clear();
    let mut parts = crate::client::table::shapes::ByMaterial::default();
    let mut add = |material: &Handle<StandardMaterial>, mesh: &Handle<Mesh>, at: Vec3| {
        if let Some(mesh) = meshes.get(mesh) {
            parts.add(material, mesh.clone().translated_by(at));
        }
    };
    for (e, at, terrain, shown) in &tiles {
        let ground = terrain.terrain;
        index.0.insert(at.0, (e, ground == Ground::Hill));
        let mut tile = commands.entity(e);
        if shown.is_none() {
            tile.insert((
                Transform::from_translation(hex_to_world(at.0)),
                Visibility::default(),
            ));
        }
        if shown.is_none_or(|s| s.0.smoke != terrain.smoke) {
            tile.despawn_children();
        }
        let height = scenery(&a, ground, hex_to_world(at.0), &mut add);
        if terrain.smoke && shown.is_none_or(|s| !s.0.smoke) {
            tile.with_children(|p| {
                p.spawn((
                    Mesh3d(a.cloud.clone()),
                    MeshMaterial3d(a.smoke_mat.clone()),
                    Transform::from_translation(Vec3::Y * (height + 0.5))
                        .with_scale(Vec3::new(1.3, 0.8, 1.3)),
                    Pickable::IGNORE,
                ));
            });
        }
        tile.insert(Shown(*terrain));
    }
    spawn_models(&mut commands, &a, &mut meshes, parts);
}

/// Adds the meshes of a tile of `ground` at `centre` (its hexagon, and its trees, house
/// or stones) with `add`; returns the height of its top.
fn scenery(
    a: &BoardAssets,
    ground: Ground,
    centre: Vec3,
    add: &mut impl FnMut(&Handle<StandardMaterial>, &Handle<Mesh>, Vec3),
) -> f32 {
    let (mesh, height) = match ground {
        Ground::Hill => (&a.hill, 0.5),
        // Water lies a little below the banks.
        Ground::Water => (&a.tile, 0.12),
        _ => (&a.tile, 0.2),
    };
    let top = centre + Vec3::Y * (height - 0.1);
    let material = a
        .terrain
        .iter()
        .find(|(t, _)| *t == ground)
        .map(|(_, m)| m.clone())
        .unwrap_or_default();
    let sunk = if ground == Ground::Water {
        Vec3::Y * -0.08
    } else {
        Vec3::ZERO
    };
    add(&material, mesh, centre + sunk);
    match ground {
        Ground::Forest => {
            add(&a.trunk_mat, &a.trunks, top);
            add(&a.tree_mat, &a.trees, top);
        }
        Ground::Building => {
            add(&a.roof_mat, &a.block, top);
            add(&a.rock_mat, &a.chimney, top);
        }
        Ground::Rubble => add(&a.rock_mat, &a.rocks, top),
        _ => {}
    }
    height
}

/// The board's models, one mesh per material.
fn spawn_models(
    commands: &mut Commands,
    a: &BoardAssets,
    meshes: &mut Assets<Mesh>,
    parts: crate::client::table::shapes::ByMaterial,
) {
    for (material, mesh) in parts.into_drawn_parts() {
        // The flat ground tiles cast no shadow worth drawing (they lie on the table): the
        // shadow map draws only what stands on them.
        let flat = a.terrain.iter().any(|(_, m)| *m == material);
        let mut part = commands.spawn((
            BoardModel,
            DespawnOnExit(GameScreen::TankCommander),
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(material),
            Transform::default(),
            // The pointer finds tiles, not the models drawn for them.
            Pickable::IGNORE,
        ));
        if flat {
            part.insert(bevy::light::NotShadowCaster);
        }
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
        let height = super::ground_height(battle, *hex);
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

/// A tile of the goal edge of a Breakthrough or an Escort, or of a Take Area's area.
#[derive(Component)]
struct GoalEdge;

/// The edge or the area a side must reach: its hexes glow gold.
fn mark_goal_edge(
    mut commands: Commands,
    table: Res<Session<TankCommander>>,
    a: Res<BoardAssets>,
    old: Query<Entity, With<GoalEdge>>,
    mut last: Local<Option<u64>>,
) {
    if *last == Some(table.generation) {
        return;
    }
    *last = Some(table.generation);
    for e in &old {
        commands.entity(e).despawn();
    }
    let battle = table.state();
    // The edge of a Breakthrough or an Escort, or the area of a Take Area mission.
    let goal: Vec<hexx::Hex> = match (battle.goal_edge(), battle.goal_area()) {
        (Some((_, edge)), _) => battle.edge_hexes(edge),
        (None, Some((_, area))) => area.to_vec(),
        (None, None) => return,
    };
    // The polygon lies in the XY plane with a corner up: laid flat, and turned a twelfth
    // of a turn so that its corners point east and west like the board's flat-topped hexes.
    let flat = Quat::from_rotation_y(std::f32::consts::FRAC_PI_6)
        * Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    for hex in goal {
        let height = super::ground_height(battle, hex);
        commands.spawn((
            GoalEdge,
            DespawnOnExit(GameScreen::TankCommander),
            Mesh3d(a.goal_tile.clone()),
            MeshMaterial3d(a.goal_mat.clone()),
            Transform::from_translation(hex_to_world(hex) + Vec3::Y * (height + 0.02))
                .with_rotation(flat),
            Pickable::IGNORE,
        ));
    }
}

/// The light of a clear day.
const DAYLIGHT: (f32, f32) = (9_000.0, 350.0);

/// Storm light (the Weather option): the sun dims behind the clouds and the sky darkens,
/// and clears again when the storm passes. At night (the Night Fighting option) a pale
/// blue moon lights the table, dimmer still in a storm.
fn storm_light(
    table: Res<Session<TankCommander>>,
    mut sun: Query<&mut DirectionalLight, With<Surface>>,
    mut ambient: ResMut<GlobalAmbientLight>,
    mut last: Local<Option<(u64, bool)>>,
) {
    let storm = table.state().storm();
    let night = table.state().night();
    let key = (table.generation, storm);
    // Wait for the surface's light (it is spawned with the board).
    if *last == Some(key) || sun.is_empty() {
        return;
    }
    *last = Some(key);
    let (mut lux, mut glow) = if storm {
        (DAYLIGHT.0 * 0.35, DAYLIGHT.1 * 0.5)
    } else {
        DAYLIGHT
    };
    if night {
        lux *= 0.12;
        glow *= 0.35;
    }
    for mut light in &mut sun {
        light.illuminance = lux;
        light.color = match (night, storm) {
            (true, _) => theme::SUN_NIGHT,
            (false, true) => theme::SUN_STORM,
            (false, false) => theme::SUN_DAY,
        };
    }
    ambient.brightness = glow;
    ambient.color = if night {
        theme::AMBIENT_NIGHT
    } else {
        theme::AMBIENT_DAY
    };
}

/// A flare's light over the table, or a fire's glow at night.
#[derive(Component)]
struct NightLight;

/// At night, every flare burning this turn hangs as a bright star with a warm light over
/// its space, reaching the ring it lights; every unit on fire glows. Rebuilt when the
/// flares or the fires change.
fn night_lights(
    mut commands: Commands,
    table: Res<Session<TankCommander>>,
    a: Res<BoardAssets>,
    old: Query<Entity, With<NightLight>>,
    mut last: Local<Option<(u64, Vec<hexx::Hex>, Vec<hexx::Hex>)>>,
) {
    let battle = table.state();
    if !battle.night() && last.is_none() {
        return;
    }
    let flares = battle.flares().to_vec();
    let fires: Vec<hexx::Hex> = if battle.rules().night.fires_light {
        battle
            .units()
            .iter()
            .filter(|u| u.on_fire && u.on_table())
            .map(|u| u.at)
            .collect()
    } else {
        Vec::new()
    };
    let key = (table.generation, flares, fires);
    if last.as_ref() == Some(&key) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let reach = (f32::from(battle.rules().night.flare_radius) + 0.8) * HEX_SIZE * 1.8;
    for &hex in &key.1 {
        let at = hex_to_world(hex) + Vec3::Y * 2.6;
        commands.spawn((
            NightLight,
            DespawnOnExit(GameScreen::TankCommander),
            PointLight {
                color: theme::FLARE_LIGHT,
                intensity: 900_000.0,
                range: reach * 2.5,
                radius: 0.2,
                shadow_maps_enabled: false,
                ..default()
            },
            Transform::from_translation(at),
            children![(
                Mesh3d(a.flare.clone()),
                MeshMaterial3d(a.flare_mat.clone()),
                Transform::default(),
                Pickable::IGNORE,
            )],
        ));
    }
    for &hex in &key.2 {
        commands.spawn((
            NightLight,
            DespawnOnExit(GameScreen::TankCommander),
            PointLight {
                color: theme::FIRE_LIGHT,
                intensity: 150_000.0,
                range: 4.0,
                shadow_maps_enabled: false,
                ..default()
            },
            Transform::from_translation(hex_to_world(hex) + Vec3::Y * 1.4),
        ));
    }
    *last = Some(key);
}
