//! The Tank Chess panels beside the shared frame: CHECK and ESCAPE called out, the Four
//! Players points, the chess clock, the moves to the chosen square as buttons (in the
//! rulebook's notation, with the piece each shot destroys), the selected piece's card,
//! and the square coordinates along the board's edges.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::analysis::ChessAnalysis;
use super::table::square_to_world;
use super::{ChessClock, ChessPick, moves_to};
use crate::client::core::session::{Legal, Order, Session};
use crate::client::core::{Clean, GameScreen, HudSystems};
use crate::client::frame::input::PanelOrder;
use crate::client::table::theme;
use crate::framework::{Game, PlayerId};
use crate::rules::tank_chess::{
    Action, Announcement, PieceState, Square, TankChess, Weapon, side_name,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ChessLabels>();
    crate::client::frame::redraw::watch::<ChessLabels>(app);
    app.add_systems(
        EguiPrimaryContextPass,
        (draw_labels, draw_panels)
            .chain()
            .in_set(HudSystems::Game)
            .run_if(in_state(GameScreen::TankChess).and_then(resource_exists::<Session<TankChess>>))
            .run_if(not(resource_exists::<Clean>)),
    );
}

/// How the pieces are labelled.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessLabels {
    /// A plate with each piece's letters (LT, MT, HT, TD, HM; a C before the Command tank's).
    pub letters: bool,
}

impl Default for ChessLabels {
    fn default() -> Self {
        Self { letters: true }
    }
}

fn draw_labels(
    mut contexts: EguiContexts,
    session: Res<Session<TankChess>>,
    labels: Res<ChessLabels>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The camera's pixels in the panels' points (the interface may be scaled).
    let zoom = ctx.zoom_factor();
    let (camera, eye) = *camera;
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("chess labels"),
    ));
    let game = session.state();
    let (w, h) = game.size();
    let put = |world: Vec3, text: String, size: f32| {
        if let Ok(p) = camera.world_to_viewport(eye, world).map(|p| p / zoom) {
            painter.text(
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(size),
                theme::COORDINATES,
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
    if labels.letters {
        // A small plate above each piece, its letters in the piece's colour.
        for p in game.pieces() {
            if p.state != PieceState::Active {
                continue;
            }
            let world = square_to_world(game, p.at) + Vec3::new(0.0, 0.95, 0.0);
            let Ok(at) = camera.world_to_viewport(eye, world).map(|p| p / zoom) else {
                continue;
            };
            let text = format!("{}{}", if p.command { "C" } else { "" }, p.kind);
            let (fill, ink) = if p.white {
                (theme::CHESS_LABEL_WHITE, theme::CHESS_LABEL_WHITE_INK)
            } else {
                (theme::CHESS_LABEL_BLACK, theme::CHESS_LABEL_WHITE)
            };
            let galley = painter.layout_no_wrap(text, egui::FontId::proportional(11.0), ink);
            let rect = egui::Rect::from_center_size(
                egui::pos2(at.x, at.y),
                galley.size() + egui::vec2(6.0, 2.0),
            );
            let stroke = if p.command {
                egui::Stroke::new(1.5, theme::COMMAND_OUTLINE)
            } else {
                egui::Stroke::new(1.0, theme::LABEL_OUTLINE)
            };
            painter.rect(rect, 3.0, fill, stroke, egui::StrokeKind::Outside);
            painter.galley(rect.min + egui::vec2(3.0, 1.0), galley, ink);
        }
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

/// The rules reference and the rule under the pointer, as the panels change them.
type RuleRefs<'a> = (
    &'a mut crate::client::frame::rules_ref::RulesReference,
    &'a mut crate::client::frame::rules_ref::RuleUnderPointer,
);

fn draw_panels(
    mut contexts: EguiContexts,
    session: Res<Session<TankChess>>,
    legal: Res<Legal<TankChess>>,
    pick: Res<ChessPick>,
    clock: Res<ChessClock>,
    mut analysis: ResMut<ChessAnalysis>,
    mut labels: ResMut<ChessLabels>,
    mut orders: MessageWriter<PanelOrder<TankChess>>,
    (mut reference, mut under): (
        ResMut<crate::client::frame::rules_ref::RulesReference>,
        ResMut<crate::client::frame::rules_ref::RuleUnderPointer>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = session.state();
    egui::Window::new("Tank Chess")
        .id(egui::Id::new("chess status"))
        .collapsible(true)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| status_lines(ui, game, &clock));
            letters_checkbox(ui, &mut labels);
            analysis_section(ui, &session, &mut analysis);
        });
    hover_card(ctx, game, pick.hover);
    let Some(player) = session.deciding().filter(|_| session.interactive) else {
        return Ok(());
    };
    let mut moves = MovesCtx {
        game,
        moves: legal.of(player),
        pick: &pick,
        player,
        orders: &mut orders,
    };
    // The moves to the chosen square: one button per end facing and shot. The window
    // keeps one size, so that its buttons never slide under the pointer.
    if let Some(dest) = pick.dest {
        moves_window(ctx, &mut moves, dest);
    } else if let Some(from) = pick.piece
        && let Some(p) = game.piece_at(from)
    {
        selected_window(ctx, &mut moves, from, p, (&mut reference, &mut under));
    }
    Ok(())
}

/// The status window's centred lines: the move number and mode, the Four Players
/// points, the chess clock, and CHECK, ESCAPE or their mates called out.
fn status_lines(ui: &mut egui::Ui, game: &TankChess, clock: &ChessClock) {
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
        ui.label(format!("Points: {}", line.join(" · ")))
            .on_hover_text(
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
                .color(theme::ANNOUNCEMENT),
        );
    }
}

/// The Piece letters checkbox, which turns the pieces' letter plates on and off.
fn letters_checkbox(ui: &mut egui::Ui, labels: &mut ResMut<ChessLabels>) {
    let mut letters = labels.letters;
    if ui
        .checkbox(&mut letters, "Piece letters")
        .on_hover_text(
            "A plate over each piece: LT, MT, HT, TD, HM, and C before the Command tank's",
        )
        .changed()
    {
        labels.letters = letters;
    }
}

/// The engine's section of the status window (see [`super::analysis::draw`]).
fn analysis_section(
    ui: &mut egui::Ui,
    session: &Session<TankChess>,
    analysis: &mut ResMut<ChessAnalysis>,
) {
    // Through the resource, marked changed only when a control is used.
    let mut view = std::mem::take(analysis.bypass_change_detection());
    let before = (view.bar, view.asked());
    super::analysis::draw(ui, session, &mut view);
    let after = (view.bar, view.asked());
    *analysis.bypass_change_detection() = view;
    if before != after {
        analysis.set_changed();
    }
}

/// What the move windows need: the game, the deciding player's legal moves, the pick,
/// and where the chosen moves go.
struct MovesCtx<'a, 'w> {
    game: &'a TankChess,
    moves: &'a [Action],
    pick: &'a ChessPick,
    player: PlayerId,
    orders: &'a mut MessageWriter<'w, PanelOrder<TankChess>>,
}

/// The window of the moves to the chosen square `dest`: one button per end facing and
/// shot, numbered for their keys.
fn moves_window(ctx: &egui::Context, m: &mut MovesCtx<'_, '_>, dest: Square) {
    egui::Window::new(format!("Moves to {dest}"))
        .id(egui::Id::new("chess moves"))
        .anchor(egui::Align2::CENTER_BOTTOM, [-170.0, -8.0])
        .resizable(false)
        .fixed_size([560.0, 90.0])
        .show(ctx, |ui| {
            ui.set_min_size(egui::vec2(560.0, 90.0));
            ui.horizontal_wrapped(|ui| {
                for (n, a) in moves_to(m.moves, m.pick.piece, dest).enumerate() {
                    let mut label = crate::rules::tank_chess::notation::move_text(&a, None);
                    // The key that plays it, for the first nine (see `MOVE_KEYS`).
                    if n < super::MOVE_KEYS.len() {
                        label = format!("{} · {label}", n + 1);
                    }
                    if let Action::Move { fire: Some(t), .. } = a
                        && let Some(victim) = m.game.piece_at(t)
                    {
                        label.push_str(&format!(" destroys the {}", victim.label()));
                    }
                    if ui.button(label).clicked() {
                        m.orders.write(PanelOrder(Order::Play(m.player, a)));
                    }
                }
            });
        });
}

/// The window of the selected piece on `from`, before a square is chosen: its escape
/// button, why it cannot go where pointed, and what it is.
fn selected_window(
    ctx: &egui::Context,
    m: &mut MovesCtx<'_, '_>,
    from: Square,
    p: &crate::rules::tank_chess::Piece,
    (reference, under): RuleRefs<'_>,
) {
    let game = m.game;
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
            if m.moves.contains(&escape)
                && ui
                    .button(egui::RichText::new("Drive off the board (escape)").strong())
                    .on_hover_text("This piece can leave the board across the far edge this move")
                    .clicked()
            {
                m.orders.write(PanelOrder(Order::Play(m.player, escape)));
            }
            refusal(ui, game, m.pick, from, m.moves, (&mut *reference, &mut *under));
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

/// Why the picked piece cannot end on the square under the pointer, or on the square
/// clicked last, with a link to the rule that says so (F1 over the board opens it too).
fn refusal(
    ui: &mut egui::Ui,
    game: &TankChess,
    pick: &ChessPick,
    from: Square,
    moves: &[Action],
    (reference, under): RuleRefs<'_>,
) {
    let pointed = pick.hover.filter(|sq| {
        *sq != from
            && moves_to(moves, Some(from), *sq).next().is_none()
            && game
                .piece_at(*sq)
                .is_none_or(|p| p.state != PieceState::Active || p.side() != game.to_move())
    });
    let Some(sq) = pointed.or(pick.refused) else {
        return;
    };
    let Some((why, rule)) = game.why_not_to(from, sq) else {
        return;
    };
    if pointed.is_some() {
        under.0 = Some((crate::rules::GameKind::TankChess, rule));
    }
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            theme::WARN,
            format!("✖ {}{}.", why[..1].to_uppercase(), &why[1..]),
        );
        crate::client::frame::rules_ref::rule_link(
            ui,
            reference,
            crate::rules::GameKind::TankChess,
            rule,
        );
    });
}

/// The card of the piece under the pointer: what it is, its speed, gun and armor by side.
fn hover_card(ctx: &egui::Context, game: &TankChess, hover: Option<Square>) {
    let Some(p) = hover.and_then(|sq| game.piece_at(sq)) else {
        return;
    };
    let Some(pointer) = ctx.pointer_hover_pos() else {
        return;
    };
    let stats = game.rules().stats(p.kind);
    let weapon = match stats.weapon {
        Weapon::Turret => "turret gun: ahead, or diagonally ahead to either side".to_string(),
        Weapon::Fixed => "fixed gun: straight ahead only".to_string(),
        Weapon::Mortar { min, max } => {
            format!("mortar: straight ahead, {min} to {max} squares, over anything")
        }
    };
    egui::Area::new(egui::Id::new("chess hover card"))
        .order(egui::Order::Tooltip)
        .fixed_pos(pointer + egui::vec2(18.0, 18.0))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let colour =
                    ["White", "Black", "Flag White", "Flag Black"][usize::from(p.side.min(3))];
                let title = format!(
                    "{colour} {}{}",
                    p.kind.name(),
                    if p.command { " · COMMAND TANK" } else { "" }
                );
                ui.label(egui::RichText::new(title).strong());
                let state = match p.state {
                    PieceState::Active => format!("on {} facing {}", p.at, p.facing),
                    PieceState::Wrecked => format!("wrecked on {}: an obstacle now", p.at),
                    PieceState::Escaped => "escaped".into(),
                };
                ui.label(state);
                ui.label(format!(
                    "speed {} · firepower {}",
                    stats.speed, stats.firepower
                ));
                ui.label(format!(
                    "armor: front {} · side {} · rear {}",
                    stats.armor.front, stats.armor.side, stats.armor.rear
                ));
                ui.label(egui::RichText::new(weapon).weak());
                ui.label(
                    egui::RichText::new(
                        "A shot destroys it when its firepower beats the armor it strikes",
                    )
                    .weak()
                    .small(),
                );
            });
        });
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
