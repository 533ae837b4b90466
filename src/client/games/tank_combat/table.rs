//! The Tank Combat table in 3D: the round table, the deck and the discard pile in the
//! middle, each tank at its seat, and the labels drawn over it (the piles' counts and the
//! numbers that float up from the tanks).

use std::f32::consts::TAU;

use bevy::prelude::*;
use bevy_egui::egui;

use super::anims::{Anim, Floater, anim_of};
use crate::client::core::GameScreen;
use crate::client::core::session::{FactsPlayed, Session, SkipAnimations};
use crate::client::frame::hud::label_box;
use crate::client::table::effects::{Callout, Effect, TankMeshes, spawn_tank};
use crate::client::table::effects::{Shown, Timeline, queue_played};
use crate::client::table::theme::{self, seat_color_3d};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_combat::{CombatView, TankCombat};

#[derive(Component)]
pub(super) struct Drawn;

/// A tank at its seat.
#[derive(Component)]
struct SeatTank;

const SEAT_RADIUS: f32 = 4.2;

/// Where `player`'s tank stands at a table of `seats`.
pub(super) fn seat_point(player: PlayerId, seats: usize) -> Vec3 {
    // Seat 1 on the left, the others round the table from there.
    let a = TAU * f32::from(player.0) / seats.max(1) as f32 - std::f32::consts::FRAC_PI_2;
    Vec3::new(a.sin(), 0.0, a.cos()) * SEAT_RADIUS
}

/// A plain material of colour `c` for the table and the tanks.
fn mat(materials: &mut Assets<StandardMaterial>, c: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: c,
        perceptual_roughness: 0.8,
        ..default()
    })
}

/// Queues the facts just played as animations; when the state was replaced instead
/// (a new game, undo, a replay step), draws the table afresh from it.
pub(super) fn redraw(
    mut commands: Commands,
    mut played: MessageReader<FactsPlayed<TankCombat>>,
    mut skips: MessageReader<SkipAnimations>,
    table: Res<Session<TankCombat>>,
    mut timeline: ResMut<Timeline<Anim>>,
    mut callout: ResMut<Callout>,
    drawn: Query<Entity, Or<(With<Drawn>, With<Effect>, With<Floater>)>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    let game = table.state();
    if !queue_played(
        &mut played,
        &mut skips,
        &mut timeline,
        game,
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
    commands.insert_resource(Shown(game.clone()));
    spawn_fixtures(&mut commands, &mut meshes, &mut materials);
    spawn_seat_tanks(&mut commands, &mut meshes, &mut materials, game);
    // The table's rim, and the tanks standing on it.
    framing.show(
        crate::client::table::framing::disc_outline(Vec3::ZERO, 6.2, 1.0),
        false,
    );
}

/// Spawns the table, the deck, the discard pile and the light.
fn spawn_fixtures(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        Mesh3d(meshes.add(Cylinder::new(6.2, 0.2))),
        MeshMaterial3d(mat(materials, theme::COMBAT_TABLE)),
        Transform::from_xyz(0.0, -0.1, 0.0),
    ));
    // The deck and the discard pile.
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        Mesh3d(meshes.add(Cuboid::new(0.7, 0.35, 1.0))),
        MeshMaterial3d(mat(materials, theme::DECK)),
        Transform::from_xyz(-0.6, 0.175, 0.0),
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        Mesh3d(meshes.add(Cuboid::new(0.7, 0.12, 1.0))),
        MeshMaterial3d(mat(materials, theme::DISCARD)),
        Transform::from_xyz(0.6, 0.06, 0.0),
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        crate::client::table::effects::table_light(8_500.0),
        Transform::from_xyz(-4.0, 12.0, 7.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Spawns each seat's tank, in the seat's paint, facing the middle of the table.
fn spawn_seat_tanks(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    game: &TankCombat,
) {
    let tank = TankMeshes::new(meshes);
    let dark = mat(materials, theme::TANK_DARK);
    let n = game.player_count();
    for i in 0..n {
        let Ok(seat) = u8::try_from(i) else { continue };
        let p = PlayerId(seat);
        let at = seat_point(p, n);
        let paint = mat(materials, seat_color_3d(p));
        commands
            .spawn((
                Drawn,
                DespawnOnExit(GameScreen::TankCombat),
                SeatTank,
                Transform::from_translation(at).looking_at(Vec3::ZERO, Vec3::Y),
                Visibility::default(),
            ))
            .with_children(|t| spawn_tank(t, &tank, &paint, &dark, ()));
    }
}

/// Draws the deck's and the discard pile's counts under them, and the numbers floating
/// up from the tanks.
pub(super) fn draw_labels(
    ctx: &egui::Context,
    screen: &impl Fn(Vec3) -> Option<Vec2>,
    view: &CombatView,
    floaters: &Query<&Floater>,
    now: f32,
) {
    let Some(at) = screen(Vec3::new(0.0, 0.5, 0.75)) else {
        return;
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("card labels"),
    ));
    label_box(
        &painter,
        egui::pos2(at.x, at.y),
        egui::Align2::CENTER_TOP,
        format!(
            "deck {} · discard {}{}",
            view.deck_size,
            view.discard_count,
            view.discard_top
                .map_or(String::new(), |c| format!(" (top: {})", c.name()))
        ),
        13.0,
        theme::DECK_LABEL,
    );
    for f in floaters {
        let age = now - f.born;
        if age < 0.0 {
            continue;
        }
        if let Some(p) = screen(f.at + Vec3::Y * age * 0.6) {
            label_box(
                &painter,
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_BOTTOM,
                &f.text,
                17.0,
                f.color,
            );
        }
    }
}
