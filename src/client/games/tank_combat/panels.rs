//! The Tank Combat panels: each tank's tableau beside it on the table, the pending attack
//! in the corner, and the cards and tags the hands are drawn with.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::anims::Floater;
use super::table::{draw_labels, seat_point};
use crate::client::core::session::Session;
use crate::client::table::effects::Shown;
use crate::client::table::theme::{self, card_color, seat_color};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_combat::{Card, CombatView, TankCombat, TankView};

/// A card as a player reads it: its name, what it is, and what it does.
pub(super) fn card_widget(ui: &mut egui::Ui, card: Card) {
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
pub(super) fn chip(ui: &mut egui::Ui, text: &str, color: egui::Color32) -> egui::Response {
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

/// Draws the tableaus beside the tanks, the piles' labels and the pending attack.
pub(super) fn draw_table_panels(
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
    let screen = |p: Vec3| camera.world_to_viewport(eye, p).map(|p| p / zoom).ok();
    let game = &shown.0;
    let live = table.state();
    let now = time.elapsed_secs();
    let viewer = table.viewer;
    let view = game.view(viewer.unwrap_or(PlayerId(0)));
    draw_tableaus(ctx, &screen, game, live, &view);
    // The deck and the discard pile.
    draw_labels(ctx, &screen, &view, &floaters, now);
    // The pending attack, as everyone sees it.
    attack_window(ctx, live, viewer);
    Ok(())
}

/// Draws the tableaus beside each tank, none over another.
fn draw_tableaus(
    ctx: &egui::Context,
    screen: &impl Fn(Vec3) -> Option<Vec2>,
    game: &TankCombat,
    live: &TankCombat,
    view: &CombatView,
) {
    let n = game.player_count();
    let mut placer = crate::client::frame::hud::Placer::default();
    for t in &view.tanks {
        let Some(at) = screen(seat_point(t.player, n) + Vec3::Y * 0.9) else {
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
                    .show(ui, |ui| tableau(ui, game, t));
            });
    }
}

/// One tank's tableau: its name and class, HP, hand and breech, and its tags.
fn tableau(ui: &mut egui::Ui, game: &TankCombat, t: &TankView) {
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
    ui.horizontal_wrapped(|ui| tableau_chips(ui, game, t));
}

/// A tableau's tags: armor, safeties, hazards, Adrenaline, Spawn Shield, kills.
fn tableau_chips(ui: &mut egui::Ui, game: &TankCombat, t: &TankView) {
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
}

/// The pending attack in the corner: who attacks whom with what, what it would do, and
/// who is asked about Smoke.
fn attack_window(ctx: &egui::Context, live: &TankCombat, viewer: Option<PlayerId>) {
    let Some(a) = live.view(viewer.unwrap_or(PlayerId(0))).attack else {
        return;
    };
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
