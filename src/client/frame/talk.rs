//! The table talk of a game played across machines: where the game is held, the chat of
//! short lines, the host's notices (who joined, who is away, who took a seat), and a
//! request to take back an action, which every other player must allow.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::remote::{Hosting, Link, LobbyOrder};
use crate::client::core::session::{GameClient, Order, Session};
use crate::client::core::{Clean, HudSystems};
use crate::client::frame::input::PanelOrder;
use crate::client::table::theme::{self, WARN};
use crate::framework::PlayerId;
use crate::net::wire::Holder;
use crate::net::wire::MAX_CHAT;

pub(crate) fn plugin<G: GameClient>(app: &mut App) {
    app.init_resource::<Draft>().add_systems(
        EguiPrimaryContextPass,
        talk_window::<G>
            .in_set(HudSystems::Frame)
            .run_if(in_state(G::SCREEN).and_then(resource_exists::<Session<G>>))
            .run_if(not(resource_exists::<Clean>)),
    );
}

/// The line being typed.
#[derive(Resource, Default)]
struct Draft(String);

fn talk_window<G: GameClient>(
    mut contexts: EguiContexts,
    session: Res<Session<G>>,
    mut draft: ResMut<Draft>,
    mut orders: MessageWriter<PanelOrder<G>>,
    hosting: Option<Res<Hosting>>,
    mut host_orders: MessageWriter<LobbyOrder>,
) -> Result {
    let Some(link) = &session.link else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let state = session.state();
    egui::Window::new("Table talk")
        .resizable(false)
        .collapsible(true)
        .anchor(egui::Align2::RIGHT_BOTTOM, [-6.0, -6.0])
        .fixed_size([330.0, 150.0])
        .show(ctx, |ui| {
            let seat = link.seat().map_or_else(
                || "watching".to_string(),
                |p| format!("you play {}", state.player_name(p)),
            );
            ui.label(
                egui::RichText::new(format!("Across machines, at {}: {seat}", link.address))
                    .small()
                    .weak(),
            );
            if let Some(why) = &link.lost {
                ui.colored_label(WARN, format!("Connection lost: {why}"));
            }
            if hosting.is_some() {
                away_seats::<G>(ui, link, &mut host_orders);
            }
            if let Some(by) = &link.undo_asked {
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        egui::RichText::new(format!("{by} asks to take back their last action."))
                            .color(theme::EMPHASIS),
                    );
                    if ui.button("Allow").clicked() {
                        orders.write(PanelOrder(Order::AnswerUndo(true)));
                    }
                    if ui.button("Refuse").clicked() {
                        orders.write(PanelOrder(Order::AnswerUndo(false)));
                    }
                });
            }
            egui::ScrollArea::vertical()
                .max_height(80.0)
                .stick_to_bottom(true)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    for line in &link.talk {
                        match &line.from {
                            Some(from) => ui.label(format!("{from}: {}", line.text)),
                            None => ui.label(egui::RichText::new(&line.text).weak().italics()),
                        };
                    }
                });
            ui.horizontal(|ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut draft.0)
                        .char_limit(MAX_CHAT)
                        .hint_text("Say something…")
                        .desired_width(250.0),
                );
                let sent = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (ui.button("Send").clicked() || sent) && !draft.0.trim().is_empty() {
                    orders.write(PanelOrder(Order::Say(draft.0.trim().to_string())));
                    draft.0.clear();
                }
            });
        });
    Ok(())
}

/// For the window that hosts: each player who is away, with a bot to take their seat
/// meanwhile (they take it back when they rejoin).
fn away_seats<G: GameClient>(
    ui: &mut egui::Ui,
    link: &Link<G>,
    host_orders: &mut MessageWriter<LobbyOrder>,
) {
    for seat in &link.remote.mirror.lobby {
        let Holder::Remote {
            player,
            connected: false,
        } = &seat.holder
        else {
            continue;
        };
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(WARN, format!("{player} is away."));
            let bot = G::bot_names()[0];
            if ui
                .button(format!("Give the seat to the {bot} bot"))
                .on_hover_text(format!(
                    "The {bot} bot plays {} until {player} comes back",
                    seat.name
                ))
                .clicked()
            {
                host_orders.write(LobbyOrder::GiveToBot(PlayerId(seat.seat), bot.to_string()));
            }
        });
    }
}
