//! The facts of Battle Tanks as the table plays them: declared dice fly from the seats
//! and tumble onto the Battlefield, landing on exactly the faces the rules rolled; won
//! dice fly to the winner's arsenal; a Meganuke's blast clears the Battlefield (or the
//! world); War, loot and misfires are called out in the banner.

use std::f32::consts::TAU;

use bevy::prelude::*;
use bevy_egui::egui;

use super::table::{
    DiceAssets, SEAT_RADIUS, ShownDie, battlefield_spot, die_size, die_yaw, draw_dice, seat_point,
    showing, spawn_die,
};
use crate::client::core::GameScreen;
use crate::client::core::session::Session;
use crate::client::table::effects::{Callout, Effect, Shown, Timeline};
use crate::client::table::theme::{self, seat_color};
use crate::framework::{Game, PlayerId};
use crate::rules::battle_tanks::{BattleDie, BattleTanks, DieKind, Fact};

/// The dice drawn from the shown state, with where they stand.
type ShownDice<'w, 's> = Query<'w, 's, (Entity, &'static ShownDie, &'static Transform)>;

/// How long the table takes to show `fact`.
pub(super) fn anim_seconds(fact: &Fact) -> f32 {
    match fact {
        Fact::Rolled { .. } => 1.5,
        Fact::War { .. } | Fact::Misfires { .. } | Fact::AllMisfired { .. } => 1.4,
        Fact::BattleWon { .. } => 1.4,
        Fact::DoubleMeganuke { .. } => 1.8,
        Fact::WorldEnds { .. } => 2.5,
        Fact::Eliminated { .. } | Fact::FinalBattleBegins { .. } => 1.2,
        Fact::Volley(_) => 2.0,
        Fact::Declared {
            kind: Some(DieKind::Nuke),
            forced: None,
            ..
        }
        | Fact::Answered { switched: true, .. } => 0.8,
        Fact::CalledOff { .. } => 1.0,
        _ => 0.0,
    }
}

/// One step of the table's animation.
pub enum Anim {
    Callout(String, egui::Color32),
    Roll(Vec<BattleDie>),
    TakeAll(PlayerId),
    Destroy,
    WorldEnds,
    Volley(PlayerId, Vec<(DieKind, u8)>),
    Settle(Box<BattleTanks>),
}

/// A die in flight.
#[derive(Component)]
pub(super) struct Flight {
    from: Vec3,
    to: Vec3,
    start: f32,
    seconds: f32,
    spin: Vec3,
    end: Quat,
    /// Despawn on landing (won dice going home; the settle redraws them).
    vanish: bool,
}

/// The animation that shows `fact`, if any.
pub(super) fn anim_of(game: &BattleTanks, fact: &Fact) -> Option<Anim> {
    let name = |p: &PlayerId| game.player_name(*p);
    let names = |ps: &[PlayerId]| ps.iter().map(name).collect::<Vec<_>>().join(", ");
    Some(match fact {
        Fact::Declared {
            player,
            kind: Some(DieKind::Nuke),
            forced: None,
        } => Anim::Callout(
            format!("{} announces a NUKE!", name(player)),
            theme::NUKE_CALLOUT,
        ),
        Fact::Answered {
            player,
            switched: true,
        } => Anim::Callout(
            format!("{} answers with a NUKE!", name(player)),
            theme::NUKE_CALLOUT,
        ),
        Fact::Rolled { dice, .. } => Anim::Roll(dice.clone()),
        Fact::War {
            players, matched, ..
        } => Anim::Callout(
            format!("WAR! {} matched at {matched}", names(players)),
            theme::EMPHASIS,
        ),
        Fact::Misfires { players } => Anim::Callout(
            format!("MISFIRES: {} — the dice stay as loot", names(players)),
            theme::QUIET_CALLOUT,
        ),
        Fact::AllMisfired { players } => Anim::Callout(
            format!("Every die misfired: {} roll again", names(players)),
            theme::QUIET_CALLOUT,
        ),
        Fact::BattleWon { winner, dice, .. } => {
            return Some(Anim::TakeAll(*winner)).filter(|_| !dice.is_empty());
        }
        Fact::DoubleMeganuke { .. } => Anim::Destroy,
        Fact::WorldEnds { .. } => Anim::WorldEnds,
        Fact::CalledOff { .. } => Anim::Callout(
            "Nobody at War can roll: the dice go back".into(),
            theme::QUIET_CALLOUT,
        ),
        Fact::Eliminated { player } => Anim::Callout(
            format!("{} is out of dice and out of the game", name(player)),
            theme::QUIET_CALLOUT,
        ),
        Fact::FinalBattleBegins { players } => Anim::Callout(
            format!(
                "THE FINAL BATTLE: {} against {}",
                name(&players[0]),
                name(&players[1])
            ),
            theme::EMPHASIS,
        ),
        Fact::Volley(v) => {
            Anim::Volley(v.player, v.dice.iter().map(|d| (d.kind, d.face)).collect())
        }
        _ => return None,
    })
}

/// Plays the animations that are due.
pub(super) fn play_anims(
    mut commands: Commands,
    mut timeline: ResMut<Timeline<Anim>>,
    mut callout: ResMut<Callout>,
    table: Res<Session<BattleTanks>>,
    shown_dice: ShownDice,
    assets: Option<Res<DiceAssets>>,
    mut landed: Local<usize>,
    time: Res<Time>,
) {
    let Some(assets) = assets else { return };
    let now = time.elapsed_secs();
    let n = table.state().player_count();
    for (start, anim) in timeline.due(now) {
        match anim {
            Anim::Callout(text, color) => callout.show(text, color, start, 1.6),
            Anim::Roll(dice) => {
                let mut roll = Roll {
                    commands: &mut commands,
                    assets: &assets,
                    shown_dice: &shown_dice,
                    n,
                    start,
                };
                roll.onto_battlefield(&mut landed, &dice);
            }
            Anim::TakeAll(winner) => {
                take_all(&mut commands, &shown_dice, n, start, winner);
                callout.text = Some((
                    format!(
                        "{} takes the Battlefield",
                        table.state().player_name(winner)
                    ),
                    seat_color(winner),
                ));
                callout.until = start + 1.4;
                *landed = 0;
            }
            Anim::Destroy | Anim::WorldEnds => {
                let world = matches!(anim, Anim::WorldEnds);
                destroy(
                    &mut commands,
                    &shown_dice,
                    &assets,
                    &mut callout,
                    start,
                    world,
                );
                *landed = 0;
            }
            Anim::Volley(player, dice) => {
                let mut roll = Roll {
                    commands: &mut commands,
                    assets: &assets,
                    shown_dice: &shown_dice,
                    n,
                    start,
                };
                roll.volley(player, &dice);
            }
            Anim::Settle(state) => {
                for (e, _, _) in &shown_dice {
                    commands.entity(e).despawn();
                }
                draw_dice(&mut commands, &assets, &state);
                *landed = state.battlefield().len();
                commands.insert_resource(Shown(*state));
            }
        }
    }
}

/// What a roll's dice fly with: the commands, the dice's assets, the dice drawn in the
/// arsenals (which the rolled ones leave), the number of seats and the roll's start.
struct Roll<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    assets: &'a DiceAssets,
    shown_dice: &'a ShownDice<'a, 'a>,
    n: usize,
    start: f32,
}

impl Roll<'_, '_, '_> {
    /// Flies the rolled dice from their owners' arsenals onto the Battlefield, each
    /// landing after the `landed` before it.
    fn onto_battlefield(&mut self, landed: &mut usize, dice: &[BattleDie]) {
        let (n, start) = (self.n, self.start);
        let on_field = self
            .shown_dice
            .iter()
            .filter(|(_, d, _)| d.on_battlefield && d.owner.is_some())
            .count();
        *landed = (*landed).max(on_field);
        let mut taken: Vec<Entity> = Vec::new();
        for d in dice {
            // The die leaves its owner's arsenal.
            let from = self
                .shown_dice
                .iter()
                .find(|(e, s, _)| {
                    !s.on_battlefield
                        && s.owner == Some(d.owner)
                        && s.kind == d.kind
                        && !taken.contains(e)
                })
                .map(|(e, _, tf)| (e, tf.translation));
            let from = match from {
                Some((e, at)) => {
                    taken.push(e);
                    self.commands.entity(e).despawn();
                    at
                }
                None => seat_point(d.owner, n, SEAT_RADIUS) + Vec3::Y * 0.3,
            };
            let to = battlefield_spot(*landed) + Vec3::Y * die_size(d.kind) / 2.0;
            *landed += 1;
            let yaw = die_yaw(d.id);
            spawn_die(
                self.commands,
                self.assets,
                Some(d.owner),
                d.kind,
                Transform::from_translation(from),
                (
                    Flight {
                        from,
                        to,
                        start,
                        seconds: 1.1,
                        spin: Vec3::new(yaw.sin(), 0.4, yaw.cos()).normalize(),
                        end: showing(d.face, yaw),
                        vanish: false,
                    },
                    ShownDie {
                        owner: Some(d.owner),
                        kind: d.kind,
                        on_battlefield: true,
                    },
                ),
            );
        }
    }

    /// Flies `player`'s whole arsenal out in rows towards the middle: the Final Battle's
    /// volley, each die on the face the rules rolled.
    fn volley(&mut self, player: PlayerId, dice: &[(DieKind, u8)]) {
        let (n, start) = (self.n, self.start);
        let toward = -seat_point(player, n, 1.0);
        let base = seat_point(player, n, 2.2);
        let side = Vec3::new(toward.z, 0.0, -toward.x);
        let mut taken: Vec<Entity> = Vec::new();
        for (i, (kind, face)) in dice.iter().enumerate() {
            let from = self
                .shown_dice
                .iter()
                .find(|(e, s, _)| {
                    !s.on_battlefield && s.owner == Some(player) && !taken.contains(e)
                })
                .map(|(e, _, tf)| (e, tf.translation));
            let from = match from {
                Some((e, at)) => {
                    taken.push(e);
                    self.commands.entity(e).despawn();
                    at
                }
                None => seat_point(player, n, SEAT_RADIUS),
            };
            let row = (i / 8) as f32;
            let col = (i % 8) as f32 - 3.5;
            let to =
                base + side * col * 0.5 - toward * row * 0.55 + Vec3::Y * die_size(*kind) / 2.0;
            let yaw = die_yaw(u32::try_from(i).unwrap_or(0) + u32::from(player.0) * 50);
            spawn_die(
                self.commands,
                self.assets,
                Some(player),
                *kind,
                Transform::from_translation(from),
                (
                    Flight {
                        from,
                        to,
                        start,
                        seconds: 1.2,
                        spin: Vec3::new(yaw.cos(), 0.3, yaw.sin()).normalize(),
                        end: showing(*face, yaw),
                        vanish: false,
                    },
                    ShownDie {
                        owner: Some(player),
                        kind: *kind,
                        on_battlefield: true,
                    },
                ),
            );
        }
    }
}

/// Flies every die on the Battlefield to `winner`'s arsenal (the War rings vanish).
fn take_all(
    commands: &mut Commands,
    shown_dice: &ShownDice,
    n: usize,
    start: f32,
    winner: PlayerId,
) {
    let to = seat_point(winner, n, SEAT_RADIUS) + Vec3::Y * 0.3;
    for (e, d, tf) in shown_dice {
        if !d.on_battlefield {
            continue;
        }
        if d.owner.is_none() {
            commands.entity(e).despawn();
            continue;
        }
        commands.entity(e).insert(Flight {
            from: tf.translation,
            to,
            start,
            seconds: 1.0,
            spin: Vec3::Y,
            end: tf.rotation,
            vanish: true,
        });
    }
}

/// A Meganuke's blast: every die on the Battlefield (or, when the `world` ends, every die)
/// is gone, and the banner says so.
fn destroy(
    commands: &mut Commands,
    shown_dice: &ShownDice,
    assets: &DiceAssets,
    callout: &mut Callout,
    start: f32,
    world: bool,
) {
    for (e, d, _) in shown_dice {
        if d.on_battlefield || world {
            commands.entity(e).despawn();
        }
    }
    commands.spawn((
        DespawnOnExit(GameScreen::BattleTanks),
        Effect::growing(
            start,
            if world { 2.4 } else { 1.6 },
            if world { 14.0 } else { 4.0 },
        ),
        Mesh3d(assets.blast.clone()),
        MeshMaterial3d(assets.blast_fire.clone()),
        Transform::from_xyz(0.0, 0.3, 0.0).with_scale(Vec3::splat(0.01)),
    ));
    callout.text = Some((
        if world {
            "TRIPLE MEGANUKE — THE WORLD IS DESTROYED".to_string()
        } else {
            "DOUBLE MEGANUKE — absolute destruction: every die on the Battlefield is gone"
                .to_string()
        },
        theme::DESTRUCTION,
    ));
    callout.until = start + if world { 3.5 } else { 1.8 };
}

/// Flies the dice in flight along their arcs, tumbling onto their faces.
pub(super) fn fly(
    mut commands: Commands,
    mut flights: Query<(Entity, &Flight, &mut Transform)>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    for (e, f, mut tf) in &mut flights {
        let t = ((now - f.start) / f.seconds).clamp(0.0, 1.0);
        let arc = 4.0 * t * (1.0 - t) * 2.2;
        tf.translation = f.from.lerp(f.to, t) + Vec3::Y * arc;
        tf.rotation = f.end * Quat::from_axis_angle(f.spin, (1.0 - t) * 4.0 * TAU);
        if t >= 1.0 {
            if f.vanish {
                commands.entity(e).despawn();
            } else {
                commands.entity(e).remove::<Flight>();
            }
        }
    }
}
