//! Procedural tank models on the mirrored units: hull, tracks, a turret that turns on its
//! own, a barrel, side colours, and hull pips. Models glide to the rules' positions and
//! facings (the move and turn animations); knocked-out and destroyed states show once the
//! effects that caused them have played.

use bevy::prelude::*;

use super::anims::{GLIDE_SPEED, TURN_SPEED};
use super::mirror::{Condition, Facing, HexPos, TurretFacing, Unit};
use super::{facing_rotation, hex_to_world};
use crate::client::core::ClientSystems;
use crate::client::core::session::{Busy, FactsPlayed, Session, SkipAnimations};
use crate::client::table::shapes::Palette;
use crate::client::table::theme::{
    self, HALO, INFANTRY, PIP_OFF, PIP_ON, SANDBAGS, TANK_DARK, TANK_PLATE, WRECK, side_color,
};
use crate::rules::tank_commander::setup::{UnitKind, UnitModel};
use crate::rules::tank_commander::state::Status;
use crate::rules::tank_commander::{TankCommander, UnitId};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Bodies>()
        .add_systems(PreStartup, load_assets)
        .add_systems(
            Update,
            (dress_units, glide, show_condition)
                .chain()
                .in_set(ClientSystems::Scene)
                .after(super::anims::EffectsSystems)
                .run_if(resource_exists::<Session<TankCommander>>),
        );
}

/// The shapes of the unit models' parts, their palette, and the flame's and the gold
/// ring's meshes.
///
/// The parts are painted from the palette and merged into one mesh per body (see
/// [`Bodies`]), all drawn with its one `tinted` material: a tank is its body and its
/// turret, two entities for the renderer instead of six or seven.
#[derive(Resource)]
pub struct UnitAssets {
    hull: Mesh,
    apc_hull: Mesh,
    /// Both tracks.
    tracks: Mesh,
    /// A walker's four legs and feet.
    legs: Mesh,
    turret: Mesh,
    barrel: Mesh,
    glacis: Mesh,
    target: Mesh,
    bullseye: Mesh,
    stand: Mesh,
    launcher: Mesh,
    sandbags: Mesh,
    mount: Mesh,
    skirt: Mesh,
    /// A hull pip: a row of them shows the hull points left and lost.
    pip: Mesh,
    halo: Mesh,
    flame: Handle<Mesh>,
    /// An escorted squad's gold ring.
    ring: Handle<Mesh>,
    /// The colours of the bodies' parts, and the material they are drawn with.
    palette: Palette,
    tinted: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
    fire: Handle<StandardMaterial>,
}

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    use crate::client::table::shapes::merged;
    let track = Mesh::from(Cuboid::new(0.14, 0.22, 0.98));
    let tracks = merged([-1.0, 1.0].map(|side| {
        track.clone().transformed_by(
            Transform::from_xyz(side * 0.36 * 1.25, 0.13 * 1.25, 0.0).with_scale(Vec3::splat(1.25)),
        )
    }));
    let leg = crate::client::table::shapes::cylinder(0.075, 0.62);
    let pip = Mesh::from(Cuboid::new(0.1, 0.06, 0.1));
    let legs = merged(
        [(-0.46, -0.42), (0.46, -0.42), (-0.46, 0.42), (0.46, 0.42)]
            .into_iter()
            .flat_map(|(x, z)| {
                [
                    leg.clone().translated_by(Vec3::new(x, 0.3, z)),
                    // A foot (a flattened hull pip), so the leg reads as one from above.
                    pip.clone().transformed_by(
                        Transform::from_xyz(x, 0.04, z).with_scale(Vec3::new(1.8, 1.0, 2.2)),
                    ),
                ]
            }),
    );
    // A hover tank's halo, and the gold ring of an escorted squad.
    let halo = crate::client::table::shapes::torus(0.4, 0.54);
    let palette = Palette::new(
        [TANK_DARK, TANK_PLATE, WRECK, SANDBAGS, INFANTRY, PIP_OFF]
            .into_iter()
            .chain((0..3).map(side_color)),
    )
    .glowing(PIP_ON, theme::PIP_ON_GLOW)
    .glowing(HALO, theme::HALO_GLOW);
    commands.insert_resource(UnitAssets {
        tinted: materials.add(palette.material(&mut images)),
        palette,
        hull: Cuboid::new(0.62, 0.26, 0.9).into(),
        apc_hull: Cuboid::new(0.6, 0.4, 0.96).into(),
        tracks,
        legs,
        turret: crate::client::table::shapes::cylinder(0.22, 0.2),
        barrel: crate::client::table::shapes::cylinder(0.045, 0.7),
        glacis: Cuboid::new(0.5, 0.06, 0.12).into(),
        target: Cuboid::new(0.7, 0.7, 0.12).into(),
        bullseye: crate::client::table::shapes::cylinder(0.18, 0.13),
        stand: crate::client::table::shapes::cylinder(0.42, 0.06),
        launcher: crate::client::table::shapes::cylinder(0.04, 0.42),
        sandbags: crate::client::table::shapes::torus(0.26, 0.46),
        mount: crate::client::table::shapes::cylinder(0.17, 0.22),
        skirt: crate::client::table::shapes::cylinder(0.5, 0.12),
        pip,
        flame: meshes.add(crate::client::table::shapes::cone(0.22, 0.6, 12)),
        ring: meshes.add(halo.clone()),
        halo,
        gold: materials.add(StandardMaterial {
            base_color: theme::GOLD_RING,
            emissive: theme::ESCORT_GLOW,
            ..default()
        }),
        fire: materials.add(StandardMaterial {
            base_color: theme::FLAME,
            emissive: theme::UNIT_FIRE_GLOW,
            ..default()
        }),
    });
}

/// What colour a model shows its side in: the side's colour while active, grey once
/// knocked out.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Paint {
    Side(u8),
    Wreck,
}

impl Paint {
    fn of(cond: &Condition) -> Self {
        if cond.status == Status::Active {
            Self::Side(cond.side.0.min(2))
        } else {
            Self::Wreck
        }
    }

    fn color(self) -> Color {
        match self {
            Self::Side(side) => side_color(side),
            Self::Wreck => WRECK,
        }
    }
}

/// The bodies of the unit models: every part that moves with them, in its colour (the
/// hull pips and a hover tank's halo glowing), as one mesh.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Body {
    /// A tank's or an APC's hull with its tracks (legs, or skirt and halo), its pale
    /// front plate, its hull pips and (an APC's) roof gun.
    Hull {
        model: UnitModel,
        apc: bool,
        pips: Option<Pips>,
    },
    /// A turret with its barrel, which turn together.
    Turret,
    /// A squad's stand, its three figures and the launcher: crouched in cover, smaller
    /// while riding.
    Squad { crouched: bool, riding: bool },
    /// An AA gun's sandbags, mount and twin barrels: raised, or drooping once knocked out.
    AaGun { drooping: bool, pips: Option<Pips> },
    /// A practice target with its bullseye.
    Target,
}

/// A row of hull pips: `left` of `of` still held.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Pips {
    left: u8,
    of: u8,
}

impl Pips {
    /// The pips a model shows: none once destroyed.
    fn of(cond: &Condition) -> Option<Self> {
        (cond.status != Status::Destroyed).then_some(Self {
            left: cond.hull.min(cond.max_hull),
            of: cond.max_hull,
        })
    }
}

/// The bodies' meshes, each made when first needed: a battle shows a few kinds of unit
/// in a few paints, so a few dozen meshes serve any number of units.
#[derive(Resource, Default)]
struct Bodies(std::collections::HashMap<(Body, Paint), Handle<Mesh>>);

impl Bodies {
    fn get(
        &mut self,
        meshes: &mut Assets<Mesh>,
        a: &UnitAssets,
        body: Body,
        paint: Paint,
    ) -> Handle<Mesh> {
        self.0
            .entry((body, paint))
            .or_insert_with(|| meshes.add(body_mesh(a, body, paint.color())))
            .clone()
    }
}

impl UnitAssets {
    /// `mesh` painted `colour`.
    fn painted(&self, mesh: Mesh, colour: Color) -> Mesh {
        self.palette.paint(mesh, colour)
    }

    /// `mesh` placed `at` and painted `colour`.
    fn place(&self, mesh: &Mesh, at: Transform, colour: Color) -> Mesh {
        self.painted(mesh.clone().transformed_by(at), colour)
    }
}

/// A part standing upright: cylinders are made lying along Y.
const UPRIGHT: f32 = std::f32::consts::FRAC_PI_2;

/// `body`'s parts, placed as on the model and painted, the side's parts in `paint`.
fn body_mesh(a: &UnitAssets, body: Body, paint: Color) -> Mesh {
    use crate::client::table::shapes::merged;
    let upright = Quat::from_rotation_x(UPRIGHT);
    match body {
        Body::Hull { model, apc, pips } => merged(hull_parts(a, model, apc, pips, paint)),
        Body::Turret => merged([
            a.painted(a.turret.clone(), paint),
            a.place(
                &a.barrel,
                Transform::from_xyz(0.0, 0.02, -0.5).with_rotation(upright),
                TANK_DARK,
            ),
        ]),
        Body::Squad { crouched, riding } => merged(squad_parts(a, crouched, riding, paint)),
        Body::AaGun { drooping, pips } => merged(aa_gun_parts(a, drooping, pips, paint)),
        Body::Target => merged([
            a.place(&a.target, Transform::from_xyz(0.0, 0.35, 0.0), paint),
            a.place(
                &a.bullseye,
                Transform::from_xyz(0.0, 0.35, -0.01).with_rotation(upright),
                TANK_PLATE,
            ),
        ]),
    }
}

/// A hull's parts: what it runs on, the glacis plate, an APC's roof gun, the hull, and
/// its hull pips.
fn hull_parts(
    a: &UnitAssets,
    model: UnitModel,
    apc: bool,
    pips: Option<Pips>,
    paint: Color,
) -> Vec<Mesh> {
    let lift = lift(model);
    let mut parts = match model {
        // A hover tank floats on a skirt and its glowing halo instead of tracks.
        UnitModel::Hover => vec![
            a.place(
                &a.skirt,
                Transform::from_xyz(0.0, 0.12, 0.0).with_scale(Vec3::new(1.0, 1.0, 1.3)),
                TANK_DARK,
            ),
            a.place(
                &a.halo,
                Transform::from_xyz(0.0, 0.07, 0.0).with_scale(Vec3::new(1.05, 1.4, 1.3)),
                HALO,
            ),
        ],
        // A walker stands on four legs.
        UnitModel::Walker => vec![a.painted(a.legs.clone(), TANK_DARK)],
        UnitModel::Standard => vec![a.painted(a.tracks.clone(), TANK_DARK)],
    };
    // A pale plate on the front of the hull shows which way it faces.
    parts.push(
        a.place(
            &a.glacis,
            Transform::from_xyz(
                0.0,
                if apc { 0.42 } else { 0.34 } * 1.25 + lift,
                -0.38 * 1.25,
            )
            .with_scale(Vec3::splat(1.25)),
            TANK_PLATE,
        ),
    );
    // An APC has no turret: a machine gun on a roof mount, always facing ahead.
    if apc {
        parts.push(
            a.place(
                &a.barrel,
                Transform::from_xyz(0.0, 0.62, -0.3)
                    .with_rotation(Quat::from_rotation_x(UPRIGHT))
                    .with_scale(Vec3::new(0.8, 0.45, 0.8)),
                TANK_DARK,
            ),
        );
    }
    parts.push(
        a.place(
            if apc { &a.apc_hull } else { &a.hull },
            Transform::from_xyz(0.0, if apc { 0.32 } else { 0.25 } + lift, 0.0)
                .with_scale(Vec3::splat(1.25)),
            paint,
        ),
    );
    // Hull points as pips behind the turret.
    let height = if apc { 0.6 } else { 0.45 } + lift;
    parts.extend(pip_row(a, pips, Vec2::new(height, 0.5)));
    parts
}

/// A squad's parts: its stand, its figures, and the launcher the front one carries.
fn squad_parts(a: &UnitAssets, crouched: bool, riding: bool, paint: Color) -> Vec<Mesh> {
    let scale = if riding { SQUAD_RIDING } else { 1.0 };
    let crouch = if crouched { SQUAD_CROUCH } else { 1.0 };
    // The front figure carries the missile launcher on its shoulder.
    let body = squad_body(SQUAD[0], crouch, scale);
    vec![
        a.place(
            &a.stand,
            Transform::from_xyz(0.0, 0.03, 0.0).with_scale(Vec3::splat(scale)),
            paint,
        ),
        a.painted(squad_figures(crouch, scale), INFANTRY),
        a.place(
            &a.launcher,
            Transform::from_translation(body + Vec3::new(0.12, 0.2 * crouch, 0.0) * scale)
                .with_rotation(Quat::from_rotation_x(UPRIGHT))
                .with_scale(Vec3::splat(scale)),
            TANK_DARK,
        ),
    ]
}

/// An anti-aircraft gun's parts: sandbags, the mount, two barrels (drooping once
/// damaged), and its pips.
fn aa_gun_parts(a: &UnitAssets, drooping: bool, pips: Option<Pips>, paint: Color) -> Vec<Mesh> {
    let raise = if drooping {
        UPRIGHT - 0.15
    } else {
        std::f32::consts::FRAC_PI_4
    };
    let mut parts = vec![
        a.place(
            &a.sandbags,
            Transform::from_xyz(0.0, 0.1, 0.0).with_scale(Vec3::new(1.35, 2.2, 1.35)),
            SANDBAGS,
        ),
        a.place(
            &a.mount,
            Transform::from_xyz(0.0, 0.22, 0.0).with_scale(Vec3::new(1.4, 1.6, 1.4)),
            paint,
        ),
    ];
    parts.extend([-0.07, 0.07].map(|x| {
        a.place(
            &a.barrel,
            Transform::from_xyz(x * 1.4, 0.6, -0.2)
                .with_rotation(Quat::from_rotation_x(raise))
                .with_scale(Vec3::new(1.3, 1.1, 1.3)),
            TANK_DARK,
        )
    }));
    parts.extend(pip_row(a, pips, Vec2::new(0.42, 0.5)));
    parts
}

/// The turret pivot of a tank model.
#[derive(Component)]
pub struct Turret;

/// The condition the model shows (it lags the rules until effects have played).
#[derive(Component, Clone, Copy, PartialEq, Eq)]
pub struct Shown(pub Option<Condition>);

/// A part of the model that depends on its condition (paint, pips, flames).
#[derive(Component, Clone)]
struct Dressing;

/// Where a model belongs: on its hex, lifted onto hills, and a squad riding on a tank
/// on the tank's back deck.
fn home(table: &Session<TankCommander>, at: hexx::Hex, riding: bool) -> Vec3 {
    let lift = super::ground_height(table.state(), at);
    let ride = if riding {
        Vec3::new(0.0, 0.62, 0.0)
    } else {
        Vec3::ZERO
    };
    hex_to_world(at) + Vec3::Y * lift + ride
}

/// Gives new unit entities a transform and a tank's turret pivot.
fn dress_units(
    mut commands: Commands,
    table: Res<Session<TankCommander>>,
    new: Query<(Entity, &Unit, &HexPos, &Facing, &TurretFacing, &Condition), Added<Unit>>,
) {
    for (e, unit, at, facing, turret, cond) in &new {
        let kind = table.state().unit(unit.0).kind;
        let mut entity = commands.entity(e);
        entity.insert((
            Transform::from_translation(home(&table, at.0, cond.riding))
                .with_rotation(facing_rotation(facing.0)),
            Visibility::default(),
            Shown(None),
        ));
        // Targets, squads and AA guns are dressed whole by their condition.
        if matches!(
            kind,
            UnitKind::Target | UnitKind::Infantry | UnitKind::AaGun
        ) {
            continue;
        }
        let turret_turn = facing_rotation(facing.0).inverse() * facing_rotation(turret.0);
        let apc = kind == UnitKind::Apc;
        let model = model_of(&table, unit.0);
        let lift = lift(model);
        // The turret's pivot, which turns on its own; the body and the turret's mesh
        // are dressed by the condition (`show_condition`). An APC has no turret.
        if !apc {
            entity.with_child((
                Turret,
                Transform::from_xyz(0.0, 0.43 * 1.25 + lift, 0.05 * 1.25)
                    .with_rotation(turret_turn)
                    .with_scale(Vec3::splat(1.25)),
                Visibility::default(),
            ));
        }
    }
}

/// The model the rules table names for `unit`'s type (the standard one for the built-in
/// kinds).
fn model_of(
    table: &Session<TankCommander>,
    unit: crate::rules::tank_commander::state::UnitId,
) -> UnitModel {
    let battle = table.state();
    battle
        .unit(unit)
        .unit_type
        .as_ref()
        .and_then(|t| battle.rules().unit_types.get(t))
        .map_or(UnitModel::Standard, |t| t.model)
}

/// How far a model's hull rides above the standard one: a walker's legs lift it.
fn lift(model: UnitModel) -> f32 {
    match model {
        UnitModel::Walker => 0.42,
        UnitModel::Hover => 0.08,
        UnitModel::Standard => 0.0,
    }
}

/// Re-dresses models whose shown condition is out of date, once no effect is playing.
fn show_condition(
    mut commands: Commands,
    table: Res<Session<TankCommander>>,
    a: Res<UnitAssets>,
    busy: Res<Busy>,
    time: Res<Time>,
    mut units: Query<(
        Entity,
        &Unit,
        &Condition,
        &mut Shown,
        &mut Visibility,
        Option<&Children>,
    )>,
    turrets: Query<(Entity, Option<&Children>), With<Turret>>,
    dressing: Query<Entity, With<Dressing>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut bodies: ResMut<Bodies>,
) {
    if busy.busy(time.elapsed_secs()) {
        return;
    }
    for (e, unit, cond, mut shown, mut visible, children) in &mut units {
        if shown.0 == Some(*cond) {
            continue;
        }
        shown.0 = Some(*cond);
        let children: Vec<Entity> = children.map(|c| c.to_vec()).unwrap_or_default();
        undress(&mut commands, &children, &turrets, &dressing);
        *visible = if cond.status == Status::Destroyed || cond.inside {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        let mut dresser = Dresser {
            commands: &mut commands,
            a: &a,
            meshes: &mut meshes,
            bodies: &mut bodies,
            paint: Paint::of(cond),
            model: e,
        };
        let kind = table.state().unit(unit.0).kind;
        match kind {
            UnitKind::Infantry => dress_squad(&mut dresser, table.state(), unit.0, cond),
            UnitKind::AaGun => {
                let active = cond.status == Status::Active;
                let gun = dresser.body(Body::AaGun {
                    drooping: !active,
                    pips: Pips::of(cond).filter(|_| active),
                });
                dresser.add(gun);
            }
            UnitKind::Target => {
                let target = dresser.body(Body::Target);
                dresser.add(target);
            }
            _ => {
                let pivots = turrets.iter().map(|(pivot, _)| pivot);
                let pivot = pivots.filter(|p| children.contains(p)).collect();
                let model = model_of(&table, unit.0);
                dress_vehicle(&mut dresser, model, kind == UnitKind::Apc, cond, pivot);
            }
        }
    }
}

/// Takes off a model's dressing, its turret's included.
fn undress(
    commands: &mut Commands,
    children: &[Entity],
    turrets: &Query<(Entity, Option<&Children>), With<Turret>>,
    dressing: &Query<Entity, With<Dressing>>,
) {
    for &child in children {
        if dressing.contains(child) {
            commands.entity(child).despawn();
        }
        if let Ok((_, Some(grand))) = turrets.get(child) {
            for g in grand.iter().filter(|g| dressing.contains(*g)) {
                commands.entity(g).despawn();
            }
        }
    }
}

/// What dressing one model takes: where its parts go, and how they are made.
struct Dresser<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    a: &'a UnitAssets,
    meshes: &'a mut Assets<Mesh>,
    bodies: &'a mut Bodies,
    paint: Paint,
    model: Entity,
}

/// One body of a model's dressing.
type Dress = (
    Dressing,
    Mesh3d,
    MeshMaterial3d<StandardMaterial>,
    Transform,
);

impl Dresser<'_, '_, '_> {
    /// `body` in the model's paint.
    fn body(&mut self, body: Body) -> Dress {
        (
            Dressing,
            Mesh3d(self.bodies.get(self.meshes, self.a, body, self.paint)),
            MeshMaterial3d(self.a.tinted.clone()),
            Transform::default(),
        )
    }

    /// Adds `part` to the model.
    fn add(&mut self, part: impl Bundle) {
        self.commands.entity(self.model).with_child(part);
    }
}

/// A squad in the open or in cover, riding or not, with the gold ring of the squad an
/// Escort must bring through; nothing once it is destroyed.
fn dress_squad(d: &mut Dresser, battle: &TankCommander, unit: UnitId, cond: &Condition) {
    if cond.status == Status::Destroyed {
        return;
    }
    let squad = d.body(Body::Squad {
        crouched: cond.in_cover,
        riding: cond.riding,
    });
    d.add(squad);
    // A gold ring round the stand of the squad an Escort must bring through.
    if battle.escorted_squad() == Some(unit) {
        let scale = if cond.riding { SQUAD_RIDING } else { 1.0 };
        d.add((
            Dressing,
            Mesh3d(d.a.ring.clone()),
            MeshMaterial3d(d.a.gold.clone()),
            Transform::from_xyz(0.0, 0.05, 0.0).with_scale(Vec3::splat(scale)),
        ));
    }
}

/// A tank or an APC: its hull with its pips, a flame while it burns, and the turret on
/// each of its turret pivots.
fn dress_vehicle(
    d: &mut Dresser,
    model: UnitModel,
    apc: bool,
    cond: &Condition,
    pivots: Vec<Entity>,
) {
    let hull = d.body(Body::Hull {
        model,
        apc,
        pips: Pips::of(cond),
    });
    let turret = d.body(Body::Turret);
    d.add(hull);
    if cond.on_fire {
        d.add((
            Dressing,
            Mesh3d(d.a.flame.clone()),
            MeshMaterial3d(d.a.fire.clone()),
            Transform::from_xyz(0.0, 0.95 + lift(model), 0.3),
        ));
    }
    for pivot in pivots {
        d.commands.entity(pivot).with_child(turret.clone());
    }
}

/// How low a squad in cover crouches, and how small a squad riding on a tank stands.
const SQUAD_CROUCH: f32 = 0.6;
const SQUAD_RIDING: f32 = 0.6;

/// Where a squad's three figures stand on its base, the one with the launcher first.
const SQUAD: [(f32, f32); 3] = [(0.0, -0.2), (-0.22, 0.14), (0.22, 0.14)];

/// The centre of a squad figure's body standing at `(x, z)`.
fn squad_body((x, z): (f32, f32), crouch: f32, scale: f32) -> Vec3 {
    Vec3::new(x * scale, 0.06 + 0.23 * crouch * scale, z * scale)
}

/// A squad's three figures with their heads, one mesh.
fn squad_figures(crouch: f32, scale: f32) -> Mesh {
    let figure = crate::client::table::shapes::capsule(0.1, 0.26);
    let head = crate::client::table::shapes::sphere(0.09);
    crate::client::table::shapes::merged(SQUAD.into_iter().flat_map(|at| {
        let body = squad_body(at, crouch, scale);
        [
            figure
                .clone()
                .transformed_by(Transform::from_translation(body).with_scale(Vec3::new(
                    scale,
                    crouch * scale,
                    scale,
                ))),
            head.clone().transformed_by(
                Transform::from_translation(body + Vec3::Y * (0.27 * crouch * scale))
                    .with_scale(Vec3::splat(scale)),
            ),
        ]
    }))
}

/// A model's hull points as a row of pips at height `at.x`, `at.y` behind its centre:
/// green (glowing) while held, dark red once lost.
fn pip_row(a: &UnitAssets, pips: Option<Pips>, at: Vec2) -> Vec<Mesh> {
    let Some(Pips { left, of }) = pips else {
        return Vec::new();
    };
    let n = f32::from(of);
    (0..of)
        .map(|i| {
            let x = (f32::from(i) - (n - 1.0) / 2.0) * 0.13;
            let colour = if i < left { PIP_ON } else { PIP_OFF };
            a.palette.paint(
                a.pip.clone().translated_by(Vec3::new(x, at.x, at.y)),
                colour,
            )
        })
        .collect()
}

/// Glides models to their hex and facings; snaps on skip or when the state was replaced.
fn glide(
    table: Res<Session<TankCommander>>,
    time: Res<Time>,
    mut skip: MessageReader<SkipAnimations>,
    mut played: MessageReader<FactsPlayed<TankCommander>>,
    mut units: Query<
        (
            &HexPos,
            &Facing,
            &TurretFacing,
            &Condition,
            &mut Transform,
            Option<&Children>,
        ),
        With<Unit>,
    >,
    mut turrets: Query<&mut Transform, (With<Turret>, Without<Unit>)>,
) {
    let jumped = played.read().fold(false, |jumped, p| jumped | p.jumped);
    let snap = skip.read().count() > 0 || jumped;
    // The glide keeps to the time the session waits for ([`super::anims::fact_seconds`])
    // unless frames come slower than four a second.
    let dt = time.delta_secs().min(0.25);
    for (at, facing, turret, cond, mut transform, children) in &mut units {
        let goal = home(&table, at.0, cond.riding);
        let rot = facing_rotation(facing.0);
        // Write only what changes: a model at rest must not mark its hierarchy changed,
        // or Bevy re-propagates every unit's transforms and bounds every frame.
        let mut next = *transform;
        if snap {
            next.translation = goal;
            next.rotation = rot;
        } else {
            let step = GLIDE_SPEED * dt;
            let d = goal - next.translation;
            next.translation += d.clamp_length_max(step);
            let angle = next.rotation.angle_between(rot);
            if angle > 1e-3 {
                let t = (TURN_SPEED * dt / angle).min(1.0);
                next.rotation = next.rotation.slerp(rot, t);
            } else {
                next.rotation = rot;
            }
        }
        transform.set_if_neq(next);
        let turret_goal = rot.inverse() * facing_rotation(turret.0);
        for child in children.into_iter().flat_map(|c| c.iter()) {
            if let Ok(mut t) = turrets.get_mut(child) {
                let angle = t.rotation.angle_between(turret_goal);
                let rotation = if snap || angle < 1e-3 {
                    turret_goal
                } else {
                    t.rotation
                        .slerp(turret_goal, (TURN_SPEED * dt / angle).min(1.0))
                };
                if t.rotation != rotation {
                    t.rotation = rotation;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean x of the vertices of a mesh that show `colour`.
    fn centre_x(palette: &Palette, mesh: &Mesh, colour: Color) -> f32 {
        let positions = mesh
            .attribute(Mesh::ATTRIBUTE_POSITION)
            .and_then(|a| a.as_float3())
            .unwrap();
        let Some(bevy::mesh::VertexAttributeValues::Float32x2(uvs)) =
            mesh.attribute(Mesh::ATTRIBUTE_UV_0)
        else {
            panic!("a painted mesh has UVs");
        };
        let xs: Vec<f32> = positions
            .iter()
            .zip(uvs)
            .filter(|(_, uv)| palette.colour_at(**uv) == colour)
            .map(|(p, _)| p[0])
            .collect();
        #[allow(clippy::cast_precision_loss, reason = "a few dozen vertices")]
        let n = xs.len() as f32;
        xs.iter().sum::<f32>() / n
    }

    /// A test's unit assets: the shapes as the game makes them, with no materials.
    fn parts() -> UnitAssets {
        let mut app = App::new();
        app.add_plugins(AssetPlugin::default())
            .init_asset::<Mesh>()
            .init_asset::<StandardMaterial>()
            .init_asset::<Image>()
            .add_systems(Startup, load_assets);
        app.update();
        app.world_mut().remove_resource::<UnitAssets>().unwrap()
    }

    /// The colours a painted mesh shows, and how many vertices have each.
    fn colours(palette: &Palette, mesh: &Mesh) -> Vec<(Color, usize)> {
        let Some(bevy::mesh::VertexAttributeValues::Float32x2(uvs)) =
            mesh.attribute(Mesh::ATTRIBUTE_UV_0)
        else {
            panic!("a painted mesh has UVs");
        };
        let mut counted: Vec<(Color, usize)> = Vec::new();
        for uv in uvs {
            let c = palette.colour_at(*uv);
            match counted.iter_mut().find(|(seen, _)| *seen == c) {
                Some((_, n)) => *n += 1,
                None => counted.push((c, 1)),
            }
        }
        counted
    }

    #[test]
    fn a_tank_body_is_one_mesh_with_each_part_in_its_own_colour() {
        let a = parts();
        let blue = Paint::Side(0);
        let pips = Some(Pips { left: 3, of: 4 });
        let hull = body_mesh(
            &a,
            Body::Hull {
                model: UnitModel::Standard,
                apc: false,
                pips,
            },
            blue.color(),
        );
        // Tracks dark, the front plate pale, the hull in the side's colour, three pips
        // held and one lost: every vertex of each part shows the colour its material had.
        let pip = a.pip.count_vertices();
        assert_eq!(
            colours(&a.palette, &hull),
            vec![
                (TANK_DARK, a.tracks.count_vertices()),
                (TANK_PLATE, a.glacis.count_vertices()),
                (side_color(0), a.hull.count_vertices()),
                (PIP_ON, 3 * pip),
                (PIP_OFF, pip),
            ]
        );
        // Four pips 0.13 apart, centred: the lost one is the last, the three held are
        // centred on the second.
        assert!((centre_x(&a.palette, &hull, PIP_OFF) - 1.5 * 0.13).abs() < 1e-5);
        assert!((centre_x(&a.palette, &hull, PIP_ON) + 0.5 * 0.13).abs() < 1e-5);
        let turret = body_mesh(&a, Body::Turret, Paint::Wreck.color());
        assert_eq!(
            colours(&a.palette, &turret),
            vec![
                (WRECK, a.turret.count_vertices()),
                (TANK_DARK, a.barrel.count_vertices()),
            ]
        );
        // An APC adds its roof gun to the dark parts; a hover tank its glowing halo.
        let apc = body_mesh(
            &a,
            Body::Hull {
                model: UnitModel::Standard,
                apc: true,
                pips: None,
            },
            blue.color(),
        );
        assert_eq!(
            apc.count_vertices(),
            a.tracks.count_vertices()
                + a.glacis.count_vertices()
                + a.barrel.count_vertices()
                + a.apc_hull.count_vertices()
        );
        let hover = body_mesh(
            &a,
            Body::Hull {
                model: UnitModel::Hover,
                apc: false,
                pips: None,
            },
            blue.color(),
        );
        assert!(colours(&a.palette, &hover).contains(&(HALO, a.halo.count_vertices())));
    }

    #[test]
    fn the_palette_glows_where_the_lit_pips_and_the_halo_glowed() {
        let a = parts();
        let mut images = Assets::<Image>::default();
        let material = a.palette.material(&mut images);
        let glow = images.get(&material.emissive_texture.unwrap()).unwrap();
        let mut glowing = Vec::new();
        for (x, colour) in (0u32..).zip(a.palette.colours()) {
            if LinearRgba::from(glow.get_color_at(x, 0).unwrap()) != LinearRgba::BLACK {
                glowing.push(*colour);
            }
        }
        assert_eq!(glowing, vec![PIP_ON, HALO]);
    }

    #[test]
    fn a_body_is_made_once_per_kind_paint_and_pips() {
        let a = parts();
        let mut meshes = Assets::<Mesh>::default();
        let mut bodies = Bodies::default();
        let tank = |left| Body::Hull {
            model: UnitModel::Walker,
            apc: false,
            pips: Some(Pips { left, of: 4 }),
        };
        let first = bodies.get(&mut meshes, &a, tank(4), Paint::Side(1));
        assert_eq!(bodies.get(&mut meshes, &a, tank(4), Paint::Side(1)), first);
        assert_ne!(bodies.get(&mut meshes, &a, tank(4), Paint::Wreck), first);
        assert_ne!(bodies.get(&mut meshes, &a, tank(3), Paint::Side(1)), first);
        assert_ne!(
            bodies.get(&mut meshes, &a, Body::Turret, Paint::Side(1)),
            first
        );
        assert_eq!(meshes.len(), 4);
        // A knocked-out model is grey whatever its side; a destroyed one shows no pips.
        let mut cond = Condition {
            side: crate::framework::PlayerId(1),
            status: Status::Active,
            on_fire: false,
            hull: 3,
            max_hull: 4,
            wounded_crew: 0,
            in_cover: false,
            riding: false,
            inside: false,
        };
        assert_eq!(Paint::of(&cond), Paint::Side(1));
        assert_eq!(Pips::of(&cond), Some(Pips { left: 3, of: 4 }));
        cond.status = Status::Disabled;
        assert_eq!(Paint::of(&cond), Paint::Wreck);
        cond.status = Status::Destroyed;
        assert_eq!(Pips::of(&cond), None);
    }
}
