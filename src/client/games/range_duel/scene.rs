//! The Range Duel's table: a range track with its bands marked, the two tanks on it at the
//! current band, each hull turned to show the enemy the side the matrix gave it (turrets
//! always on the enemy), an earth berm in front of a hull-down tank. Orders are chosen in
//! secret (the privacy screen hides them in hot seat); the reveal shows both orders and
//! the matrix row that applied, then the tanks drive, ram and fire one fact at a time.

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::session::{FactsPlayed, GameClient, Session, SkipAnimations};
use crate::client::core::{ClientSystems, GameScreen, HudSystems};
use crate::client::frame::hud::label_box;
use crate::client::table::effects::{Callout, Effect, TankMeshes, spawn_tank};
use crate::client::table::effects::{Shown, Timeline, forget_shown, queue_played};
use crate::client::table::theme::{self, seat_color, seat_color_3d};
use crate::framework::{Game, PlayerId};
use crate::rules::range_duel::{Action, Direction, Fact, Presented, RangeDuel, side_name};
use crate::rules::tank_commander::setup::ArmorFacing;

fn plugin(app: &mut App) {
    app.init_resource::<Timeline<Anim>>()
        .add_systems(OnExit(GameScreen::RangeDuel), forget_shown::<RangeDuel>)
        .init_resource::<LastReveal>()
        .add_systems(
            Update,
            (redraw, play_anims, move_tanks)
                .chain()
                .in_set(ClientSystems::Scene)
                .run_if(
                    in_state(GameScreen::RangeDuel).and_then(resource_exists::<Session<RangeDuel>>),
                ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_labels
                .in_set(HudSystems::Game)
                .run_if(
                    in_state(GameScreen::RangeDuel).and_then(resource_exists::<Shown<RangeDuel>>),
                )
                .run_if(resource_exists::<Session<RangeDuel>>),
        );
    crate::client::frame::redraw::watch::<LastReveal>(app);
}

impl GameClient for RangeDuel {
    const SCREEN: GameScreen = GameScreen::RangeDuel;

    fn scene(app: &mut App) {
        plugin(app);
    }

    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::ChangeRange { .. } => "Change Range",
            Action::Maneuver { .. } => "Maneuver",
            Action::HullDown => "Hold",
        }
        .to_string()
    }

    fn offered(&self, player: PlayerId) -> Vec<Action> {
        // Orders the tank cannot give now stay on show, greyed out with the rule.
        if self.to_act().contains(&player) {
            Action::offered()
        } else {
            Vec::new()
        }
    }

    fn action_hint(&self, action: &Action) -> Option<String> {
        let facings = action.facings();
        let choice = if facings.is_usual() {
            String::new()
        } else if action.rams() {
            format!(
                ". Where the matrix lets you choose the facings, the enemy shows its {} ({}), \
                 not its rear (a Sideswipe: 2d6 × your Drive Effect to it, 2d6 - 2 to you)",
                facings.enemy,
                match facings.enemy.armor() {
                    ArmorFacing::Front => "a Head-On: your speed + its, against the armor",
                    _ => "a T-Bone: the lesser of your speed and its armor, to both",
                }
            )
        } else {
            format!(
                ". Where the matrix lets you choose and the enemy rams you, you show it your {} instead of \
                 your front (the side makes a T-Bone of a frontal ram: the lesser of its \
                 speed and your armor to both, instead of a Head-On)",
                facings.own
            )
        };
        let base = order_hint(action)?;
        Some(format!("{base}{choice}"))
    }

    fn fact_seconds(&self, fact: &Fact) -> f32 {
        anim_seconds(fact)
    }
}

/// The tooltip of an order without its facing choice.
fn order_hint(action: &Action) -> Option<String> {
    Some(
            match action {
                Action::ChangeRange {
                    direction: Direction::Closing,
                    ram: false,
                    most: None,
                    ..
                } => "Drive at the enemy: the range closes as far as the matrix lets you (stopping at Adjacent); you show your front",
                Action::ChangeRange {
                    direction: Direction::Closing,
                    ram: false,
                    most: Some(_),
                    ..
                } => "Drive at the enemy, but close at most this many bands (the matrix moves the range \"up to\" its number): stop where your gun is best",
                Action::ChangeRange {
                    direction: Direction::Closing,
                    ram: true,
                    ..
                } => "Drive through Adjacent and ram if your Driving test passes; if it fails you overshoot to Close",
                Action::ChangeRange {
                    direction: Direction::Opening,
                    most: None,
                    ..
                } => "Open the range as far as the matrix lets you: you show your rear while you pull away",
                Action::ChangeRange {
                    direction: Direction::Opening,
                    ..
                } => "Open the range, but at most this many bands (the matrix moves it \"up to\" its number): a long gun need not pull away out of its own reach",
                Action::Maneuver { drift: None, .. } => {
                    "Jockey for position: the Driving winner picks the facings; the range stays"
                }
                Action::Maneuver {
                    drift: Some(Direction::Closing),
                    ram: false,
                    ..
                } => "Maneuver, drifting one band closer where the matrix allows it",
                Action::Maneuver {
                    drift: Some(Direction::Closing),
                    ram: true,
                    ..
                } => "Maneuver, drifting closer, and ram if the matrix brings you to Adjacent",
                Action::Maneuver {
                    drift: Some(Direction::Opening),
                    ..
                } => "Maneuver, backing off one band where the matrix allows it",
                Action::HullDown => {
                    "Go hull down: if your Driving test passes, hits that are not on the turret are negated"
                }
            }
            .to_string(),
        )
}

fn anim_seconds(fact: &Fact) -> f32 {
    match fact {
        Fact::Revealed { .. } => 1.8,
        Fact::RangeChanged { .. } | Fact::Overshoot { .. } => 0.9,
        Fact::Facing { .. } => 0.35,
        Fact::HullDown { .. } => 0.3,
        Fact::Collision { .. } => 0.9,
        Fact::Shot { .. } => 1.0,
        Fact::KnockedOut { .. } => 0.6,
        _ => 0.0,
    }
}

/// One step of the table's animation.
pub enum Anim {
    Reveal(String),
    Range(u8),
    Face(PlayerId, Presented),
    HullDown(PlayerId, bool),
    Ram(PlayerId),
    Shot {
        shooter: PlayerId,
        hit: bool,
        penetrating: bool,
        negated: bool,
    },
    KnockedOut(PlayerId),
    /// The action's animations have played: show its state.
    Settle(Box<RangeDuel>),
}

/// The last reveal: both orders and the matrix row, kept in the range panel.
#[derive(Resource, Default)]
struct LastReveal(Option<String>);

/// A tank on the track.
#[derive(Component)]
struct TrackTank {
    player: PlayerId,
    /// Where it drives to, and its hull's heading.
    goal: Vec3,
    heading: Quat,
    lunge: f32,
}

#[derive(Component)]
struct TankTurret;

#[derive(Component)]
struct Berm(PlayerId);

#[derive(Component)]
struct Wreck(PlayerId);

#[derive(Component)]
struct Drawn;

/// The world x of `player`'s tank at band `band`.
fn tank_x(game: &RangeDuel, band: u8, player: PlayerId) -> f32 {
    let hexes = f32::from(game.setup().table.band(band).hexes);
    let half = 0.9 + hexes * 0.75;
    if player.0 == 0 { -half } else { half }
}

/// The direction from `player` towards the enemy.
fn towards_enemy(player: PlayerId) -> Vec3 {
    if player.0 == 0 { Vec3::X } else { Vec3::NEG_X }
}

/// The hull heading that shows the enemy `presented`.
fn heading(player: PlayerId, presented: Option<Presented>) -> Quat {
    let e = towards_enemy(player);
    let forward = match presented.unwrap_or(Presented::Front) {
        Presented::Front => e,
        Presented::Rear => -e,
        Presented::Left => Quat::from_rotation_y(-FRAC_PI_2) * e,
        Presented::Right => Quat::from_rotation_y(FRAC_PI_2) * e,
    };
    Transform::IDENTITY.looking_to(forward, Vec3::Y).rotation
}

fn anim_of(game: &RangeDuel, f: &Fact) -> Option<Anim> {
    match f {
        Fact::Revealed { turn, orders, row } => {
            let t1 = row.row.title();
            Some(Anim::Reveal(format!(
                "Turn {turn}: {} orders {} · {} orders {}\nMatrix row {}: {t1} — {}",
                side_name(PlayerId(0)),
                game.describe_action(&orders[0]),
                side_name(PlayerId(1)),
                game.describe_action(&orders[1]),
                row.row.number(),
                row.row.summary()
            )))
        }
        Fact::RangeChanged { to, .. } | Fact::Overshoot { to, .. } => Some(Anim::Range(*to)),
        Fact::Facing { player, facing, .. } => Some(Anim::Face(*player, *facing)),
        Fact::HullDown { player, protected } => Some(Anim::HullDown(*player, *protected)),
        Fact::Collision { rammer, .. } => Some(Anim::Ram(*rammer)),
        Fact::Shot {
            shooter,
            hit,
            penetrating,
            negated,
            ..
        } => Some(Anim::Shot {
            shooter: *shooter,
            hit: *hit,
            penetrating: *penetrating,
            negated: *negated,
        }),
        Fact::KnockedOut { player, .. } => Some(Anim::KnockedOut(*player)),
        _ => None,
    }
}

fn redraw(
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
    let mat = |materials: &mut Assets<StandardMaterial>, c: Color| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.85,
            ..default()
        })
    };
    let far = tank_x(game, game.setup().table.farthest(), PlayerId(1)) + 2.0;
    // The track and the ground around it.
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::RangeDuel),
        Mesh3d(meshes.add(Cuboid::new(far * 2.0 + 4.0, 0.1, 9.0))),
        MeshMaterial3d(mat(&mut materials, theme::RANGE_GROUND)),
        Transform::from_xyz(0.0, -0.05, 0.0),
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::RangeDuel),
        Mesh3d(meshes.add(Cuboid::new(far * 2.0, 0.02, 1.6))),
        MeshMaterial3d(mat(&mut materials, theme::RANGE_TRACK)),
        Transform::from_xyz(0.0, 0.01, 0.0),
    ));
    let post = meshes.add(Cuboid::new(0.08, 0.35, 0.08));
    let post_mat = mat(&mut materials, theme::RANGE_POST);
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
    let tank = TankMeshes::new(&mut meshes);
    let dark = mat(&mut materials, theme::TANK_DARK);
    let earth = mat(&mut materials, theme::BERM);
    for p in [PlayerId(0), PlayerId(1)] {
        let paint = mat(&mut materials, seat_color_3d(p));
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
            MeshMaterial3d(mat(&mut materials, theme::KNOCKED_OUT_SMOKE)),
            Transform::from_translation(at + Vec3::Y * 1.3),
            if game.tank(p).knocked_out {
                Visibility::Visible
            } else {
                Visibility::Hidden
            },
        ));
    }
    // The track from end to end, with the tanks on it and the band labels beside it.
    framing.show(
        crate::client::table::framing::box_outline(
            Vec3::new(-far, 0.0, -1.4),
            Vec3::new(far, 1.4, 1.8),
        ),
        false,
    );
}

fn play_anims(
    mut commands: Commands,
    mut timeline: ResMut<Timeline<Anim>>,
    mut last: ResMut<LastReveal>,
    mut callout: ResMut<Callout>,
    mut tanks: Query<(&mut TrackTank, &Transform)>,
    mut berms: Query<(&Berm, &mut Visibility, &mut Transform), Without<TrackTank>>,
    mut wrecks: Query<(&Wreck, &mut Visibility), (Without<Berm>, Without<TrackTank>)>,
    table: Res<Session<RangeDuel>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    let game = table.state();
    for (start, anim) in timeline.due(now) {
        match anim {
            Anim::Reveal(text) => {
                callout.show(format!("REVEAL\n{text}"), theme::EMPHASIS, start, 2.2);
                last.0 = Some(text);
            }
            Anim::Range(band) => {
                for (mut t, _) in &mut tanks {
                    t.goal.x = tank_x(game, band, t.player);
                }
            }
            Anim::Face(p, facing) => {
                for (mut t, _) in &mut tanks {
                    if t.player == p {
                        t.heading = heading(p, Some(facing));
                    }
                }
            }
            Anim::HullDown(p, protected) => {
                for (b, mut vis, _) in &mut berms {
                    if b.0 == p {
                        *vis = if protected {
                            Visibility::Visible
                        } else {
                            Visibility::Hidden
                        };
                    }
                }
            }
            Anim::Ram(p) => {
                for (mut t, _) in &mut tanks {
                    if t.player == p {
                        t.lunge = 1.0;
                    }
                }
            }
            Anim::Shot {
                shooter,
                hit,
                penetrating,
                negated,
            } => {
                let from = tanks
                    .iter()
                    .find(|(t, _)| t.player == shooter)
                    .map(|(_, tf)| tf.translation);
                let to = tanks
                    .iter()
                    .find(|(t, _)| t.player != shooter)
                    .map(|(_, tf)| tf.translation);
                if let (Some(a), Some(b)) = (from, to) {
                    let a = a + Vec3::Y * 0.6;
                    let miss = if hit {
                        Vec3::ZERO
                    } else {
                        Vec3::new(0.0, 0.5, 1.2)
                    };
                    let b = b + Vec3::Y * 0.45 + miss;
                    let length = a.distance(b);
                    commands.spawn((
                        DespawnOnExit(GameScreen::RangeDuel),
                        Effect::lasting(now, 0.35),
                        Mesh3d(meshes.add(Cuboid::new(0.05, 0.05, length))),
                        MeshMaterial3d(materials.add(StandardMaterial {
                            base_color: theme::TRACER,
                            emissive: theme::TRACER_GLOW,
                            ..default()
                        })),
                        Transform::from_translation((a + b) / 2.0).looking_at(b, Vec3::Y),
                    ));
                    let (color, size) = match (hit, negated, penetrating) {
                        (false, _, _) => (theme::MISS_DUST, 0.35),
                        (true, true, _) => (theme::NEGATED_HIT, 0.45),
                        (true, false, true) => (theme::FLAME, 0.7),
                        (true, false, false) => (theme::GLANCING_HIT, 0.3),
                    };
                    commands.spawn((
                        DespawnOnExit(GameScreen::RangeDuel),
                        Effect::growing(now + 0.25, 0.7, 1.6),
                        Mesh3d(meshes.add(crate::client::table::shapes::sphere(size))),
                        MeshMaterial3d(materials.add(StandardMaterial {
                            base_color: color,
                            emissive: if penetrating {
                                theme::PENETRATION_GLOW
                            } else {
                                theme::NO_GLOW
                            },
                            ..default()
                        })),
                        Transform::from_translation(b).with_scale(Vec3::splat(0.01)),
                    ));
                }
            }
            Anim::KnockedOut(p) => {
                for (w, mut vis) in &mut wrecks {
                    if w.0 == p {
                        *vis = Visibility::Visible;
                    }
                }
            }
            Anim::Settle(state) => {
                let state = *state;
                for (mut t, _) in &mut tanks {
                    t.goal.x = tank_x(&state, state.range(), t.player);
                    t.heading = heading(t.player, state.last_posture(t.player).0);
                }
                for (b, mut vis, _) in &mut berms {
                    *vis = if state.last_posture(b.0).1 {
                        Visibility::Visible
                    } else {
                        Visibility::Hidden
                    };
                }
                for (w, mut vis) in &mut wrecks {
                    *vis = if state.tank(w.0).knocked_out {
                        Visibility::Visible
                    } else {
                        Visibility::Hidden
                    };
                }
                commands.insert_resource(Shown(state));
            }
        }
    }
    // Berms and smoke follow their tanks.
    let spots: Vec<(PlayerId, Vec3)> = tanks
        .iter()
        .map(|(t, tf)| (t.player, tf.translation))
        .collect();
    for (b, _, mut tf) in &mut berms {
        if let Some((_, at)) = spots.iter().find(|(p, _)| *p == b.0) {
            // Only a real move counts as one: a still berm must not keep the panels busy.
            let to = *at + towards_enemy(b.0) * 0.95;
            if tf.translation != to {
                tf.translation = to;
            }
        }
    }
}

fn move_tanks(
    mut tanks: Query<(&mut TrackTank, &mut Transform, &Children)>,
    mut turrets: Query<&mut Transform, (With<TankTurret>, Without<TrackTank>)>,
    time: Res<Time>,
) {
    let dt = time.delta_secs().min(0.1);
    for (mut t, mut tf, children) in &mut tanks {
        let goal = t.goal + towards_enemy(t.player) * t.lunge * 1.2;
        let mut next = Transform {
            translation: tf.translation.lerp(goal, (dt * 4.0).min(1.0)),
            rotation: tf.rotation.slerp(t.heading, (dt * 5.0).min(1.0)),
            ..*tf
        };
        // Arrived: snapped to the goal, so that a tank at rest stops changing in the last
        // bits (which would keep the panels laid out every frame).
        if next.translation.distance_squared(goal) < 1e-8 {
            next.translation = goal;
        }
        if next.rotation.angle_between(t.heading) < 1e-4 {
            next.rotation = t.heading;
        }
        tf.set_if_neq(next);
        if t.lunge > 0.0 {
            t.lunge = (t.lunge - dt * 1.6).max(0.0);
        }
        // The turret keeps its gun on the enemy, whatever the hull shows.
        let aim = Transform::IDENTITY
            .looking_to(towards_enemy(t.player), Vec3::Y)
            .rotation;
        for c in children.iter() {
            if let Ok(mut turret) = turrets.get_mut(c) {
                let rotation = tf.rotation.inverse() * aim;
                if turret.rotation != rotation {
                    turret.rotation = rotation;
                }
            }
        }
    }
}

fn draw_labels(
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
                &painter,
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
    let max_hull = game.setup().tank_rules.tank.hull;
    for (t, tf) in &tanks {
        let tank = game.tank(t.player);
        let Some(p) = screen(tf.translation + Vec3::Y * 1.5) else {
            continue;
        };
        let (presented, hull_down) = game.last_posture(t.player);
        let mut lines = vec![
            format!(
                "{} {} · {}",
                crate::client::frame::hud::seat_mark(t.player),
                side_name(t.player),
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
        // Each label leans away from the other tank, so that the two never overlap at
        // close range: Tank 1 stands on the left.
        let (anchor, lean) = if t.player == PlayerId(0) {
            (egui::Align2::RIGHT_BOTTOM, 30.0)
        } else {
            (egui::Align2::LEFT_BOTTOM, -30.0)
        };
        label_box(
            &painter,
            egui::pos2(p.x + lean, p.y),
            anchor,
            lines.join("\n"),
            13.0,
            seat_color(t.player),
        );
    }
    egui::Window::new("Range Duel")
        .id(egui::Id::new("range"))
        .collapsible(true)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(format!("Range: {}", game.range_name()))
                    .size(20.0)
                    .strong(),
            );
            ui.label(format!(
                "Combat turn {} of {}",
                game.turn() + 1,
                game.setup().rules.turn_limit
            ));
            for p in [PlayerId(0), PlayerId(1)] {
                if table.state().outcome().is_some() {
                    break;
                }
                let chosen = table.state().has_chosen(p);
                ui.colored_label(
                    seat_color(p),
                    format!(
                        "{}: {}",
                        side_name(p),
                        if chosen {
                            "order given (secret)"
                        } else {
                            "choosing…"
                        }
                    ),
                );
            }
            if let Some(last) = &last.0 {
                egui::CollapsingHeader::new("Last reveal")
                    .default_open(false)
                    .show(ui, |ui| {
                        ui.set_max_width(320.0);
                        ui.label(last);
                    });
            }
        });
    Ok(())
}
