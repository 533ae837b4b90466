//! The Tank Combat table: each tank at its seat round the table with its tableau beside it
//! (HP, breech, Ablative Armor, safeties, hazards, kills, Adrenaline, Spawn Shield), the
//! deck and the face-up discard pile in the middle, and the hand of the seat at the screen
//! as readable cards. Attacks fly as tracers, Smoke rises in a cloud, damage floats up
//! with its arithmetic, a destroyed tank burns and comes back with its Spawn Shield.

use std::f32::consts::TAU;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::session::{FactsPlayed, GameClient, Session, SkipAnimations};
use crate::client::core::{ClientSystems, GameScreen, HudSystems};
use crate::client::frame::hud::label_box;
use crate::client::table::effects::{Callout, Effect, TankMeshes, spawn_tank};
use crate::client::table::effects::{Shown, Timeline, forget_shown, queue_played};
use crate::client::table::theme::{self, card_color, seat_color, seat_color_3d};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_combat::{Action, ArmorStep, Card, Fact, Phase, TankCombat};

fn plugin(app: &mut App) {
    app.init_resource::<Timeline<Anim>>()
        .add_systems(OnExit(GameScreen::TankCombat), forget_shown::<TankCombat>)
        .add_systems(
            Update,
            (redraw, play_anims, animate)
                .chain()
                .in_set(ClientSystems::Scene)
                .run_if(
                    in_state(GameScreen::TankCombat)
                        .and_then(resource_exists::<Session<TankCombat>>),
                ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_table_panels
                .in_set(HudSystems::Game)
                .run_if(
                    in_state(GameScreen::TankCombat).and_then(resource_exists::<Shown<TankCombat>>),
                )
                .run_if(resource_exists::<Session<TankCombat>>),
        );
}

impl GameClient for TankCombat {
    const SCREEN: GameScreen = GameScreen::TankCombat;

    fn scene(app: &mut App) {
        plugin(app);
    }

    fn offered(&self, player: PlayerId) -> Vec<Action> {
        match self.phase() {
            // Everyone asked sees the same two buttons, whether or not they hold Smoke.
            Phase::Window(_) => vec![Action::Smoke, Action::Pass],
            _ => self.legal_actions(player),
        }
    }

    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::Load { .. } => "Load",
            Action::Fire { .. } | Action::LoadAndFire { .. } => "Fire",
            Action::CoaxialMg { .. } => "Coaxial MG",
            Action::Sabotage { .. } => "Sabotage",
            Action::Repair { .. } => "Repair",
            Action::Equip { .. } => "Equip",
            Action::Discard { .. } => "Discard",
            Action::Swap { .. } => "Swap (free)",
            Action::Smoke | Action::Pass => "Interrupt",
        }
        .to_string()
    }

    fn action_hint(&self, action: &Action) -> Option<String> {
        let card = match action {
            Action::Load { card }
            | Action::LoadAndFire { card, .. }
            | Action::Equip { card }
            | Action::Discard { card }
            | Action::Swap { card } => *card,
            Action::Sabotage { hazard, .. } => *hazard,
            Action::Repair { remedy, .. } => *remedy,
            Action::Fire { .. } => Card::Fire,
            Action::CoaxialMg { .. } => Card::CoaxialMg,
            Action::Smoke => Card::SmokeLaunchers,
            Action::Pass => return Some("Let the attack through".into()),
        };
        Some(format!("{}: {}", card.name(), card.text()))
    }

    fn fact_seconds(&self, fact: &Fact) -> f32 {
        anim_seconds(fact)
    }

    /// The hand of the seat at the screen (every hand for a spectator or a replay).
    fn seat_panel(&self, ui: &mut egui::Ui, viewer: Option<PlayerId>) {
        ui.set_min_width(720.0);
        let n = self.player_count();
        let hands: Vec<(PlayerId, Vec<Card>)> = match viewer {
            Some(v) => vec![(v, self.view(v).hand)],
            None => (0..n)
                .filter_map(|i| u8::try_from(i).ok())
                .map(|i| (PlayerId(i), self.view(PlayerId(i)).hand))
                .collect(),
        };
        egui::ScrollArea::vertical()
            .id_salt("hands")
            .max_height(300.0)
            .show(ui, |ui| {
                for (p, hand) in &hands {
                    ui.label(
                        egui::RichText::new(format!(
                            "{}'s hand ({} cards)",
                            self.player_name(*p),
                            hand.len()
                        ))
                        .strong()
                        .color(seat_color(*p)),
                    );
                    if viewer.is_some() {
                        // Wrapped, so that every card of a full hand shows (a sixth on a
                        // second row).
                        ui.horizontal_wrapped(|ui| {
                            for c in hand {
                                card_widget(ui, *c);
                            }
                        });
                    } else {
                        // Every hand at once (bots only, or a replay): names, to keep the
                        // table in sight; the card text is in each name's tooltip.
                        ui.horizontal_wrapped(|ui| {
                            for c in hand {
                                chip(ui, c.name(), card_color(*c)).on_hover_text(c.text());
                            }
                        });
                    }
                }
            });
        ui.separator();
    }
}

fn anim_seconds(fact: &Fact) -> f32 {
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

#[derive(Component)]
struct Drawn;

/// A tank at its seat.
#[derive(Component)]
struct SeatTank;

/// Text that floats up from a tank.
#[derive(Component)]
struct Floater {
    at: Vec3,
    text: String,
    color: egui::Color32,
    born: f32,
}

const SEAT_RADIUS: f32 = 4.2;

fn seat_point(player: PlayerId, seats: usize) -> Vec3 {
    // Seat 1 on the left, the others round the table from there.
    let a = TAU * f32::from(player.0) / seats.max(1) as f32 - std::f32::consts::FRAC_PI_2;
    Vec3::new(a.sin(), 0.0, a.cos()) * SEAT_RADIUS
}

fn redraw(
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
    let mut mat = |c: Color| {
        materials.add(StandardMaterial {
            base_color: c,
            perceptual_roughness: 0.8,
            ..default()
        })
    };
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        Mesh3d(meshes.add(Cylinder::new(6.2, 0.2))),
        MeshMaterial3d(mat(theme::COMBAT_TABLE)),
        Transform::from_xyz(0.0, -0.1, 0.0),
    ));
    // The deck and the discard pile.
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        Mesh3d(meshes.add(Cuboid::new(0.7, 0.35, 1.0))),
        MeshMaterial3d(mat(theme::DECK)),
        Transform::from_xyz(-0.6, 0.175, 0.0),
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        Mesh3d(meshes.add(Cuboid::new(0.7, 0.12, 1.0))),
        MeshMaterial3d(mat(theme::DISCARD)),
        Transform::from_xyz(0.6, 0.06, 0.0),
    ));
    commands.spawn((
        Drawn,
        DespawnOnExit(GameScreen::TankCombat),
        crate::client::table::effects::table_light(8_500.0),
        Transform::from_xyz(-4.0, 12.0, 7.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    let tank = TankMeshes::new(&mut meshes);
    let dark = mat(theme::TANK_DARK);
    let n = game.player_count();
    for i in 0..n {
        let Ok(seat) = u8::try_from(i) else { continue };
        let p = PlayerId(seat);
        let at = seat_point(p, n);
        let paint = mat(seat_color_3d(p));
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
    // The table's rim, and the tanks standing on it.
    framing.show(
        crate::client::table::framing::disc_outline(Vec3::ZERO, 6.2, 1.0),
        false,
    );
}

fn anim_of(game: &TankCombat, fact: &Fact) -> Option<Anim> {
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

fn play_anims(
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
            Anim::Smoke(p) => {
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
                commands.spawn((
                    DespawnOnExit(GameScreen::TankCombat),
                    Effect::growing(start, 1.2, 1.8),
                    Mesh3d(meshes.add(crate::client::table::shapes::sphere(0.6))),
                    MeshMaterial3d(materials.add(StandardMaterial {
                        base_color: theme::FLAME,
                        emissive: theme::BURN_GLOW,
                        ..default()
                    })),
                    Transform::from_translation(seat_point(p, n) + Vec3::Y * 0.4)
                        .with_scale(Vec3::splat(0.01)),
                ));
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

fn animate(mut commands: Commands, floaters: Query<(Entity, &Floater)>, time: Res<Time>) {
    let now = time.elapsed_secs();
    for (e, f) in &floaters {
        if now - f.born > 2.0 {
            commands.entity(e).despawn();
        }
    }
}

/// A card as a player reads it: its name, what it is, and what it does.
fn card_widget(ui: &mut egui::Ui, card: Card) {
    egui::Frame::new()
        .fill(theme::CARD_FACE)
        .stroke(egui::Stroke::new(3.0, card_color(card)))
        .corner_radius(6.0)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(112.0);
            ui.set_height(118.0);
            ui.vertical(|ui| {
                ui.label(
                    egui::RichText::new(card.name())
                        .strong()
                        .size(14.0)
                        .color(card_color(card)),
                );
                ui.label(
                    egui::RichText::new(format!("{:?}", card.kind()))
                        .size(10.5)
                        .color(theme::CARD_KIND_TEXT),
                );
                ui.add(
                    egui::Label::new(
                        egui::RichText::new(card.text())
                            .size(11.5)
                            .color(theme::CARD_TEXT),
                    )
                    .wrap(),
                );
            });
        });
}

/// A coloured tag. Laid out as one unbreakable widget, so that a row of them wraps
/// between tags, never inside one.
fn chip(ui: &mut egui::Ui, text: &str, color: egui::Color32) -> egui::Response {
    ui.add(
        egui::Button::new(
            egui::RichText::new(text)
                .size(11.5)
                .color(theme::TEXT_BRIGHT),
        )
        .fill(color)
        .corner_radius(4.0)
        .wrap_mode(egui::TextWrapMode::Extend)
        .sense(egui::Sense::hover()),
    )
}

fn draw_table_panels(
    mut contexts: EguiContexts,
    shown: Res<Shown<TankCombat>>,
    table: Res<Session<TankCombat>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    floaters: Query<&Floater>,
    time: Res<Time>,
) -> Result {
    if table.pass_to.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The camera's pixels in the panels' points (the interface may be scaled).
    let zoom = ctx.zoom_factor();
    if !floaters.is_empty() {
        // Floating numbers rise and fade with time, not with the state.
        ctx.request_repaint();
    }
    let (camera, eye) = *camera;
    let game = &shown.0;
    let live = table.state();
    let now = time.elapsed_secs();
    let n = game.player_count();
    let viewer = table.viewer;
    let view = game.view(viewer.unwrap_or(PlayerId(0)));
    // Tableaus beside each tank, none over another.
    let mut placer = crate::client::frame::hud::Placer::default();
    for t in &view.tanks {
        let Ok(at) = camera
            .world_to_viewport(eye, seat_point(t.player, n) + Vec3::Y * 0.9)
            .map(|p| p / zoom)
        else {
            continue;
        };
        // Above the tank, or below it when it stands near the top of the window.
        let corner = egui::pos2(
            at.x - 95.0,
            if at.y > 250.0 {
                at.y - 165.0
            } else {
                at.y + 45.0
            },
        );
        let size = ctx
            .memory(|m| m.area_rect(egui::Id::new(("tableau", t.player.0))))
            .map_or(egui::vec2(190.0, 90.0), |r| r.size());
        let corner = corner + placer.place(egui::Rect::from_min_size(corner, size));
        egui::Area::new(egui::Id::new(("tableau", t.player.0)))
            .fixed_pos(corner)
            .order(egui::Order::Background)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .fill(theme::TABLEAU_FILL)
                    .stroke(egui::Stroke::new(
                        if live.to_act().contains(&t.player) {
                            2.5
                        } else {
                            1.0
                        },
                        seat_color(t.player),
                    ))
                    .corner_radius(5.0)
                    .inner_margin(5.0)
                    .show(ui, |ui| {
                        ui.set_width(180.0);
                        ui.label(
                            egui::RichText::new(format!(
                                "{} {} · {}",
                                crate::client::frame::hud::seat_mark(t.player),
                                t.name,
                                t.class.name()
                            ))
                            .strong()
                            .color(seat_color(t.player)),
                        )
                        .on_hover_text(format!(
                            "Passive: {}\nAdrenaline (at {} HP or less): {}",
                            t.class.passive(),
                            game.rules().adrenaline_at,
                            t.class.adrenaline()
                        ));
                        let frac = f32::from(t.hp) / f32::from(t.max_hp.max(1));
                        ui.add(
                            egui::ProgressBar::new(frac)
                                .text(format!("{} / {} HP", t.hp, t.max_hp))
                                .fill(if frac > 0.5 {
                                    theme::HP_HIGH
                                } else if frac > 0.25 {
                                    theme::HP_MID
                                } else {
                                    theme::HP_LOW
                                }),
                        );
                        ui.label(format!(
                            "hand {}/{} · breech: {}",
                            t.hand_count,
                            t.hand_limit,
                            match (t.breech, t.breech_ready) {
                                (Some(c), true) => format!("{} (ready)", c.name()),
                                (Some(c), false) => format!("{} (next turn)", c.name()),
                                (None, _) => "empty".into(),
                            }
                        ));
                        ui.horizontal_wrapped(|ui| {
                            if t.armor > 0 {
                                chip(
                                    ui,
                                    &format!("Armor ×{}", t.armor),
                                    card_color(Card::AblativeArmor),
                                );
                            }
                            for s in &t.safeties {
                                chip(ui, s.name(), card_color(*s));
                            }
                            for h in &t.hazards {
                                chip(ui, h.name(), card_color(*h));
                            }
                            if t.adrenaline {
                                chip(ui, "ADRENALINE", theme::CHIP_ADRENALINE);
                            }
                            if t.spawn_shield {
                                chip(ui, "Spawn Shield", theme::CHIP_SPAWN_SHIELD);
                            }
                            if t.destroyed {
                                chip(ui, "DESTROYED", theme::CHIP_DESTROYED);
                            }
                            if game.mode() != crate::rules::tank_combat::Mode::Duel {
                                chip(ui, &format!("kills {}", t.kills), theme::CHIP_KILLS);
                            }
                        });
                    });
            });
    }
    // The deck and the discard pile.
    if let Ok(at) = camera
        .world_to_viewport(eye, Vec3::new(0.0, 0.5, 0.75))
        .map(|p| p / zoom)
    {
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
        for f in &floaters {
            let age = now - f.born;
            if age < 0.0 {
                continue;
            }
            if let Ok(p) = camera
                .world_to_viewport(eye, f.at + Vec3::Y * age * 0.6)
                .map(|p| p / zoom)
            {
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
    // The pending attack, as everyone sees it.
    if let Some(a) = live.view(viewer.unwrap_or(PlayerId(0))).attack {
        egui::Window::new("attack")
            .title_bar(false)
            .resizable(false)
            .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
            .show(ctx, |ui| {
                ui.label(
                    egui::RichText::new(format!(
                        "ATTACK: {} attacks {} with {}",
                        live.player_name(a.attacker),
                        live.player_name(a.target),
                        a.card.name()
                    ))
                    .strong()
                    .color(theme::ATTACK_TEXT),
                );
                ui.label(format!(
                    "would do {} damage (base {}): HP {} down to {}",
                    a.preview.final_damage, a.preview.base, a.preview.hp_before, a.preview.hp_after
                ));
                if a.awaiting_toll {
                    ui.label("The attacker must first discard a card (the Light's Adrenaline toll).");
                }
                if let Some(p) = a.asking {
                    ui.label(format!(
                        "Smoke? {} is asked. Everyone who could play Smoke is asked in turn, holding it or not.",
                        live.player_name(p)
                    ));
                }
            });
    }
    Ok(())
}
