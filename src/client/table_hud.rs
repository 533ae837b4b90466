//! The panels every setup-file game shares: a banner with whose decision it is, the seats
//! (a person or a bot in each), the combat log as the screen's seat may read it, the
//! orders as buttons (a refused one says why), replay controls, the privacy screen between
//! people in hot seat, and the end of the match.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::table_session::{Seat, SkipAnimations, TableBusy, TableClient, TableMatch, TableOrder};
use crate::framework::PlayerId;

pub(super) fn plugin<G: TableClient>(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_panels::<G>
            .run_if(in_state(Screen::Table).and_then(resource_exists::<TableMatch<G>>))
            .run_if(not(resource_exists::<super::Clean>)),
    );
}

/// The colour of a seat: the same in panels and on the table.
#[must_use]
pub fn seat_color(player: PlayerId) -> egui::Color32 {
    const COLORS: [(u8, u8, u8); 8] = [
        (90, 150, 235),
        (225, 85, 70),
        (90, 190, 100),
        (230, 190, 60),
        (170, 110, 220),
        (60, 200, 200),
        (235, 140, 50),
        (200, 200, 200),
    ];
    let (r, g, b) = COLORS[player.index() % COLORS.len()];
    egui::Color32::from_rgb(r, g, b)
}

/// The same colour for the 3D table.
#[must_use]
pub fn seat_color_3d(player: PlayerId) -> Color {
    let c = seat_color(player);
    Color::srgb_u8(c.r(), c.g(), c.b())
}

/// Text on the table, on a dark plate so it reads over any colour.
pub fn label_box(
    painter: &egui::Painter,
    at: egui::Pos2,
    anchor: egui::Align2,
    text: impl Into<String>,
    size: f32,
    color: egui::Color32,
) {
    let galley = painter.layout_no_wrap(text.into(), egui::FontId::proportional(size), color);
    let rect = anchor.anchor_size(at, galley.size());
    painter.rect_filled(
        rect.expand(3.0),
        4.0,
        egui::Color32::from_rgba_unmultiplied(15, 16, 20, 200),
    );
    painter.galley(rect.min, galley, color);
}

const WARN: egui::Color32 = egui::Color32::from_rgb(255, 150, 120);

pub(super) fn draw_panels<G: TableClient>(
    mut contexts: EguiContexts,
    table: Res<TableMatch<G>>,
    busy: Res<TableBusy>,
    time: Res<Time>,
    mut orders: MessageWriter<TableOrder<G>>,
    mut skips: MessageWriter<SkipAnimations>,
    mut next: ResMut<NextState<Screen>>,
    mut log_cache: Local<(u64, Option<PlayerId>, Vec<(Option<usize>, String)>)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let state = table.state();
    let animating = busy.busy(time.elapsed_secs());

    if let Some(p) = table.pass_to {
        privacy_screen(ctx, &state.player_name(p), p, &mut orders);
        return Ok(());
    }

    egui::Window::new("table banner")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .show(ctx, |ui| {
        ui.horizontal(|ui| {
            if ui.button("☰ Menu").clicked() {
                next.set(Screen::Menu);
            }
            if ui
                .button("Save")
                .on_hover_text("Save the match as a record that replays exactly")
                .clicked()
            {
                orders.write(TableOrder::Save);
            }
            let can_undo = table.can_undo();
            if ui
                .add_enabled(can_undo.is_ok(), egui::Button::new("Undo"))
                .on_hover_text("Take back the last person's action (and the bots' answers); the dice rewind too")
                .on_disabled_hover_text(can_undo.err().unwrap_or_default())
                .clicked()
            {
                orders.write(TableOrder::Undo);
            }
            if animating
                && ui
                    .button("Skip animation")
                    .on_hover_text("Space")
                    .clicked()
            {
                skips.write(SkipAnimations);
            }
            ui.separator();
            ui.label(
                egui::RichText::new(G::TITLE)
                    .strong()
                    .color(egui::Color32::from_rgb(230, 200, 120)),
            );
            ui.label(egui::RichText::new(&table.source).weak());
            if table.replay.is_some() {
                ui.label(egui::RichText::new("REPLAY").strong().color(egui::Color32::GOLD));
            }
        });
        let (text, color) = status_line(&table);
        ui.label(egui::RichText::new(text).size(18.0).strong().color(color));
        if let Some(n) = &table.notice {
            ui.colored_label(WARN, n);
        }
    });

    egui::Window::new("Seats and log")
        .resizable(false)
        .collapsible(true)
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0])
        .fixed_size([330.0, 470.0])
        .show(ctx, |ui| {
            ui.heading("Seats");
            seats_panel(ui, &table, &mut orders);
            ui.separator();
            ui.heading("Log");
            if log_cache.0 != table.revision
                || log_cache.1 != table.viewer
                || log_cache.2.is_empty()
            {
                *log_cache = (table.revision, table.viewer, table.log());
            }
            match table.viewer {
                Some(v) if G::SECRETS => {
                    ui.label(
                        egui::RichText::new(format!("as {} may read it", state.player_name(v)))
                            .weak(),
                    );
                }
                _ => {}
            }
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    for (step, line) in &log_cache.2 {
                        let text = if line.starts_with("    ") {
                            egui::RichText::new(line.trim_start()).size(12.5)
                        } else {
                            egui::RichText::new(line).strong().size(13.0)
                        };
                        let r = ui.add(egui::Label::new(text).wrap().sense(egui::Sense::click()));
                        if let (Some(i), Some(_)) = (step, &table.replay)
                            && r.on_hover_text("Go to this moment of the replay").clicked()
                        {
                            orders.write(TableOrder::Seek(i + 1));
                        }
                    }
                });
        });

    egui::Window::new("table orders")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [-170.0, -6.0])
        .max_width(900.0)
        .show(ctx, |ui| {
            state.seat_panel(ui, table.viewer);
            if let Some(actions) = &table.replay {
                replay_controls(ui, table.game.history().len(), actions.len(), &mut orders);
                return;
            }
            if state.outcome().is_some() {
                ui.label("The match is over.");
                return;
            }
            let Some(player) = table.deciding() else {
                let waiting: Vec<String> = state
                    .to_act()
                    .iter()
                    .map(|p| state.player_name(*p))
                    .collect();
                ui.label(format!("The bots are playing: {}", waiting.join(", ")));
                return;
            };
            if animating {
                ui.label("…");
                return;
            }
            ui.label(
                egui::RichText::new(format!("{}, your decision:", state.player_name(player)))
                    .strong()
                    .color(seat_color(player)),
            );
            order_buttons(ui, &table, player, &mut orders);
        });

    if let Some(outcome) = state.outcome()
        && !animating
        && table.replay.is_none()
    {
        egui::Window::new("The end")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [-170.0, 120.0])
            .show(ctx, |ui| {
                let title = match outcome.winners.as_slice() {
                    [] => "No one wins".to_string(),
                    [w] => format!("{} wins", state.player_name(*w)),
                    many => format!(
                        "{} win",
                        many.iter()
                            .map(|w| state.player_name(*w))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                };
                ui.heading(
                    egui::RichText::new(title)
                        .size(26.0)
                        .color(egui::Color32::GOLD),
                );
                ui.label(&outcome.reason);
                ui.label(format!(
                    "{} actions, {} rounds · final state {}",
                    table.game.history().len(),
                    state.rounds(),
                    table.hash_text()
                ));
                ui.horizontal(|ui| {
                    if ui
                        .button("Rematch")
                        .on_hover_text("The same setup and seats, new dice")
                        .clicked()
                    {
                        orders.write(TableOrder::Rematch);
                    }
                    if ui.button("Save replay").clicked() {
                        orders.write(TableOrder::Save);
                    }
                    if ui.button("Main menu").clicked() {
                        next.set(Screen::Menu);
                    }
                });
            });
    }
    Ok(())
}

fn status_line<G: TableClient>(table: &TableMatch<G>) -> (String, egui::Color32) {
    let state = table.state();
    if let Some(o) = state.outcome() {
        let who = match o.winners.as_slice() {
            [] => "No one wins".to_string(),
            ws => {
                ws.iter()
                    .map(|w| state.player_name(*w))
                    .collect::<Vec<_>>()
                    .join(" and ")
                    + " won"
            }
        };
        return (format!("{who}: {}", o.reason), egui::Color32::GOLD);
    }
    let to_act = state.to_act();
    let names: Vec<String> = to_act.iter().map(|p| state.player_name(*p)).collect();
    let color = to_act
        .first()
        .map_or(egui::Color32::WHITE, |p| seat_color(*p));
    let text = match names.len() {
        0 => "Nobody may act".to_string(),
        1 => format!("{} to decide", names[0]),
        _ => format!("Waiting for {}", names.join(", ")),
    };
    (text, color)
}

fn seats_panel<G: TableClient>(
    ui: &mut egui::Ui,
    table: &TableMatch<G>,
    orders: &mut MessageWriter<TableOrder<G>>,
) {
    let state = table.state();
    let to_act = state.to_act();
    for (i, seat) in table.seats.iter().enumerate() {
        let Ok(index) = u8::try_from(i) else { continue };
        let p = PlayerId(index);
        ui.horizontal(|ui| {
            let marker = if to_act.contains(&p) { "▶" } else { " " };
            ui.label(
                egui::RichText::new(format!("{marker} {}", state.player_name(p)))
                    .strong()
                    .color(seat_color(p)),
            );
            let current = match seat {
                Seat::Human => "person".to_string(),
                Seat::Bot(name) => format!("{name} bot"),
            };
            egui::ComboBox::from_id_salt(("seat", i))
                .selected_text(current)
                .width(110.0)
                .show_ui(ui, |ui| {
                    if ui.selectable_label(seat.is_human(), "person").clicked() {
                        orders.write(TableOrder::Sit(p, Seat::Human));
                    }
                    for name in G::bot_names() {
                        let on = matches!(seat, Seat::Bot(n) if n == name);
                        if ui.selectable_label(on, format!("{name} bot")).clicked() {
                            orders.write(TableOrder::Sit(p, Seat::Bot((*name).to_string())));
                        }
                    }
                });
        });
    }
}

fn order_buttons<G: TableClient>(
    ui: &mut egui::Ui,
    table: &TableMatch<G>,
    player: PlayerId,
    orders: &mut MessageWriter<TableOrder<G>>,
) {
    let state = table.state();
    let legal = state.legal_actions(player);
    let offered = state.offered(player);
    let mut groups: Vec<(String, Vec<G::Action>)> = Vec::new();
    for a in offered {
        let g = state.action_group(&a);
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, list)) => list.push(a),
            None => groups.push((g, vec![a])),
        }
    }
    egui::ScrollArea::vertical()
        .max_height(170.0)
        .show(ui, |ui| {
            for (group, actions) in groups {
                ui.horizontal_wrapped(|ui| {
                    if !group.is_empty() {
                        ui.label(egui::RichText::new(format!("{group}:")).weak());
                    }
                    for a in actions {
                        let ok = legal.contains(&a);
                        let b = ui.add_enabled(ok, egui::Button::new(state.describe_action(&a)));
                        let b = match state.action_hint(&a) {
                            Some(h) => b.on_hover_text(h),
                            None => b,
                        };
                        let b = if ok {
                            b
                        } else {
                            let why = table
                                .refusal(player, &a)
                                .unwrap_or_else(|| "not allowed now".into());
                            b.on_disabled_hover_text(why)
                        };
                        if b.clicked() {
                            orders.write(TableOrder::Play(player, a));
                        }
                    }
                });
            }
        });
}

fn replay_controls<G: TableClient>(
    ui: &mut egui::Ui,
    at: usize,
    len: usize,
    orders: &mut MessageWriter<TableOrder<G>>,
) {
    ui.horizontal(|ui| {
        if ui.button("|◀").on_hover_text("The start").clicked() {
            orders.write(TableOrder::Seek(0));
        }
        if ui.button("◀").on_hover_text("One action back").clicked() {
            orders.write(TableOrder::Seek(at.saturating_sub(1)));
        }
        if ui.button("▶").on_hover_text("One action on").clicked() {
            orders.write(TableOrder::Seek(at + 1));
        }
        if ui.button("▶|").on_hover_text("The end").clicked() {
            orders.write(TableOrder::Seek(len));
        }
        let mut to = at;
        if ui
            .add(egui::Slider::new(&mut to, 0..=len).text(format!("of {len} actions")))
            .changed()
        {
            orders.write(TableOrder::Seek(to));
        }
    });
}

fn privacy_screen<G: TableClient>(
    ctx: &egui::Context,
    name: &str,
    player: PlayerId,
    orders: &mut MessageWriter<TableOrder<G>>,
) {
    let screen = ctx.content_rect();
    egui::Area::new(egui::Id::new("privacy screen"))
        .fixed_pos(screen.min)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            ui.set_min_size(screen.size());
            ui.painter()
                .rect_filled(screen, 0.0, egui::Color32::from_rgb(18, 19, 22));
            ui.vertical_centered(|ui| {
                ui.set_width(screen.width());
                ui.add_space(screen.height() * 0.3);
                ui.label(
                    egui::RichText::new(format!("Pass to {name}"))
                        .size(40.0)
                        .strong()
                        .color(seat_color(player)),
                );
                ui.add_space(8.0);
                ui.label(
                    egui::RichText::new(
                        "The table is hidden so that nobody sees another player's secrets.",
                    )
                    .size(16.0),
                );
                ui.add_space(18.0);
                if ui
                    .button(egui::RichText::new(format!("I am {name}: show my screen")).size(20.0))
                    .clicked()
                {
                    orders.write(TableOrder::Reveal);
                }
            });
        });
}
