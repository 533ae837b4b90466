//! The facts of a Range Duel as the table plays them: the reveal of both orders in the
//! banner, the tanks driving to the new band, turning to show the side the matrix gave
//! them, going hull down behind a berm, lunging to ram, tracers and bursts for the shots,
//! smoke over a knocked-out tank; and the tanks easing to where they should stand.

use bevy::prelude::*;

use super::panels::LastReveal;
use super::table::{Berm, TankTurret, TrackTank, Wreck, heading, tank_x, towards_enemy};
use crate::client::core::GameScreen;
use crate::client::core::session::Session;
use crate::client::table::effects::{Callout, Effect, Shown, Timeline};
use crate::client::table::theme;
use crate::framework::{Game, PlayerId};
use crate::rules::range_duel::{Fact, Presented, RangeDuel, side_name};

/// The tanks on the track, to steer.
type Tanks<'w, 's> = Query<'w, 's, (&'static mut TrackTank, &'static Transform)>;
/// The berms, shown before a hull-down tank.
type Berms<'w, 's> = Query<
    'w,
    's,
    (
        &'static Berm,
        &'static mut Visibility,
        &'static mut Transform,
    ),
    Without<TrackTank>,
>;
/// The smoke over each tank, shown once it is knocked out.
type Wrecks<'w, 's> =
    Query<'w, 's, (&'static Wreck, &'static mut Visibility), (Without<Berm>, Without<TrackTank>)>;

/// How long the table takes to show `fact`.
pub(super) fn anim_seconds(fact: &Fact) -> f32 {
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

/// The animation that shows `fact`, if any.
pub(super) fn anim_of(game: &RangeDuel, f: &Fact) -> Option<Anim> {
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

/// Plays the animations that are due.
pub(super) fn play_anims(
    mut commands: Commands,
    mut timeline: ResMut<Timeline<Anim>>,
    mut last: ResMut<LastReveal>,
    mut callout: ResMut<Callout>,
    mut tanks: Tanks,
    mut berms: Berms,
    mut wrecks: Wrecks,
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
            Anim::HullDown(p, protected) => show_berm(&mut berms, p, protected),
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
                if let Some((a, b)) = shot_ends(&tanks, shooter, hit) {
                    let mut fx = Fx {
                        commands: &mut commands,
                        meshes: &mut meshes,
                        materials: &mut materials,
                        now,
                    };
                    fx.tracer(a, b);
                    fx.burst(b, hit, negated, penetrating);
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
                settle(&mut commands, &mut tanks, &mut berms, &mut wrecks, *state);
            }
        }
    }
    follow_berms(&tanks, &mut berms);
}

/// Shows `p`'s berm when it is `protected` by going hull down, else hides it.
fn show_berm(berms: &mut Berms, p: PlayerId, protected: bool) {
    for (b, mut vis, _) in berms.iter_mut() {
        if b.0 == p {
            *vis = if protected {
                Visibility::Visible
            } else {
                Visibility::Hidden
            };
        }
    }
}

/// Where a shot flies: from `shooter`'s gun to the other tank, or past it on a miss.
fn shot_ends(tanks: &Tanks, shooter: PlayerId, hit: bool) -> Option<(Vec3, Vec3)> {
    let from = tanks
        .iter()
        .find(|(t, _)| t.player == shooter)
        .map(|(_, tf)| tf.translation);
    let to = tanks
        .iter()
        .find(|(t, _)| t.player != shooter)
        .map(|(_, tf)| tf.translation);
    let (Some(a), Some(b)) = (from, to) else {
        return None;
    };
    let a = a + Vec3::Y * 0.6;
    let miss = if hit {
        Vec3::ZERO
    } else {
        Vec3::new(0.0, 0.5, 1.2)
    };
    let b = b + Vec3::Y * 0.45 + miss;
    Some((a, b))
}

/// What a shot's effects are spawned with, and when.
struct Fx<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    meshes: &'a mut Assets<Mesh>,
    materials: &'a mut Assets<StandardMaterial>,
    now: f32,
}

impl Fx<'_, '_, '_> {
    /// Spawns the tracer from `a` to `b`.
    fn tracer(&mut self, a: Vec3, b: Vec3) {
        let now = self.now;
        let length = a.distance(b);
        self.commands.spawn((
            DespawnOnExit(GameScreen::RangeDuel),
            Effect::lasting(now, 0.35),
            Mesh3d(self.meshes.add(Cuboid::new(0.05, 0.05, length))),
            MeshMaterial3d(self.materials.add(StandardMaterial {
                base_color: theme::TRACER,
                emissive: theme::TRACER_GLOW,
                ..default()
            })),
            Transform::from_translation((a + b) / 2.0).looking_at(b, Vec3::Y),
        ));
    }

    /// Spawns the burst where the shot lands at `b`: dust for a miss, a dull flash for a
    /// hit the berm negated, a fireball for a penetration, a spark for a glancing hit.
    fn burst(&mut self, b: Vec3, hit: bool, negated: bool, penetrating: bool) {
        let now = self.now;
        let (color, size) = match (hit, negated, penetrating) {
            (false, _, _) => (theme::MISS_DUST, 0.35),
            (true, true, _) => (theme::NEGATED_HIT, 0.45),
            (true, false, true) => (theme::FLAME, 0.7),
            (true, false, false) => (theme::GLANCING_HIT, 0.3),
        };
        self.commands.spawn((
            DespawnOnExit(GameScreen::RangeDuel),
            Effect::growing(now + 0.25, 0.7, 1.6),
            Mesh3d(self.meshes.add(crate::client::table::shapes::sphere(size))),
            MeshMaterial3d(self.materials.add(StandardMaterial {
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

/// Every tank, berm and wreck as `state` has them, and `state` shown: the action's
/// animations have played.
fn settle(
    commands: &mut Commands,
    tanks: &mut Tanks,
    berms: &mut Berms,
    wrecks: &mut Wrecks,
    state: RangeDuel,
) {
    for (mut t, _) in tanks.iter_mut() {
        t.goal.x = tank_x(&state, state.range(), t.player);
        t.heading = heading(t.player, state.last_posture(t.player).0);
    }
    for (b, mut vis, _) in berms.iter_mut() {
        *vis = if state.last_posture(b.0).1 {
            Visibility::Visible
        } else {
            Visibility::Hidden
        };
    }
    for (w, mut vis) in wrecks.iter_mut() {
        *vis = if state.tank(w.0).knocked_out {
            Visibility::Visible
        } else {
            Visibility::Hidden
        };
    }
    commands.insert_resource(Shown(state));
}

/// Berms and smoke follow their tanks.
fn follow_berms(tanks: &Tanks, berms: &mut Berms) {
    let spots: Vec<(PlayerId, Vec3)> = tanks
        .iter()
        .map(|(t, tf)| (t.player, tf.translation))
        .collect();
    for (b, _, mut tf) in berms.iter_mut() {
        if let Some((_, at)) = spots.iter().find(|(p, _)| *p == b.0) {
            // Only a real move counts as one: a still berm must not keep the panels busy.
            let to = *at + towards_enemy(b.0) * 0.95;
            if tf.translation != to {
                tf.translation = to;
            }
        }
    }
}

/// Eases each tank to its goal and heading (with a ram's lunge), its turret on the enemy.
pub(super) fn move_tanks(
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
