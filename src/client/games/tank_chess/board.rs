//! The Tank Chess board in 3D: checkered squares, obstacles as blocks, pieces whose type
//! shows in their shape and size (the Command tank carries an antenna), wrecks tipped on
//! their side; the selected piece's reachable squares and the firing lines from the
//! hovered destination.

use bevy::prelude::*;

use super::{ChessPick, pick_square};
use crate::client::camera::Rig;
use crate::client::input::{PanelOutlines, PressOrigin};
use crate::client::session::{Legal, Session};
use crate::client::{ClientSystems, GameScreen};
use crate::rules::tank_chess::{Action, Cell, Dir8, Kind, PieceState, Square, TankChess};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (draw_board, draw_highlights)
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

/// Centre of a square on a `width` × `height` board centred on the table's origin; north
/// is −Z. The editor's board and the game's share it.
#[must_use]
pub fn square_centre((w, h): (u8, u8), sq: Square) -> Vec3 {
    Vec3::new(
        f32::from(sq.col) - f32::from(w) / 2.0 + 0.5,
        0.0,
        f32::from(h) / 2.0 - 0.5 - f32::from(sq.row),
    )
}

fn facing(d: Dir8) -> Quat {
    Quat::from_rotation_y(-f32::from(d.index()) * std::f32::consts::FRAC_PI_4)
}

/// Everything drawn from the position; drawn again when it changes.
#[derive(Component)]
struct Drawn;

/// A square of the board, for the pointer.
#[derive(Component, Clone, Copy)]
struct SquareTile(Square);

fn hover(
    over: On<Pointer<Over>>,
    tiles: Query<&SquareTile>,
    outlines: Res<PanelOutlines>,
    mut pick: ResMut<ChessPick>,
) {
    if let Ok(t) = tiles.get(over.entity) {
        // A square under a panel is not pointed at.
        pick.hover = (!outlines.at(over.pointer_location.position)).then_some(t.0);
    }
}

fn leave(out: On<Pointer<Out>>, tiles: Query<&SquareTile>, mut pick: ResMut<ChessPick>) {
    if tiles.get(out.entity).is_ok_and(|t| Some(t.0) == pick.hover) {
        pick.hover = None;
    }
}

fn click(
    click: On<Pointer<Click>>,
    tiles: Query<&SquareTile>,
    session: Res<Session<TankChess>>,
    legal: Res<Legal<TankChess>>,
    origin: Res<PressOrigin>,
    mut pick: ResMut<ChessPick>,
) {
    if click.button != PointerButton::Primary || origin.on_panel {
        return;
    }
    let Ok(t) = tiles.get(click.entity) else {
        return;
    };
    let game = session.state();
    pick_square(&mut pick, game, legal.of(game.to_move()), t.0);
}

#[allow(
    clippy::too_many_lines,
    reason = "one model per piece type, kept together"
)]
fn draw_board(
    mut commands: Commands,
    session: Res<Session<TankChess>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    drawn: Query<Entity, With<Drawn>>,
    mut rig: ResMut<Rig>,
    mut last: Local<Option<(u64, usize)>>,
) {
    let now = (session.generation, session.game.history().len());
    if last.is_none_or(|(g, _)| g != session.generation) {
        let (w, h) = session.state().size();
        let span = f32::from(w.max(h));
        rig.frame(Vec3::new(0.0, 0.0, span * 0.08), span * 1.5);
    } else if *last == Some(now) {
        return;
    }
    *last = Some(now);
    for e in &drawn {
        commands.entity(e).despawn();
    }
    let game = session.state();
    let (w, h) = game.size();
    let mut mat = |c: Color| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.9,
            ..default()
        })
    };
    let light = mat(Color::srgb(0.78, 0.74, 0.62));
    let dark = mat(Color::srgb(0.55, 0.50, 0.40));
    let block = mat(Color::srgb(0.30, 0.30, 0.32));
    let white = mat(Color::srgb(0.93, 0.91, 0.84));
    let black = mat(Color::srgb(0.07, 0.07, 0.09));
    let pennant = mat(Color::srgb(0.85, 0.15, 0.15));
    let wreck = mat(Color::srgb(0.38, 0.30, 0.26));
    let frame = mat(Color::srgb(0.25, 0.17, 0.10));
    let command_ring = materials.add(StandardMaterial {
        base_color: Color::srgb(0.95, 0.72, 0.12),
        emissive: LinearRgba::rgb(0.35, 0.22, 0.0),
        ..default()
    });
    let tile = meshes.add(Cuboid::new(0.97, 0.1, 0.97));
    let cube = meshes.add(Cuboid::new(1.0, 1.0, 1.0));
    let cyl = meshes.add(crate::client::shapes::cylinder(0.5, 1.0));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankChess),
        Mesh3d(cube.clone()),
        MeshMaterial3d(frame),
        Transform::from_xyz(0.0, -0.1, 0.0).with_scale(Vec3::new(
            f32::from(w) + 1.2,
            0.1,
            f32::from(h) + 1.2,
        )),
        // Flat things cast no shadow worth drawing: the shadow map draws the pieces.
        bevy::light::NotShadowCaster,
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankChess),
        crate::client::effects::table_light(9_000.0),
        Transform::from_xyz(-6.0, 14.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    for row in 0..h {
        for col in 0..w {
            let sq = Square { col, row };
            let at = square_to_world(game, sq);
            let m = if (row + col) % 2 == 0 {
                dark.clone()
            } else {
                light.clone()
            };
            commands
                .spawn((
                    Drawn,
                    DespawnOnExit(GameScreen::TankChess),
                    SquareTile(sq),
                    Mesh3d(tile.clone()),
                    MeshMaterial3d(m),
                    Transform::from_translation(at - Vec3::Y * 0.05),
                    bevy::light::NotShadowCaster,
                ))
                .observe(hover)
                .observe(leave)
                .observe(click);
            if game.cell(sq) == Cell::Obstacle {
                commands
                    .spawn((
                        Drawn,
                        DespawnOnExit(GameScreen::TankChess),
                        SquareTile(sq),
                        Mesh3d(cube.clone()),
                        MeshMaterial3d(block.clone()),
                        Transform::from_translation(at + Vec3::Y * 0.2)
                            .with_scale(Vec3::new(0.95, 0.4, 0.95)),
                    ))
                    // Pointed at like its square, so that it too says why no piece goes there.
                    .observe(hover)
                    .observe(leave)
                    .observe(click);
            }
        }
    }
    for p in game.pieces() {
        if p.state == PieceState::Escaped {
            continue;
        }
        let paint = match (p.state, p.white) {
            (PieceState::Wrecked, _) => wreck.clone(),
            (_, true) => white.clone(),
            (_, false) => black.clone(),
        };
        let trim = if p.white {
            black.clone()
        } else {
            white.clone()
        };
        // Size and shape by type: (hull width, height, length), turret radius, barrel length.
        let (hw, hh, hl, turret, barrel) = match p.kind {
            Kind::LT => (0.46, 0.16, 0.58, 0.14, 0.34),
            Kind::MT => (0.56, 0.2, 0.68, 0.18, 0.45),
            Kind::HT => (0.68, 0.26, 0.82, 0.23, 0.58),
            Kind::TD => (0.6, 0.2, 0.8, 0.0, 0.62),
            Kind::HM => (0.58, 0.22, 0.7, 0.0, 0.0),
        };
        // A wreck lies on its side.
        let tipped = if p.state == PieceState::Wrecked {
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2 * 0.92)
        } else {
            Quat::IDENTITY
        };
        let base = square_to_world(game, p.at)
            + Vec3::Y
                * if p.state == PieceState::Wrecked {
                    hw * 0.65
                } else {
                    0.02
                };
        let mut e = commands.spawn((
            Drawn,
            DespawnOnExit(GameScreen::TankChess),
            SquareTile(p.at),
            Transform::from_translation(base)
                .with_rotation(facing(p.facing) * tipped)
                .with_scale(Vec3::splat(1.3)),
            Visibility::default(),
        ));
        e.observe(hover).observe(leave).observe(click);
        e.with_children(|c| {
            c.spawn((
                Mesh3d(cube.clone()),
                MeshMaterial3d(paint.clone()),
                Transform::from_xyz(0.0, hh / 2.0, 0.0).with_scale(Vec3::new(hw, hh, hl)),
            ));
            // A pale or dark stripe on the front shows the facing.
            c.spawn((
                Mesh3d(cube.clone()),
                MeshMaterial3d(trim.clone()),
                Transform::from_xyz(0.0, hh + 0.01, -hl / 2.0 + 0.06).with_scale(Vec3::new(
                    hw * 0.8,
                    0.03,
                    0.08,
                )),
            ));
            match p.kind {
                Kind::TD => {
                    // A casemate and a long gun straight out of the hull.
                    c.spawn((
                        Mesh3d(cube.clone()),
                        MeshMaterial3d(paint.clone()),
                        Transform::from_xyz(0.0, hh + 0.08, 0.05).with_scale(Vec3::new(
                            hw * 0.8,
                            0.16,
                            hl * 0.6,
                        )),
                    ));
                    c.spawn((
                        Mesh3d(cyl.clone()),
                        MeshMaterial3d(trim.clone()),
                        Transform::from_xyz(0.0, hh + 0.08, -hl / 2.0 - barrel / 2.0 + 0.2)
                            .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                            .with_scale(Vec3::new(0.09, barrel, 0.09)),
                    ));
                }
                Kind::HM => {
                    // A fat mortar tube pointing up and ahead.
                    c.spawn((
                        Mesh3d(cyl.clone()),
                        MeshMaterial3d(trim.clone()),
                        Transform::from_xyz(0.0, hh + 0.18, -0.08)
                            .with_rotation(Quat::from_rotation_x(0.6))
                            .with_scale(Vec3::new(0.2, 0.42, 0.2)),
                    ));
                }
                _ => {
                    c.spawn((
                        Mesh3d(cyl.clone()),
                        MeshMaterial3d(paint.clone()),
                        Transform::from_xyz(0.0, hh + 0.06, 0.04).with_scale(Vec3::new(
                            turret * 2.0,
                            0.12,
                            turret * 2.0,
                        )),
                    ));
                    c.spawn((
                        Mesh3d(cyl.clone()),
                        MeshMaterial3d(trim.clone()),
                        Transform::from_xyz(0.0, hh + 0.07, 0.04 - barrel / 2.0 - turret * 0.5)
                            .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2))
                            .with_scale(Vec3::new(0.06, barrel, 0.06)),
                    ));
                }
            }
            if p.side >= 2 {
                // The flag teams of Four Players fly a red pennant at the back.
                c.spawn((
                    Mesh3d(cyl.clone()),
                    MeshMaterial3d(trim.clone()),
                    Transform::from_xyz(-hw * 0.3, hh + 0.3, hl * 0.4)
                        .with_scale(Vec3::new(0.03, 0.6, 0.03)),
                ));
                c.spawn((
                    Mesh3d(cube.clone()),
                    MeshMaterial3d(pennant.clone()),
                    Transform::from_xyz(-hw * 0.3 - 0.1, hh + 0.52, hl * 0.4)
                        .with_scale(Vec3::new(0.2, 0.14, 0.02)),
                ));
            }
            if p.command && p.state == PieceState::Active {
                // A gold ring on the square under it: the Command tank stands out from
                // above in either colour.
                c.spawn((
                    Mesh3d(cyl.clone()),
                    MeshMaterial3d(command_ring.clone()),
                    Transform::from_xyz(0.0, 0.005, 0.0).with_scale(Vec3::new(0.72, 0.02, 0.72)),
                ));
            }
            if p.command {
                // The antenna, in the opposite colour, with a ball on top.
                c.spawn((
                    Mesh3d(cyl.clone()),
                    MeshMaterial3d(trim.clone()),
                    Transform::from_xyz(hw * 0.3, hh + 0.45, 0.2)
                        .with_scale(Vec3::new(0.03, 0.8, 0.03)),
                ));
                c.spawn((
                    Mesh3d(cube.clone()),
                    MeshMaterial3d(trim.clone()),
                    Transform::from_xyz(hw * 0.3, hh + 0.88, 0.2).with_scale(Vec3::splat(0.09)),
                ));
            }
        });
    }
    // Capture the Flag: a gold flag on a pole where four squares meet, or on its carrier.
    let gold = materials.add(StandardMaterial {
        base_color: Color::srgb(0.95, 0.75, 0.1),
        emissive: LinearRgba::rgb(0.3, 0.2, 0.0),
        ..default()
    });
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
        commands.spawn((
            Drawn,
            DespawnOnExit(GameScreen::TankChess),
            Mesh3d(cyl.clone()),
            MeshMaterial3d(gold.clone()),
            Transform::from_translation(at + Vec3::Y * 0.45).with_scale(Vec3::new(0.04, 0.9, 0.04)),
        ));
        commands.spawn((
            Drawn,
            DespawnOnExit(GameScreen::TankChess),
            Mesh3d(cube.clone()),
            MeshMaterial3d(gold.clone()),
            Transform::from_translation(at + Vec3::new(0.16, 0.78, 0.0))
                .with_scale(Vec3::new(0.3, 0.2, 0.03)),
        ));
    }
}

fn outline(gizmos: &mut Gizmos, at: Vec3, size: f32, color: Color) {
    let h = size / 2.0;
    let y = Vec3::Y * 0.03;
    let c = [
        at + Vec3::new(-h, 0.0, -h),
        at + Vec3::new(h, 0.0, -h),
        at + Vec3::new(h, 0.0, h),
        at + Vec3::new(-h, 0.0, h),
        at + Vec3::new(-h, 0.0, -h),
    ];
    gizmos.linestrip(c.map(|p| p + y), color);
}

/// The selected piece's reachable squares (blue, with an arrow per end facing), the chosen
/// destination (white), and from the hovered or chosen destination the firing lines to
/// every enemy piece a move there would destroy (red).
fn draw_highlights(
    mut gizmos: Gizmos,
    session: Res<Session<TankChess>>,
    legal: Res<Legal<TankChess>>,
    pick: Res<ChessPick>,
) {
    let game = session.state();
    // The compass in the centre.
    gizmos.arrow(
        Vec3::new(0.0, 0.05, 0.6),
        Vec3::new(0.0, 0.05, -0.6),
        Color::srgb(0.9, 0.2, 0.2),
    );
    let Some(from) = pick.piece else { return };
    outline(&mut gizmos, square_to_world(game, from), 0.95, Color::WHITE);
    let legal = legal.of(game.to_move());
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
            outline(&mut gizmos, c, 0.85, Color::srgb(0.3, 0.8, 1.0));
            let (dx, dy) = facing.delta();
            let dir = Vec3::new(f32::from(dx), 0.0, -f32::from(dy)).normalize() * 0.3;
            gizmos.line(
                c + Vec3::Y * 0.04,
                c + Vec3::Y * 0.04 + dir,
                Color::srgb(0.3, 0.8, 1.0),
            );
        }
    }
    let Some(dest) = pick.dest.or(pick.hover) else {
        return;
    };
    if pick.dest.is_some() {
        outline(&mut gizmos, square_to_world(game, dest), 0.9, Color::WHITE);
    }
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
            gizmos.line(
                a + Vec3::Y * 0.35,
                b + Vec3::Y * 0.35,
                Color::srgb(1.0, 0.2, 0.15),
            );
            outline(&mut gizmos, b, 0.95, Color::srgb(1.0, 0.2, 0.15));
        }
    }
}
