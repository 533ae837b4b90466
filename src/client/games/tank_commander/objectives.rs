//! Objective flags: a pole and a flag on every objective hex, in the colour of the side
//! that holds it (white while nobody does).

use bevy::prelude::*;

use super::hex_to_world;
use crate::client::core::session::Session;
use crate::client::core::{ClientSystems, GameScreen};
use crate::client::table::theme::{self, side_color};
use crate::framework::PlayerId;
use crate::rules::tank_commander::{TankCommander, Terrain};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        plant_flags
            .in_set(ClientSystems::Scene)
            .run_if(resource_exists::<Session<TankCommander>>),
    );
}

/// An objective's flag.
#[derive(Component)]
pub struct Flag;

/// Plants the flags anew when a battle opens or an objective changes hands.
fn plant_flags(
    mut commands: Commands,
    table: Res<Session<TankCommander>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    flags: Query<Entity, With<Flag>>,
    mut last: Local<Option<(u64, Vec<Option<PlayerId>>)>>,
) {
    let battle = table.state();
    let holders: Vec<Option<PlayerId>> = battle.objectives().iter().map(|o| o.holder).collect();
    let now = (table.generation, holders);
    if last.as_ref() == Some(&now) {
        return;
    }
    *last = Some(now);
    for e in &flags {
        commands.entity(e).despawn();
    }
    if battle.objectives().is_empty() {
        return;
    }
    let pole = meshes.add(crate::client::table::shapes::cylinder(0.04, 1.5));
    let cloth = meshes.add(Cuboid::new(0.62, 0.4, 0.03));
    let ring = meshes.add(crate::client::table::shapes::torus(0.5, 0.56));
    let wood = materials.add(theme::FLAG_POLE);
    for o in battle.objectives() {
        let colour = o.holder.map_or(theme::FLAG_UNHELD, |s| side_color(s.0));
        let paint = materials.add(StandardMaterial {
            base_color: colour,
            emissive: LinearRgba::from(colour) * 0.25,
            ..default()
        });
        let lift = if battle.terrain(o.at) == Terrain::Hill {
            0.4
        } else {
            0.1
        };
        // The pole stands at the back corner of the hex, so a unit on it stays in view.
        let base = hex_to_world(o.at) + Vec3::new(0.5, lift, -0.45);
        commands.spawn((
            Flag,
            Transform::from_translation(base),
            Visibility::default(),
            DespawnOnExit(GameScreen::TankCommander),
            children![
                (
                    Mesh3d(pole.clone()),
                    MeshMaterial3d(wood.clone()),
                    Transform::from_xyz(0.0, 0.75, 0.0),
                ),
                (
                    Mesh3d(cloth.clone()),
                    MeshMaterial3d(paint.clone()),
                    Transform::from_xyz(0.32, 1.28, 0.0),
                ),
                (
                    Mesh3d(ring.clone()),
                    MeshMaterial3d(paint),
                    Transform::from_xyz(-0.5, 0.02, 0.45),
                ),
            ],
        ));
    }
}
