//! The Tank Chess panels: whose move it is with CHECK / ESCAPE banners, the move list in
//! notation (clickable in a replay), the moves to the chosen square as buttons, the square
//! coordinates along the board's edges and the compass letters.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::chess_board::{moves_to, square_to_world};
use super::chess_session::{ChessOrder, ChessPick, ChessTable};
use crate::framework::Game;
use crate::rules::tank_chess::{Action, Announcement, Square, side_name};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (draw_labels, draw_panels)
            .chain()
            .run_if(in_state(Screen::Chess).and_then(resource_exists::<ChessTable>))
            .run_if(not(resource_exists::<super::Clean>)),
    );
}

fn draw_labels(
    mut contexts: EguiContexts,
    table: Res<ChessTable>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (camera, eye) = *camera;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("chess labels"),
    ));
    let game = table.board();
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
    table: Res<ChessTable>,
    pick: Res<ChessPick>,
    mut orders: MessageWriter<ChessOrder>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = table.board().clone();
    egui::Window::new("chess banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 4.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui.button("☰ Menu").clicked() {
                    next.set(Screen::Menu);
                }
                if ui
                    .button("Save")
                    .on_hover_text("Save the game in the rulebook's notation")
                    .clicked()
                {
                    orders.write(ChessOrder::Save);
                }
                let can_undo = table.replay.is_none() && !table.moves.is_empty();
                if ui
                    .add_enabled(can_undo, egui::Button::new("Take back"))
                    .on_disabled_hover_text("Nothing to take back")
                    .clicked()
                {
                    orders.write(ChessOrder::Undo);
                }
                ui.label(format!(
                    "{} · {}",
                    game.name(),
                    if game.player_count() > 2 {
                        "everyone against everyone"
                    } else if game.announced() {
                        "announced play"
                    } else {
                        "play to the kill"
                    }
                ));
            });
            let (text, color) = match game.outcome() {
                Some(o) => (
                    match o.winners.first() {
                        Some(w) => format!("{} wins: {}", side_name(*w), o.reason),
                        None => format!("Draw: {}", o.reason),
                    },
                    egui::Color32::GOLD,
                ),
                None if table.replay.is_some() => (
                    format!(
                        "Replay · move {} · {} to move: step with the buttons or click a move in the list",
                        game.plies() / 2 + 1,
                        side_name(game.to_move())
                    ),
                    egui::Color32::LIGHT_BLUE,
                ),
                None => (
                    format!(
                        "Move {} · {} to move{}",
                        game.plies() / 2 + 1,
                        side_name(game.to_move()),
                        if table.bot.is_some_and(|(s, _)| s == game.to_move()) {
                            " (the bot is thinking)"
                        } else {
                            ": click a piece, then a blue square"
                        }
                    ),
                    egui::Color32::WHITE,
                ),
            };
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(text).size(18.0).strong().color(color));
                if game.player_count() > 2 {
                    let points = game.points();
                    let line: Vec<String> = points
                        .iter()
                        .enumerate()
                        .map(|(i, p)| format!("{} {p}", side_name(crate::framework::PlayerId(u8::try_from(i).unwrap_or(0)))))
                        .collect();
                    ui.label(format!("Points: {}", line.join(" · ")))
                        .on_hover_text("1 per own piece left, 1 per enemy destroyed, 2 per Command tank destroyed");
                }
                if let Some(clock) = table.clock {
                    let fmt = |s: f32| {
                        #[allow(
                            clippy::cast_possible_truncation,
                            clippy::cast_sign_loss,
                            reason = "clock seconds are small"
                        )]
                        let s = s.ceil() as u32;
                        format!("{}:{:02}", s / 60, s % 60)
                    };
                    let line: Vec<String> = clock
                        .iter()
                        .take(game.player_count())
                        .enumerate()
                        .map(|(i, t)| {
                            let seat = crate::framework::PlayerId(u8::try_from(i).unwrap_or(0));
                            format!("{} {}", side_name(seat), fmt(*t))
                        })
                        .collect();
                    ui.label(egui::RichText::new(line.join("   ·   ")).size(16.0).monospace());
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
                if let Some(n) = &table.notice {
                    ui.label(egui::RichText::new(n).color(egui::Color32::from_rgb(255, 190, 90)));
                }
            });
        });
    let mut seek = None;
    egui::Window::new("Moves")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 90.0])
        .default_width(260.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(420.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for (i, (action, facts)) in table.moves.iter().enumerate() {
                        let text =
                            crate::rules::tank_chess::notation::move_text(action, Some(facts));
                        let line = if i % 2 == 0 {
                            format!("{}. {text}", i / 2 + 1)
                        } else {
                            format!("    … {text}")
                        };
                        if ui.selectable_label(false, line).clicked() && table.replay.is_some() {
                            seek = Some(i + 1);
                        }
                    }
                });
            if let Some(actions) = &table.replay {
                ui.separator();
                ui.label(format!(
                    "Replay: move {} of {}",
                    table.moves.len(),
                    actions.len()
                ));
                ui.horizontal(|ui| {
                    if ui.button("|◀").clicked() {
                        seek = Some(0);
                    }
                    if ui.button("◀").clicked() {
                        seek = Some(table.moves.len().saturating_sub(1));
                    }
                    if ui.button("▶").clicked() {
                        seek = Some(table.moves.len() + 1);
                    }
                    if ui.button("▶|").clicked() {
                        seek = Some(actions.len());
                    }
                });
            }
        });
    if let Some(n) = seek {
        orders.write(ChessOrder::Seek(n));
    }
    // The moves to the chosen square: one button per end facing and shot.
    if let Some(dest) = pick.dest {
        egui::Window::new(format!("Moves to {dest}"))
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
            .resizable(false)
            .show(ctx, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for a in moves_to(table.legal(), pick.piece, dest) {
                        let mut label = crate::rules::tank_chess::notation::move_text(&a, None);
                        if let Action::Move { fire: Some(t), .. } = a
                            && let Some(victim) = game.piece_at(t)
                        {
                            label.push_str(&format!(" destroys the {}", victim.label()));
                        }
                        if ui.button(label).clicked() {
                            orders.write(ChessOrder::Play(a));
                        }
                    }
                });
            });
    } else if let Some(from) = pick.piece
        && let Some(p) = game.piece_at(from)
    {
        let stats = game.rules().stats(p.kind);
        egui::Window::new("Selected")
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
            .resizable(false)
            .title_bar(false)
            .show(ctx, |ui| {
                let escape = Action::Escape { from };
                if table.legal().contains(&escape)
                    && ui
                        .button(egui::RichText::new("Drive off the board (escape)").strong())
                        .on_hover_text("This piece can leave the board across the far edge this move")
                        .clicked()
                {
                    orders.write(ChessOrder::Play(escape));
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
