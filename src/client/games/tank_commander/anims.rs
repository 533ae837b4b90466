//! The facts of Tank Commander as the table shows them, on the timeline every game
//! shares ([`queue_played`]): a muzzle flash then a tracer, a hit spark or a penetration
//! burst, flames when a fire starts, black smoke when a unit is knocked out, an explosion
//! at a cook-off, a mine or each hex an air strike hits, dust when a building falls, a
//! puff when smoke is laid. Each fact takes the seconds [`fact_seconds`] gives it (a
//! model's glide included), which the session waits for before bots or queued orders go
//! on; Space or Escape skips them.

use bevy::prelude::*;

use super::hex_to_world;
use crate::client::core::session::{FactsPlayed, Session, SkipAnimations};
use crate::client::core::{ClientSystems, GameScreen};
use crate::client::table::effects::{Timeline, queue_played};
use crate::client::table::theme;
use crate::rules::tank_commander::{Fact, FireTarget, TankCommander};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Timeline<Anim>>()
        .init_resource::<Pending>()
        .add_systems(Startup, load_assets)
        .add_systems(
            Update,
            (queue_anims, play_effects)
                .chain()
                .in_set(EffectsSystems)
                .in_set(ClientSystems::Scene)
                .run_if(resource_exists::<Session<TankCommander>>),
        );
}

/// Queues and plays effects; models and tiles change their look after it, so a change
/// waits for the effects that cause it.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EffectsSystems;

/// Model units a second: how fast a model glides to its new hex.
pub(super) const GLIDE_SPEED: f32 = 2.2;

/// Radians a second: how fast a hull or a turret turns.
pub(super) const TURN_SPEED: f32 = 3.5;

/// What one fact shows on the table: its effects one after another. A move or a turn
/// shows as the model's glide to its mirrored place ([`super::units`]), so it queues
/// nothing but its time.
#[derive(Debug, Default)]
pub(super) struct Anim(Vec<(Kind, Vec3)>);

/// Effects whose fact has come, each with the time it starts.
#[derive(Resource, Default, Debug)]
struct Pending(std::collections::VecDeque<(f32, Kind, Vec3)>);

/// The effect playing now, started at `born`.
#[derive(Component)]
struct Playing {
    kind: Kind,
    at: Vec3,
    born: f32,
}

/// What an effect looks like.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Flash,
    Tracer { to: Vec3 },
    Spark,
    Burst,
    Miss,
    Flames,
    BlackSmoke,
    Explosion,
    Dust,
    Puff,
}

impl Kind {
    fn seconds(self) -> f32 {
        match self {
            Kind::Flash => 0.12,
            Kind::Tracer { .. } => 0.4,
            Kind::Spark | Kind::Miss | Kind::Puff => 0.45,
            Kind::Burst | Kind::Flames | Kind::BlackSmoke => 0.5,
            Kind::Dust => 0.6,
            Kind::Explosion => 0.9,
        }
    }
}

#[derive(Resource)]
struct FxAssets {
    ball: Handle<Mesh>,
    flash: Handle<StandardMaterial>,
    tracer: Handle<StandardMaterial>,
    spark: Handle<StandardMaterial>,
    burst: Handle<StandardMaterial>,
    dirt: Handle<StandardMaterial>,
    soot: Handle<StandardMaterial>,
    dust: Handle<StandardMaterial>,
    puff: Handle<StandardMaterial>,
}

/// A material of `colour` glowing as bright as its sRGB channels times `power`.
fn glow(
    materials: &mut Assets<StandardMaterial>,
    colour: Color,
    power: f32,
) -> Handle<StandardMaterial> {
    let c = colour.to_srgba();
    materials.add(StandardMaterial {
        base_color: colour,
        emissive: LinearRgba::rgb(c.red * power, c.green * power, c.blue * power),
        unlit: true,
        ..default()
    })
}

fn haze(materials: &mut Assets<StandardMaterial>, colour: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: colour,
        alpha_mode: AlphaMode::Blend,
        ..default()
    })
}

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let m = &mut *materials;
    commands.insert_resource(FxAssets {
        ball: meshes.add(crate::client::table::shapes::sphere(0.5)),
        flash: glow(m, theme::MUZZLE_FLASH, 6.0),
        tracer: glow(m, theme::SHELL, 8.0),
        spark: glow(m, theme::HIT_SPARK, 5.0),
        burst: glow(m, theme::BURST, 6.0),
        dirt: haze(m, theme::MISS_DIRT),
        soot: haze(m, theme::SOOT),
        dust: haze(m, theme::DUST),
        puff: haze(m, theme::SMOKE_PUFF),
    });
}

/// Where effects on a hex happen: a little above the tile.
fn spot(hex: hexx::Hex) -> Vec3 {
    hex_to_world(hex) + Vec3::Y * 0.7
}

/// The seconds the table needs to show `fact`: its effects, or the glide of a model that
/// moved or turned.
#[must_use]
pub fn fact_seconds(battle: &TankCommander, fact: &Fact) -> f32 {
    let turn = |from: crate::grid::Facing, to: crate::grid::Facing| {
        let steps = (i16::from(to.index()) - i16::from(from.index())).rem_euclid(6);
        let steps = f32::from(steps.min(6 - steps));
        steps * std::f32::consts::FRAC_PI_3 / TURN_SPEED
    };
    match fact {
        Fact::UnitMoved { from, to, .. } | Fact::InfantryMoved { from, to, .. } => {
            // The height of a hill climbed or left, and a frame's slack.
            hex_to_world(*from).distance(hex_to_world(*to)) / GLIDE_SPEED + 0.2
        }
        Fact::UnitTurned { from, to, .. } | Fact::TurretRotated { from, to, .. } => {
            turn(*from, *to) + 0.1
        }
        Fact::Mounted { .. } | Fact::Dismounted { .. } | Fact::BailedOut { .. } => 1.0,
        _ => effects_of(battle, fact)
            .iter()
            .map(|(kind, _)| kind.seconds())
            .sum(),
    }
}

/// The effects that show `fact`, in order.
fn effects_of(battle: &TankCommander, fact: &Fact) -> Vec<(Kind, Vec3)> {
    let at = |unit| spot(battle.unit(unit).at);
    match fact {
        Fact::ShotResolved {
            shooter,
            target,
            hit,
            penetration,
            ..
        } => {
            let to = match target {
                FireTarget::Unit(t) => battle.unit(*t).at,
                FireTarget::Building(h) => *h,
            };
            let penetrating = penetration.as_ref().is_some_and(|p| p.penetrating);
            shot(at(*shooter), spot(to), *hit, penetrating)
        }
        Fact::AntiInfantryFired {
            shooter,
            target,
            hit,
            ..
        } => shot(at(*shooter), at(*target), *hit, *hit),
        Fact::BlastHit {
            source,
            target,
            penetration,
        } => shot(at(*source), at(*target), true, penetration.penetrating),
        Fact::FireRolled { unit, check } if check.success => vec![(Kind::Flames, at(*unit))],
        Fact::UnitDestroyed { unit, .. } | Fact::UnitDisabled { unit, .. } => {
            vec![(Kind::BlackSmoke, at(*unit))]
        }
        Fact::CookedOff { hex, .. } | Fact::MineExploded { hex, .. } => {
            vec![(Kind::Explosion, spot(*hex))]
        }
        Fact::AirStrikeLanded { hexes, .. } => {
            hexes.iter().map(|h| (Kind::Explosion, spot(*h))).collect()
        }
        Fact::BuildingDestroyed { hex } => vec![(Kind::Dust, spot(*hex))],
        Fact::SmokeDeployed { hex, .. } => vec![(Kind::Puff, spot(*hex))],
        _ => Vec::new(),
    }
}

/// A shot from `from` at `to`: the muzzle flash, the tracer, and what it did.
fn shot(from: Vec3, to: Vec3, hit: bool, penetrating: bool) -> Vec<(Kind, Vec3)> {
    let muzzle = from + (to - from).normalize_or_zero() * 0.8;
    let impact = if penetrating {
        Kind::Burst
    } else if hit {
        Kind::Spark
    } else {
        Kind::Miss
    };
    // A miss lands short of the target.
    let at = if hit {
        to
    } else {
        to - (to - from).normalize_or_zero() * 0.6 - Vec3::Y * 0.5
    };
    vec![
        (Kind::Flash, muzzle),
        (Kind::Tracer { to }, muzzle),
        (impact, at),
    ]
}

/// Puts the facts played on the timeline, and the effects of those whose time has come
/// in line to play; a jump or a skip clears them all.
fn queue_anims(
    mut commands: Commands,
    mut played: MessageReader<FactsPlayed<TankCommander>>,
    mut skips: MessageReader<SkipAnimations>,
    mut timeline: ResMut<Timeline<Anim>>,
    mut pending: ResMut<Pending>,
    session: Res<Session<TankCommander>>,
    playing: Query<Entity, With<Playing>>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    let snap = queue_played(
        &mut played,
        &mut skips,
        &mut timeline,
        session.state(),
        now,
        |battle, fact| Some(Anim(effects_of(battle, fact))),
        |_| Anim::default(),
    );
    if snap {
        pending.0.clear();
        for e in &playing {
            commands.entity(e).despawn();
        }
        return;
    }
    for (start, Anim(effects)) in timeline.due(now) {
        let mut born = start;
        for (kind, at) in effects {
            pending.0.push_back((born, kind, at));
            born += kind.seconds();
        }
    }
}

/// Starts the effects whose time has come, and grows, moves and ends those playing.
fn play_effects(
    mut commands: Commands,
    mut pending: ResMut<Pending>,
    a: Res<FxAssets>,
    time: Res<Time>,
    mut playing: Query<(Entity, &Playing, &mut Transform)>,
    mut strokes: ResMut<crate::client::table::strokes::Strokes>,
) {
    let now = time.elapsed_secs();
    for (e, fx, mut transform) in &mut playing {
        let t = ((now - fx.born) / fx.kind.seconds()).clamp(0.0, 1.0);
        shape(fx, t, &mut transform, &mut strokes);
        if t >= 1.0 {
            commands.entity(e).despawn();
        }
    }
    while pending.0.front().is_some_and(|(born, ..)| *born <= now) {
        let Some((born, kind, at)) = pending.0.pop_front() else {
            break;
        };
        spawn_effect(&mut commands, &a, Playing { kind, at, born });
    }
}

/// An effect `t` of the way through its life.
fn shape(
    fx: &Playing,
    t: f32,
    transform: &mut Transform,
    strokes: &mut crate::client::table::strokes::Strokes,
) {
    match fx.kind {
        Kind::Tracer { to } => {
            let head = fx.at.lerp(to, t);
            let tail = fx.at.lerp(to, (t - 0.35).max(0.0));
            transform.translation = head;
            // A bright streak behind the shell.
            strokes.line(tail, head, theme::SHELL_STREAK);
            strokes.line(
                tail + Vec3::Y * 0.03,
                head + Vec3::Y * 0.03,
                theme::SHELL_STREAK_EDGE,
            );
        }
        Kind::Flash => transform.scale = Vec3::splat(0.5 + 0.7 * t),
        Kind::Spark => transform.scale = Vec3::splat(0.4 + 0.8 * (1.0 - (1.0 - t) * (1.0 - t))),
        Kind::Burst => transform.scale = Vec3::splat(0.5 + 1.4 * t),
        Kind::Explosion => transform.scale = Vec3::splat(0.6 + 3.4 * t),
        Kind::Miss | Kind::Dust | Kind::Puff => {
            transform.scale = Vec3::new(0.6 + 1.2 * t, 0.4 + 0.9 * t, 0.6 + 1.2 * t);
            transform.translation = fx.at + Vec3::Y * 0.4 * t;
        }
        Kind::Flames | Kind::BlackSmoke => {
            transform.scale = Vec3::new(0.6, 0.6 + 1.6 * t, 0.6);
            transform.translation = fx.at + Vec3::Y * 0.6 * t;
        }
    }
}

/// Spawns an effect's model.
fn spawn_effect(commands: &mut Commands, a: &FxAssets, fx: Playing) {
    let material = match fx.kind {
        Kind::Flash => a.flash.clone(),
        Kind::Tracer { .. } => a.tracer.clone(),
        Kind::Spark => a.spark.clone(),
        Kind::Burst | Kind::Explosion | Kind::Flames => a.burst.clone(),
        Kind::Miss => a.dirt.clone(),
        Kind::BlackSmoke => a.soot.clone(),
        Kind::Dust => a.dust.clone(),
        Kind::Puff => a.puff.clone(),
    };
    let scale = match fx.kind {
        Kind::Tracer { .. } => Vec3::splat(0.3),
        _ => Vec3::splat(0.5),
    };
    let at = fx.at;
    commands.spawn((
        fx,
        DespawnOnExit(GameScreen::TankCommander),
        Mesh3d(a.ball.clone()),
        MeshMaterial3d(material),
        Transform::from_translation(at).with_scale(scale),
        bevy::light::NotShadowCaster,
    ));
}
