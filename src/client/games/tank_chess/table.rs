//! The Tank Chess board in 3D: checkered squares, obstacles as blocks, pieces whose type
//! shows in their shape and size (the Command tank carries an antenna), wrecks tipped on
//! their side; the selected piece's reachable squares and the firing lines from the
//! hovered destination.

use bevy::prelude::*;

use super::{ChessPick, pick_square};
use crate::client::core::session::{Legal, Session};
use crate::client::core::{ClientSystems, GameScreen};
use crate::client::frame::input::{PanelOutlines, PressOrigin};
use crate::client::table::effects::{Shown, Timeline, forget_shown};
use crate::client::table::square::dir_rotation;
pub use crate::client::table::square::{square_centre, world_to_square};
use crate::client::table::theme;
use crate::rules::tank_chess::{Action, Cell, Kind, PieceState, Square, TankChess};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChessAssets>()
        .init_resource::<Timeline<super::anims::Anim>>()
        .add_systems(OnExit(GameScreen::TankChess), forget_shown::<TankChess>)
        .init_resource::<SquareIndex>()
        // One observer of each kind for every square, not three entities per square.
        .add_observer(hover)
        .add_observer(leave)
        .add_observer(click)
        .add_systems(
            Update,
            (
                super::anims::queue_anims,
                lay_board,
                draw_pieces,
                draw_highlights,
            )
                .chain()
                .in_set(ClientSystems::Scene)
                .run_if(
                    in_state(GameScreen::TankChess).and_then(resource_exists::<Session<TankChess>>),
                ),
        );
}

/// Centre of a square on the table; north is −Z.
#[must_use]
pub fn square_to_world(game: &TankChess, sq: Square) -> Vec3 {
    let (w, h) = game.size();
    square_centre((w, h), sq)
}

/// The pieces, wrecks and flags, drawn again when the position changes.
#[derive(Component)]
struct Drawn;

/// The board of the open game: its frame, light, squares and obstacles.
#[derive(Component)]
struct BoardPart;

/// A square of the board, for the pointer.
#[derive(Component, Clone, Copy)]
struct SquareTile(Square);

fn hover(
    over: On<Pointer<Over>>,
    tiles: Query<&SquareTile>,
    outlines: Res<PanelOutlines>,
    cursor: Res<super::ChessCursor>,
    mut pick: ResMut<ChessPick>,
) {
    // The keyboard's cursor stands for the pointer until the pointer moves.
    if cursor.0.is_some() {
        return;
    }
    if let Ok(t) = tiles.get(over.entity) {
        // A square under a panel is not pointed at.
        pick.hover = (!outlines.at(over.pointer_location.position)).then_some(t.0);
    }
}

fn leave(
    out: On<Pointer<Out>>,
    tiles: Query<&SquareTile>,
    cursor: Res<super::ChessCursor>,
    mut pick: ResMut<ChessPick>,
) {
    if cursor.0.is_none() && tiles.get(out.entity).is_ok_and(|t| Some(t.0) == pick.hover) {
        pick.hover = None;
    }
}

fn click(
    click: On<Pointer<Click>>,
    tiles: Query<&SquareTile>,
    session: Option<Res<Session<TankChess>>>,
    legal: Option<Res<Legal<TankChess>>>,
    origin: Res<PressOrigin>,
    mut pick: ResMut<ChessPick>,
) {
    if click.button != PointerButton::Primary || origin.on_panel {
        return;
    }
    let (Ok(t), Some(session), Some(legal)) = (tiles.get(click.entity), session, legal) else {
        return;
    };
    let game = session.state();
    pick_square(&mut pick, game, legal.of(game.to_move()), t.0);
}

/// The table's materials and shapes, made once.
#[derive(Resource)]
struct ChessAssets {
    light: Handle<StandardMaterial>,
    dark: Handle<StandardMaterial>,
    block: Handle<StandardMaterial>,
    white: Handle<StandardMaterial>,
    black: Handle<StandardMaterial>,
    pennant: Handle<StandardMaterial>,
    wreck: Handle<StandardMaterial>,
    frame: Handle<StandardMaterial>,
    command_ring: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
    frame_mesh: Handle<Mesh>,
    tile: Mesh,
    cube: Mesh,
    cyl: Mesh,
}

impl FromWorld for ChessAssets {
    fn from_world(world: &mut World) -> Self {
        let mut materials = world.resource_mut::<Assets<StandardMaterial>>();
        let mut mat = |c: Color| {
            materials.add(StandardMaterial {
                base_color: c,
                perceptual_roughness: 0.9,
                ..default()
            })
        };
        let light = mat(theme::CHESS_LIGHT_SQUARE);
        let dark = mat(theme::CHESS_DARK_SQUARE);
        let block = mat(theme::CHESS_OBSTACLE);
        let white = mat(theme::CHESS_WHITE);
        let black = mat(theme::CHESS_BLACK);
        let pennant = mat(theme::PENNANT);
        let wreck = mat(theme::CHESS_WRECK);
        let frame = mat(theme::CHESS_FRAME);
        let command_ring = materials.add(StandardMaterial {
            base_color: theme::COMMAND_RING,
            emissive: theme::COMMAND_RING_GLOW,
            ..default()
        });
        let gold = materials.add(StandardMaterial {
            base_color: theme::CHESS_FLAG,
            emissive: theme::CHESS_FLAG_GLOW,
            ..default()
        });
        let frame_mesh = world
            .resource_mut::<Assets<Mesh>>()
            .add(Cuboid::new(1.0, 1.0, 1.0));
        Self {
            light,
            dark,
            block,
            white,
            black,
            pennant,
            wreck,
            frame,
            command_ring,
            gold,
            frame_mesh,
            tile: Cuboid::new(0.97, 0.1, 0.97).into(),
            cube: Cuboid::new(1.0, 1.0, 1.0).into(),
            cyl: crate::client::table::shapes::cylinder(0.5, 1.0),
        }
    }
}

/// Heights of the tops the pointer meets: an obstacle's block, a piece (a hull is 0.2
/// to 0.34 tall), and the squares.
const OBSTACLE_TOP: f32 = 0.4;
const PIECE_TOP: f32 = 0.25;

/// How high what stands on a square reaches, for the pointer.
#[must_use]
pub fn top_of(cell: Cell) -> f32 {
    match cell {
        Cell::Obstacle => OBSTACLE_TOP,
        Cell::Piece(_) => PIECE_TOP,
        Cell::Empty => 0.0,
    }
}

/// The entity of each square of the board laid, for the pointer (see
/// [`super::picking`]).
#[derive(Resource, Default)]
pub struct SquareIndex {
    size: (u8, u8),
    /// Row by row from the first.
    squares: Vec<Entity>,
}

impl SquareIndex {
    /// The entity that takes the pointer's events for a square.
    fn entity(&self, sq: Square) -> Option<Entity> {
        (sq.col < self.size.0 && sq.row < self.size.1).then(|| {
            self.squares[usize::from(sq.row) * usize::from(self.size.0) + usize::from(sq.col)]
        })
    }

    /// The square `ray` meets first: an obstacle or a piece whose top (`top` of its
    /// square) it crosses, else the square where it meets the board, with the distance
    /// and the point where it met it.
    #[must_use]
    pub fn under(&self, ray: &Ray3d, top: impl Fn(Square) -> f32) -> Option<(Entity, f32, Vec3)> {
        [OBSTACLE_TOP, PIECE_TOP, 0.0]
            .into_iter()
            .find_map(|height| {
                let depth = ray.intersect_plane(Vec3::Y * height, InfinitePlane3d::new(Vec3::Y))?;
                let point = ray.get_point(depth);
                let sq = world_to_square(self.size, point)?;
                (top(sq) >= height).then_some((self.entity(sq)?, depth, point))
            })
    }
}

/// The board of a newly opened game: its frame and light, the squares of each colour and
/// the obstacles as one mesh each (a 20 × 20 board is five entities to draw, not 460),
/// and an entity per square, with no model, for the pointer.
fn lay_board(
    mut commands: Commands,
    session: Res<Session<TankChess>>,
    a: Res<ChessAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    board: Query<Entity, With<BoardPart>>,
    mut index: ResMut<SquareIndex>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
    top_down: Res<crate::client::table::camera::View>,
    mut last: Local<Option<u64>>,
) {
    if *last == Some(session.generation) {
        return;
    }
    *last = Some(session.generation);
    for e in &board {
        commands.entity(e).despawn();
    }
    let game = session.state();
    let (w, h) = game.size();
    // The board with its frame, the coordinates along the south and west edges, and the
    // pieces' letter plates.
    let (hw, hh) = (f32::from(w) / 2.0, f32::from(h) / 2.0);
    framing.show(
        crate::client::table::framing::box_outline(
            Vec3::new(-hw - 1.1, 0.0, -hh - 0.6),
            Vec3::new(hw + 0.6, 1.1, hh + 1.1),
        ),
        top_down.top_down,
    );
    spawn_frame_and_light(&mut commands, &a, (w, h));
    let (squares, blocks) = lay_squares(&mut commands, &a, game, &mut index);
    spawn_board_models(&mut commands, &mut meshes, squares, blocks);
}

/// The board's frame under the squares and the table's light.
fn spawn_frame_and_light(commands: &mut Commands, a: &ChessAssets, (w, h): (u8, u8)) {
    commands.spawn((
        BoardPart,
        DespawnOnExit(GameScreen::TankChess),
        Mesh3d(a.frame_mesh.clone()),
        MeshMaterial3d(a.frame.clone()),
        Transform::from_xyz(0.0, -0.1, 0.0).with_scale(Vec3::new(
            f32::from(w) + 1.2,
            0.1,
            f32::from(h) + 1.2,
        )),
        // Flat things cast no shadow worth drawing: the shadow map draws the pieces.
        bevy::light::NotShadowCaster,
        Pickable::IGNORE,
    ));
    commands.spawn((
        BoardPart,
        DespawnOnExit(GameScreen::TankChess),
        crate::client::table::effects::table_light(9_000.0),
        Transform::from_xyz(-6.0, 14.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Gathers the squares and the obstacles' blocks by material, and spawns an entity per
/// square for the pointer, recorded in `index`.
fn lay_squares(
    commands: &mut Commands,
    a: &ChessAssets,
    game: &TankChess,
    index: &mut SquareIndex,
) -> (
    crate::client::table::shapes::ByMaterial,
    crate::client::table::shapes::ByMaterial,
) {
    let (w, h) = game.size();
    let mut squares = crate::client::table::shapes::ByMaterial::default();
    let mut blocks = crate::client::table::shapes::ByMaterial::default();
    index.size = (w, h);
    index.squares.clear();
    for row in 0..h {
        for col in 0..w {
            let sq = Square { col, row };
            let at = square_to_world(game, sq);
            let colour = if (row + col) % 2 == 0 {
                &a.dark
            } else {
                &a.light
            };
            squares.add(colour, a.tile.clone().translated_by(at - Vec3::Y * 0.05));
            if game.cell(sq) == Cell::Obstacle {
                blocks.add(
                    &a.block,
                    a.cube.clone().transformed_by(
                        Transform::from_translation(at + Vec3::Y * 0.2)
                            .with_scale(Vec3::new(0.95, 0.4, 0.95)),
                    ),
                );
            }
            // An obstacle is pointed at like its square, so that it too says why no piece
            // goes there.
            let tile = commands.spawn((
                BoardPart,
                DespawnOnExit(GameScreen::TankChess),
                SquareTile(sq),
            ));
            index.squares.push(tile.id());
        }
    }
    (squares, blocks)
}

/// Spawns the merged models of the squares (casting no shadow) and of the blocks.
fn spawn_board_models(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    squares: crate::client::table::shapes::ByMaterial,
    blocks: crate::client::table::shapes::ByMaterial,
) {
    for (flat, parts) in [(true, squares), (false, blocks)] {
        for (material, mesh) in parts.into_drawn_parts() {
            let mut model = commands.spawn((
                BoardPart,
                DespawnOnExit(GameScreen::TankChess),
                Mesh3d(meshes.add(mesh)),
                MeshMaterial3d(material),
                Transform::default(),
                // The pointer finds squares by where it meets the board.
                Pickable::IGNORE,
            ));
            if flat {
                model.insert(bevy::light::NotShadowCaster);
            }
        }
    }
}

/// A piece type's hull width, height and length, turret radius and barrel length: size
/// and shape show the type.
const fn proportions(kind: Kind) -> (f32, f32, f32, f32, f32) {
    match kind {
        Kind::LT => (0.46, 0.16, 0.58, 0.14, 0.34),
        Kind::MT => (0.56, 0.2, 0.68, 0.18, 0.45),
        Kind::HT => (0.68, 0.26, 0.82, 0.23, 0.58),
        Kind::TD => (0.6, 0.2, 0.8, 0.0, 0.62),
        Kind::HM => (0.58, 0.22, 0.7, 0.0, 0.0),
    }
}

/// What a piece's model is made of, each part with the paint it takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Paint {
    /// Its colour, or a wreck's.
    Body,
    /// The other colour: the front stripe, guns, antenna.
    Trim,
    Pennant,
    CommandRing,
}

/// The shapes a piece's model is built of, placed in the piece's own space.
struct PartShapes<'a>(&'a ChessAssets);

impl PartShapes<'_> {
    /// A box centred on `at`.
    fn cube(&self, at: Vec3, size: Vec3) -> Mesh {
        self.0
            .cube
            .clone()
            .transformed_by(Transform::from_translation(at).with_scale(size))
    }

    /// A cylinder placed by `t`.
    fn cyl(&self, t: Transform) -> Mesh {
        self.0.cyl.clone().transformed_by(t)
    }

    /// A standing cylinder centred on `at`.
    fn upright(&self, at: Vec3, size: Vec3) -> Mesh {
        self.cyl(Transform::from_translation(at).with_scale(size))
    }

    /// A cylinder lying along the piece's length, centred on `at`.
    fn lying(&self, at: Vec3, size: Vec3) -> Mesh {
        self.cyl(
            Transform::from_translation(at)
                .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                .with_scale(size),
        )
    }
}

/// The parts of a piece's model, in the piece's own space (facing north, standing on the
/// origin): size and shape by type, the Command tank's antenna and ring, the flag teams'
/// pennant.
fn piece_parts(a: &ChessAssets, p: &crate::rules::tank_chess::Piece) -> Vec<(Paint, Mesh)> {
    let s = PartShapes(a);
    let dims = proportions(p.kind);
    let (hw, hh, hl, ..) = dims;
    let mut parts = vec![
        (
            Paint::Body,
            s.cube(Vec3::new(0.0, hh / 2.0, 0.0), Vec3::new(hw, hh, hl)),
        ),
        // A pale or dark stripe on the front shows the facing.
        (
            Paint::Trim,
            s.cube(
                Vec3::new(0.0, hh + 0.01, -hl / 2.0 + 0.06),
                Vec3::new(hw * 0.8, 0.03, 0.08),
            ),
        ),
    ];
    gun_parts(&s, p.kind, dims, &mut parts);
    if p.side >= 2 {
        pennant_parts(&s, dims, &mut parts);
    }
    command_parts(&s, p, dims, &mut parts);
    parts
}

/// The gun by type: a tank destroyer's casemate and long gun, the mortar's tube, or a
/// tank's turret and barrel.
fn gun_parts(
    s: &PartShapes<'_>,
    kind: Kind,
    (hw, hh, hl, turret, barrel): (f32, f32, f32, f32, f32),
    parts: &mut Vec<(Paint, Mesh)>,
) {
    match kind {
        Kind::TD => {
            // A casemate and a long gun straight out of the hull.
            parts.push((
                Paint::Body,
                s.cube(
                    Vec3::new(0.0, hh + 0.08, 0.05),
                    Vec3::new(hw * 0.8, 0.16, hl * 0.6),
                ),
            ));
            parts.push((
                Paint::Trim,
                s.lying(
                    Vec3::new(0.0, hh + 0.08, -hl / 2.0 - barrel / 2.0 + 0.2),
                    Vec3::new(0.09, barrel, 0.09),
                ),
            ));
        }
        Kind::HM => {
            // A fat mortar tube pointing up and ahead.
            parts.push((
                Paint::Trim,
                s.cyl(
                    Transform::from_xyz(0.0, hh + 0.18, -0.08)
                        .with_rotation(Quat::from_rotation_x(0.6))
                        .with_scale(Vec3::new(0.2, 0.42, 0.2)),
                ),
            ));
        }
        _ => {
            parts.push((
                Paint::Body,
                s.upright(
                    Vec3::new(0.0, hh + 0.06, 0.04),
                    Vec3::new(turret * 2.0, 0.12, turret * 2.0),
                ),
            ));
            parts.push((
                Paint::Trim,
                s.lying(
                    Vec3::new(0.0, hh + 0.07, 0.04 - barrel / 2.0 - turret * 0.5),
                    Vec3::new(0.06, barrel, 0.06),
                ),
            ));
        }
    }
}

/// The flag teams of Four Players fly a red pennant at the back.
fn pennant_parts(
    s: &PartShapes<'_>,
    (hw, hh, hl, ..): (f32, f32, f32, f32, f32),
    parts: &mut Vec<(Paint, Mesh)>,
) {
    parts.push((
        Paint::Trim,
        s.upright(
            Vec3::new(-hw * 0.3, hh + 0.3, hl * 0.4),
            Vec3::new(0.03, 0.6, 0.03),
        ),
    ));
    parts.push((
        Paint::Pennant,
        s.cube(
            Vec3::new(-hw * 0.3 - 0.1, hh + 0.52, hl * 0.4),
            Vec3::new(0.2, 0.14, 0.02),
        ),
    ));
}

/// The Command tank's gold ring (while it is on the board) and its antenna.
fn command_parts(
    s: &PartShapes<'_>,
    p: &crate::rules::tank_chess::Piece,
    (hw, hh, ..): (f32, f32, f32, f32, f32),
    parts: &mut Vec<(Paint, Mesh)>,
) {
    if p.command && p.state == PieceState::Active {
        // A gold ring on the square under it: the Command tank stands out from above in
        // either colour.
        parts.push((
            Paint::CommandRing,
            s.upright(Vec3::new(0.0, 0.005, 0.0), Vec3::new(0.72, 0.02, 0.72)),
        ));
    }
    if p.command {
        // The antenna, in the opposite colour, with a ball on top.
        parts.push((
            Paint::Trim,
            s.upright(
                Vec3::new(hw * 0.3, hh + 0.45, 0.2),
                Vec3::new(0.03, 0.8, 0.03),
            ),
        ));
        parts.push((
            Paint::Trim,
            s.cube(Vec3::new(hw * 0.3, hh + 0.88, 0.2), Vec3::splat(0.09)),
        ));
    }
}

/// The pieces, wrecks and flags, drawn again when the position changes: all of them as
/// one mesh per material (a handful of entities, whatever the number of pieces). The
/// pointer finds a piece by its square (see [`SquareIndex::under`]).
fn draw_pieces(
    mut commands: Commands,
    shown: Option<Res<Shown<TankChess>>>,
    a: Res<ChessAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    drawn: Query<Entity, With<Drawn>>,
) {
    let Some(shown) = shown.filter(Res::is_changed) else {
        return;
    };
    for e in &drawn {
        commands.entity(e).despawn();
    }
    let game = &shown.0;
    let mut models = crate::client::table::shapes::ByMaterial::default();
    for p in game.pieces() {
        if p.state == PieceState::Escaped {
            continue;
        }
        add_piece(&mut models, &a, game, p);
    }
    add_flags(&mut models, &a, game);
    for (material, mesh) in models.into_drawn_parts() {
        commands.spawn((
            Drawn,
            DespawnOnExit(GameScreen::TankChess),
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(material),
            Transform::default(),
            Pickable::IGNORE,
        ));
    }
}

/// Adds a piece's or a wreck's model, placed on its square, to `models`.
fn add_piece(
    models: &mut crate::client::table::shapes::ByMaterial,
    a: &ChessAssets,
    game: &TankChess,
    p: &crate::rules::tank_chess::Piece,
) {
    let body = match (p.state, p.white) {
        (PieceState::Wrecked, _) => &a.wreck,
        (_, true) => &a.white,
        (_, false) => &a.black,
    };
    let trim = if p.white { &a.black } else { &a.white };
    let (hw, ..) = proportions(p.kind);
    // A wreck lies on its side.
    let (tipped, lift) = if p.state == PieceState::Wrecked {
        (
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2 * 0.92),
            hw * 0.65,
        )
    } else {
        (Quat::IDENTITY, 0.02)
    };
    let place = Transform::from_translation(square_to_world(game, p.at) + Vec3::Y * lift)
        .with_rotation(dir_rotation(p.facing) * tipped)
        .with_scale(Vec3::splat(1.3));
    for (paint, mesh) in piece_parts(a, p) {
        let material = match paint {
            Paint::Body => body,
            Paint::Trim => trim,
            Paint::Pennant => &a.pennant,
            Paint::CommandRing => &a.command_ring,
        };
        models.add(material, mesh.transformed_by(place));
    }
}

/// Capture the Flag: adds a gold flag on a pole where four squares meet, or on its
/// carrier, to `models`.
fn add_flags(
    models: &mut crate::client::table::shapes::ByMaterial,
    a: &ChessAssets,
    game: &TankChess,
) {
    for f in game.flags() {
        let at = match *f {
            crate::rules::tank_chess::Flag::Standing(sw) => {
                square_to_world(game, sw) + Vec3::new(0.5, 0.0, -0.5)
            }
            crate::rules::tank_chess::Flag::Carried(c) => {
                let p = game.pieces()[usize::from(c)];
                square_to_world(game, p.at) + Vec3::new(-0.25, 0.25, 0.25)
            }
            crate::rules::tank_chess::Flag::Home(_) => continue,
        };
        models.add(
            &a.gold,
            a.cyl.clone().transformed_by(
                Transform::from_translation(at + Vec3::Y * 0.45)
                    .with_scale(Vec3::new(0.04, 0.9, 0.04)),
            ),
        );
        models.add(
            &a.gold,
            a.cube.clone().transformed_by(
                Transform::from_translation(at + Vec3::new(0.16, 0.78, 0.0))
                    .with_scale(Vec3::new(0.3, 0.2, 0.03)),
            ),
        );
    }
}

fn outline(
    strokes: &mut crate::client::table::strokes::Strokes,
    at: Vec3,
    size: f32,
    color: Color,
) {
    let h = size / 2.0;
    let y = Vec3::Y * 0.03;
    let c = [
        at + Vec3::new(-h, 0.0, -h),
        at + Vec3::new(h, 0.0, -h),
        at + Vec3::new(h, 0.0, h),
        at + Vec3::new(-h, 0.0, h),
        at + Vec3::new(-h, 0.0, -h),
    ];
    strokes.linestrip(c.map(|p| p + y), color);
}

/// The selected piece's reachable squares (blue, with an arrow per end facing), the chosen
/// destination (white), and from the hovered or chosen destination the firing lines to
/// every enemy piece a move there would destroy (red).
fn draw_highlights(
    mut strokes: ResMut<crate::client::table::strokes::Strokes>,
    session: Res<Session<TankChess>>,
    legal: Res<Legal<TankChess>>,
    pick: Res<ChessPick>,
    cursor: Res<super::ChessCursor>,
) {
    let game = session.state();
    // The keyboard's cursor: a golden frame around its square.
    if let Some(sq) = cursor.0 {
        for size in [0.98, 1.02] {
            outline(
                &mut strokes,
                square_to_world(game, sq),
                size,
                theme::KEY_CURSOR,
            );
        }
    }
    // The compass in the centre.
    strokes.arrow(
        Vec3::new(0.0, 0.05, 0.6),
        Vec3::new(0.0, 0.05, -0.6),
        theme::COMPASS,
    );
    let Some(from) = pick.piece else { return };
    outline(
        &mut strokes,
        square_to_world(game, from),
        0.95,
        theme::SELECTED,
    );
    let legal = legal.of(game.to_move());
    draw_reach(&mut strokes, game, legal, from);
    let Some(dest) = pick.dest.or(pick.hover) else {
        return;
    };
    if pick.dest.is_some() {
        outline(
            &mut strokes,
            square_to_world(game, dest),
            0.9,
            theme::SELECTED,
        );
    }
    draw_fire_lines(&mut strokes, game, legal, from, dest);
}

/// The squares the piece on `from` reaches (blue), with an arrow per end facing.
fn draw_reach(
    strokes: &mut crate::client::table::strokes::Strokes,
    game: &TankChess,
    legal: &[Action],
    from: Square,
) {
    for a in legal {
        if let Action::Move {
            from: f,
            to,
            facing,
            ..
        } = a
            && *f == from
        {
            let c = square_to_world(game, *to);
            outline(strokes, c, 0.85, theme::CHESS_REACH);
            let (dx, dy) = facing.delta();
            let dir = Vec3::new(f32::from(dx), 0.0, -f32::from(dy)).normalize() * 0.3;
            strokes.line(
                c + Vec3::Y * 0.04,
                c + Vec3::Y * 0.04 + dir,
                theme::CHESS_REACH,
            );
        }
    }
}

/// The firing lines from `dest` to every enemy piece a move there from `from` would
/// destroy (red), each target outlined.
fn draw_fire_lines(
    strokes: &mut crate::client::table::strokes::Strokes,
    game: &TankChess,
    legal: &[Action],
    from: Square,
    dest: Square,
) {
    for a in legal {
        if let Action::Move {
            from: f,
            to,
            fire: Some(t),
            ..
        } = a
            && *f == from
            && *to == dest
        {
            let (a, b) = (square_to_world(game, dest), square_to_world(game, *t));
            strokes.line(a + Vec3::Y * 0.35, b + Vec3::Y * 0.35, theme::FIRE_LINE);
            outline(strokes, b, 0.95, theme::FIRE_LINE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(size: (u8, u8)) -> SquareIndex {
        let n = u32::from(size.0) * u32::from(size.1);
        SquareIndex {
            size,
            squares: (1..=n).map(|n| Entity::from_raw_u32(n).unwrap()).collect(),
        }
    }

    #[test]
    fn the_ray_finds_the_square_below_and_what_stands_before_the_square_behind_it() {
        let size = (6, 5);
        for row in 0..5 {
            for col in 0..6 {
                let sq = Square { col, row };
                let c = square_centre(size, sq);
                assert_eq!(world_to_square(size, c), Some(sq));
                // Anywhere well inside the square.
                assert_eq!(
                    world_to_square(size, c + Vec3::new(0.45, 0.0, -0.45)),
                    Some(sq)
                );
                assert_eq!(
                    world_to_square(size, c + Vec3::new(-0.45, 0.0, 0.45)),
                    Some(sq)
                );
            }
        }
        assert_eq!(world_to_square(size, Vec3::new(3.1, 0.0, 0.0)), None);
        assert_eq!(world_to_square(size, Vec3::new(0.0, 0.0, -2.6)), None);
        let block = Square { col: 2, row: 2 };
        let piece = Square { col: 4, row: 2 };
        // North of each: the squares a slanting view from the south sees behind them.
        let behind_block = Square { col: 2, row: 3 };
        let behind_piece = Square { col: 4, row: 3 };
        let index = index(size);
        let cell = |sq: Square| match sq {
            _ if sq == block => Cell::Obstacle,
            _ if sq == piece => Cell::Piece(0),
            _ => Cell::Empty,
        };
        let under = |ray: Ray3d| index.under(&ray, |sq| top_of(cell(sq))).map(|hit| hit.0);
        let entity = |sq: Square| index.entity(sq);
        let down = |sq: Square| Ray3d::new(square_centre(size, sq) + Vec3::Y * 10.0, Dir3::NEG_Y);
        for sq in [block, piece, behind_block] {
            assert_eq!(under(down(sq)), entity(sq));
        }
        // Slanting rays from the south (+Z): one that meets the top of the block or the
        // piece, and one that passes just north of it and meets the square behind.
        for (front, top, behind) in [
            (block, OBSTACLE_TOP, behind_block),
            (piece, PIECE_TOP, behind_piece),
        ] {
            let ground = square_centre(size, behind);
            for (over, found) in [
                (square_centre(size, front) + Vec3::Y * top, front),
                (
                    square_centre(size, front) + Vec3::new(0.0, top, -0.55),
                    behind,
                ),
            ] {
                let dir = Dir3::new(ground - over).unwrap();
                assert_eq!(under(Ray3d::new(over - dir * 5.0, dir)), entity(found));
            }
        }
        // Off the board: nothing.
        assert!(under(down(Square { col: 9, row: 9 })).is_none());
    }
}
