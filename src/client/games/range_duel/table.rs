//! The Range Duel's table in 3D: the range track with a post at each band, the two
//! tanks on it (a berm before a hull-down one, smoke over a knocked-out one), and the
//! labels drawn over it (the bands' names, each tank's hull, crew and posture).

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::anims::{Anim, anim_of};
use super::panels::{LastReveal, range_window};
use crate::client::core::GameScreen;
use crate::client::core::session::{FactsPlayed, Session, SkipAnimations};
use crate::client::frame::hud::label_box;
use crate::client::table::effects::{Callout, TankMeshes, spawn_tank};
use crate::client::table::effects::{Shown, Timeline, queue_played};
use crate::client::table::theme::{self, seat_color, seat_color_3d};
use crate::framework::PlayerId;
use crate::rules::range_duel::{Presented, RangeDuel, side_name};

/// A tank on the track.
#[derive(Component)]
pub(super) struct TrackTank {
    pub(super) player: PlayerId,
    /// Where it drives to, and its hull's heading.
    pub(super) goal: Vec3,
    pub(super) heading: Quat,
    pub(super) lunge: f32,
}

#[derive(Component)]
pub(super) struct TankTurret;

#[derive(Component)]
pub(super) struct Berm(pub(super) PlayerId);

#[derive(Component)]
pub(super) struct Wreck(pub(super) PlayerId);

#[derive(Component)]
pub(super) struct Drawn;

/// The world x of `player`'s tank at band `band`.
pub(super) fn tank_x(game: &RangeDuel, band: u8, player: PlayerId) -> f32 {
    let hexes = f32::from(game.setup().table.band(band).hexes);
    let half = 0.9 + hexes * 0.75;
    if player.0 == 0 { -half } else { half }
}

/// The direction from `player` towards the enemy.
pub(super) fn towards_enemy(player: PlayerId) -> Vec3 {
    if player.0 == 0 { Vec3::X } else { Vec3::NEG_X }
}

/// The hull heading that shows the enemy `presented`.
pub(super) fn heading(player: PlayerId, presented: Option<Presented>) -> Quat {
    let e = towards_enemy(player);
    let forward = match presented.unwrap_or(Presented::Front) {
        Presented::Front => e,
        Presented::Rear => -e,
        Presented::Left => Quat::from_rotation_y(-FRAC_PI_2) * e,
        Presented::Right => Quat::from_rotation_y(FRAC_PI_2) * e,
    };
    Transform::IDENTITY.looking_to(forward, Vec3::Y).rotation
}

/// A plain material of colour `c` for the track and the tanks.
fn mat(materials: &mut Assets<StandardMaterial>, c: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: c,
        perceptual_roughness: 0.85,
        ..default()
    })
}

/// Queues the facts just played as animations; when the state was replaced instead
/// (a new game, undo, a replay step), draws the table afresh from it.
pub(super) fn redraw(
    mut commands: Commands,
    mut played: MessageReader<FactsPlayed<RangeDuel>>,
    mut skips: MessageReader<SkipAnimations>,
    table: Res<Session<RangeDuel>>,
    mut timeline: ResMut<Timeline<Anim>>,
    mut callout: ResMut<Callout>,
    drawn: Query<Entity, With<Drawn>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    if !queue_played(
        &mut played,
        &mut skips,
        &mut timeline,
        table.state(),
        now,
        anim_of,
        |g| Anim::Settle(Box::new(g)),
    ) {
        return;
    }
    callout.text = None;
    for e in &drawn {
        commands.entity(e).despawn();
    }
    let game = table.state();
    commands.insert_resource(Shown(game.clone()));
    let far = tank_x(game, game.setup().table.farthest(), PlayerId(1)) + 2.0;
    spawn_track(&mut commands, &mut meshes, &mut materials, game, far);
    spawn_tanks(&mut commands, &mut meshes, &mut materials, game);
    // The track from end to end, with the tanks on it and the band labels beside it.
    framing.show(
        crate::client::table::framing::box_outline(
            Vec3::new(-far, 0.0, -1.4),
            Vec3::new(far, 1.4, 1.8),
        ),
        false,
    );
}

/// Spawns the ground, the track, a post at each band on both halves, and the light; the
/// track reaches `far` on either side.
fn spawn_track(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    game: &RangeDuel,
    far: f32,
) {
    // The track and the ground around it.
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::RangeDuel),
        Mesh3d(meshes.add(Cuboid::new(far * 2.0 + 4.0, 0.1, 9.0))),
        MeshMaterial3d(mat(materials, theme::RANGE_GROUND)),
        Transform::from_xyz(0.0, -0.05, 0.0),
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::RangeDuel),
        Mesh3d(meshes.add(Cuboid::new(far * 2.0, 0.02, 1.6))),
        MeshMaterial3d(mat(materials, theme::RANGE_TRACK)),
        Transform::from_xyz(0.0, 0.01, 0.0),
    ));
    let post = meshes.add(Cuboid::new(0.08, 0.35, 0.08));
    let post_mat = mat(materials, theme::RANGE_POST);
    for band in 0..=game.setup().table.farthest() {
        for p in [PlayerId(0), PlayerId(1)] {
            let x = tank_x(game, band, p);
            commands.spawn((
                Drawn,
                DespawnOnExit(GameScreen::RangeDuel),
                Mesh3d(post.clone()),
                MeshMaterial3d(post_mat.clone()),
                Transform::from_xyz(x, 0.17, 1.0),
            ));
        }
    }
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::RangeDuel),
        crate::client::table::effects::table_light(9_000.0),
        Transform::from_xyz(-4.0, 12.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Spawns both tanks at the current band, each with its berm (shown when hull down) and
/// the smoke over its wreck (shown when knocked out).
fn spawn_tanks(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    game: &RangeDuel,
) {
    let tank = TankMeshes::new(meshes);
    let dark = mat(materials, theme::TANK_DARK);
    let earth = mat(materials, theme::BERM);
    for p in [PlayerId(0), PlayerId(1)] {
        let paint = mat(materials, seat_color_3d(p));
        let (presented, _) = game.last_posture(p);
        let at = Vec3::new(tank_x(game, game.range(), p), 0.0, 0.0);
        let rot = heading(p, presented);
        commands
            .spawn((
                Drawn,
                DespawnOnExit(GameScreen::RangeDuel),
                TrackTank {
                    player: p,
                    goal: at,
                    heading: rot,
                    lunge: 0.0,
                },
                Transform::from_translation(at).with_rotation(rot),
                Visibility::default(),
            ))
            .with_children(|t| spawn_tank(t, &tank, &paint, &dark, TankTurret));
        commands.spawn((
            Drawn,
            DespawnOnExit(GameScreen::RangeDuel),
            Berm(p),
            Mesh3d(meshes.add(crate::client::table::shapes::sphere(0.5))),
            MeshMaterial3d(earth.clone()),
            Transform::from_translation(at + towards_enemy(p) * 0.95)
                .with_scale(Vec3::new(0.6, 0.55, 1.6)),
            if game.last_posture(p).1 {
                Visibility::Visible
            } else {
                Visibility::Hidden
            },
        ));
        commands.spawn((
            Drawn,
            DespawnOnExit(GameScreen::RangeDuel),
            Wreck(p),
            Mesh3d(meshes.add(crate::client::table::shapes::sphere(0.45))),
            MeshMaterial3d(mat(materials, theme::KNOCKED_OUT_SMOKE)),
            Transform::from_translation(at + Vec3::Y * 1.3),
            if game.tank(p).knocked_out {
                Visibility::Visible
            } else {
                Visibility::Hidden
            },
        ));
    }
}

/// Draws the labels over the table and the panel in the corner.
pub(super) fn draw_labels(
    mut contexts: EguiContexts,
    shown: Res<Shown<RangeDuel>>,
    table: Res<Session<RangeDuel>>,
    last: Res<LastReveal>,
    tanks: Query<(&TrackTank, &Transform)>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    if table.pass_to.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The camera's pixels in the panels' points (the interface may be scaled).
    let zoom = ctx.zoom_factor();
    let (camera, eye) = *camera;
    let game = &shown.0;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("range labels"),
    ));
    let screen = |p: Vec3| camera.world_to_viewport(eye, p).map(|p| p / zoom).ok();
    band_labels(&painter, &screen, game);
    tank_labels(&painter, &screen, game, &tanks);
    range_window(ctx, game, table.state(), &last);
    Ok(())
}

/// Names each band at its posts, on both tanks' halves of the track; the band the duel is
/// at stands out.
fn band_labels(painter: &egui::Painter, screen: &impl Fn(Vec3) -> Option<Vec2>, game: &RangeDuel) {
    let bands = &game.setup().table.bands;
    // Each tank's posts are named on its own half of the track, so that the band the duel
    // is at is written under both tanks.
    let posts = bands
        .iter()
        .enumerate()
        .flat_map(|(i, band)| [PlayerId(0), PlayerId(1)].map(|p| (i, band, p)));
    for (i, band, player) in posts {
        let Ok(b) = u8::try_from(i) else { continue };
        let x = tank_x(game, b, player);
        // Neighbouring bands stand close together: stagger their labels.
        let row = if i % 2 == 0 { 1.55 } else { 2.35 };
        if let Some(p) = screen(Vec3::new(x, 0.0, row)) {
            let current = b == game.range();
            label_box(
                painter,
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_TOP,
                format!("{}\n{} hex", band.name, band.hexes),
                if current { 15.0 } else { 12.0 },
                if current {
                    theme::EMPHASIS
                } else {
                    theme::BAND_LABEL
                },
            );
        }
    }
}

/// Draws each tank's label over it, leaning away from the other tank.
fn tank_labels(
    painter: &egui::Painter,
    screen: &impl Fn(Vec3) -> Option<Vec2>,
    game: &RangeDuel,
    tanks: &Query<(&TrackTank, &Transform)>,
) {
    for (t, tf) in tanks {
        let Some(p) = screen(tf.translation + Vec3::Y * 1.5) else {
            continue;
        };
        let lines = tank_lines(game, t.player);
        // Each label leans away from the other tank, so that the two never overlap at
        // close range: Tank 1 stands on the left.
        let (anchor, lean) = if t.player == PlayerId(0) {
            (egui::Align2::RIGHT_BOTTOM, 30.0)
        } else {
            (egui::Align2::LEFT_BOTTOM, -30.0)
        };
        label_box(
            painter,
            egui::pos2(p.x + lean, p.y),
            anchor,
            lines.join("\n"),
            13.0,
            seat_color(t.player),
        );
    }
}

/// The lines of `player`'s tank label: name, hull, wounded crew, and posture.
fn tank_lines(game: &RangeDuel, player: PlayerId) -> Vec<String> {
    let max_hull = game.setup().tank_rules.tank.hull;
    let tank = game.tank(player);
    let (presented, hull_down) = game.last_posture(player);
    let mut lines = vec![
        format!(
            "{} {} · {}",
            crate::client::frame::hud::seat_mark(player),
            side_name(player),
            tank.name
        ),
        format!("hull {}/{max_hull}", tank.hull),
    ];
    let crew: Vec<String> = tank
        .crew
        .iter()
        .filter(|m| m.wounds > 0)
        .map(|m| format!("{} {}", m.name, m.condition()))
        .collect();
    if !crew.is_empty() {
        lines.push(crew.join(", "));
    }
    if tank.knocked_out {
        lines.push("KNOCKED OUT".into());
    } else {
        if let Some(side) = presented {
            lines.push(format!("shows its {side}"));
        }
        if hull_down {
            lines.push("HULL DOWN".into());
        }
        if !tank.loaded {
            lines.push("reloading".into());
        }
    }
    lines
}
