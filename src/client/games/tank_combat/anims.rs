//! The facts of Tank Combat as the table plays them: attacks fly as tracers, Smoke rises
//! in a cloud, damage and hazards float up from the tank, a destroyed tank burns, and the
//! big moments (Adrenaline, Tactical Override, a kill, a respawn) are called out.

use bevy::prelude::*;
use bevy_egui::egui;

use super::table::seat_point;
use crate::client::core::GameScreen;
use crate::client::core::session::Session;
use crate::client::table::effects::{Callout, Effect, Shown, Timeline};
use crate::client::table::theme::{self, card_color, seat_color};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_combat::{ArmorStep, Card, Fact, TankCombat};

/// How long the table takes to show `fact`.
pub(super) fn anim_seconds(fact: &Fact) -> f32 {
    match fact {
        Fact::Attacked { .. } => 0.8,
        Fact::Smoked { .. } => 1.0,
        Fact::Damage { .. } => 1.0,
        Fact::Destroyed { .. } => 1.2,
        Fact::Respawned { .. } | Fact::Adrenaline { .. } => 0.8,
        Fact::Hazard { .. } | Fact::Override { .. } | Fact::Repaired { .. } => 0.7,
        Fact::Loaded { .. } | Fact::Equipped { .. } => 0.35,
        Fact::Reshuffled { .. } => 0.8,
        _ => 0.0,
    }
}

/// One step of the table's animation.
pub enum Anim {
    Callout(String, egui::Color32),
    Tracer(PlayerId, PlayerId, bool),
    Smoke(PlayerId),
    Float(PlayerId, String, egui::Color32),
    Burn(PlayerId),
    Settle(Box<TankCombat>),
}

/// Text that floats up from a tank.
#[derive(Component)]
pub(super) struct Floater {
    pub(super) at: Vec3,
    pub(super) text: String,
    pub(super) color: egui::Color32,
    pub(super) born: f32,
}

/// The animation that shows `fact`, if any.
pub(super) fn anim_of(game: &TankCombat, fact: &Fact) -> Option<Anim> {
    let name = |p: &PlayerId| game.player_name(*p);
    Some(match fact {
        Fact::Attacked {
            attacker,
            target,
            card,
            ..
        } => Anim::Tracer(*attacker, *target, *card == Card::CoaxialMg),
        Fact::Smoked { player } => Anim::Smoke(*player),
        Fact::Cancelled { target, .. } => Anim::Float(
            *target,
            "SMOKED — the attack is cancelled".into(),
            theme::SMOKED_TEXT,
        ),
        Fact::Damage { target, steps, .. } => {
            let mut parts = vec![steps.base.to_string()];
            match steps.armor {
                ArmorStep::Absorbed(a) => parts.push(format!("-{a} armor")),
                ArmorStep::Destroyed => parts.push("armor destroyed".into()),
                ArmorStep::Ignored => parts.push("armor ignored".into()),
                ArmorStep::None => {}
            }
            if steps.heavy > 0 {
                parts.push(format!("-{} Heavy", steps.heavy));
            }
            Anim::Float(
                *target,
                format!("-{} HP  ({})", steps.final_damage, parts.join(" ")),
                theme::DAMAGE_TEXT,
            )
        }
        Fact::Destroyed { player, .. } => Anim::Burn(*player),
        Fact::Adrenaline { player, class, .. } => Anim::Callout(
            format!(
                "ADRENALINE! {} ({}): {}",
                name(player),
                class.name(),
                class.adrenaline()
            ),
            theme::ADRENALINE_TEXT,
        ),
        Fact::Hazard { target, hazard, .. } => {
            Anim::Float(*target, hazard.name().to_uppercase(), card_color(*hazard))
        }
        Fact::Override { target, safety, .. } => Anim::Callout(
            format!(
                "TACTICAL OVERRIDE! {} reveals {}",
                name(target),
                safety.name()
            ),
            theme::OVERRIDE_TEXT,
        ),
        Fact::Repaired { player, hazard, .. } => Anim::Float(
            *player,
            format!("{} repaired", hazard.name()),
            theme::REPAIRED_TEXT,
        ),
        Fact::Respawned { player, .. } => Anim::Callout(
            format!("{} respawns with a Spawn Shield", name(player)),
            seat_color(*player),
        ),
        Fact::Kill { player, kills } => Anim::Callout(
            format!("{} scores a kill ({kills})", name(player)),
            seat_color(*player),
        ),
        Fact::Reshuffled { cards } => Anim::Callout(
            format!("The discard pile is shuffled into a new deck ({cards} cards)"),
            theme::RESHUFFLED_TEXT,
        ),
        _ => return None,
    })
}

/// Plays the animations that are due.
pub(super) fn play_anims(
    mut commands: Commands,
    mut timeline: ResMut<Timeline<Anim>>,
    mut callout: ResMut<Callout>,
    table: Res<Session<TankCombat>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    let n = table.state().player_count();
    for (start, anim) in timeline.due(now) {
        match anim {
            Anim::Callout(text, color) => callout.show(text, color, start, 1.8),
            Anim::Tracer(from, to, mg) => {
                let a = seat_point(from, n) + Vec3::Y * 0.62;
                let b = seat_point(to, n) + Vec3::Y * 0.45;
                spawn_tracer(
                    &mut commands,
                    &mut meshes,
                    &mut materials,
                    start,
                    (a, b),
                    mg,
                );
            }
            Anim::Smoke(p) => {
                spawn_smoke(&mut commands, &mut meshes, &mut materials, start, p, n);
            }
            Anim::Float(p, text, color) => {
                commands.spawn((
                    DespawnOnExit(GameScreen::TankCombat),
                    Floater {
                        at: seat_point(p, n) + Vec3::Y * 1.2,
                        text,
                        color,
                        born: start,
                    },
                ));
            }
            Anim::Burn(p) => {
                spawn_burn(&mut commands, &mut meshes, &mut materials, start, p, n);
                callout.text = Some((
                    format!("{} is destroyed!", table.state().player_name(p)),
                    theme::DESTROYED_TEXT,
                ));
                callout.until = start + 1.6;
            }
            Anim::Settle(state) => commands.insert_resource(Shown(*state)),
        }
    }
}

/// Spawns a tracer from `a` to `b`: thinner for the coaxial machine gun.
fn spawn_tracer(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    start: f32,
    (a, b): (Vec3, Vec3),
    mg: bool,
) {
    commands.spawn((
        DespawnOnExit(GameScreen::TankCombat),
        Effect::lasting(start, 0.45),
        Mesh3d(meshes.add(Cuboid::new(
            if mg { 0.03 } else { 0.06 },
            if mg { 0.03 } else { 0.06 },
            a.distance(b),
        ))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: theme::TRACER,
            emissive: theme::TRACER_GLOW,
            ..default()
        })),
        Transform::from_translation((a + b) / 2.0).looking_at(b, Vec3::Y),
    ));
}

/// Spawns the cloud of Smoke that rises in front of `p`'s tank.
fn spawn_smoke(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    start: f32,
    p: PlayerId,
    n: usize,
) {
    for k in 0..5 {
        let k = k as f32;
        let at = seat_point(p, n) * 0.8
            + Vec3::new((k * 1.7).sin() * 0.5, 0.4 + k * 0.1, (k * 2.3).cos() * 0.5);
        commands.spawn((
            DespawnOnExit(GameScreen::TankCombat),
            Effect {
                born: start + k * 0.06,
                life: 1.4,
                grow: 1.4,
                rise: 0.5,
            },
            Mesh3d(meshes.add(crate::client::table::shapes::sphere(0.5))),
            MeshMaterial3d(materials.add(theme::COMBAT_SMOKE)),
            Transform::from_translation(at).with_scale(Vec3::splat(0.01)),
        ));
    }
}

/// Spawns the fireball of `p`'s destroyed tank.
fn spawn_burn(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    start: f32,
    p: PlayerId,
    n: usize,
) {
    commands.spawn((
        DespawnOnExit(GameScreen::TankCombat),
        Effect::growing(start, 1.2, 1.8),
        Mesh3d(meshes.add(crate::client::table::shapes::sphere(0.6))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: theme::FLAME,
            emissive: theme::BURN_GLOW,
            ..default()
        })),
        Transform::from_translation(seat_point(p, n) + Vec3::Y * 0.4).with_scale(Vec3::splat(0.01)),
    ));
}

/// Takes away the floating numbers that have faded.
pub(super) fn animate(
    mut commands: Commands,
    floaters: Query<(Entity, &Floater)>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    for (e, f) in &floaters {
        if now - f.born > 2.0 {
            commands.entity(e).despawn();
        }
    }
}
