//! Components that mirror the rules state: one entity per unit ([`Unit`], [`HexPos`],
//! [`Facing`], [`TurretFacing`], [`Condition`]) and one per hex ([`Tile`], [`HexPos`],
//! [`Terrain`]). They are updated from the rules after every order; presentation reads
//! them and never writes back.

use bevy::prelude::*;
use hexx::Hex;

use crate::client::core::session::Session;
use crate::client::core::{ClientSystems, GameScreen};
use crate::framework::PlayerId;
use crate::rules::tank_commander::TankCommander;
use crate::rules::tank_commander::state::Status;
use crate::rules::tank_commander::{self as tc, UnitId};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        mirror_rules
            .in_set(MirrorSystems)
            .in_set(ClientSystems::Mirror),
    );
}

/// The mirroring of the rules state; the scene runs after it.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MirrorSystems;

/// A unit of the battle.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit(pub UnitId);

/// Where a unit or tile stands.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexPos(pub Hex);

/// A unit's hull facing.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub crate::grid::Facing);

/// A unit's turret facing.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurretFacing(pub crate::grid::Facing);

/// A unit's state of repair.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    pub side: PlayerId,
    pub status: Status,
    pub on_fire: bool,
    pub hull: u8,
    pub max_hull: u8,
    pub wounded_crew: u8,
    /// An infantry squad taking cover.
    pub in_cover: bool,
    /// An infantry squad riding on a tank.
    pub riding: bool,
    /// An infantry squad riding inside an APC, out of sight.
    pub inside: bool,
}

/// A hex of the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile;

/// A tile's terrain, and whether smoke lies on it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terrain {
    pub terrain: tc::Terrain,
    pub smoke: bool,
}

fn condition(battle: &tc::TankCommander, u: &tc::Unit) -> Condition {
    let inside = u.riding.is_some_and(|c| battle.unit(c).carries_inside());
    Condition {
        side: u.side,
        status: u.status,
        on_fire: u.on_fire,
        hull: u.hull,
        max_hull: u.base.hull,
        wounded_crew: u8::try_from(u.crew.iter().filter(|m| m.wounds > 0).count()).unwrap_or(0),
        in_cover: u.in_cover,
        riding: u.riding.is_some() && !inside,
        inside,
    }
}

/// Sets `slot` only when the value differs, so change detection means a real change.
fn set<T: PartialEq + Component<Mutability = bevy::ecs::component::Mutable>>(
    slot: &mut Mut<T>,
    value: T,
) {
    if **slot != value {
        **slot = value;
    }
}

/// Spawns the mirror of a new battle, and keeps it in step with the rules.
fn mirror_rules(
    mut commands: Commands,
    table: Option<Res<Session<TankCommander>>>,
    mut last: Local<Option<(u64, u64)>>,
    mut units: Query<(
        &Unit,
        &mut HexPos,
        &mut Facing,
        &mut TurretFacing,
        &mut Condition,
    )>,
    mut tiles: Query<(&HexPos, &mut Terrain), (With<Tile>, Without<Unit>)>,
    old: Query<Entity, Or<(With<Unit>, With<Tile>)>>,
) {
    let Some(table) = table else {
        *last = None;
        return;
    };
    let battle = table.state();
    let now = (table.generation, table.revision);
    if last.is_none_or(|(g, _)| g != table.generation) {
        for e in &old {
            commands.entity(e).despawn();
        }
        for hex in battle.board().hexes() {
            commands.spawn((
                Tile,
                HexPos(hex),
                Terrain {
                    terrain: battle.terrain(hex),
                    smoke: battle.smoke(hex),
                },
                DespawnOnExit(GameScreen::TankCommander),
            ));
        }
        for u in battle.units() {
            commands.spawn((
                Unit(u.id),
                HexPos(u.at),
                Facing(u.facing),
                TurretFacing(u.turret),
                condition(battle, u),
                DespawnOnExit(GameScreen::TankCommander),
            ));
        }
        *last = Some(now);
        return;
    }
    if *last == Some(now) {
        return;
    }
    *last = Some(now);
    for (unit, mut at, mut facing, mut turret, mut cond) in &mut units {
        let u = battle.unit(unit.0);
        set(&mut at, HexPos(u.at));
        set(&mut facing, Facing(u.facing));
        set(&mut turret, TurretFacing(u.turret));
        set(&mut cond, condition(battle, u));
    }
    for (at, mut terrain) in &mut tiles {
        set(
            &mut terrain,
            Terrain {
                terrain: battle.terrain(at.0),
                smoke: battle.smoke(at.0),
            },
        );
    }
}
