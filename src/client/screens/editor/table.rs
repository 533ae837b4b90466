//! The editor's table: the design's terrain (one merged mesh per material, as the game's
//! board does), its units, objectives and mines, the problems marked in red, the picked
//! unit in gold, and the brush under the pointer. Rebuilt when the design changes.

use bevy::prelude::*;

use super::{EditorScreen, Tool, brush_cells};
use crate::client::core::Screen;
use crate::client::table::hex::{HEX_SIZE, facing_rotation, hex_to_world};
use crate::client::table::theme;
use crate::editor::{HexDesign, Marker, Terrain};
use crate::grid::HexBoard;
use crate::rules::tank_commander::UnitKind;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), (load_assets, lay_table).chain())
        .add_systems(
            Update,
            (rebuild, follow_pointer)
                .chain()
                .run_if(in_state(Screen::Editor))
                .run_if(resource_exists::<EditorAssets>),
        );
}

/// Meshes and materials of the editor's table.
#[derive(Resource)]
struct EditorAssets {
    tile: Mesh,
    hill: Mesh,
    tree: Mesh,
    block: Mesh,
    terrain: Vec<(Terrain, Handle<StandardMaterial>)>,
    tree_mat: Handle<StandardMaterial>,
    roof_mat: Handle<StandardMaterial>,
    smoke: Handle<Mesh>,
    smoke_mat: Handle<StandardMaterial>,
    ring: Handle<Mesh>,
    gold: Handle<StandardMaterial>,
    red: Handle<StandardMaterial>,
    mission: Handle<StandardMaterial>,
    brush: Handle<StandardMaterial>,
    mine: Handle<Mesh>,
    mine_mat: Handle<StandardMaterial>,
    hull: Handle<Mesh>,
    turret: Handle<Mesh>,
    barrel: Handle<Mesh>,
    figure: Handle<Mesh>,
    target: Handle<Mesh>,
    paint: Vec<Handle<StandardMaterial>>,
}

/// Loads the table's meshes and materials, once.
fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    have: Option<Res<EditorAssets>>,
) {
    if have.is_some() {
        return;
    }
    let terrain = [
        Terrain::Open,
        Terrain::Mud,
        Terrain::Rubble,
        Terrain::Forest,
        Terrain::Building,
        Terrain::Hill,
        Terrain::Water,
    ]
    .into_iter()
    .map(|t| (t, materials.add(theme::terrain_color(t))))
    .collect();
    commands.insert_resource(new_assets(&mut meshes, &mut materials, terrain));
}

/// An unlit material of colour `c` that glows with `e`.
pub(super) fn glow(
    materials: &mut Assets<StandardMaterial>,
    c: Color,
    e: LinearRgba,
) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: c,
        emissive: e,
        unlit: true,
        ..default()
    })
}

/// The table's meshes and materials, the terrain's materials given.
fn new_assets(
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    terrain: Vec<(Terrain, Handle<StandardMaterial>)>,
) -> EditorAssets {
    EditorAssets {
        tile: Cylinder::new(HEX_SIZE * 0.95, 0.2)
            .mesh()
            .resolution(6)
            .build(),
        hill: Cylinder::new(HEX_SIZE * 0.95, 0.5)
            .mesh()
            .resolution(6)
            .build()
            .translated_by(Vec3::Y * 0.15),
        tree: crate::client::table::shapes::cone(0.35, 0.9, 10).translated_by(Vec3::Y * 0.55),
        block: Cuboid::new(1.0, 0.9, 0.85)
            .mesh()
            .build()
            .translated_by(Vec3::Y * 0.5),
        terrain,
        tree_mat: materials.add(theme::TREE),
        roof_mat: materials.add(theme::ROOF),
        smoke: meshes.add(crate::client::table::shapes::sphere(0.5)),
        smoke_mat: materials.add(StandardMaterial {
            base_color: theme::SMOKE_CLOUD,
            alpha_mode: AlphaMode::Blend,
            ..default()
        }),
        ring: meshes.add(crate::client::table::shapes::torus(0.72, 0.9)),
        gold: glow(materials, theme::EDITOR_GOLD, theme::EDITOR_GOLD_GLOW),
        red: glow(materials, theme::PROBLEM_MARK, theme::PROBLEM_MARK_GLOW),
        mission: glow(materials, theme::MISSION_MARK, theme::MISSION_MARK_GLOW),
        brush: materials.add(StandardMaterial {
            base_color: theme::BRUSH,
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            ..default()
        }),
        mine: meshes.add(crate::client::table::shapes::cylinder(0.22, 0.1)),
        mine_mat: materials.add(theme::MINE),
        hull: meshes.add(Cuboid::new(0.62, 0.28, 0.9)),
        turret: meshes.add(crate::client::table::shapes::cylinder(0.22, 0.2)),
        barrel: meshes.add(crate::client::table::shapes::cylinder(0.05, 0.7)),
        figure: meshes.add(crate::client::table::shapes::capsule(0.12, 0.3)),
        target: meshes.add(Cuboid::new(0.7, 0.7, 0.12)),
        paint: (0..3)
            .map(|s| materials.add(theme::side_color(s)))
            .collect(),
    }
}

/// Everything the table shows of the design, despawned and rebuilt on a change.
#[derive(Component)]
struct Model;

/// The brush's outline under the pointer.
#[derive(Component)]
struct BrushMark;

/// Lays the table's surface and light, and frames the board.
fn lay_table(
    mut commands: Commands,
    screen: Res<EditorScreen>,
    mut rig: ResMut<crate::client::table::camera::Rig>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        crate::client::table::effects::table_light(9_000.0),
        Transform::from_xyz(-6.0, 14.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 350.0,
        ..default()
    });
    if let Some(editor) = &screen.editor {
        frame(&mut rig, editor.design());
    }
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        Mesh3d(meshes.add(Cuboid::new(200.0, 0.1, 200.0))),
        MeshMaterial3d(materials.add(theme::EDITOR_GROUND)),
        Transform::from_xyz(40.0, -0.2, 40.0),
    ));
}

/// Points the camera at the whole board.
fn frame(rig: &mut crate::client::table::camera::Rig, design: &HexDesign) {
    let (w, h) = (
        f32::from(design.setup.board.width),
        f32::from(design.setup.board.height),
    );
    let centre = Vec3::new(w * 0.75 - 0.75, 0.0, h * 0.87 - 0.4);
    let span = (w * 1.5).max(h * 1.73);
    rig.frame_view(centre + Vec3::Z * span * 0.05, span * 1.45, false);
}

fn world(board: HexBoard, [c, r]: [i32; 2]) -> Vec3 {
    hex_to_world(board.hex_at(c, r))
}

/// Rebuilds the table when the design changed.
fn rebuild(
    mut commands: Commands,
    screen: Res<EditorScreen>,
    assets: Res<EditorAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut rig: ResMut<crate::client::table::camera::Rig>,
    old: Query<Entity, With<Model>>,
    mut shown: Local<Option<(u64, Option<usize>, (u16, u16))>>,
) {
    let Some(editor) = &screen.editor else {
        // A Tank Chess setup is open: the hex table goes.
        for e in &old {
            commands.entity(e).despawn();
        }
        *shown = None;
        return;
    };
    let design = editor.design();
    let size = (design.setup.board.width, design.setup.board.height);
    let now = (screen.generation, screen.selected, size);
    if *shown == Some(now) && !old.is_empty() {
        return;
    }
    if shown.is_none_or(|(_, _, s)| s != size) {
        frame(&mut rig, design);
    }
    *shown = Some(now);
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut table = Table {
        commands: &mut commands,
        a: &assets,
        design,
        board: design.board(),
    };
    table.terrain(&mut meshes);
    table.marks();
    let sides = screen.sides();
    table.mines(&sides);
    table.units(&sides, screen.selected);
    table.problems(editor.check());
}

/// What the table's rebuild draws with: the commands, the assets, the design.
struct Table<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    a: &'a EditorAssets,
    design: &'a HexDesign,
    board: HexBoard,
}

impl Table<'_, '_, '_> {
    /// How high a piece stands on `cell`: higher on a hill.
    fn lift(&self, cell: [i32; 2]) -> f32 {
        if self.design.terrain(cell) == Terrain::Hill {
            0.4
        } else {
            0.1
        }
    }

    /// The terrain: one merged mesh per material.
    fn terrain(&mut self, meshes: &mut Assets<Mesh>) {
        let (a, design, board) = (self.a, self.design, self.board);
        let size = (design.setup.board.width, design.setup.board.height);
        let mut parts = crate::client::table::shapes::ByMaterial::default();
        let mut add = |mat: &Handle<StandardMaterial>, mesh: Mesh| parts.add(mat, mesh);
        for r in 0..i32::from(size.1) {
            for c in 0..i32::from(size.0) {
                let t = design.terrain([c, r]);
                let at = world(board, [c, r]);
                let mat = &a
                    .terrain
                    .iter()
                    .find(|(k, _)| *k == t)
                    .expect("every terrain has a material")
                    .1;
                let tile = if t == Terrain::Hill { &a.hill } else { &a.tile };
                add(mat, tile.clone().translated_by(at));
                match t {
                    Terrain::Forest => {
                        for (dx, dz) in [(-0.3, -0.2), (0.3, -0.15), (0.0, 0.32)] {
                            add(
                                &a.tree_mat,
                                a.tree.clone().translated_by(at + Vec3::new(dx, 0.0, dz)),
                            );
                        }
                    }
                    Terrain::Building => add(&a.roof_mat, a.block.clone().translated_by(at)),
                    _ => {}
                }
            }
        }
        for (mat, mesh) in parts.into_parts() {
            self.commands.spawn((
                Model,
                DespawnOnExit(Screen::Editor),
                Mesh3d(meshes.add(mesh)),
                MeshMaterial3d(mat),
            ));
        }
    }

    /// Smoke, objectives (gold rings) and the mission's own hexes (waypoints, the area,
    /// the target building, in cyan).
    fn marks(&mut self) {
        let (a, design, board) = (self.a, self.design, self.board);
        for label in &design.setup.terrain.smoke {
            if let Some(cell) = design.cell_of(label) {
                self.commands.spawn((
                    Model,
                    DespawnOnExit(Screen::Editor),
                    Mesh3d(a.smoke.clone()),
                    MeshMaterial3d(a.smoke_mat.clone()),
                    Transform::from_translation(world(board, cell) + Vec3::Y * 0.6),
                ));
            }
        }
        for label in &design.setup.objectives {
            if let Some(cell) = design.cell_of(label) {
                let lift = self.lift(cell);
                self.commands.spawn((
                    Model,
                    DespawnOnExit(Screen::Editor),
                    Mesh3d(a.ring.clone()),
                    MeshMaterial3d(a.gold.clone()),
                    Transform::from_translation(world(board, cell) + Vec3::Y * (lift + 0.02))
                        .with_scale(Vec3::new(0.8, 1.0, 0.8)),
                ));
            }
        }
        for cell in design.mission_hexes() {
            let lift = self.lift(cell);
            self.commands.spawn((
                Model,
                DespawnOnExit(Screen::Editor),
                Mesh3d(a.ring.clone()),
                MeshMaterial3d(a.mission.clone()),
                Transform::from_translation(world(board, cell) + Vec3::Y * (lift + 0.04))
                    .with_scale(Vec3::new(0.6, 1.0, 0.6)),
            ));
        }
    }

    /// The mines, each with a dab of its side's paint.
    fn mines(&mut self, sides: &[String]) {
        let (a, design, board) = (self.a, self.design, self.board);
        for field in &design.setup.mines.fields {
            let side = sides.iter().position(|s| *s == field.side).unwrap_or(2);
            for label in &field.at {
                if let Some(cell) = design.cell_of(label) {
                    let at = world(board, cell) + Vec3::Y * self.lift(cell);
                    self.commands.spawn((
                        Model,
                        DespawnOnExit(Screen::Editor),
                        Mesh3d(a.mine.clone()),
                        MeshMaterial3d(a.mine_mat.clone()),
                        Transform::from_translation(at),
                        children![(
                            Mesh3d(a.mine.clone()),
                            MeshMaterial3d(a.paint[side.min(2)].clone()),
                            Transform::from_xyz(0.0, 0.06, 0.0)
                                .with_scale(Vec3::new(0.5, 0.5, 0.5)),
                        )],
                    ));
                }
            }
        }
    }

    /// The units in their sides' paint, the picked one ringed in gold.
    fn units(&mut self, sides: &[String], selected: Option<usize>) {
        let (a, design, board) = (self.a, self.design, self.board);
        for (i, unit) in design.setup.units.iter().enumerate() {
            let Some(cell) = design.cell_of(&unit.at) else {
                continue;
            };
            let side = sides
                .iter()
                .position(|s| *s == unit.side)
                .unwrap_or(2)
                .min(2);
            let paint = a.paint[side].clone();
            let at = world(board, cell) + Vec3::Y * self.lift(cell);
            let hull = facing_rotation(unit.facing);
            let turret = facing_rotation(unit.turret.unwrap_or(unit.facing));
            let mut model = self.commands.spawn((
                Model,
                DespawnOnExit(Screen::Editor),
                Transform::from_translation(at),
                Visibility::default(),
            ));
            unit_model(&mut model, a, unit.kind, &paint, hull, turret);
            if selected == Some(i) {
                self.commands.spawn((
                    Model,
                    DespawnOnExit(Screen::Editor),
                    Mesh3d(a.ring.clone()),
                    MeshMaterial3d(a.gold.clone()),
                    Transform::from_translation(at + Vec3::Y * 0.03),
                ));
            }
        }
    }

    /// Problems: the hex or unit outlined in red.
    fn problems(&mut self, check: &crate::editor::Check) {
        let (a, design, board) = (self.a, self.design, self.board);
        let width = design.setup.board.width;
        for marker in check.markers.iter().flatten() {
            let cells: Vec<[i32; 2]> = match *marker {
                Marker::Cell(cell) => vec![cell],
                Marker::Unit(i) => design
                    .setup
                    .units
                    .get(i)
                    .and_then(|u| design.cell_of(&u.at))
                    .into_iter()
                    .collect(),
                Marker::Row(r) => (0..i32::from(width))
                    .map(|c| [c, i32::try_from(r).unwrap_or(0)])
                    .collect(),
            };
            for cell in cells {
                let lift = self.lift(cell);
                self.commands.spawn((
                    Model,
                    DespawnOnExit(Screen::Editor),
                    Mesh3d(a.ring.clone()),
                    MeshMaterial3d(a.red.clone()),
                    Transform::from_translation(world(board, cell) + Vec3::Y * (lift + 0.05))
                        .with_scale(Vec3::new(1.02, 1.6, 1.02)),
                ));
            }
        }
    }
}

/// A unit's model under `model`: three figures for infantry, a board for a target, else
/// a vehicle.
fn unit_model(
    model: &mut EntityCommands,
    a: &EditorAssets,
    kind: UnitKind,
    paint: &Handle<StandardMaterial>,
    hull: Quat,
    turret: Quat,
) {
    match kind {
        UnitKind::Infantry => {
            model.with_children(|p| {
                for (dx, dz) in [(-0.2, 0.1), (0.2, 0.1), (0.0, -0.2)] {
                    p.spawn((
                        Mesh3d(a.figure.clone()),
                        MeshMaterial3d(paint.clone()),
                        Transform::from_xyz(dx, 0.25, dz),
                    ));
                }
            });
        }
        UnitKind::Target => {
            model.with_children(|p| {
                p.spawn((
                    Mesh3d(a.target.clone()),
                    MeshMaterial3d(a.gold.clone()),
                    Transform::from_xyz(0.0, 0.35, 0.0).with_rotation(hull),
                ));
            });
        }
        kind => vehicle_model(model, a, kind, paint, hull, turret),
    }
}

/// A vehicle's model under `model`: a hull (none for an AA gun), a turret and barrel
/// (none for an APC; an AA gun's barrel points up).
fn vehicle_model(
    model: &mut EntityCommands,
    a: &EditorAssets,
    kind: UnitKind,
    paint: &Handle<StandardMaterial>,
    hull: Quat,
    turret: Quat,
) {
    let apc = kind == UnitKind::Apc;
    let aa = kind == UnitKind::AaGun;
    model.with_children(|p| {
        if !aa {
            p.spawn((
                Mesh3d(a.hull.clone()),
                MeshMaterial3d(paint.clone()),
                Transform::from_xyz(0.0, 0.16, 0.0)
                    .with_rotation(hull)
                    .with_scale(if apc {
                        Vec3::new(1.0, 1.4, 1.05)
                    } else {
                        Vec3::ONE
                    }),
            ));
        }
        if !apc {
            p.spawn((
                Transform::from_xyz(0.0, if aa { 0.15 } else { 0.38 }, 0.0).with_rotation(turret),
                Visibility::default(),
                children![
                    (Mesh3d(a.turret.clone()), MeshMaterial3d(paint.clone())),
                    (
                        Mesh3d(a.barrel.clone()),
                        MeshMaterial3d(paint.clone()),
                        Transform::from_xyz(0.0, if aa { 0.25 } else { 0.0 }, -0.4).with_rotation(
                            Quat::from_rotation_x(if aa {
                                -1.0
                            } else {
                                -std::f32::consts::FRAC_PI_2
                            })
                        ),
                    ),
                ],
            ));
        }
    });
}

/// The brush's hexes under the pointer, outlined.
fn follow_pointer(
    mut commands: Commands,
    screen: Res<EditorScreen>,
    assets: Res<EditorAssets>,
    marks: Query<Entity, With<BrushMark>>,
    mut last: Local<Option<(Option<[i32; 2]>, u8, Tool, u64)>>,
) {
    let Some(editor) = &screen.editor else {
        for e in &marks {
            commands.entity(e).despawn();
        }
        *last = None;
        return;
    };
    let now = (screen.hover, screen.brush, screen.tool, screen.generation);
    if *last == Some(now) {
        return;
    }
    *last = Some(now);
    for e in &marks {
        commands.entity(e).despawn();
    }
    let Some(cell) = screen.hover else { return };
    let design = editor.design();
    let radius = if screen.tool.brushes() {
        screen.brush
    } else {
        0
    };
    let board = design.board();
    for c in brush_cells(design, cell, radius) {
        let lift = if design.terrain(c) == Terrain::Hill {
            0.42
        } else {
            0.12
        };
        commands.spawn((
            BrushMark,
            DespawnOnExit(Screen::Editor),
            Mesh3d(assets.ring.clone()),
            MeshMaterial3d(assets.brush.clone()),
            Transform::from_translation(world(board, c) + Vec3::Y * lift)
                .with_scale(Vec3::new(1.0, 0.5, 1.0)),
        ));
    }
}
