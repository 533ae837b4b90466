//! Effects played on fact messages, one after another: a muzzle flash then a tracer, a
//! hit spark or a penetration burst, flames when a fire starts, black smoke when a unit is
//! knocked out, an explosion at a cook-off, a mine or each hex an air strike hits, dust when a building falls, a puff when smoke
//! is laid. While they play (or a model glides) the table is busy and orders wait;
//! Space or Escape skips them.

use std::collections::VecDeque;

use bevy::prelude::*;

use super::hex_to_world;
use super::units::Moving;
use super::{
    Blasted, BuildingDestroyed, CookedOff, FireStarted, Rewound, ShotResolved, SmokeLaid,
    UnitDisabled,
};
use crate::client::core::session::{Busy, Session, SkipAnimations};
use crate::client::core::{ClientSystems, GameScreen};
use crate::client::table::theme;
use crate::rules::tank_commander::TankCommander;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Queue>()
        .add_systems(Startup, load_assets)
        .add_systems(
            Update,
            (queue_effects, play_effects)
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

/// Effects waiting to play, in order.
#[derive(Resource, Default, Debug)]
struct Queue(VecDeque<(Kind, Vec3)>);

/// The effect playing now.
#[derive(Component)]
struct Playing {
    kind: Kind,
    at: Vec3,
    age: f32,
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

fn queue_effects(
    mut queue: ResMut<Queue>,
    mut shots: MessageReader<ShotResolved>,
    mut fires: MessageReader<FireStarted>,
    mut disabled: MessageReader<UnitDisabled>,
    mut cooked: MessageReader<CookedOff>,
    mut blasts: MessageReader<Blasted>,
    mut buildings: MessageReader<BuildingDestroyed>,
    mut smoke: MessageReader<SmokeLaid>,
    table: Res<Session<TankCommander>>,
) {
    let battle = table.state();
    for s in shots.read() {
        let (from, to) = (spot(s.from), spot(s.at));
        let muzzle = from + (to - from).normalize_or_zero() * 0.8;
        queue.0.push_back((Kind::Flash, muzzle));
        queue.0.push_back((Kind::Tracer { to }, muzzle));
        let impact = if s.penetrating {
            Kind::Burst
        } else if s.hit {
            Kind::Spark
        } else {
            Kind::Miss
        };
        // A miss lands short of the target.
        let at = if s.hit {
            to
        } else {
            to - (to - from).normalize_or_zero() * 0.6 - Vec3::Y * 0.5
        };
        queue.0.push_back((impact, at));
    }
    for f in fires.read() {
        queue
            .0
            .push_back((Kind::Flames, spot(battle.unit(f.unit).at)));
    }
    for d in disabled.read() {
        queue
            .0
            .push_back((Kind::BlackSmoke, spot(battle.unit(d.unit).at)));
    }
    for c in cooked.read() {
        queue.0.push_back((Kind::Explosion, spot(c.hex)));
    }
    for b in blasts.read() {
        queue.0.push_back((Kind::Explosion, spot(b.hex)));
    }
    for b in buildings.read() {
        queue.0.push_back((Kind::Dust, spot(b.hex)));
    }
    for s in smoke.read() {
        queue.0.push_back((Kind::Puff, spot(s.hex)));
    }
}

fn play_effects(
    mut commands: Commands,
    mut queue: ResMut<Queue>,
    a: Res<FxAssets>,
    time: Res<Time>,
    moving: Res<Moving>,
    mut busy: ResMut<Busy>,
    mut skip: MessageReader<SkipAnimations>,
    mut rewound: MessageReader<Rewound>,
    mut playing: Query<(Entity, &mut Playing, &mut Transform)>,
    mut strokes: ResMut<crate::client::table::strokes::Strokes>,
) {
    let skipped = skip.read().count() > 0 || rewound.read().count() > 0;
    if skipped {
        queue.0.clear();
        for (e, ..) in &playing {
            commands.entity(e).despawn();
        }
        busy.held = false;
        return;
    }
    let dt = time.delta_secs().min(0.1);
    let mut any = false;
    for (e, mut fx, mut transform) in &mut playing {
        any = true;
        fx.age += dt;
        let t = (fx.age / fx.kind.seconds()).min(1.0);
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
        if t >= 1.0 {
            commands.entity(e).despawn();
        }
    }
    if !any && let Some((kind, at)) = queue.0.pop_front() {
        let material = match kind {
            Kind::Flash => a.flash.clone(),
            Kind::Tracer { .. } => a.tracer.clone(),
            Kind::Spark => a.spark.clone(),
            Kind::Burst | Kind::Explosion | Kind::Flames => a.burst.clone(),
            Kind::Miss => a.dirt.clone(),
            Kind::BlackSmoke => a.soot.clone(),
            Kind::Dust => a.dust.clone(),
            Kind::Puff => a.puff.clone(),
        };
        let scale = match kind {
            Kind::Tracer { .. } => Vec3::splat(0.3),
            _ => Vec3::splat(0.5),
        };
        commands.spawn((
            Playing { kind, at, age: 0.0 },
            DespawnOnExit(GameScreen::TankCommander),
            Mesh3d(a.ball.clone()),
            MeshMaterial3d(material),
            Transform::from_translation(at).with_scale(scale),
            bevy::light::NotShadowCaster,
        ));
        any = true;
    }
    busy.held = any || !queue.0.is_empty() || moving.0;
}
