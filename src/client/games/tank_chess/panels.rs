//! The Tank Chess panels beside the shared frame: CHECK and ESCAPE called out, the Four
//! Players points, the chess clock, the moves to the chosen square as buttons (in the
//! rulebook's notation, with the piece each shot destroys), the selected piece's card,
//! and the square coordinates along the board's edges.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::board::square_to_world;
use super::{ChessClock, ChessPick, moves_to};
use crate::client::input::PanelOrder;
use crate::client::session::{Legal, Order, Session};
use crate::client::{Clean, GameScreen, HudSystems};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_chess::{Action, Announcement, Square, TankChess, side_name};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (draw_labels, draw_panels)
            .chain()
            .in_set(HudSystems::Game)
            .run_if(in_state(GameScreen::TankChess).and_then(resource_exists::<Session<TankChess>>))
            .run_if(not(resource_exists::<Clean>)),
    );
}

fn draw_labels(
    mut contexts: EguiContexts,
    session: Res<Session<TankChess>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (camera, eye) = *camera;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("chess labels"),
    ));
    let game = session.state();
    let (w, h) = game.size();
    let put = |world: Vec3, text: String, size: f32| {
        if let Ok(p) = camera.world_to_viewport(eye, world) {
            painter.text(
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(size),
                egui::Color32::from_rgb(235, 225, 200),
            );
        }
    };
    for col in 0..w {
        let sq = Square { col, row: 0 };
        let p = square_to_world(game, sq) + Vec3::new(0.0, 0.0, 0.85);
        put(p, char::from(b'A' + col).to_string(), 13.0);
    }
    for row in 0..h {
        let sq = Square { col: 0, row };
        let p = square_to_world(game, sq) + Vec3::new(-0.85, 0.0, 0.0);
        put(p, (row + 1).to_string(), 13.0);
    }
    for (text, at) in [
        ("N", Vec3::new(0.0, 0.1, -0.9)),
        ("S", Vec3::new(0.0, 0.1, 0.9)),
        ("E", Vec3::new(0.9, 0.1, 0.0)),
        ("W", Vec3::new(-0.9, 0.1, 0.0)),
    ] {
        put(at, text.into(), 15.0);
    }
    Ok(())
}

fn draw_panels(
    mut contexts: EguiContexts,
    session: Res<Session<TankChess>>,
    legal: Res<Legal<TankChess>>,
    pick: Res<ChessPick>,
    clock: Res<ChessClock>,
    mut orders: MessageWriter<PanelOrder<TankChess>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = session.state();
    egui::Window::new("chess status")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.label(
                    egui::RichText::new(format!(
                        "Move {} · {}",
                        game.plies() / 2 + 1,
                        if game.player_count() > 2 {
                            "everyone against everyone"
                        } else if game.announced() {
                            "announced play"
                        } else {
                            "play to the kill"
                        }
                    ))
                    .strong(),
                );
                if game.player_count() > 2 {
                    let line: Vec<String> = game
                        .points()
                        .iter()
                        .enumerate()
                        .map(|(i, p)| format!("{} {p}", side_name(seat(i))))
                        .collect();
                    ui.label(format!("Points: {}", line.join(" · "))).on_hover_text(
                        "1 per own piece left, 1 per enemy destroyed, 2 per Command tank destroyed",
                    );
                }
                if let Some(left) = clock.0 {
                    let line: Vec<String> = left
                        .iter()
                        .take(game.player_count())
                        .enumerate()
                        .map(|(i, t)| format!("{} {}", side_name(seat(i)), clock_text(*t)))
                        .collect();
                    ui.label(
                        egui::RichText::new(line.join("   ·   "))
                            .size(16.0)
                            .monospace(),
                    );
                }
                if let Some(a) = game.last_announcement() {
                    let word = match a {
                        Announcement::Check => "CHECK",
                        Announcement::Escape => "ESCAPE",
                        Announcement::Checkmate => "CHECKMATE",
                        Announcement::Escapemate => "ESCAPEMATE",
                    };
                    ui.label(
                        egui::RichText::new(word)
                            .size(26.0)
                            .strong()
                            .color(egui::Color32::from_rgb(240, 70, 60)),
                    );
                }
            });
        });
    let Some(player) = session.deciding().filter(|_| session.interactive) else {
        return Ok(());
    };
    let moves = legal.of(player);
    // The moves to the chosen square: one button per end facing and shot. The window
    // keeps one size, so that its buttons never slide under the pointer.
    if let Some(dest) = pick.dest {
        egui::Window::new(format!("Moves to {dest}"))
            .id(egui::Id::new("chess moves"))
            .anchor(egui::Align2::CENTER_BOTTOM, [-170.0, -8.0])
            .resizable(false)
            .fixed_size([560.0, 90.0])
            .show(ctx, |ui| {
                ui.set_min_size(egui::vec2(560.0, 90.0));
                ui.horizontal_wrapped(|ui| {
                    for a in moves_to(moves, pick.piece, dest) {
                        let mut label = crate::rules::tank_chess::notation::move_text(&a, None);
                        if let Action::Move { fire: Some(t), .. } = a
                            && let Some(victim) = game.piece_at(t)
                        {
                            label.push_str(&format!(" destroys the {}", victim.label()));
                        }
                        if ui.button(label).clicked() {
                            orders.write(PanelOrder(Order::Play(player, a)));
                        }
                    }
                });
            });
    } else if let Some(from) = pick.piece
        && let Some(p) = game.piece_at(from)
    {
        let stats = game.rules().stats(p.kind);
        egui::Window::new("Selected")
            .id(egui::Id::new("chess moves"))
            .anchor(egui::Align2::CENTER_BOTTOM, [-170.0, -8.0])
            .resizable(false)
            .title_bar(false)
            .fixed_size([560.0, 90.0])
            .show(ctx, |ui| {
                ui.set_min_size(egui::vec2(560.0, 90.0));
                let escape = Action::Escape { from };
                if moves.contains(&escape)
                    && ui
                        .button(egui::RichText::new("Drive off the board (escape)").strong())
                        .on_hover_text("This piece can leave the board across the far edge this move")
                        .clicked()
                {
                    orders.write(PanelOrder(Order::Play(player, escape)));
                }
                ui.label(format!(
                    "{} ({}) on {from} facing {}: speed {}, firepower {}, armor {}/{}/{}. Click a blue square to see its moves.",
                    p.label(),
                    p.kind.name(),
                    p.facing,
                    stats.speed,
                    stats.firepower,
                    stats.armor.front,
                    stats.armor.side,
                    stats.armor.rear
                ));
            });
    }
    Ok(())
}

fn seat(i: usize) -> PlayerId {
    PlayerId(u8::try_from(i).unwrap_or(0))
}

fn clock_text(seconds: f32) -> String {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clock seconds are small"
    )]
    let s = seconds.ceil() as u32;
    format!("{}:{:02}", s / 60, s % 60)
}
